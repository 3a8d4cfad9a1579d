"""The view model templates render: a scorecard as plain, documented values (docs/templates.md).

Our terminal and Markdown templates and a host's own `--template` read the same model, so it is
whatever a layout needs and nothing that decides: every field is already decided by the core.
Strings here are raw; each template escapes them for its medium with a filter.
"""

from __future__ import annotations

import attrs

from evalglass.core.numbers import interval_label
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.reasons import Reason
from evalglass.render import _view


@attrs.frozen
class ReasonView:
    code: str
    message: str


@attrs.frozen(kw_only=True)
class EarlierRunView:
    source: str
    started: str | None
    value: float | None
    n: int | None


@attrs.frozen(kw_only=True)
class MetricView:
    """One metric as every format shows it."""

    id: str
    # fail, unsound, blocked, warn, pass or informational
    status: str
    # Whether it affects the verdict (every status but informational).
    decided: bool
    # The authority outcome: informational, blocked or can_gate.
    outcome: str
    # The gate result: pass, warn, fail, unsound or not_enforced.
    result: str
    # Numbers as text, "—" when there is none.
    value: str
    interval: str
    n: str
    threshold: str
    # "95% Wilson", or "" without an interval.
    method: str
    missing: int
    model: str | None
    source: str | None
    # The numbers for a compared gate, else the reasons, in one line.
    why: str
    # `why`, plus what would block a not-yet-gating metric once promoted.
    explanation: str
    # Why it was not compared (the number's reasons when unsound, else authority's).
    reasons: tuple[ReasonView, ...]
    # What stage 2 would raise once an informational metric is promoted.
    notes: tuple[ReasonView, ...]
    earlier_runs: tuple[EarlierRunView, ...]


@attrs.frozen(kw_only=True)
class CountsView:
    passed: int
    warned: int
    failed: int
    blocked: int
    informational: int
    enforced: int


@attrs.frozen(kw_only=True)
class ScorecardView:
    """The whole scorecard: the verdict line first, gates most severe first, the rest by id."""

    verdict: str
    headline: str
    exit_code: int
    model: str | None
    sources: tuple[str, ...]
    counts: CountsView
    # Metrics that affect the verdict: failed, unsound and blocked first.
    gates: tuple[MetricView, ...]
    # Metrics that do not affect the verdict, in id order.
    others: tuple[MetricView, ...]


def _reasons(reasons: tuple[Reason, ...]) -> tuple[ReasonView, ...]:
    return tuple(ReasonView(r.code.value, r.message) for r in reasons)


def metric_view(card: MetricCard) -> MetricView:
    m = card.measurement
    return MetricView(
        id=card.id,
        status=card.status.value,
        decided=card.decided,
        outcome=card.authority.outcome.value,
        result=card.gate.result.value,
        value=_view.value_text(card),
        interval=_view.interval_text(card),
        n=_view.n_text(card),
        threshold=_view.threshold_text(card),
        method="" if m is None or m.interval is None else interval_label(m.interval),
        missing=0 if m is None else m.missing,
        model=None if m is None else m.run.model,
        source=None if m is None else m.run.source,
        why=_view.why(card),
        explanation=_view.explanation(card),
        reasons=_reasons(_view.why_reasons(card)),
        notes=_reasons(card.authority.notes),
        earlier_runs=()
        if m is None
        else tuple(
            EarlierRunView(source=a.source, started=a.started, value=a.value, n=a.n)
            for a in m.earlier
        ),
    )


def scorecard_view(scorecard: Scorecard) -> ScorecardView:
    c = scorecard.counts
    return ScorecardView(
        verdict=scorecard.verdict.value,
        headline=_view.headline(scorecard),
        exit_code=scorecard.exit_code,
        model=scorecard.model,
        sources=scorecard.sources,
        counts=CountsView(
            passed=c.passed, warned=c.warned, failed=c.failed, blocked=c.blocked,
            informational=c.informational, enforced=c.enforced,
        ),
        gates=tuple(metric_view(card) for card in _view.deciding(scorecard)),
        others=tuple(metric_view(card) for card in _view.others(scorecard)),
    )
