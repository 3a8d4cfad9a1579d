"""What every renderer shows the same way: the headline, the order of gates, the grouping.

Presentation only: it reads results already decided and never computes authority or a gate.
"""

from __future__ import annotations

from collections.abc import Iterable

from evalglass.core import numbers
from evalglass.core.decision import Result, rule_text
from evalglass.core.exits import Verdict
from evalglass.core.numbers import fmt, plural
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.reasons import Reason
from evalglass.records.model import Approval

_WORDS = {
    Verdict.PASS: "PASS",
    Verdict.FAIL: "FAIL",
    Verdict.BLOCKED: "BLOCKED",
    Verdict.INFORMATIONAL: "NO ACTIVE GATE",
}


def headline(scorecard: Scorecard) -> str:
    """The first line of every scorecard; informational never reads as a pass."""
    c = scorecard.counts
    word = _WORDS[scorecard.verdict]
    rest = f"{c.informational} informational"
    if scorecard.verdict is Verdict.INFORMATIONAL:
        return f"{word} — nothing was enforced ({plural(c.informational, 'metric')} informational)"
    warned = f" ({c.warned} with a warning)" if c.warned else ""
    if scorecard.verdict is Verdict.PASS:
        return f"{word} — {plural(c.enforced, 'gate')} enforced, all passed{warned}; {rest}"
    if scorecard.verdict is Verdict.FAIL:
        return (
            f"{word} — {c.failed} of {plural(c.enforced, 'enforced gate')} failed; "
            f"{c.blocked} blocked; {rest}{warned}"
        )
    return (
        f"{word} — we cannot say: {plural(c.blocked, 'gate')} blocked or unsound; "
        f"{c.passed + c.warned} passed{warned}; {rest}"
    )


def deciding(scorecard: Scorecard) -> list[MetricCard]:
    """Metrics that affect the verdict, failed and blocked first."""
    cards = [c for c in scorecard.metrics if c.decided]
    return sorted(cards, key=lambda c: (c.status.severity, c.id))


def others(scorecard: Scorecard) -> list[MetricCard]:
    """Metrics that do not affect the verdict, in id order."""
    return [c for c in scorecard.metrics if not c.decided]


def reasons_text(reasons: Iterable[object]) -> str:
    return "; ".join(f"{r.code.value}: {r.message}" for r in reasons)  # type: ignore[attr-defined]


def why(card: MetricCard) -> str:
    """The numbers for a compared gate, the reasons for anything else."""
    if card.gate.result in (Result.PASS, Result.WARN, Result.FAIL):
        return card.gate.evidence
    return reasons_text(why_reasons(card))


def why_reasons(card: MetricCard) -> tuple[Reason, ...]:
    """Why a metric was not compared: the number's reasons when unsound, else authority's
    (empty for a compared gate, whose evidence says why)."""
    if card.gate.result is Result.UNSOUND:
        return card.gate.reasons
    return card.authority.reasons


def explanation(card: MetricCard) -> str:
    """`why` in one line, with what would block a not-yet-gating metric once promoted."""
    text = why(card)
    if not card.decided and card.authority.notes:
        text += f"; would block once promoted: {reasons_text(card.authority.notes)}"
    return text


# How a metric's numbers read, the same in every format.


def value_text(card: MetricCard) -> str:
    m = card.measurement
    return "—" if m is None or m.value is None else fmt(m.value)


def interval_text(card: MetricCard) -> str:
    m = card.measurement
    return "—" if m is None or m.interval is None else numbers.interval_text(m.interval)


def n_text(card: MetricCard) -> str:
    m = card.measurement
    return "—" if m is None or m.n is None else str(m.n)


def threshold_text(card: MetricCard) -> str:
    """The rule, its warn bound, and "(proposed)" until it is approved."""
    t = card.threshold
    if t is None:
        return "—"
    text = rule_text(t)
    if t.warn_value is not None:
        text += f", warn {t.op.value} {fmt(t.warn_value)}"
    return text if t.approval is Approval.APPROVED else f"{text} (proposed)"
