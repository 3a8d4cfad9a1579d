"""The one view model of a scorecard (docs/templates.md), built once: what every format, the JSON
contract included, our templates and a host's own `--template` read.

Typed: numbers are numbers and statuses, outcomes, results and the verdict are the core's enums
(each a string enum, so a template compares `m.status == "fail"`); what each number reads as is
beside it in `text`, worded here once. Every field is already decided by the core. Strings are
raw; each format escapes them for its medium.
"""

from __future__ import annotations

import datetime as dt
import functools
import weakref
from typing import TYPE_CHECKING

import attrs

from evalglass.core.authority import Authority, Outcome
from evalglass.core.dataset_check import DatasetCheck
from evalglass.core.decision import GateResult, Result
from evalglass.core.exits import Verdict
from evalglass.core.scorecard import Counts, MetricCard, RecordsAt, Scorecard
from evalglass.core.status import Status
from evalglass.core.validity import Validity
from evalglass.evidence.labels import interval_label
from evalglass.evidence.model import Attempt, Interval, Sample, Skipped
from evalglass.metric_ids import check_name
from evalglass.numbers import fmt
from evalglass.reasons import Reason
from evalglass.records.model import Approval, Op, ThresholdRecord
from evalglass.render import words
from evalglass.render.attempts import attempts_text
from evalglass.render.comparison_words import change_text, comparison_text
from evalglass.render.evidence_line import evidence_line
from evalglass.render.needed_words import needed_text
from evalglass.render.policy_view import PolicyView, policy_view
from evalglass.render.status_look import word
from evalglass.tiers import Tier

if TYPE_CHECKING:
    from evalglass.core.comparison import Comparison
    from evalglass.render.costly_view import CostlyView

_COMPARED = (Result.PASS, Result.WARN, Result.FAIL)


@attrs.frozen
class ReasonView:
    """A reason code and its message, raw: templates escape them for their medium."""

    code: str
    message: str


@attrs.frozen(kw_only=True)
class EarlierRunView:
    """A superseded run of the metric, shown so that a retry cannot hide a failure."""

    source: str
    started: str | None
    value: float | None
    n: int | None


@attrs.frozen(kw_only=True)
class AttemptView:
    """One attempt at a host check."""

    # passed, failed or could_not_run
    outcome: str
    # The command as run, or what a file check looked at.
    command: str
    # What happened, in words: `exit 1 (expected 0), 0.42 s`.
    found: str
    exit_code: int | None
    duration: float | None
    timed_out: bool
    # Read from the cache: the commit and time the pass was recorded at ("" when live).
    cached_commit: str
    cached_on: str
    # The last line it wrote to stderr.
    stderr_line: str
    # The last line it wrote to stdout.
    stdout_line: str = ""
    # The last few lines it wrote to each stream (blank ones left out), shown under a check
    # that did not pass.
    stdout_tail: tuple[str, ...] = ()
    stderr_tail: tuple[str, ...] = ()
    # The last 4 KB it wrote to each stream, as the JSON keeps them.
    stdout: str = ""
    stderr: str = ""


@attrs.frozen(kw_only=True)
class MetricText:
    """A metric's numbers as every format prints them, "—" where there is none."""

    value: str
    interval: str
    n: str
    # The rule, its warn bound, and "(proposed)" until approved.
    threshold: str
    # "95% Wilson", or "" without an interval.
    method: str
    # The end of the interval a bound rule compares (`lower 0.8859`, `upper 0.0453`); "—"
    # without an interval or a threshold.
    bound: str


@attrs.frozen(kw_only=True)
class MetricView:
    """One metric as every format shows it. The words only some formats print (`text`, `why`,
    `explanation`, `needed`, `reasons`, `found`, `unverified`) are made the first time one is
    read, once: the JSON alone never makes them."""

    # The card it shows; a template cannot reach it (names starting `_` are refused).
    _card: MetricCard
    id: str
    status: Status
    # The status as every format prints it: `not run` for not_run, else the status itself.
    word: str
    # Whether it affects the verdict (every status but not_run and informational).
    decided: bool
    outcome: Outcome
    result: Result
    # The numbers, None where there is none; `interval` carries its level and method.
    value: float | None
    n: int | None
    interval: Interval | None
    threshold: ThresholdRecord | None
    # Whether the threshold is only proposed (the HTML chart draws it dashed).
    proposed: bool
    missing: int
    model: str | None
    source: str | None
    validity: Validity
    authority: Authority
    gate: GateResult
    dataset: DatasetCheck | None
    # The per-sample scores the reader kept (the JSON writes them with --keep-samples).
    samples: tuple[Sample, ...]
    # What the gate rests on, in one line, whatever its result (the JSON's `gate.evidence`).
    rests_on: str
    # The comparison that decided a compared gate (pass, warn or fail), in one line; "" for a
    # metric not compared.
    evidence: str
    # What stage 2 would raise once an informational metric is promoted.
    notes: tuple[ReasonView, ...]
    earlier_runs: tuple[EarlierRunView, ...]
    # Whether it is a host check's metric (`check/NAME`).
    check: bool = False
    # A check's attempts, a retry second; empty when it was not run (and for other metrics).
    attempts: tuple[AttemptView, ...] = ()
    # Against the earlier scorecard `--compare` named: "earlier 0.9, change +0.03 [...] (...)";
    # "" when nothing was compared.
    change: str = ""
    # For a gate that failed, is unsound or blocked: the samples that cost it most, worst first
    # (at most ten; none when the reader kept no per-sample scores).
    costly: tuple[CostlyView, ...] = ()
    # The command that opens them in the framework's own viewer (`inspect view --log-dir logs`,
    # `promptfoo view`); "" when there is none to name.
    open_with: str = ""

    @functools.cached_property
    def text(self) -> MetricText:
        """The numbers as text."""
        return _text(self._card)

    @functools.cached_property
    def why(self) -> str:
        """The numbers for a compared gate, else the reasons, in one line."""
        return words.why(self._card, self.rests_on)

    @functools.cached_property
    def explanation(self) -> str:
        """`why`, plus what would block a not-yet-gating metric once promoted."""
        return words.explanation(self._card, self.why)

    @functools.cached_property
    def needed(self) -> str:
        """What value or n would pass a gate its bound decided, in one line ("" for any
        other)."""
        return needed_text(self._card)

    @functools.cached_property
    def reasons(self) -> tuple[ReasonView, ...]:
        """Why it was not compared (the number's reasons when unsound, else authority's)."""
        return _reasons(words.why_reasons(self._card))

    @functools.cached_property
    def found(self) -> str:
        """A check's attempts in one line ("not run" when it was not), "" for other metrics."""
        if not self.check:
            return ""
        m = self._card.measurement
        attempts = () if m is None else m.attempts
        return attempts_text(attempts) if attempts else "not run"

    @functools.cached_property
    def unverified(self) -> str:
        """What of its recorded dataset the output did not show ("" when it showed the record's
        dataset at its version): `dataset 'qa-gold' not verified: the output names no
        version`."""
        return words.dataset_unverified(self._card)


@attrs.frozen(kw_only=True)
class ScorecardView:
    """The whole scorecard: the verdict line first, gates most severe first, the rest by id."""

    verdict: Verdict
    headline: str
    exit_code: int
    evaluated_at: dt.datetime
    model: str | None
    sources: tuple[str, ...]
    # Files passed over, each with why.
    skipped: tuple[Skipped, ...]
    # The tier of host checks `evalglass run` ran; None for `evalglass score`.
    tier: Tier | None
    # The records folder read (None for records built in memory), and the git ref it was read
    # at and the commit that ref named; both None for the working tree's records.
    records_folder: str | None
    records_ref: str | None
    records_commit: str | None
    # Counted once, in the core, from the cards' statuses.
    counts: Counts
    policy: PolicyView
    # Metrics that affect the verdict: failed, unsound and blocked first.
    gates: tuple[MetricView, ...]
    # Metrics that do not affect the verdict, in id order.
    others: tuple[MetricView, ...]
    # Which earlier scorecard `--compare` named, and whether it is stale; "" without one.
    comparison: str = ""
    # That earlier scorecard's numbers beside this one's; None without --compare.
    compared: Comparison | None = None

    @property
    def metrics(self) -> tuple[MetricView, ...]:
        """Every metric in id order, as the scorecard holds them."""
        return tuple(sorted((*self.gates, *self.others), key=lambda m: m.id))


def printed(metric: MetricView) -> list[tuple[int, str, tuple[str, ...]]]:
    """What a check's attempts that did not pass printed: (attempt number, `stdout` or
    `stderr`, its last lines) for each stream that printed anything."""
    return [
        (number, stream, lines)
        for number, a in enumerate(metric.attempts, start=1)
        if a.outcome != "passed"
        for stream, lines in (("stdout", a.stdout_tail), ("stderr", a.stderr_tail))
        if lines
    ]


def _reasons(reasons: tuple[Reason, ...]) -> tuple[ReasonView, ...]:
    return tuple(ReasonView(r.code.value, r.message) for r in reasons)


def _attempt(a: Attempt) -> AttemptView:
    cached = a.cached
    return AttemptView(
        outcome=a.outcome.value, command=a.command, found=a.found, exit_code=a.exit_code,
        duration=a.duration, timed_out=a.timed_out,
        cached_commit="" if cached is None else cached.commit,
        cached_on="" if cached is None else cached.recorded, stderr_line=a.last_stderr_line,
        stdout_line=a.last_stdout_line, stdout_tail=a.stdout_tail, stderr_tail=a.stderr_tail,
        stdout=a.stdout, stderr=a.stderr,
    )  # fmt: skip


def _bound(card: MetricCard) -> str:
    m, t = card.measurement, card.threshold
    if m is None or m.interval is None or t is None:
        return "—"
    if t.op in (Op.GE, Op.GT):
        return f"lower {fmt(m.interval.low)}"
    return f"upper {fmt(m.interval.high)}"


def _text(card: MetricCard) -> MetricText:
    m = card.measurement
    return MetricText(
        value=words.value_text(card),
        interval=words.interval_text(card),
        n=words.n_text(card),
        threshold=words.threshold_text(card),
        method="" if m is None or m.interval is None else interval_label(m.interval),
        bound=_bound(card),
    )


def metric_view(card: MetricCard, change: str = "") -> MetricView:
    """One metric card as templates read it, every field already decided and formatted; `change`
    is its line against an earlier scorecard, when one was compared."""
    m = card.measurement
    attempts = () if m is None else m.attempts
    check = check_name(card.id) is not None
    line = evidence_line(card)
    t = card.threshold
    costly, opened = _costly(card)
    return MetricView(
        card=card,
        id=card.id,
        status=card.status,
        word=word(card.status),
        decided=card.decided,
        outcome=card.authority.outcome,
        result=card.gate.result,
        value=None if m is None else m.value,
        n=None if m is None else m.n,
        interval=None if m is None else m.interval,
        threshold=t,
        proposed=t is not None and t.approval is not Approval.APPROVED,
        missing=0 if m is None else m.missing,
        model=None if m is None else m.run.model,
        source=None if m is None else m.run.source,
        validity=card.validity,
        authority=card.authority,
        gate=card.gate,
        dataset=card.dataset,
        samples=() if m is None or m.samples is None else m.samples,
        rests_on=line,
        evidence=line if card.gate.result in _COMPARED else "",
        notes=_reasons(card.authority.notes),
        earlier_runs=()
        if m is None
        else tuple(
            EarlierRunView(source=a.source, started=a.started, value=a.value, n=a.n)
            for a in m.earlier
        ),
        check=check,
        attempts=tuple(_attempt(a) for a in attempts),
        change=change,
        costly=costly,
        open_with=opened,
    )


def _costly(card: MetricCard) -> tuple[tuple[CostlyView, ...], str]:
    """The costly samples of a metric's view and the command that opens them; their module
    loads only for a gate that stopped with samples to show."""
    if not card.costly:
        return (), ""
    from evalglass.render.costly_view import costly_view, open_with

    return tuple(costly_view(s) for s in card.costly), open_with(card)


def scorecard_view(scorecard: Scorecard) -> ScorecardView:
    """The whole scorecard as the view model (docs/templates.md): what every format, our
    templates and a host's own `--template` render. Built once per scorecard: a run writing
    several formats of one scorecard builds it for the first and reuses it after."""
    held = _LAST.get("view")
    if held is not None and held[0]() is scorecard:
        return held[1]
    view = _build(scorecard)
    _LAST["view"] = (weakref.ref(scorecard), view)
    return view


# The last scorecard viewed, and its view. The scorecard is frozen, so the view is a function of
# it alone; held by a weak reference, so it is never kept alive (nor its id reused) for this.
_LAST: dict[str, tuple[weakref.ref[Scorecard], ScorecardView]] = {}


def _build(scorecard: Scorecard) -> ScorecardView:
    at: RecordsAt | None = scorecard.records_at
    return ScorecardView(
        verdict=scorecard.verdict,
        headline=words.headline(scorecard),
        exit_code=scorecard.exit_code,
        evaluated_at=scorecard.evaluated_at,
        model=scorecard.model,
        sources=scorecard.sources,
        skipped=scorecard.skipped,
        tier=scorecard.scope.tier,
        records_folder=scorecard.records_folder,
        records_ref=None if at is None else at.ref,
        records_commit=None if at is None else at.commit,
        counts=scorecard.counts,
        policy=policy_view(scorecard),
        gates=tuple(
            metric_view(card, change_text(scorecard, card)) for card in words.deciding(scorecard)
        ),
        others=tuple(
            metric_view(card, change_text(scorecard, card)) for card in words.others(scorecard)
        ),
        comparison=comparison_text(scorecard),
        compared=scorecard.comparison,
    )
