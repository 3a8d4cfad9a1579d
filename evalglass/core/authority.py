"""Who may gate: the two-stage resolver. Authority is computed here and nowhere else, from the
conditions declared in conditions.py.

Only host records authorize. The evidence is consulted for one thing, the identity of what was
measured (models, graders, dataset), and only to block: nothing in an eval output can grant
authority. The evaluation date is given, never read from a clock. A check's metric (`check/NAME`)
is authorized by its status alone and needs its definition in checks.yaml: the definition is its
bar, so it has no threshold, dataset or judge.
"""

from __future__ import annotations

import datetime as dt
import enum

import attrs

from evalglass.core.conditions import AUTHORIZING, SOUNDNESS
from evalglass.core.situation import Condition, Situation
from evalglass.evidence.model import Measurement
from evalglass.metric_ids import check_name
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import HostRecords, MetricRecord, MetricStatus


class Outcome(enum.StrEnum):
    """Whether a metric may gate: informational (not authorized), blocked (authorized, but its
    evidence is unsound: the run cannot pass), or can_gate."""

    INFORMATIONAL = "informational"
    BLOCKED = "blocked"
    CAN_GATE = "can_gate"


@attrs.frozen
class Authority:
    """The resolver's answer. `notes` are what stage 2 would raise once an informational metric
    is promoted; a blocked metric has none (it already passed stage 1)."""

    outcome: Outcome
    reasons: tuple[Reason, ...] = ()
    notes: tuple[Reason, ...] = ()


def resolve(
    metric_id: str,
    records: HostRecords,
    measurement: Measurement | None,
    *,
    evaluated_on: dt.date,
) -> Authority:
    """Resolve one metric's authority from the records, as of the evaluation date (an approval's
    expiry is compared with it); the measurement only identifies the run. The conditions, and
    their order, are the rows of evalglass/core/conditions.py."""
    metric = records.metrics.get(metric_id)
    if metric is None:
        return Authority(
            Outcome.INFORMATIONAL,
            (Reason(C.NO_RECORD, f"no record for '{metric_id}' in metrics.yaml"),),
        )
    check = check_name(metric_id)
    if check is not None:
        unauthorized, unsound = _check_stages(check, metric, records)
    else:
        situation = Situation.of(metric_id, metric, records, measurement, evaluated_on)
        unauthorized = _failed(AUTHORIZING, situation)
        unsound = _failed(SOUNDNESS, situation)
    if unauthorized:
        return Authority(Outcome.INFORMATIONAL, unauthorized, notes=unsound)
    if unsound:
        return Authority(Outcome.BLOCKED, unsound)
    return Authority(Outcome.CAN_GATE)


def _failed(rows: tuple[Condition, ...], situation: Situation) -> tuple[Reason, ...]:
    """Every condition of `rows` that does not hold, in their order."""
    reasons = []
    for row in rows:
        message = row.failed(situation)
        if message:
            reasons.append(Reason(row.code, message))
    return tuple(reasons)


def _check_stages(
    name: str, metric: MetricRecord, records: HostRecords
) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    """A check's metric: authorized by its status (stage 1), sound when checks.yaml defines it
    (stage 2). What the check found is the decision's to judge, not authority's."""
    unsound: tuple[Reason, ...] = ()
    if name not in records.checks:
        unsound = (Reason(C.DANGLING_REFERENCE, f"no check '{name}' in checks.yaml"),)
    unauthorized: tuple[Reason, ...] = ()
    if metric.status is not MetricStatus.GATING:
        unauthorized = (Reason(C.METRIC_NOT_GATING, f"metric status is {metric.status.value}"),)
    return unauthorized, unsound
