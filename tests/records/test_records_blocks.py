"""The block shapes of the records dialect: a field holding a nested mapping or a list, and a file
of one record (success.yaml); what loads, from a folder and from a git ref, and each error."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

import pytest

from evalglass.errors import RecordError
from evalglass.records.gitref import load_records_at
from evalglass.records.load import load_records, records_from_text
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    Calibration,
    CheckRecord,
    JudgeRecord,
    JudgeStatistic,
    MinAgreement,
    Op,
    Origin,
    SuccessMode,
    SuccessPolicy,
    ThresholdRecord,
    UnreadableEvidence,
)
from evalglass.tiers import Tier
from tests.records.test_records_load import FULL

NEW = {
    "thresholds.yaml": """\
thresholds:
  qa/match/accuracy:
    op: '>='
    value: 0.85
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:                  # what the approval saw
      dataset_version: '2026-10'
      fingerprint: sha256:9f2c
      judge_model: openai/gpt-4.1
    expires_on: 2027-05-01
""",
    "judges.yaml": """\
judges:
  grader-v2:
    model: openai/gpt-4.1
    calibration: calibrated
    evidence: calibration/grader-v2.json
    min_agreement:
      statistic: kappa
      lower_bound: 0.6
""",
    "checks.yaml": """\
checks:
  unit-tests:
    run: python -m pytest -q
    timeout: 600
    cwd: .
    expect_exit: 0
    tier: fast
  build-docs:
    shell: 'make docs && test -s site/index.html'
    timeout: 300
    cache: no
  model-card:
    file_exists: docs/model_card.md
    non_empty: yes
  card-names-dataset:
    regex: 'qa-gold (v|version )2026-10'
    in_file: docs/model_card.md
""",
    "success.yaml": """\
success:
  min_gates: 1
  mode: percentage
  min_pass_rate: 0.9
  must_pass:
    - qa/match/accuracy
    - check/unit-tests
""",
}


@pytest.fixture
def records_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty `host_records` folder, with the working directory at its parent."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "host_records"
    folder.mkdir()
    return folder


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def error(kind: str, text: str) -> str:
    """The one line the RecordError for `text` as `{kind}.yaml` prints."""
    with pytest.raises(RecordError) as info:
        records_from_text(kind, text, f"{kind}.yaml")
    return str(info.value)


EXPECTED = {
    "thresholds": {
        "qa/match/accuracy": ThresholdRecord(
            op=Op.GE, value=0.85, approval=Approval.APPROVED, approved_by="@alice",
            approved_on=dt.date(2026, 11, 1),
            approved_for=ApprovedFor(dataset_version="2026-10", fingerprint="sha256:9f2c",
                                     judge_model="openai/gpt-4.1"),
            expires_on=dt.date(2027, 5, 1),
        )
    },
    "judges": {
        "grader-v2": JudgeRecord(
            model="openai/gpt-4.1", calibration=Calibration.CALIBRATED,
            evidence="calibration/grader-v2.json",
            min_agreement=MinAgreement(statistic=JudgeStatistic.KAPPA, lower_bound=0.6),
            # The folder has no such file: recorded, and the judge's metrics block on it.
            evidence_read=UnreadableEvidence("is not there: no such file next to the records"),
        )
    },
    "checks": {
        "unit-tests": CheckRecord(run="python -m pytest -q", timeout=600, cwd=".", expect_exit=0,
                                  tier=Tier.FAST),
        "build-docs": CheckRecord(shell="make docs && test -s site/index.html", timeout=300,
                                  cache=False),
        "model-card": CheckRecord(file_exists="docs/model_card.md", non_empty=True),
        "card-names-dataset": CheckRecord(regex="qa-gold (v|version )2026-10",
                                          in_file="docs/model_card.md"),
    },
    "success": SuccessPolicy(min_gates=1, mode=SuccessMode.PERCENTAGE, min_pass_rate=0.9,
                             must_pass=("qa/match/accuracy", "check/unit-tests")),
}  # fmt: skip


def test_a_folder_with_all_eight_files_loads_the_new_shapes(records_dir: Path) -> None:
    """Nested mappings, lists, checks.yaml and success.yaml load into their typed records."""
    write(records_dir, {**FULL, **NEW})
    records = load_records("host_records")
    for kind, expected in EXPECTED.items():
        assert getattr(records, kind) == expected, kind
    assert records.metrics and records.datasets and records.policies and records.baselines


def test_the_same_folder_loads_from_a_git_ref(records_dir: Path) -> None:
    """load_records_at reads checks.yaml and success.yaml from the commit, like load_records."""
    write(records_dir, {**FULL, **NEW})

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
            cwd=records_dir.parent,
            check=True,
            capture_output=True,
        )

    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-qm", "records")
    (records_dir / "success.yaml").unlink()
    (records_dir / "checks.yaml").write_text("checks:\n", encoding="utf-8")
    at_ref = load_records_at("main", "host_records")
    assert at_ref == load_records_at("HEAD", "host_records")
    assert at_ref.success == EXPECTED["success"]
    assert at_ref.checks == EXPECTED["checks"]
    assert at_ref.thresholds == EXPECTED["thresholds"]
    assert at_ref.success.origin == Origin("main:host_records/success.yaml", 1)
    working = load_records("host_records")
    assert (working.success, working.checks) == (None, {})


def test_a_nested_record_remembers_the_line_of_its_field() -> None:
    """approved_for and min_agreement carry the origin of their own `field:` line."""
    records = records_from_text("thresholds", NEW["thresholds.yaml"], "t.yaml")
    approved_for = records["qa/match/accuracy"].approved_for  # type: ignore[union-attr]
    assert approved_for is not None and approved_for.origin == Origin("t.yaml", 8)
    judges = records_from_text("judges", NEW["judges.yaml"], "j.yaml")
    assert judges["grader-v2"].min_agreement.origin == Origin("j.yaml", 6)  # type: ignore[union-attr]


def test_without_success_yaml_there_is_no_policy(records_dir: Path) -> None:
    """An absent success.yaml, an empty one, or one of comments is `success=None`."""
    assert load_records("host_records").success is None
    for text in ("", "# decided later\n"):
        write(records_dir, {"success.yaml": text})
        assert load_records("host_records").success is None


def test_the_success_key_alone_is_the_policy_of_defaults() -> None:
    """`success:` with nothing under it is the policy with every documented default."""
    (policy,) = records_from_text("success", "success:   # defaults\n").values()
    assert policy == SuccessPolicy()
    assert (policy.min_gates, policy.mode, policy.min_pass_rate, policy.must_pass) == (
        0,
        SuccessMode.ALL,
        None,
        (),
    )


def test_checks_take_the_documented_defaults() -> None:
    """A run check with only run and timeout: exit 0 expected, full tier, cached."""
    (check,) = records_from_text("checks", "checks:\n  t:\n    run: x\n    timeout: 5\n").values()
    assert (check.expect_exit, check.tier, check.cache, check.cwd, check.non_empty) == (
        0,
        Tier.FULL,
        True,
        None,
        False,
    )


@pytest.mark.parametrize(
    "items",
    [
        "  must_pass:\n  - a\n  - b\n",  # at the key's own column, as YAML allows
        "  must_pass:\n    - a\n    - b\n",
        "  must_pass:   # ids\n\n      # a comment\n      -   a    # why\n      - 'b'\n",
        '  must_pass:\n   - "a"\n   - b\n  # end\n',
    ],
)
def test_a_list_may_sit_at_its_keys_column_or_deeper(items: str) -> None:
    """Every block list spelling YAML allows reads as the same tuple."""
    (policy,) = records_from_text("success", "success:\n" + items + "  min_gates: 2\n").values()
    assert policy == SuccessPolicy(min_gates=2, must_pass=("a", "b"))


def test_nested_mappings_may_sit_at_any_deeper_column_per_record() -> None:
    """Each record's nested mapping picks its own column, as strictyaml allows."""
    head = "  {id}:\n    model: m\n    calibration: calibrated\n    evidence: e\n"
    text = (
        "judges:\n"
        + head.format(id="a")
        + "    min_agreement:\n     statistic: ac1\n     lower_bound: -1\n"
        + head.format(id="b")
        + "    min_agreement:\n        lower_bound: 1\n"
        "        statistic: icc\n"
    )
    records = records_from_text("judges", text)
    assert [r.min_agreement for r in records.values()] == [  # type: ignore[union-attr]
        MinAgreement(statistic=JudgeStatistic.AC1, lower_bound=-1.0),
        MinAgreement(statistic=JudgeStatistic.ICC, lower_bound=1.0),
    ]


J = "judges:\n  g:\n    model: m\n    calibration: calibrated\n    evidence: e\n"  # next: line 6
S = "success:\n  must_pass:\n"  # the list's items start on line 3


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        # A block where it is empty, or of the wrong shape.
        ("judges", J + "    min_agreement:\n",
         ("6: min_agreement: is empty: write its fields (statistic, lower_bound) on indented lines "
         "below it, or leave the field out")),
        ("success", S,
         ("2: must_pass: is empty: write one indented '- item' line per item below it, or leave "
         "the field out")),
        ("judges", J + "    min_agreement: kappa\n",
         ("6: min_agreement: must be written as its fields (statistic, lower_bound) on indented "
         "lines below 'min_agreement:', not as 'kappa'")),
        ("success", "success:\n  must_pass: qa/x\n",
         ("2: must_pass: must be written as one indented '- item' line per item below "
         "'must_pass:', not as 'qa/x'")),
        ("judges", J + "    min_agreement:\n      - kappa\n",
         "7: min_agreement: must be a mapping ('key: value' lines), not a list"),
        ("success", S + "    statistic: kappa\n",
         "3: must_pass: must be a list ('- item' lines), not a mapping"),
        ("judges", J.replace("    evidence: e\n", "") + "    evidence:\n    - e\n",
         ("6: evidence: nested mappings and lists are not allowed; a field holds one value on its "
         "own line")),
        # Flow style, with how to write the block instead.
        ("judges", J + "    min_agreement: {statistic: kappa, lower_bound: 0.6}\n",
         ("6: min_agreement: flow style is not allowed: write 'min_agreement:' then one indented "
         "'key: value' line per entry (and quote text that starts with '{')")),
        ("success", "success:\n  must_pass: [qa/x, qa/y]\n",
         ("2: must_pass: flow style is not allowed: write 'must_pass:' then one indented '- item' "
         "line per item (and quote text that starts with '[')")),
        # Inside a nested mapping: names, duplicates, types, depth, indentation.
        ("judges", J + "    min_agreement:\n      statistc: kappa\n      lower_bound: 0.6\n",
         ("7: unknown field 'statistc' in min_agreement of judge 'g' (did you mean 'statistic'?); "
         "allowed fields: statistic, lower_bound")),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      statistic: ac1\n",
         "8: duplicate field 'statistic' in min_agreement of judge 'g' (first on line 7)"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n",
         "6: min_agreement of judge 'g' is missing required field 'lower_bound'"),
        ("judges", J + "    min_agreement:\n      statistic: kapa\n      lower_bound: 0.6\n",
         ("7: min_agreement.statistic: 'kapa' is not one of kappa, ac1, percent_agreement, "
         "weighted_kappa, alpha, spearman, icc (did you mean 'kappa'?)")),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      lower_bound: -1.5\n",
         "8: min_agreement.lower_bound: '-1.5' must be at least -1"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      lower_bound:\n"
         "        value: 0.6\n",
         ("9: min_agreement.lower_bound: nesting deeper than one level is not allowed; write one "
         "value on the line of its key")),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n        lower_bound: 0.6\n",
         "8: wrong indentation: expected 6 spaces, found 8 (a value must fit on its key's line)"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n     lower_bound: 0.6\n",
         "8: wrong indentation: expected 6 spaces, found 5"),
        ("judges", J + "    min_agreement:\n      statistic: @k\n",
         "7: min_agreement.statistic: '@k' must be quoted (write statistic: '@k')"),
        ("judges", J + "    min_agreement:\n      statistic: {a: b}\n",
         ("7: min_agreement.statistic: flow style is not allowed: write one 'key: value' per line "
         "(and quote text that starts with '{')")),
        # Inside a list: empty, repeated and nested items, tabs, a missing space.
        ("success", S + "  - qa/x\n  -\n",
         "4: must_pass: an empty item; write its value or remove it"),
        ("success", S + "  - qa/x\n  - check/t\n  - 'qa/x'\n",
         "5: must_pass: 'qa/x' is listed twice (first on line 3)"),
        ("success", S + "  - a: b\n",
         ("3: must_pass: nested mappings are not allowed; quote the value if ':' is part of the "
         "text (write - 'a: b')")),
        ("success", S + "  - - a\n",
         "3: must_pass: lists are not allowed here: a list item holds one value"),
        ("success", S + "  -\n    - a\n",
         ("4: must_pass: nesting deeper than one level is not allowed; write one value on the line "
         "of its item")),
        ("success", S + "    - a\n    b: c\n",
         "4: must_pass: expected a list item ('- value') at this indentation, found 'b: c'"),
        ("success", S + "    - a\n   - b\n", "4: wrong indentation: expected 4 spaces, found 3"),
        ("success", S + "    -a\n",
         ("3: expected 'key: value' in must_pass of 'success', found '-a' (a list item has a space "
         "after '-')")),
        ("success", S + "  -\tqa/x\n",
         "3: tab characters are not allowed; indent and separate with spaces"),
        ("success", S + "  - <x\n", "3: must_pass: '<x' must be quoted (write - '<x')"),
        # A file of one record.
        ("success", "success:\n  min_gates: 1\n  min_gates: 2\n",
         "3: duplicate field 'min_gates' in 'success' (first on line 2)"),
        ("success", "success:\n  min_gatse: 1\n",
         ("2: unknown field 'min_gatse' in the success policy (did you mean 'min_gates'?); "
         "allowed fields: min_gates, mode, min_pass_rate, must_pass, max_attempts")),
        ("success", "success:\nmin_gates: 1\n",
         "2: unexpected top-level key 'min_gates': this file holds only 'success:' (line 1)"),
        ("success", "success:\n  min_gates: 1\n mode: all\n",
         "3: wrong indentation: expected 2 spaces, found 1"),
        ("success", "success: all\n",
         ("1: 'success' must be a mapping of fields (indented 'field: value' lines below it), not "
         "the value 'all'")),
        ("success", "success: {min_gates: 1}\n",
         "1: 'success': flow style is not allowed: write one 'key: value' per line"),
        ("success", "checks:\n",
         "1: top-level key 'checks' belongs in checks.yaml; this file must start with 'success:'"),
    ],
)  # fmt: skip
def test_block_mistakes_name_file_line_and_field(kind: str, text: str, expected: str) -> None:
    """Each mistake in a block or a single-record file is one line naming file, line and field."""
    assert error(kind, text) == f"{kind}.yaml:{expected}"
