"""One metric in plain words: its value, validity and authority, and the host edits that would
let it gate. explain never writes and never grants: what-ifs run on an in-memory copy, labelled
hypothetical.
"""

from __future__ import annotations

import datetime as dt
import difflib

import attrs

from evalglass.core.scorecard import MetricCard, Scorecard, assemble
from evalglass.core.success import required_gates
from evalglass.errors import EvalglassError
from evalglass.evidence.model import Evidence
from evalglass.metric_ids import check_metric, check_name
from evalglass.records.model import (
    CheckRecord,
    HostRecords,
    MetricRecord,
    SuccessMode,
    SuccessPolicy,
)
from evalglass.tools.checklist import checklist
from evalglass.tools.edits import Checklist, apply

# The numbers a decision compares: while one is still to be chosen, the gate cannot be known.
_BAR = frozenset({"op", "value", "max_drop", "max_relative_drop"})
_BASELINE = frozenset({"value", "n"})  # compared only by a regression threshold


@attrs.frozen(kw_only=True)
class PolicyRequirement:
    """What the run's success policy asks of one metric: `source` is `success.yaml` or
    `default`, `must_pass` whether the policy names it, `text` the requirement in words."""

    source: str
    must_pass: bool
    text: str


@attrs.frozen(kw_only=True)
class Explanation:
    """Today's card for the metric, the checklist, and (given outputs) the hypothetical card:
    the same metric scored against the records as they would be with every edit made."""

    card: MetricCard
    record: MetricRecord | None
    checklist: Checklist
    outputs_given: bool
    policy: PolicyRequirement
    hypothetical: MetricCard | None = None
    # A host check's metric: whether it is one, and its definition in checks.yaml (None: none).
    is_check: bool = False
    check: CheckRecord | None = None

    @property
    def hypothetical_gate_known(self) -> bool:
        """False when the gate would compare a number the person has still to choose."""
        threshold = self.hypothetical.threshold if self.hypothetical is not None else None
        regression = threshold is not None and threshold.regression
        for edit in self.checklist.edits:
            if edit.choose is None:
                continue
            if edit.kind == "thresholds" and edit.field in _BAR:
                return False
            if edit.kind == "baselines" and edit.field in _BASELINE and regression:
                return False
        return True


def explain(
    metric_id: str, records: HostRecords, evidence: Evidence, *, evaluated_at: dt.datetime
) -> Explanation:
    """Explain `metric_id` as evaluated at `evaluated_at` (the run's evaluation time, aware UTC,
    whose date dated records are compared with); raises EvalglassError when neither records nor
    outputs know it."""
    known = sorted(
        set(records.metrics)
        | set(evidence.measurements)
        | {check_metric(name) for name in records.checks}
    )
    if metric_id not in known:
        close = difflib.get_close_matches(metric_id, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        where = "metrics.yaml or the outputs given" if evidence.sources else "metrics.yaml"
        raise EvalglassError(metric_id, f"no such metric in {where}{hint}")
    evaluated_on = evaluated_at.date()
    plan = checklist(
        metric_id, records, evidence.measurements.get(metric_id), evaluated_on=evaluated_on
    )
    hypothetical = None
    if evidence.sources:
        hypothetical = _card(
            assemble(apply(records, plan.edits), evidence, evaluated_at=evaluated_at), metric_id
        )
    name = check_name(metric_id)
    return Explanation(
        card=_card(assemble(records, evidence, evaluated_at=evaluated_at), metric_id),
        record=records.metrics.get(metric_id),
        checklist=plan,
        outputs_given=bool(evidence.sources),
        policy=policy_requirement(metric_id, records.success),
        hypothetical=hypothetical,
        is_check=name is not None,
        check=None if name is None else records.checks.get(name),
    )


def _attempts_rule(max_attempts: int) -> str:
    if max_attempts == 1:
        return "Every attempt must pass: a pass after a failed attempt fails the gate."
    return (
        f"A pass after a failed attempt is a warning up to attempt {max_attempts}, and a fail "
        "on any later one."
    )


def policy_requirement(metric_id: str, policy: SuccessPolicy | None) -> PolicyRequirement:
    """What `policy` (None: the defaults) requires of `metric_id` in every run."""
    source = "default" if policy is None else "success.yaml"
    policy = SuccessPolicy() if policy is None else policy
    named = metric_id in policy.must_pass
    if named:
        text = (
            "success.yaml names it in must_pass: every run must gate on it and it must pass. "
            "If it fails, the run fails; if it cannot gate (informational, blocked, unsound, "
            "or not in the run), the run is blocked."
        )
        if check_name(metric_id) is not None:
            text += (
                " A check is run only by `evalglass run` of its tier: under `evalglass "
                "score`, or a run of a tier that leaves it out, it is not run, so it cannot "
                "show that it passed and the run is blocked."
            )
    elif policy.mode is SuccessMode.PERCENTAGE:
        rate = policy.min_pass_rate if policy.min_pass_rate is not None else 1.0
        text = (
            f"success.yaml asks that at least {rate * 100:g}% of the gates pass. Once it "
            "gates, it counts among them: it may fail, block or be unsound while that share "
            "holds (the run names it as tolerated), and a run below the share fails."
        )
    else:
        where = (
            "success.yaml asks"
            if source == "success.yaml"
            else "There is no success.yaml: the default policy asks"
        )
        text = (
            f"{where} that every gate pass. Once it gates, its failure fails the run, and a "
            "block or an unsound number of it blocks the run."
        )
    needed = required_gates(policy)
    if needed:
        text += f" The run needs at least {needed} gate{'s' if needed > 1 else ''} to pass."
    text += " " + _attempts_rule(policy.max_attempts)
    return PolicyRequirement(source=source, must_pass=named, text=text)


def _card(scorecard: Scorecard, metric_id: str) -> MetricCard:
    return next(card for card in scorecard.metrics if card.id == metric_id)
