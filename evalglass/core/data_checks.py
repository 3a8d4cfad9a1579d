"""The stage 2 checks of the data a metric is measured on: the records it names exist, its data
policy permits gating, its dataset is not retired, and the output measured that dataset. Each
says why not ("" when the condition holds); the rows that run them are in conditions.py.
"""

from __future__ import annotations

from evalglass.core.dataset_check import names_other
from evalglass.core.situation import Situation, listed
from evalglass.records.model import DatasetStatus, Policy


def dangling(s: Situation) -> str:
    """Every record the metric names that does not exist."""
    # Only a record built in code can name no dataset (the loader refuses it): nothing to find.
    dangling = [f"dataset '{s.metric.dataset or ''}'"] if s.dataset is None else []
    if s.metric.judge is not None and s.judge is None:
        dangling.append(f"judge '{s.metric.judge}'")
    return f"no record for {' or '.join(dangling)}" if dangling else ""


_PERMITTED = frozenset({Policy.PERMITTED, Policy.REDACTED})


def policy(s: Situation) -> str:
    """Why the data policy for the metric's dataset id does not permit gating."""
    # Looked up by the id the metric names, record or not: a typo rarely has a policy either.
    policy = s.records.policies.get(s.metric.dataset or "")
    if policy is not None and policy.policy in _PERMITTED:
        return ""
    said = "no data policy" if policy is None else f"data policy is {policy.policy.value}"
    return f"{said} for dataset '{s.metric.dataset}'"


def dataset_retired(s: Situation) -> str:
    """Whether the metric's dataset is retired."""
    retired = s.dataset is not None and s.dataset.status is DatasetStatus.RETIRED
    return f"dataset '{s.metric.dataset}' is retired" if retired else ""


def dataset_mismatch(s: Situation) -> str:
    """An output naming a dataset names the record's when it names its id or one of the names
    the record declares; any other name is another dataset, whatever its version. A version is
    compared when the name is the record's (or there is none); a fingerprint whatever the name."""
    dataset, seen, dataset_id = s.dataset, s.seen, s.metric.dataset or ""
    if dataset is None or seen is None:
        return ""
    differs = []
    if names_other(dataset_id, dataset, seen):
        also = f" (nor any of its names: {listed(dataset.names)})" if dataset.names else ""
        differs.append(
            f"the output names dataset '{seen.name}', not the record's '{dataset_id}'{also}"
        )
    elif (
        seen.version is not None and dataset.version is not None and seen.version != dataset.version
    ):
        differs.append(
            f"measured on dataset version '{seen.version}', record validates '{dataset.version}'"
        )
    printed = seen.fingerprint
    if dataset.fingerprint is not None and printed is not None and printed != dataset.fingerprint:
        differs.append(
            f"measured on dataset fingerprint '{printed}', record has '{dataset.fingerprint}'"
        )
    return "; ".join(differs)


def dataset_unverifiable(s: Situation) -> str:
    """Whether a pinned fingerprint has nothing in the output to check it against."""
    dataset = s.dataset
    if dataset is None or s.measurement is None or dataset.fingerprint is None:
        return ""
    if s.seen is not None and s.seen.fingerprint is not None:
        return ""
    return (
        f"dataset '{s.metric.dataset}' pins fingerprint '{dataset.fingerprint}', and the "
        "output yields none to check it against"
    )
