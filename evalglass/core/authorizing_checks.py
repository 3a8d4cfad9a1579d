"""The stage 1 checks: do the records authorize the metric to gate? Each says why not ("" when
the condition holds); the rows that run them are in conditions.py.
"""

from __future__ import annotations

from evalglass.core.situation import Situation
from evalglass.records.model import Approval, Calibration, DatasetStatus, MetricStatus


def not_gating(s: Situation) -> str:
    """Why the metric's status does not let it gate."""
    status = s.metric.status
    return "" if status is MetricStatus.GATING else f"metric status is {status.value}"


def threshold_missing(s: Situation) -> str:
    """Whether thresholds.yaml has no bar for the metric."""
    return "no threshold in thresholds.yaml" if s.threshold is None else ""


def threshold_proposed(s: Situation) -> str:
    """Whether the metric's threshold is only proposed."""
    proposed = s.threshold is not None and s.threshold.approval is not Approval.APPROVED
    return "threshold is proposed, not approved" if proposed else ""


def dataset_proposed(s: Situation) -> str:
    """Whether the metric's dataset is only proposed."""
    proposed = s.dataset is not None and s.dataset.status is DatasetStatus.PROPOSED
    return f"dataset '{s.metric.dataset}' is proposed" if proposed else ""


def judge_uncalibrated(s: Situation) -> str:
    """Whether the metric's judge is not (yet) calibrated."""
    judge = s.judge
    if judge is None or judge.calibration not in (
        Calibration.UNCALIBRATED,
        Calibration.CALIBRATING,
    ):
        return ""
    return f"judge '{s.metric.judge}' is {judge.calibration.value}"
