"""What an authority condition reads and what a row of the authority table is: the situation of
one metric (its records, the run that measured it, the evaluation date) and the row's fields.
The checks live in the modules named for what they check; the rows in conditions.py.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable

import attrs

from evalglass.evidence.model import DatasetIdentity, Measurement
from evalglass.reasons import AuthorityCode as C
from evalglass.records.model import (
    DatasetRecord,
    HostRecords,
    JudgeRecord,
    MetricRecord,
    ThresholdRecord,
)


class Stage(enum.Enum):
    """Stage 1 asks whether the records authorize the metric to gate (failing: informational);
    stage 2 whether the evidence is sound enough to let it (failing: blocked)."""

    AUTHORIZED = 1
    SOUND = 2


@attrs.frozen
class Situation:
    """What a condition reads: one metric's records, the run that measured it (None: no output
    measures it) and the evaluation date; the records the metric names, looked up once (`of`)."""

    metric_id: str
    metric: MetricRecord
    records: HostRecords
    measurement: Measurement | None
    evaluated_on: dt.date
    # The dataset and judge records the metric names, if they exist; its threshold, if any.
    dataset: DatasetRecord | None
    judge: JudgeRecord | None
    threshold: ThresholdRecord | None
    # The dataset the output says it was measured on.
    seen: DatasetIdentity | None

    @classmethod
    def of(
        cls,
        metric_id: str,
        metric: MetricRecord,
        records: HostRecords,
        measurement: Measurement | None,
        evaluated_on: dt.date,
    ) -> Situation:
        """The situation of `metric_id`, with the records it names looked up."""
        name = metric.judge
        return cls(
            metric_id,
            metric,
            records,
            measurement,
            evaluated_on,
            records.dataset_of(metric),
            records.judges.get(name) if name is not None else None,
            records.thresholds.get(metric_id),
            measurement.run.dataset if measurement is not None else None,
        )


@attrs.frozen
class Condition:
    """One row of the authority table. `failed` says why the condition does not hold ("" when it
    holds); `holds_when` is the docs' wording of the condition, `plain` the glossary's of what
    failing it means and who can change it. `about_run`: without a run the condition cannot be
    shown to hold, which is the run's to show, not a problem in the records (doctor leaves it to
    the run)."""

    code: C
    stage: Stage
    holds_when: str
    plain: str
    failed: Callable[[Situation], str]
    about_run: bool = False


def listed(names: tuple[str, ...]) -> str:
    """Names quoted and joined with commas, for a message."""
    return ", ".join(f"'{n}'" for n in names)


def named(value: str | None) -> str:
    """A record's value quoted for a message, or 'none'."""
    return "none" if value is None else f"'{value}'"
