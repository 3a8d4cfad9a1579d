"""A gate's evidence line: the numbers it compared, or what it rests on when nothing was, in one
line. The core decides and carries numbers (`GateResult.ground`, `compared`); every format, the
JSON's `evidence` field among them, reads the line from here, so it is worded in one place.
"""

from __future__ import annotations

from evalglass.core.decision import Compared, Ground, Result, Side
from evalglass.core.scorecard import MetricCard
from evalglass.evidence.labels import interval_label, interval_text
from evalglass.evidence.model import Measurement
from evalglass.numbers import bar_text, fmt
from evalglass.reasons import GateCode
from evalglass.render.attempts import attempts_text

_SIDES = {Side.POINT: "", Side.LOWER: "lower bound", Side.UPPER: "upper bound"}


def evidence_line(card: MetricCard) -> str:
    """`lower bound 0.8859 >= 0.85 (value 0.92, n 200, 95% Wilson)`: each bar compared, with the
    warning; for a gate not compared, what was measured and why not; for a host check, its
    attempts. Ends `; not enforced` for a metric that does not gate."""
    gate, m = card.gate, card.measurement
    ground = gate.ground
    if ground is Ground.COMPARED:
        lines = [_compared(c, card) for c in gate.compared]
        if gate.warning is not None:
            lines.append(f"warning: {_compared(gate.warning, card)}")
        return "; ".join(lines)
    if ground is Ground.NOT_RUN:
        why = [r.message for r in gate.reasons if r.code is GateCode.NOT_RUN]
        text = f"not run: {why[0]}" if why else "not run"
    elif ground is Ground.ATTEMPTS:
        text = attempts_text(() if m is None else m.attempts)
    elif ground is Ground.MEASURED:
        text = _measured(m)
    else:
        assert card.threshold is not None  # only a threshold's rule is ever compared
        t = card.threshold
        bars = bar_text(t.op.value, t.value, t.max_drop, t.max_relative_drop)
        rule = f"cannot compare with {bars}"
        text = rule if ground is Ground.NO_CHANGE_INTERVAL else f"{rule}: {_measured(m)}"
    return f"{text}; not enforced" if gate.result is Result.NOT_ENFORCED else text


def _compared(c: Compared, card: MetricCard) -> str:
    """One bar: what was compared, the verb, the limit, and the numbers behind it."""
    verb = c.op.value if c.holds else f"is not {c.op.value}"
    side = _SIDES[c.side]
    label = ("change " + side if side else "change") if c.drop else (side or "value")
    head = f"{label} {fmt(c.compared, c.limit)} {verb} {fmt(c.limit, c.compared)}"
    return f"{head} ({_drop_context(c, card) if c.drop else _value_context(c, card)})"


def _value_context(c: Compared, card: MetricCard) -> str:
    m = card.measurement
    assert m is not None and m.value is not None
    if c.side is Side.POINT:
        return f"{n_text(m)}, point rule"
    assert m.interval is not None
    return f"value {fmt(m.value)}, {n_text(m)}, {interval_label(m.interval)}"


def _drop_context(c: Compared, card: MetricCard) -> str:
    # A drop was compared, so the baseline's comparison is loaded already.
    from evalglass.core.regression import Difference

    change, threshold = card.gate.change, card.threshold
    assert isinstance(change, Difference) and threshold is not None
    assert c.allowed is not None and c.baseline is not None
    if c.side is Side.POINT:
        how = "point rule"
    else:
        assert change.interval is not None
        how = interval_label(change.interval)
    pairing = f"paired over {change.paired} samples" if change.paired else "unpaired"
    moved = "drop" if threshold.op.higher_is_better else "rise"
    return (
        f"allowed {moved} {fmt(c.allowed)}; current − baseline {fmt(change.value)} from baseline "
        f"{fmt(c.baseline)}, {pairing}, {how}"
    )


def _measured(measurement: Measurement | None) -> str:
    """What was measured, for a gate not compared: value, n, interval, missing samples."""
    if measurement is None or measurement.value is None:
        return "no value measured"
    parts = [f"value {fmt(measurement.value)}", n_text(measurement)]
    interval = measurement.interval
    if interval is None:
        parts.append("no interval")
    else:
        parts.append(f"{interval_label(interval)} {interval_text(interval)}")
    if measurement.missing:
        parts.append(f"{measurement.missing} missing")
    return ", ".join(parts)


def n_text(m: Measurement) -> str:
    """`n 11`, or `n 11 with 3 scores each reduced by mean` when cases were scored repeatedly:
    n counts cases, and the evidence says how their repeats became one score."""
    if m.n is None:
        return "n unknown"
    r = m.reduction
    if r is None:
        return f"n {m.n}"
    each = str(r.most) if r.least == r.most else f"{r.least}–{r.most}"
    return f"n {m.n} with {each} scores each reduced by {r.reducer}"
