"""The metric ids evalglass's own checks yield: `check/NAME`. Host records define the checks and
eval outputs may not report such an id; records, evidence and everything above read this spelling.
"""

from __future__ import annotations

CHECK_PREFIX = "check/"


def check_metric(name: str) -> str:
    """The metric id the check `name` yields."""
    return CHECK_PREFIX + name


def check_name(metric_id: str) -> str | None:
    """The name of the check a metric id stands for, or None for a metric an eval output makes."""
    return metric_id[len(CHECK_PREFIX) :] if metric_id.startswith(CHECK_PREFIX) else None
