"""Rules between records of different files: what an approval must name depends on the dataset
and the metric it approves, checked once every file has loaded, from the working tree and from a
git ref alike."""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest

from evalglass.errors import RecordError
from evalglass.records.gitref import load_records_at
from evalglass.records.load import load_records
from evalglass.records.model import Approval, ApprovedFor
from tests.records.test_records_gitref import git

METRIC = "metrics:\n  qa/x:\n    status: {status}\n    dataset: qa-gold\n{judge}"
DATASET = "datasets:\n  qa-gold:\n    status: validated\n    version: '2026-10'\n{fingerprint}"
JUDGES = "judges:\n  grader:\n    model: openai/gpt-4.1\n    calibration: calibrated\n"
HEAD = (
    "thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: {approval}\n"
    "    approved_by: '@alice'\n    approved_on: 2026-11-01\n    approved_for:\n"
    "      dataset_version: '2026-10'\n"
)


def write(
    folder: Path,
    *,
    approval: str = "approved",
    fingerprint: bool,
    judge: bool,
    gives_fingerprint: bool,
    gives_judge: bool,
    judge_record: bool = True,
    metric: bool = True,
    dataset: bool = True,
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if metric:
        (folder / "metrics.yaml").write_text(
            METRIC.format(status="gating", judge="    judge: grader\n" if judge else "")
        )
    if dataset:
        (folder / "datasets.yaml").write_text(
            DATASET.format(fingerprint="    fingerprint: sha256:aa\n" if fingerprint else "")
        )
    if judge_record:
        (folder / "judges.yaml").write_text(JUDGES)
    text = HEAD.format(approval=approval)
    text += "      fingerprint: sha256:aa\n" if gives_fingerprint else ""
    text += "      judge_model: openai/gpt-4.1\n" if gives_judge else ""
    (folder / "thresholds.yaml").write_text(text)


FINGERPRINT_MISSING = (
    "host_records/thresholds.yaml:8: approved_for of threshold 'qa/x' is missing required field "
    "'fingerprint': dataset 'qa-gold' has one in datasets.yaml, so the approval must name the "
    "fingerprint it was given for; add fingerprint: below approved_for (the dataset's today is "
    "'sha256:aa')"
)
JUDGE_MISSING = (
    "host_records/thresholds.yaml:8: approved_for of threshold 'qa/x' is missing required field "
    "'judge_model': metric 'qa/x' names judge 'grader', so the approval must name the judge model "
    "it was given for; add judge_model: below approved_for (judge 'grader' grades with "
    "'openai/gpt-4.1' today)"
)


@pytest.mark.parametrize(
    ("fingerprint", "judge", "gives_fingerprint", "gives_judge"),
    list(itertools.product((False, True), repeat=4)),
)
def test_an_approval_names_every_part_the_other_records_require(
    tmp_path: Path, fingerprint: bool, judge: bool, gives_fingerprint: bool, gives_judge: bool
) -> None:
    """The fingerprint is required when the dataset record has one, the judge model when the
    metric names a judge; either given without being required still loads. The first part
    missing is named at approved_for's line, with what to add."""
    folder = tmp_path / "host_records"
    write(
        folder,
        fingerprint=fingerprint,
        judge=judge,
        gives_fingerprint=gives_fingerprint,
        gives_judge=gives_judge,
    )
    want = (
        FINGERPRINT_MISSING
        if fingerprint and not gives_fingerprint
        else JUDGE_MISSING
        if judge and not gives_judge
        else None
    )
    with contextlib.chdir(tmp_path):
        if want is None:
            assert load_records("host_records").thresholds["qa/x"].approved_for is not None
        else:
            with pytest.raises(RecordError) as info:
                load_records("host_records")
            assert str(info.value) == want


def test_the_same_rule_holds_for_records_at_a_git_ref(tmp_path: Path) -> None:
    """Records read as committed are held to the same rule: an approval missing its judge model
    at the ref is refused naming the ref and the line, whatever the working tree holds."""
    repo = tmp_path / "repo"
    folder = repo / "host_records"
    write(folder, fingerprint=False, judge=True, gives_fingerprint=False, gives_judge=False)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records")
    write(folder, fingerprint=False, judge=True, gives_fingerprint=False, gives_judge=True)
    with contextlib.chdir(repo):
        assert load_records("host_records").thresholds["qa/x"].approved_for is not None
        with pytest.raises(RecordError) as info:
            load_records_at("main", "host_records")
    assert str(info.value) == JUDGE_MISSING.replace("host_records/", "main:host_records/")


def test_a_judge_without_a_record_still_needs_its_model_named(tmp_path: Path) -> None:
    """The judge model is required when the metric names a judge, even one judges.yaml lacks
    (the message says so instead of today's model)."""
    folder = tmp_path / "host_records"
    write(
        folder,
        fingerprint=False,
        judge=True,
        gives_fingerprint=False,
        gives_judge=False,
        judge_record=False,
    )
    with pytest.raises(RecordError, match="judges.yaml has no judge 'grader'"):
        load_records(folder)


@pytest.mark.parametrize("missing", ["metric", "dataset", "approval"])
def test_nothing_to_require_without_the_records_it_depends_on(tmp_path: Path, missing: str) -> None:
    """No metric record (nothing to say which dataset or judge), no dataset record, or a proposed
    threshold: the parts are not required (other checks speak for those)."""
    folder = tmp_path / "host_records"
    write(
        folder,
        fingerprint=True,
        judge=missing != "metric",
        gives_fingerprint=False,
        gives_judge=missing == "dataset",
        metric=missing != "metric",
        dataset=missing != "dataset",
        approval="proposed" if missing == "approval" else "approved",
    )
    if missing == "approval":
        (folder / "metrics.yaml").write_text(METRIC.format(status="gating", judge=""))
    threshold = load_records(folder).thresholds["qa/x"]
    # Loaded as written: nothing required was added, and nothing written was dropped.
    assert threshold.approved_for == ApprovedFor(
        dataset_version="2026-10", judge_model="openai/gpt-4.1" if missing == "dataset" else None
    )
    assert threshold.approval is (Approval.PROPOSED if missing == "approval" else Approval.APPROVED)
