"""The rules between records of different files, checked once every file has loaded: what an
approval must name depends on the dataset and metric records it approves. It reads no files and
decides no authority; the first broken rule is a RecordError at its line.
"""

from __future__ import annotations

from evalglass.errors import RecordError
from evalglass.records._scalars import excerpt, quote
from evalglass.records.model import Approval, HostRecords, ThresholdRecord


def check(records: HostRecords) -> None:
    """Raise RecordError for the first approved threshold whose approved_for lacks a part the
    other records require: the dataset version, or the fingerprint, when its dataset record has
    one; the judge model, when its metric names a judge. (A missing approved_for, or one naming
    no data, is refused with its own file.)"""
    for metric_id, threshold in records.thresholds.items():
        problem = _missing_part(metric_id, threshold, records)
        if problem is not None:
            origin = threshold.approved_for.origin if threshold.approved_for else threshold.origin
            raise RecordError(origin.path, problem, origin.line)


def _missing_part(metric_id: str, threshold: ThresholdRecord, records: HostRecords) -> str | None:
    approved = threshold.approved_for
    metric = records.metrics.get(metric_id)
    if threshold.approval is not Approval.APPROVED or approved is None or metric is None:
        return None
    owner = f"approved_for of threshold {quote(metric_id)} is missing required field"
    # A check's metric names no dataset: its definition, not data, is what was approved.
    dataset = records.dataset_of(metric)
    if approved.dataset_version is None and dataset is not None and dataset.version is not None:
        return (
            f"{owner} 'dataset_version': dataset {quote(metric.dataset or '')} has a version in "
            "datasets.yaml, so the approval must name the version it was given for; add "
            f"dataset_version: below approved_for (the dataset's today is "
            f"{excerpt(dataset.version)})"
        )
    if approved.fingerprint is None and dataset is not None and dataset.fingerprint is not None:
        return (
            f"{owner} 'fingerprint': dataset {quote(metric.dataset or '')} has one in "
            "datasets.yaml, so the approval must name the fingerprint it was given for; add "
            f"fingerprint: below approved_for (the dataset's today is "
            f"{excerpt(dataset.fingerprint)})"
        )
    if approved.judge_model is None and metric.judge is not None:
        judge = records.judges.get(metric.judge)
        today = (
            f"judge {quote(metric.judge)} grades with {excerpt(judge.model)} today"
            if judge is not None
            else f"judges.yaml has no judge {quote(metric.judge)}"
        )
        return (
            f"{owner} 'judge_model': metric {quote(metric_id)} names judge "
            f"{quote(metric.judge)}, so the approval must name the judge model it was given "
            f"for; add judge_model: below approved_for ({today})"
        )
    return None
