"""The stage 2 checks of a metric's baseline: a regression gate (or a record asking for one) has
a baseline, measured on the data and graded by the judge today's records describe.
"""

from __future__ import annotations

from evalglass.core.situation import Situation, named


def _baseline_needed(s: Situation) -> bool:
    # A regression gate compares with the baseline, so it needs one as much as a record that asks.
    return s.metric.requires_baseline or (s.threshold is not None and s.threshold.regression)


def baseline_missing(s: Situation) -> str:
    """Whether a baseline the gate needs is missing."""
    if not _baseline_needed(s) or s.metric_id in s.records.baselines:
        return ""
    return "a baseline is required and baselines.yaml has none"


def baseline_not_comparable(s: Situation) -> str:
    """Each differing dimension is named."""
    baseline = s.records.baselines.get(s.metric_id)
    if not _baseline_needed(s) or baseline is None:
        return ""
    dataset = s.dataset
    differs = []
    if dataset is None:
        differs.append(
            f"dataset version: baseline {named(baseline.dataset_version)}, no dataset record"
        )
    else:
        if baseline.dataset_version != dataset.version:
            differs.append(
                f"dataset version: baseline {named(baseline.dataset_version)}, "
                f"dataset {named(dataset.version)}"
            )
        # Data pinned by fingerprint alone is the same data only by the same fingerprint.
        both = baseline.fingerprint is not None and dataset.fingerprint is not None
        if (both or dataset.version is None) and baseline.fingerprint != dataset.fingerprint:
            differs.append(
                f"dataset fingerprint: baseline {named(baseline.fingerprint)}, "
                f"dataset {named(dataset.fingerprint)}"
            )
    if s.metric.judge is not None:
        judge = s.judge
        # Exact, unlike independence: a loose match here would let a different grader through.
        if judge is None or baseline.judge != judge.model:
            have = "no judge record" if judge is None else f"judge '{judge.model}'"
            differs.append(f"judge model: baseline '{baseline.judge or 'not named'}', {have}")
    return "; ".join(differs)
