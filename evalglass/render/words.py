"""The words of a scorecard every format shows the same way: the headline, the policy's lines, why
a metric was or was not compared, its numbers as text, the order of gates. The view model
(view.py) carries them; nothing else words a scorecard.

Presentation only: it reads results already decided and never computes authority or a gate.
"""

from __future__ import annotations

from collections.abc import Iterable

from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.core.scorecard import MetricCard, Scorecard, not_started
from evalglass.core.status import Status
from evalglass.core.success import PolicyOutcome, Rule, Source, Unmet
from evalglass.evidence.labels import ends_text
from evalglass.metric_ids import CHECK_PREFIX
from evalglass.numbers import bar_text, fmt, plural
from evalglass.reasons import GateCode, Reason
from evalglass.records.model import DEFAULT_MAX_ATTEMPTS, Approval, SuccessMode
from evalglass.render.evidence_line import evidence_line
from evalglass.render.status_look import word as status_word

_WORDS = {
    Verdict.PASS: "PASS",
    Verdict.FAIL: "FAIL",
    Verdict.BLOCKED: "BLOCKED",
    Verdict.INFORMATIONAL: "NO ACTIVE GATE",
}


def headline(scorecard: Scorecard) -> str:
    """The first line of every scorecard; informational never reads as a pass. It names the
    scope of a run that ran checks (`fast tier: ...`) and the gating checks not run, and a
    policy from success.yaml, with what it asked for and what it tolerated."""
    word, said = _verdict_line(scorecard)
    tier = scorecard.scope.tier
    scope = "" if tier is None else f"{tier} tier"
    return f"{word} — {f'{scope}: ' if scope else ''}{said}{_retried(scorecard)}"


_RETRY_CODES = (GateCode.TOO_MANY_ATTEMPTS, GateCode.PASSED_ON_RETRY)


def _retried(scorecard: Scorecard) -> str:
    """Each gate that passed only after failed attempts, in the words of its gate reason (one
    wording, made where the gate is decided): `; qa/x passed on attempt 3; 2 earlier attempts
    failed`. A retry is never left for the reader to find below the verdict."""
    said = [
        f"{card.id} {reason.message}"
        for card in deciding(scorecard)
        for reason in card.gate.reasons
        if reason.code in _RETRY_CODES
    ]
    if len(said) > _LISTED:
        more = plural(len(said) - _LISTED, "more gate")
        said[_LISTED:] = [f"{more} passed only after failed attempts"]
    return "".join(f"; {text}" for text in said)


def _verdict_line(scorecard: Scorecard) -> tuple[str, str]:
    """The verdict's word and what follows the dash (without the scope)."""
    word = _WORDS[scorecard.verdict]
    policy = scorecard.policy
    if policy.source is Source.DEFAULT:
        return word, _gates_line(scorecard)
    rest = _rest(scorecard)
    asked = f"{policy.source.value} asks for at least {plural(policy.required, 'gate')}"
    if policy.rule is Rule.MIN_GATES:
        if policy.enforced == 0:
            return word, f"{_gates_line(scorecard)}; {asked}"
        return "TOO FEW GATES", (
            f"{plural(policy.enforced, 'gate')} enforced, {policy.passed} passed; {asked}; {rest}"
        )
    if policy.rule is Rule.MUST_PASS:
        lead = "" if scorecard.verdict is Verdict.FAIL else "we cannot say: "
        unmet = ", ".join(_unmet_text(scorecard))
        return word, f"{lead}{unmet} ({policy.source.value}); {_share(policy)}; {rest}"
    if policy.rule is Rule.PASS_RATE:
        bar = f"{_percent(_min_rate(policy))} {policy.source.value} asks for"
        if scorecard.verdict is Verdict.FAIL:
            return word, (f"{_share(policy)} ({_percent(_rate(policy))}), below the {bar}; {rest}")
        tolerated = ""
        if policy.tolerated:
            tolerated = f"; tolerated: {', '.join(_listed(policy.tolerated))}"
        return word, (
            f"{_share(policy)} ({_percent(_rate(policy))}, at least the {bar}){tolerated}; {rest}"
        )
    return word, f"{_gates_line(scorecard)}; success policy: {policy.source.value}"


def _rest(scorecard: Scorecard) -> str:
    """The metrics that did not gate: informational ones, and gating checks the run left out."""
    c = scorecard.counts
    return f"{c.informational} informational{_not_run(scorecard)}"


def _not_run(scorecard: Scorecard) -> str:
    c = scorecard.counts
    if not c.not_run:
        return ""
    # A fast-tier run also leaves out the eval metrics no output given measures.
    checks = all(m.id.startswith(CHECK_PREFIX) for m in scorecard.metrics if not_started(m))
    return f"; {plural(c.not_run, 'gating check' if checks else 'gate')} not run"


def _gates_line(scorecard: Scorecard) -> str:
    """The verdict line when every gate must pass: the counts behind the precedence, then the
    gating checks the run left out."""
    return _counts_line(scorecard) + _not_run(scorecard)


def _counts_line(scorecard: Scorecard) -> str:
    c = scorecard.counts
    rest = f"{c.informational} informational"
    if scorecard.verdict is Verdict.INFORMATIONAL:
        return f"nothing was enforced ({plural(c.informational, 'metric')} informational)"
    warned = f" ({c.warned} with a warning)" if c.warned else ""
    if scorecard.verdict is Verdict.PASS:
        return f"{plural(c.enforced, 'gate')} enforced, all passed{warned}; {rest}"
    if scorecard.verdict is Verdict.FAIL:
        # The warning belongs to the gates that passed, not to the informational count.
        passed_warned = f", {c.warned} passed with a warning" if c.warned else ""
        return (
            f"{c.failed} of {plural(c.enforced, 'enforced gate')} failed{passed_warned}; "
            f"{c.blocked} blocked; {rest}"
        )
    return (
        f"we cannot say: {plural(c.blocked, 'gate')} blocked or unsound; "
        f"{c.passed + c.warned} passed{warned}; {rest}"
    )


_LISTED = 5  # tolerated gates named in the verdict line; the rest are counted (all are below it)


def _listed(tolerated: tuple[tuple[str, Status], ...]) -> list[str]:
    named = [f"{metric_id} ({status_word(status)})" for metric_id, status in tolerated[:_LISTED]]
    if len(tolerated) > _LISTED:
        named.append(f"{len(tolerated) - _LISTED} more")
    return named


def _unmet_text(scorecard: Scorecard) -> list[str]:
    return [
        f"must-pass {u.id} {'not in this run' if u.status is None else status_word(u.status)}"
        for u in scorecard.policy.unmet
    ]


def _share(policy: PolicyOutcome) -> str:
    if not policy.enforced:
        return "no gate enforced"
    return f"{policy.passed} of {plural(policy.enforced, 'gate')} passed"


def _rate(policy: PolicyOutcome) -> float:
    return policy.pass_rate or 0.0


def _min_rate(policy: PolicyOutcome) -> float:
    return 1.0 if policy.policy.min_pass_rate is None else policy.policy.min_pass_rate


def _percent(rate: float) -> str:
    return f"{fmt(rate * 100)}%"


def policy_text(policy: PolicyOutcome) -> str:
    """The policy in a few words: `every gate must pass, at least 1 gate, must pass:
    qa/exact_match`."""
    p = policy.policy
    if p.mode is SuccessMode.PERCENTAGE:
        parts = [f"at least {_percent(_min_rate(policy))} of gates must pass"]
    else:
        parts = ["every gate must pass"]
    if policy.required:
        parts.append(f"at least {plural(policy.required, 'gate')}")
    if p.must_pass:
        parts.append(f"must pass: {', '.join(p.must_pass)}")
    if p.max_attempts == 1:
        parts.append("every attempt must pass")
    elif p.max_attempts != DEFAULT_MAX_ATTEMPTS:
        parts.append(f"a pass by attempt {p.max_attempts} at the latest")
    return ", ".join(parts)


def policy_details(scorecard: Scorecard) -> list[str]:
    """What the policy found, one line each: every must_pass id not met and why, every gate a
    percentage pass tolerated. Empty when there is nothing to say."""
    return unmet_messages(scorecard) + policy_notes(scorecard.policy)


def policy_notes(policy: PolicyOutcome) -> list[str]:
    """The policy's lines beside the must_pass ids not met: gates a percentage pass tolerated,
    must-pass gates left to the full run."""
    lines = [
        f"tolerated: '{metric_id}' ({status_word(status)})"
        for metric_id, status in policy.tolerated
    ]
    lines += [
        f"must-pass gate '{metric_id}' is left to the full run: this fast-tier run does not "
        "measure it"
        for metric_id in policy.deferred
    ]
    return lines


_UNMET = {
    Status.FAIL: "failed its gate",
    Status.UNSOUND: "is unsound: its number could not be compared",
    Status.BLOCKED: "is blocked: its evidence is not sound",
    Status.NOT_RUN: "was not run",
    Status.INFORMATIONAL: "is informational: the records do not let it gate",
}


def unmet_messages(scorecard: Scorecard) -> list[str]:
    """Each must_pass id the run did not satisfy, in one line: its status and why."""
    unmet = scorecard.policy.unmet
    named = {u.id for u in unmet}
    cards = {card.id: card for card in scorecard.metrics if card.id in named}
    return [_unmet_message(u, cards.get(u.id)) for u in unmet]


def _unmet_message(u: Unmet, card: MetricCard | None) -> str:
    why = "" if card is None else _why_not(card)
    if u.status is None:
        said = "is not in this run: no record and no output names it"
    elif u.not_run:
        said = "was not run, so it cannot show that it passed" + (f": {why}" if why else "")
    else:
        said = _UNMET[u.status] + (f" ({why})" if why else "")
    return f"must-pass gate '{u.id}' {said}"


def _why_not(card: MetricCard) -> str:
    """Why a metric did not pass, in a few words: the gate's numbers, or the reason codes."""
    if card.gate.result is Result.FAIL:
        # A fail past max_attempts held the bar: its reason says why it failed.
        return "; ".join([evidence_line(card), *(r.message for r in card.gate.reasons)])
    if not_started(card):
        return "; ".join(r.message for r in card.gate.reasons)
    reasons = card.gate.reasons if card.gate.result is Result.UNSOUND else card.authority.reasons
    return ", ".join(r.code.value for r in reasons)


def deciding(scorecard: Scorecard) -> list[MetricCard]:
    """Metrics that affect the verdict, failed and blocked first."""
    cards = [c for c in scorecard.metrics if c.decided]
    return sorted(cards, key=lambda c: (c.status.severity, c.id))


def others(scorecard: Scorecard) -> list[MetricCard]:
    """Metrics that do not affect the verdict, in id order."""
    return [c for c in scorecard.metrics if not c.decided]


def reasons_text(reasons: Iterable[object]) -> str:
    """Reasons in one line: `code: message; code: message`."""
    return "; ".join(f"{r.code.value}: {r.message}" for r in reasons)  # type: ignore[attr-defined]


def why(card: MetricCard, line: str | None = None) -> str:
    """The numbers for a compared gate (its evidence line, `line` when the caller has it
    already), the reasons for anything else."""
    if card.gate.result in (Result.PASS, Result.WARN, Result.FAIL):
        said = card.gate.reasons  # a check that passed only on its retry says so
        line = evidence_line(card) if line is None else line
        return f"{line}; {reasons_text(said)}" if said else line
    return reasons_text(why_reasons(card))


def why_reasons(card: MetricCard) -> tuple[Reason, ...]:
    """Why a metric was not compared: the number's reasons when unsound, else authority's, and
    for a check not run, that (empty for a compared gate, whose evidence says why)."""
    if card.gate.result is Result.UNSOUND:
        return card.gate.reasons
    if card.gate.result is Result.NOT_ENFORCED:
        return card.authority.reasons + card.gate.reasons
    return card.authority.reasons


def explanation(card: MetricCard, said: str | None = None) -> str:
    """`why` (or `said`, when the caller has it already) in one line, with what would block a
    not-yet-gating metric once promoted."""
    text = why(card) if said is None else said
    if not card.decided and card.authority.notes:
        text += f"; would block once promoted: {reasons_text(card.authority.notes)}"
    return text


# How a metric's numbers read, the same in every format.


def value_text(card: MetricCard) -> str:
    """The value as every format prints it, "—" without one."""
    m = card.measurement
    return number_text(None if m is None else m.value)


def interval_text(card: MetricCard) -> str:
    """The interval as `[low, high]`, "—" without one."""
    m = card.measurement
    interval = None if m is None else m.interval
    return ends_or_dash(None if interval is None else (interval.low, interval.high))


def n_text(card: MetricCard) -> str:
    """The sample count, "—" when unknown."""
    m = card.measurement
    return count_text(None if m is None else m.n)


def number_text(value: float | None) -> str:
    """A value as every format prints it (a scorecard's or a trend's), "—" without one."""
    return "—" if value is None else fmt(value)


def ends_or_dash(ends: tuple[float, float] | None) -> str:
    """Two ends as `[low, high]`, "—" without them."""
    return "—" if ends is None else ends_text(*ends)


def count_text(n: int | None) -> str:
    """A sample count, "—" when unknown."""
    return "—" if n is None else str(n)


def threshold_text(card: MetricCard) -> str:
    """The rule, its warn bound, and "(proposed)" until it is approved."""
    t = card.threshold
    if t is None:
        return "—"
    return rule_text(
        t.op.value, t.value, t.max_drop, t.max_relative_drop, t.warn_value,
        approved=t.approval is Approval.APPROVED,
    )  # fmt: skip


def rule_text(
    op: str,
    value: float | None,
    max_drop: float | None,
    max_relative_drop: float | None,
    warn_value: float | None,
    *,
    approved: bool,
    no_bar: str = "",
) -> str:
    """A threshold as every scorecard and trend shows it: its bars (`>= 0.85`, `max drop 0.02`;
    `no_bar` for one that sets none), its warn bound, and "(proposed)" until it is approved."""
    text = bar_text(op, value, max_drop, max_relative_drop) or no_bar
    if warn_value is not None:
        text += f", warn {op} {fmt(warn_value)}"
    return text if approved else f"{text} (proposed)"


def dataset_unverified(card: MetricCard) -> str:
    """What the output left unsaid of the dataset its metric's record names ("" when it named
    the record's dataset and version, or no record names one; a name or version that contradicts
    the record is `dataset_mismatch`, shown with the reasons): `dataset 'qa-gold' not verified:
    the output names no version`."""
    d = card.dataset
    if d is None or d.record is None or card.measurement is None or d.verified:
        # A pinned fingerprint the output shows verifies the data without a name or version.
        return ""
    if d.name is None:
        missing = "the output names no dataset" + (" and no version" if d.version is None else "")
    elif d.name_verified and d.version is None:
        missing = "the output names no version"
    else:
        return ""
    return f"dataset '{d.record}' not verified: {missing}"
