"""Calibration evidence (and a drift comparison) as a terminal summary or Markdown for a pull
request. Reads the evidence; computes and decides nothing."""

from __future__ import annotations

from collections.abc import Iterator

from evalglass.calibration_evidence import CalibrationEvidence, Estimate, to_json
from evalglass.numbers import fmt, plural
from evalglass.render import Format
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.safe_text import escape
from evalglass.tools.calibration import drift as drift_report
from evalglass.tools.calibration.drift import Drift
from evalglass.tools.calibration.names import Statistic

# What each number compares, in a few words.
MEANING = {
    Statistic.KAPPA: "Cohen's kappa, judge vs human consensus",
    Statistic.WEIGHTED_KAPPA: "quadratic-weighted kappa, judge vs human consensus",
    Statistic.AC1: "Gwet's AC1, judge vs human consensus",
    Statistic.PERCENT_AGREEMENT: "share of items where judge and consensus agree",
    Statistic.ALPHA: "Krippendorff's alpha, every rater including the judge",
    Statistic.SPEARMAN: "Spearman's rho, judge vs mean human label",
    Statistic.ICC: "ICC(2,1), judge vs mean human label",
    Statistic.ALPHA_HUMANS: "Krippendorff's alpha among the humans",
    Statistic.KAPPA_HUMANS: "mean pairwise Cohen's kappa among the humans",
    Statistic.WEIGHTED_KAPPA_HUMANS: "mean pairwise weighted kappa among the humans",
    Statistic.ICC_HUMANS: "mean pairwise ICC(2,1) among the humans",
}


def render(evidence: CalibrationEvidence, fmt: Format, drift: Drift | None = None) -> str:
    """Terminal, Markdown, or JSON: the evidence document, with a `drift` key when compared."""
    if fmt is Format.TERMINAL:
        return terminal(evidence, drift)
    if fmt is Format.MARKDOWN:
        return markdown(evidence, drift)
    if fmt is Format.JSON:
        return to_json(
            evidence, None if drift is None else {"drift": drift_report.to_document(drift)}
        )
    raise ValueError(f"calibration has no {fmt.value} format")


def _meaning(name: str) -> str:
    try:
        return MEANING[Statistic(name)]
    except ValueError:
        return ""


def _ceiling(name: str) -> bool:
    return name.endswith("_humans")


def _value(e: Estimate) -> str:
    return "undefined" if e.value is None else fmt(e.value)


def _interval(e: Estimate) -> str:
    if e.low is None or e.high is None:
        return "none" if not e.undefined_resamples else f"none ({e.undefined_resamples} undefined)"
    return f"[{fmt(e.low)}, {fmt(e.high)}]"


def _heading(ev: CalibrationEvidence) -> str:
    model = f" ({ev.judge_model})" if ev.judge_model else " (model unknown)"
    humans = plural(len(ev.raters), "human rater") if len(ev.raters) > 1 else "one human rater"
    return f"judge {ev.judge}{model} against {humans}, {ev.scale.value} scale"


def _items(ev: CalibrationEvidence) -> str:
    i = ev.items
    parts = [
        f"{i.matched} matched",
        f"{i.judged_only} judged only",
        f"{i.labelled_only} labelled only",
    ]
    if i.judge_blank or i.human_blank:
        parts.append(f"{i.judge_blank} blank judge labels, {i.human_blank} blank human labels")
    if ev.scale.categorical and len(ev.raters) > 1:
        parts.append(f"{i.no_consensus} without a human consensus")
    return "items: " + "; ".join(parts)


def _method(ev: CalibrationEvidence) -> str:
    return (
        f"{ev.level * 100:g}% percentile bootstrap intervals, {ev.resamples} resamples of "
        f"items, seed {ev.seed}"
    )


def terminal(ev: CalibrationEvidence, drift: Drift | None = None) -> str:
    """The evidence, and the drift when compared, as a plain-text summary for a terminal."""
    # Labels, ids, model names and notes come from the files: shown escaped, as everywhere.
    return "".join(escape(line) + "\n" for line in _terminal_lines(ev, drift))


def _terminal_lines(ev: CalibrationEvidence, drift: Drift | None) -> Iterator[str]:
    yield _heading(ev)
    yield _items(ev)
    width = max([len(name) for name in ev.statistics] + [len("statistic")])
    yield ""
    yield f"  {'statistic':<{width}}  {'value':>9}  {'95% interval':<20}  {'n':>6}  compares"
    for title, ceiling in (
        ("judge vs humans", False),
        ("humans among themselves (the ceiling)", True),
    ):
        names = [name for name in ev.statistics if _ceiling(name) is ceiling]
        if names:
            yield title
        for name in names:
            e = ev.statistics[name]
            yield (
                f"  {name:<{width}}  {_value(e):>9}  {_interval(e):<20}  {e.n:>6}  {_meaning(name)}"
            )
    if ev.confusion is not None:
        yield ""
        yield "confusion: rows the judge, columns the human consensus"
        shown = [escape(c) for c in ev.categories]
        cell = max([len(c) for c in shown] + [len(str(v)) for r in ev.confusion for v in r])
        yield " " * (cell + 2) + "  ".join(f"{c:>{cell}}" for c in shown)
        for label, row in zip(shown, ev.confusion, strict=True):
            yield f"  {label:>{cell}}" + "".join(f"  {v:>{cell}}" for v in row)
    yield ""
    yield _method(ev)
    if drift is not None:
        yield from _drift_lines(drift)


def _drift_lines(drift: Drift) -> Iterator[str]:
    yield ""
    model = drift.recorded_model or "model unknown"
    yield f"drift against {drift.against} (recorded {drift.recorded_date}, {model})"
    for note in drift.notes:
        yield f"  note: {note}"
    width = max((len(c.statistic) for c in drift.changes), default=10)
    for c in drift.changes:
        difference = "undefined" if c.difference is None else f"{c.difference:+.4g}"
        span = "" if c.low is None or c.high is None else f" [{c.low:+.4g}, {c.high:+.4g}]"
        yield (
            f"  {c.statistic:<{width}}  recorded {_value(c.recorded)} {_interval(c.recorded)}"
            f", now {_value(c.current)} {_interval(c.current)}, "
            f"difference {difference}{span}: {c.finding.value}"
        )
    yield _drift_verdict(drift)


def _drift_verdict(drift: Drift) -> str:
    if drift.suspected:
        return (
            f"suspected drift in {', '.join(drift.suspected)}: if you agree, set "
            f"`calibration: drifted` for this judge in judges.yaml (evalglass never does)"
        )
    return "no suspected drift"


def markdown(ev: CalibrationEvidence, drift: Drift | None = None) -> str:
    """The evidence, and the drift when compared, as Markdown for a pull request; text from the
    input files is escaped."""
    return "".join(line + "\n" for line in _markdown_lines(ev, drift))


def _markdown_lines(ev: CalibrationEvidence, drift: Drift | None) -> Iterator[str]:
    yield f"### Calibration: {markdown_escape(_heading(ev))}"
    yield ""
    yield markdown_escape(_items(ev))
    yield ""
    yield "| statistic | value | 95% interval | n | compares |"
    yield "|---|---:|---|---:|---|"
    for name, e in ev.statistics.items():
        yield (
            f"| {markdown_code(name)} | {_value(e)} | {_interval(e)} | {e.n} | "
            f"{markdown_escape(_meaning(name))} |"
        )
    if ev.confusion is not None:
        yield ""
        yield "Confusion: rows the judge, columns the human consensus."
        yield ""
        yield "| judge \\ humans | " + " | ".join(markdown_code(c) for c in ev.categories) + " |"
        yield "|---|" + "---:|" * len(ev.categories)
        for label, row in zip(ev.categories, ev.confusion, strict=True):
            yield f"| {markdown_code(label)} | " + " | ".join(str(v) for v in row) + " |"
    yield ""
    yield markdown_escape(_method(ev)) + "."
    if drift is not None:
        yield ""
        model = drift.recorded_model or "model unknown"
        yield (
            f"#### Drift against {markdown_code(drift.against)} "
            f"(recorded {markdown_escape(drift.recorded_date)}, {markdown_escape(model)})"
        )
        yield ""
        for note in drift.notes:
            yield f"- note: {markdown_escape(note)}"
        if drift.notes:
            yield ""
        yield "| statistic | recorded | now | difference | finding |"
        yield "|---|---|---|---|---|"
        for c in drift.changes:
            difference = "undefined" if c.difference is None else f"{c.difference:+.4g}"
            if c.low is not None and c.high is not None:
                difference += f" [{c.low:+.4g}, {c.high:+.4g}]"
            yield (
                f"| {markdown_code(c.statistic)} | {_value(c.recorded)} "
                f"{_interval(c.recorded)} | {_value(c.current)} {_interval(c.current)} | "
                f"{difference} | {c.finding.value} |"
            )
        yield ""
        yield _drift_verdict(drift)
