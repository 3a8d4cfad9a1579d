"""Loading host records: what loads, with which defaults, and the exact error for each mistake."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import RecordError
from evalglass.records import load as load_module
from evalglass.records.load import load_records, records_from_text
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    BaselineRecord,
    Calibration,
    DatasetRecord,
    DatasetStatus,
    Decision,
    HostRecords,
    JudgeRecord,
    MetricRecord,
    MetricStatus,
    Op,
    Origin,
    Policy,
    PolicyRecord,
    ThresholdRecord,
    UnreadableEvidence,
)
from evalglass.records.schema import KINDS

REPO = Path(__file__).resolve().parents[2]

FULL = {
    "metrics.yaml": """\
# metrics.yaml
metrics:
  qa/match/accuracy:
    status: gating            # draft | informational | calibrating | gating | retired
    dataset: qa-gold          # required
    judge: grader-v2          # optional
    requires_baseline: no     # optional, default no
    min_samples: 100
    decision: bound
    max_missing_fraction: 0.05
""",
    "thresholds.yaml": """\
thresholds:
  qa/match/accuracy:
    op: '>='                  # must be quoted
    value: 0.85
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '2026-10'
      fingerprint: sha256:9f2c
      judge_model: openai/gpt-4.1
    expires_on: 2027-05-01
""",
    "datasets.yaml": """\
datasets:
  qa-gold:
    status: validated
    version: '2026-10'
    fingerprint: sha256:9f2c
""",
    "judges.yaml": """\
judges:
  grader-v2:
    model: openai/gpt-4.1
    calibration: calibrated
    evidence: docs/calib.md
""",
    "policies.yaml": """\
policies:
  qa-gold:
    policy: permitted
""",
    "baselines.yaml": """\
baselines:
  qa/match/accuracy:
    value: 0.87
    n: 400
    stderr: 0.016
    dataset_version: '2026-10'
    judge: openai/gpt-4.1
""",
}

Errors = Callable[[str, str], str]
R = TypeVar("R")


@pytest.fixture
def records_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty `host_records` folder, with the working directory at its parent."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "host_records"
    folder.mkdir()
    return folder


@pytest.fixture
def error(records_dir: Path) -> Errors:
    """Write one file into host_records/ and return the one line its RecordError prints."""

    def load_error(name: str, text: str) -> str:
        (records_dir / name).write_text(text, encoding="utf-8")
        with pytest.raises(RecordError) as info:
            load_records("host_records")
        return str(info.value)

    return load_error


def one(cls: type[R], kind: str, text: str) -> R:
    """The single record `text` holds, checked to be a `cls`."""
    (record,) = records_from_text(kind, text).values()
    assert isinstance(record, cls)
    return record


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


# --- What loads -------------------------------------------------------------------------------


def test_every_kind_loads_with_every_field(records_dir: Path) -> None:
    """A folder with all six files loads into typed, frozen records of each kind."""
    write(records_dir, FULL)
    records = load_records("host_records")
    assert records == HostRecords(
        metrics={
            "qa/match/accuracy": MetricRecord(
                status=MetricStatus.GATING,
                dataset="qa-gold",
                judge="grader-v2",
                requires_baseline=False,
                min_samples=100,
                decision=Decision.BOUND,
                max_missing_fraction=0.05,
            )
        },
        thresholds={
            "qa/match/accuracy": ThresholdRecord(
                op=Op.GE,
                value=0.85,
                approval=Approval.APPROVED,
                approved_by="@alice",
                approved_on=dt.date(2026, 11, 1),
                approved_for=ApprovedFor(
                    dataset_version="2026-10",
                    fingerprint="sha256:9f2c",
                    judge_model="openai/gpt-4.1",
                ),
                expires_on=dt.date(2027, 5, 1),
            )
        },
        datasets={
            "qa-gold": DatasetRecord(
                status=DatasetStatus.VALIDATED, version="2026-10", fingerprint="sha256:9f2c"
            )
        },
        judges={
            "grader-v2": JudgeRecord(
                model="openai/gpt-4.1",
                calibration=Calibration.CALIBRATED,
                evidence="docs/calib.md",
                evidence_read=UnreadableEvidence("is not there: no such file next to the records"),
            )
        },
        policies={"qa-gold": PolicyRecord(policy=Policy.PERMITTED)},
        baselines={
            "qa/match/accuracy": BaselineRecord(
                value=0.87, n=400, stderr=0.016, dataset_version="2026-10", judge="openai/gpt-4.1"
            )
        },
    )


def test_origin_is_the_file_as_given_and_the_line_of_the_id(records_dir: Path) -> None:
    """Each record's origin is the folder as given joined with the file name, and its id's line."""
    write(records_dir, FULL)
    records = load_records("host_records")
    assert records.metrics["qa/match/accuracy"].origin == Origin("host_records/metrics.yaml", 3)
    assert records.policies["qa-gold"].origin == Origin("host_records/policies.yaml", 2)


def test_optional_fields_take_the_model_defaults(records_dir: Path) -> None:
    """Records with only their required fields get the documented defaults."""
    write(
        records_dir,
        {
            "metrics.yaml": "metrics:\n  m:\n    status: draft\n    dataset: d\n",
            "thresholds.yaml": (
                "thresholds:\n  m:\n    op: '<'\n    value: -1\n    approval: proposed\n"
            ),
            "datasets.yaml": "datasets:\n  d:\n    status: proposed\n    version: v1\n",
            "judges.yaml": "judges:\n  j:\n    model: m\n    calibration: uncalibrated\n",
            "baselines.yaml": "baselines:\n  m:\n    value: 1\n    n: 1\n    dataset_version: v1\n",
        },
    )
    records = load_records("host_records")
    metric = records.metrics["m"]
    assert (metric.judge, metric.requires_baseline, metric.min_samples) == (None, False, 10)
    assert (metric.decision, metric.max_missing_fraction) == (Decision.BOUND, 0.0)
    threshold = records.thresholds["m"]
    assert (threshold.op, threshold.value, threshold.approved_by, threshold.approved_on) == (
        Op.LT,
        -1.0,
        None,
        None,
    )
    assert records.datasets["d"].fingerprint is None
    assert records.judges["j"].evidence is None
    assert (records.baselines["m"].stderr, records.baselines["m"].judge) == (None, None)
    assert records.policies == {}


def test_missing_files_mean_no_records(records_dir: Path) -> None:
    """An empty folder loads as no records of any kind: every file is optional."""
    assert load_records("host_records") == HostRecords()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "# nothing decided yet\n\n  # indented comment\n",
        "metrics:\n",
        "---\nmetrics:   # none yet\n# later\n",
    ],
)
def test_empty_files_have_no_records(records_dir: Path, text: str) -> None:
    """An empty file, a file of comments, or `metrics:` with nothing under it has no records."""
    write(records_dir, {"metrics.yaml": text})
    assert load_records("host_records").metrics == {}


def test_quoting_styles_and_comments_read_as_yaml_does() -> None:
    """Plain, single- and double-quoted scalars and trailing comments mean what YAML says."""
    text = (
        "---\n"
        "datasets:   # owned by data\n"
        "  'it''s/data':\n"
        "    status: 'validated'  # quoted enum\n"
        '    version: "v\\x31\\t\\"2\\"\\u00e9"\n'
        "    fingerprint: sha256:ab#c   # a '#' inside a plain value is text\n"
        '  "qa gold":\n'
        "    status: retired\n"
        "    version: 'a # b'#comment\n"
        "  x.y-z_1/2:\n"
        "    status: proposed\n"
        "    version: ~\n"
    )
    records = records_from_text("datasets", text, "datasets.yaml")
    assert records == {
        "it's/data": DatasetRecord(
            status=DatasetStatus.VALIDATED, version='v1\t"2"é', fingerprint="sha256:ab#c"
        ),
        "qa gold": DatasetRecord(status=DatasetStatus.RETIRED, version="a # b"),
        "x.y-z_1/2": DatasetRecord(status=DatasetStatus.PROPOSED, version="~"),
    }


def test_windows_line_endings_and_a_byte_order_mark_are_read() -> None:
    """CRLF line ends and a leading BOM, as Windows editors write them, load like plain LF."""
    text = "\ufeffpolicies:\r\n  d:\r\n    policy: redacted\r\n"
    assert records_from_text("policies", text) == {"d": PolicyRecord(policy=Policy.REDACTED)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes", True),
        ("No", False),
        ("TRUE", True),
        ("false", False),
        ("on", True),
        ("OFF", False),
        ("y", True),
        ("n", False),
        ("1", True),
        ("0", False),
    ],
)
def test_booleans_are_read_as_strictyaml_reads_them(text: str, expected: bool) -> None:
    """`requires_baseline` takes strictyaml's boolean words in any case."""
    doc = f"metrics:\n  m:\n    status: gating\n    dataset: d\n    requires_baseline: {text}\n"
    assert one(MetricRecord, "metrics", doc).requires_baseline is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1", 1.0), ("-0.5", -0.5), ("+.5", 0.5), ("5.", 5.0), ("1e-3", 0.001), ("2E2", 200.0)],
)
def test_floats_are_plain_decimal_numbers(text: str, expected: float) -> None:
    """Threshold values take decimal and exponent spellings."""
    doc = f"thresholds:\n  m:\n    op: '>'\n    value: {text}\n    approval: proposed\n"
    assert one(ThresholdRecord, "thresholds", doc).value == expected


def test_a_folder_can_be_a_path_object(records_dir: Path) -> None:
    """`load_records` takes an os.PathLike as well as a string."""
    write(records_dir, {"policies.yaml": FULL["policies.yaml"]})
    assert load_records(records_dir).policies["qa-gold"].origin.path == os.path.join(
        str(records_dir), "policies.yaml"
    )


def test_the_bundled_example_folder_loads() -> None:
    """The example host_records/ that ships with evalglass loads without error."""
    records = load_records(REPO / "host_records")
    assert records.metrics
    assert all(record.origin.line > 0 for record in records.metrics.values())


def test_two_thousand_records_load_in_linear_time() -> None:
    """2,000 records (strictyaml: about 36 s) load far under a second: no quadratic step."""
    body = "".join(
        f"  task{i}/m:\n    status: gating\n    dataset: d{i}  # why\n    min_samples: 50\n"
        for i in range(2000)
    )
    start = time.perf_counter()
    records = records_from_text("metrics", "metrics:\n" + body)
    assert len(records) == 2000
    assert time.perf_counter() - start < 2.0


# --- The folder and the files -----------------------------------------------------------------


def test_a_missing_folder_is_an_error(records_dir: Path) -> None:
    """A folder that does not exist is named in the error, with what to do about it."""
    with pytest.raises(RecordError) as info:
        load_records("no_such_records")
    assert str(info.value) == (
        "no_such_records: host records folder does not exist: create one with `evalglass "
        "init`, or name yours with --records DIR"
    )


def test_a_file_instead_of_a_folder_is_an_error(records_dir: Path) -> None:
    """A path that is a file, not a folder, is named in the error."""
    (records_dir / "plain.txt").write_text("x", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_records("host_records/plain.txt")
    assert str(info.value) == (
        "host_records/plain.txt: host records folder is not a directory: create one with "
        "`evalglass init`, or name yours with --records DIR"
    )


def test_a_file_that_is_not_utf8_is_an_error(records_dir: Path) -> None:
    """Bytes that are not UTF-8 are reported with the line they are on."""
    (records_dir / "datasets.yaml").write_bytes(b"datasets:\n  d:\n    version: caf\xe9\n")
    with pytest.raises(RecordError) as info:
        load_records("host_records")
    assert str(info.value) == "host_records/datasets.yaml:3: is not valid UTF-8 (byte 0xe9)"


def test_a_directory_named_like_a_file_is_an_error(records_dir: Path) -> None:
    """A directory where a records file should be is not silently skipped."""
    (records_dir / "judges.yaml").mkdir()
    with pytest.raises(RecordError) as info:
        load_records("host_records")
    assert str(info.value) == "host_records/judges.yaml: is a directory, not a file"


def test_a_broken_link_is_an_error(records_dir: Path) -> None:
    """A records file that links nowhere is an error, not a missing (empty) file."""
    (records_dir / "policies.yaml").symlink_to(records_dir / "elsewhere.yaml")
    with pytest.raises(RecordError) as info:
        load_records("host_records")
    assert str(info.value) == "host_records/policies.yaml: is a broken symbolic link"


def test_an_unreadable_file_is_an_error(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An OS error reading a file becomes a RecordError naming the file."""
    write(records_dir, {"metrics.yaml": "metrics:\n"})

    def refuse(path: str) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(load_module._inputs, "read_regular", refuse)
    with pytest.raises(RecordError) as info:
        load_records("host_records")
    assert str(info.value) == "host_records/metrics.yaml: cannot be read: Permission denied"


def test_record_error_carries_path_line_and_message(error: Errors) -> None:
    """The error keeps its parts apart for tools, and prints them as `path:line: message`."""
    with pytest.raises(RecordError) as info:
        records_from_text("policies", "policies:\n  d:\n    policy: maybe\n", "p.yaml")
    assert (info.value.path, info.value.line) == ("p.yaml", 3)
    assert info.value.message.startswith("policy: 'maybe' is not one of")


# --- YAML the subset refuses ------------------------------------------------------------------


T = "thresholds.yaml"
M = "metrics.yaml"
D = "datasets.yaml"
MH = "metrics:\n  qa/x:\n    status: gating\n"  # a metric head; line 4 is the next field
TH = "thresholds:\n  qa/x:\n"  # a threshold head; line 3 is the first field


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            T,
            TH + "    op: >=\n",
            "host_records/thresholds.yaml:3: op: '>=' must be quoted (write op: '>=')",
        ),
        (
            T,
            TH + "    op: >  # why\n",
            "host_records/thresholds.yaml:3: op: '>' must be quoted (write op: '>')",
        ),
        (
            T,
            TH + "    op: <=\n",
            "host_records/thresholds.yaml:3: op: '<=' must be quoted (write op: '<=')",
        ),
        (
            T,
            TH + "    op: '>='\n    approved_by: @alice\n",
            (
                "host_records/thresholds.yaml:4: approved_by: '@alice' must be "
                "quoted (write approved_by: '@alice')"
            ),
        ),
        (
            M,
            MH + "    dataset: `d`\n",
            "host_records/metrics.yaml:4: dataset: '`d`' must be quoted (write dataset: '`d`')",
        ),
        (
            M,
            MH + "    dataset: %d\n",
            "host_records/metrics.yaml:4: dataset: '%d' must be quoted (write dataset: '%d')",
        ),
        (
            M,
            MH + "    dataset: : d\n",
            "host_records/metrics.yaml:4: dataset: ': d' must be quoted (write dataset: ': d')",
        ),
        (
            M,
            MH + "    dataset: it's\n    judge: ,j\n",
            "host_records/metrics.yaml:5: judge: ',j' must be quoted (write judge: ',j')",
        ),
    ],
)
def test_plain_values_starting_with_an_indicator_must_be_quoted(
    error: Errors, name: str, text: str, expected: str
) -> None:
    """A plain value YAML reads as structure, or an unquoted comparison, says how to quote it."""
    assert error(name, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            MH + "    dataset: {name: d}\n",
            (
                "4: dataset: flow style is not allowed: write 'dataset:' then one indented "
                "'key: value' line per entry (and quote text that starts with '{')"
            ),
        ),
        (
            MH + "    dataset: [d]\n",
            (
                "4: dataset: flow style is not allowed: write 'dataset:' then one indented "
                "'- item' line per item (and quote text that starts with '[')"
            ),
        ),
        (
            "metrics:\n  qa/x: {status: gating}\n",
            "2: metric 'qa/x': flow style is not allowed: write one 'key: value' per line",
        ),
        (
            "metrics: {}\n",
            "1: 'metrics': flow style is not allowed: write one 'key: value' per line",
        ),
        (
            MH + "    dataset: &d qa\n",
            "4: dataset: anchors (&) are not allowed; quote the text (write dataset: '&d qa')",
        ),
        (
            MH + "    dataset: *d\n",
            "4: dataset: aliases (*) are not allowed; quote the text (write dataset: '*d')",
        ),
        (
            MH + "    dataset: !!str d\n",
            "4: dataset: tags (!) are not allowed; quote the text (write dataset: '!!str d')",
        ),
        ("metrics:\n  qa/x: &base\n", "2: metric 'qa/x': anchors (&) are not allowed"),
        (
            MH + "    dataset: |\n      qa\n",
            "4: dataset: block scalars (|) are not allowed; write the value on one line",
        ),
        (
            MH + "    dataset: |-\n",
            "4: dataset: block scalars (|) are not allowed; write the value on one line",
        ),
    ],
)
def test_flow_style_anchors_tags_and_block_scalars_are_refused(
    error: Errors, text: str, expected: str
) -> None:
    """Flow collections, anchors, aliases, tags and block scalars each get their own message."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "metrics:\n  qa/x:\n    status: gating\n  qa/x:\n    status: draft\n",
            "4: duplicate metric id 'qa/x' (first on line 2)",
        ),
        (
            "metrics:\n  qa/x:\n    status: gating\n  'qa/x':\n    status: draft\n",
            "4: duplicate metric id 'qa/x' (first on line 2)",
        ),
        (
            MH + "    dataset: d\n    status: draft\n",
            "5: duplicate field 'status' in metric 'qa/x' (first on line 3)",
        ),
        (
            "metrics:\n  a:\n    status: gating\nmetrics:\n",
            "4: duplicate top-level key 'metrics' (first on line 1)",
        ),
    ],
)
def test_duplicates_name_the_first_line(error: Errors, text: str, expected: str) -> None:
    """A repeated id, field or top-level key is refused, pointing back at its first line."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "metric:\n",
            (
                "1: unknown top-level key 'metric' (did you mean 'metrics'?); this "
                "file must start with 'metrics:'"
            ),
        ),
        ("gates:\n", ("1: unknown top-level key 'gates'; this file must start with 'metrics:'")),
        (
            "thresholds:\n",
            (
                "1: top-level key 'thresholds' belongs in thresholds.yaml; this "
                "file must start with 'metrics:'"
            ),
        ),
        (
            "metrics:\n  a:\n    status: gating\nnotes:\n",
            "4: unexpected top-level key 'notes': this file holds only 'metrics:' (line 1)",
        ),
        (
            "metrics: all of them\n",
            (
                "1: 'metrics' must be a mapping of records (indented 'id:' lines "
                "below it), not the value 'all of them'"
            ),
        ),
        ("- metrics\n", ("1: lists are not allowed here: the top level holds 'key: value' lines")),
        # Not a records file at all: nothing of it is shown back (it may hold anything).
        ("just text\n", "1: expected 'metrics:' as the first key; this is not a host-records file"),
        (
            "TOKEN=s3cret\n",
            "1: expected 'metrics:' as the first key; this is not a host-records file",
        ),
        ("%PDF-1.7\n", "1: expected 'metrics:' as the first key; this is not a host-records file"),
        (
            "metrics:x\n",
            (
                "1: expected 'key: value' in the top level, found 'metrics:x' (put "
                "a space after ':')"
            ),
        ),
    ],
)
def test_the_top_level_is_one_key_named_for_the_file(
    error: Errors, text: str, expected: str
) -> None:
    """metrics.yaml holds `metrics:` and nothing else at the top level."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "  metrics:\n",
            (
                "1: wrong indentation: 'metrics:' must start at the beginning of "
                "the line, found 2 spaces"
            ),
        ),
        (
            "metrics:\n  a:\n    status: gating\n b:\n",
            "4: wrong indentation: expected 2 spaces, found 1",
        ),
        (
            "metrics:\n  a:\n    status: gating\n   dataset: d\n",
            "4: wrong indentation: expected 4 spaces, found 3",
        ),
        (
            "metrics:\n  a:\n    status: gating\n  b:\n      status: gating\n",
            "5: wrong indentation: expected 4 spaces, found 6",
        ),
        (
            "metrics:\n  a:\n    status: gating\n    dataset: qa\n      gold\n",
            (
                "5: wrong indentation: expected 4 spaces, found 6 (a value must "
                "fit on its key's line)"
            ),
        ),
        (
            "metrics:\n  a:\n    status: gating\n\tdataset: d\n",
            "4: tab characters are not allowed; indent and separate with spaces",
        ),
        (
            "metrics:\n  a:\n    status:\tgating\n",
            "3: tab characters are not allowed; indent and separate with spaces",
        ),
    ],
)
def test_indentation_is_spaces_and_consistent(error: Errors, text: str, expected: str) -> None:
    """Records share one column and fields another, across the whole file; tabs are refused."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "metrics:\n  qa/x: gating\n",
            (
                "2: metric 'qa/x' must be a mapping of fields (indented 'field: "
                "value' lines below it), not the value 'gating'"
            ),
        ),
        (
            "metrics:\n  - qa/x\n",
            "2: lists are not allowed here: 'metrics' holds 'key: value' lines",
        ),
        (
            MH + "    dataset:\n      name: qa\n",
            (
                "5: dataset: nested mappings and lists are not allowed; a field "
                "holds one value on its own line"
            ),
        ),
        (
            MH + "    dataset:\n      - qa\n",
            (
                "5: dataset: nested mappings and lists are not allowed; a field "
                "holds one value on its own line"
            ),
        ),
        (
            MH + "    dataset: name: qa\n",
            (
                "4: dataset: nested mappings are not allowed; quote the value if "
                "':' is part of the text (write dataset: 'name: qa')"
            ),
        ),
        (
            MH + "    dataset: - qa\n",
            "4: dataset: lists are not allowed here: a field holds one value",
        ),
        (
            MH + "    - dataset\n",
            "4: lists are not allowed here: metric 'qa/x' holds 'key: value' lines",
        ),
        (
            MH + "    ? dataset\n",
            "4: complex keys ('? ') are not allowed: metric 'qa/x' holds 'key: value' lines",
        ),
        (MH + "    dataset qa\n", "4: expected 'key: value' in metric 'qa/x', found 'dataset qa'"),
        ("metrics:\n  '':\n    status: gating\n", "2: a metric id must not be empty"),
    ],
)
def test_records_are_mappings_of_one_line_scalars(error: Errors, text: str, expected: str) -> None:
    """A record is an `id:` with `field: value` lines below; nothing nests deeper."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            MH + "    dataset: 'qa\n",
            "4: dataset: the quoted value does not close on its line (values are one line)",
        ),
        (MH + '    dataset: "qa\\\n', "4: dataset: multi-line quoted values are not allowed"),
        (
            MH + '    dataset: "q\\qa"\n',
            "4: dataset: unknown escape '\\q' in a double-quoted value",
        ),
        (
            MH + '    dataset: "\\x4"\n',
            "4: dataset: unknown escape '\\x4\"' in a double-quoted value",
        ),
        (
            MH + "    dataset: 'qa' gold\n",
            "4: dataset: unexpected text after the quoted value: 'gold'",
        ),
        (MH + "    'dataset' qa\n", "4: expected ':' after the key 'dataset'"),
        (
            MH + "    dataset: q\x07a\n",
            "4: unsupported character U+0007: records are plain text",
        ),
        (
            MH + "    dataset: qa\rjudge: j\n",
            "4: a carriage return without a line feed: use LF or CRLF line ends",
        ),
        ("---\n---\nmetrics:\n", "2: only one YAML document is allowed: remove this '---' line"),
        ("metrics:\n---\n", "2: only one YAML document is allowed: remove this '---' line"),
        ("--- metrics:\n", "1: write '---' on a line of its own"),
        ("metrics:\n...\n", "2: the document end marker '...' is not allowed"),
    ],
)
def test_quoting_characters_and_documents(error: Errors, text: str, expected: str) -> None:
    """Broken quotes, unknown escapes, control characters and extra documents are refused."""
    assert error(M, text) == "host_records/metrics.yaml:" + expected


# --- What the schema refuses ------------------------------------------------------------------


def test_a_bad_enum_value_lists_the_choices_and_a_close_match(error: Errors) -> None:
    """An unknown enum value lists the allowed values and suggests the nearest one."""
    text = "datasets:\n  qa-gold:\n    status: validatd\n    version: v\n"
    assert error(D, text) == (
        "host_records/datasets.yaml:3: status: 'validatd' is not one of proposed, validated, "
        "retired (did you mean 'validated'?)"
    )


def test_a_bad_enum_value_without_a_close_match_only_lists_the_choices(error: Errors) -> None:
    """With nothing close, the message lists the allowed values and guesses nothing."""
    text = "policies:\n  qa-gold:\n    policy: ok\n"
    assert error("policies.yaml", text) == (
        "host_records/policies.yaml:3: policy: 'ok' is not one of permitted, redacted, "
        "restricted, forbidden, unknown"
    )


def test_enum_values_are_case_sensitive(error: Errors) -> None:
    """`Gating` is not `gating`: enum values match exactly, as strictyaml's Enum does."""
    assert error(M, "metrics:\n  qa/x:\n    status: Gating\n    dataset: d\n") == (
        "host_records/metrics.yaml:3: status: 'Gating' is not one of draft, informational, "
        "calibrating, gating, retired (did you mean 'gating'?)"
    )


def test_a_missing_required_field_points_at_the_record(error: Errors) -> None:
    """A missing required field is reported on the record's id line."""
    assert error(M, "metrics:\n  qa/x:\n    status: gating\n") == (
        "host_records/metrics.yaml:2: metric 'qa/x' is missing required field 'dataset'"
    )


def test_a_record_with_no_fields_is_missing_its_first_required_field(error: Errors) -> None:
    """An `id:` with nothing under it is a record with every required field missing."""
    assert error(D, "datasets:\n  qa:\n  qb:\n    status: proposed\n") == (
        "host_records/datasets.yaml:2: dataset 'qa' is missing required field 'status'"
    )


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        (
            "statsu: gating",
            (
                "unknown field 'statsu' in metric 'qa/x' (did you mean 'status'?); "
                "allowed fields: status, dataset, judge, requires_baseline, "
                "min_samples, decision, max_missing_fraction, interval_level, scale"
            ),
        ),
        (
            "owner: '@bob'",
            (
                "unknown field 'owner' in metric 'qa/x'; allowed fields: status, "
                "dataset, judge, requires_baseline, min_samples, decision, "
                "max_missing_fraction, interval_level, scale"
            ),
        ),
    ],
)
def test_an_unknown_field_lists_the_allowed_fields(
    error: Errors, field: str, expected: str
) -> None:
    """An unknown field names the allowed ones, and the nearest when it looks like a typo."""
    text = f"metrics:\n  qa/x:\n    status: gating\n    dataset: d\n    {field}\n"
    assert error(M, text) == "host_records/metrics.yaml:5: " + expected


@pytest.mark.parametrize(
    ("name", "field", "expected"),
    [
        (M, "min_samples: many", "min_samples: 'many' is not an integer"),
        (M, "min_samples: 1_000", "min_samples: '1_000' is not an integer"),
        (M, "min_samples: 1.5", "min_samples: '1.5' is not an integer"),
        (M, "min_samples: 0x10", "min_samples: '0x10' is not an integer"),
        (M, "min_samples: 0", "min_samples: '0' must be at least 1"),
        (M, "max_missing_fraction: 1.5", "max_missing_fraction: '1.5' must be at most 1"),
        (M, "max_missing_fraction: -0.1", "max_missing_fraction: '-0.1' must be at least 0"),
        (
            M,
            "requires_baseline: maybe",
            "requires_baseline: 'maybe' is not a boolean (write yes or no)",
        ),
        (M, "judge: ''", "judge: must not be empty (leave the field out instead)"),
        (M, "judge:", "judge: must not be empty (leave the field out instead)"),
        (T, "value: high", "value: 'high' is not a number"),
        (T, "value: nan", "value: 'nan' is not a number"),
        (T, "value: .inf", "value: '.inf' is not a number"),
        (T, "value: 1e999", "value: '1e999' is not a finite number"),
        (T, "value: 0.5.1", "value: '0.5.1' is not a number"),
        (
            T,
            "approved_on: 2026-13-01",
            "approved_on: '2026-13-01' is not a date (write YYYY-MM-DD)",
        ),
        (T, "approved_on: 20261101", "approved_on: '20261101' is not a date (write YYYY-MM-DD)"),
        (
            T,
            "approved_on: 2026-11-01T10:00",
            "approved_on: '2026-11-01T10:00' is not a date (write YYYY-MM-DD)",
        ),
    ],
)
def test_a_wrongly_typed_value_says_what_was_expected(
    error: Errors, name: str, field: str, expected: str
) -> None:
    """Integers, floats, booleans, dates and strings are checked, with the value quoted back."""
    if name == M:
        text = f"metrics:\n  qa/x:\n    status: gating\n    dataset: d\n    {field}\n"
    else:
        text = f"thresholds:\n  qa/x:\n    op: '>='\n    approval: proposed\n    {field}\n"
    assert error(name, text) == f"host_records/{name}:5: {expected}"


@pytest.mark.parametrize("missing", ["approved_by", "approved_on"])
def test_an_approved_threshold_names_who_approved_it_and_when(error: Errors, missing: str) -> None:
    """`approval: approved` requires both approved_by and approved_on."""
    fields = {"approved_by": "'@alice'", "approved_on": "2026-11-01"}
    del fields[missing]
    text = (
        "thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: approved\n"
        + "".join(f"    {name}: {value}\n" for name, value in fields.items())
        + "    approved_for:\n      dataset_version: v1\n"
    )
    assert error(T, text) == (
        f"host_records/thresholds.yaml:2: threshold 'qa/x' is approved but is missing required "
        f"field '{missing}'"
    )


def test_a_proposed_threshold_needs_no_approver() -> None:
    """A proposed threshold loads without approved_by or approved_on."""
    text = "thresholds:\n  qa/x:\n    op: '<='\n    value: 0.05\n    approval: proposed\n"
    assert one(ThresholdRecord, "thresholds", text).approval is Approval.PROPOSED


def test_unprintable_text_is_escaped_in_messages(error: Errors) -> None:
    """A value with a control character (from an escape) is shown escaped, keeping one line."""
    text = 'policies:\n  d:\n    policy: "per\\nmitted"\n'
    assert error("policies.yaml", text) == (
        'host_records/policies.yaml:3: policy: "per\\nmitted" is not one of permitted, redacted, '
        "restricted, forbidden, unknown (did you mean 'permitted'?)"
    )


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(list(KINDS)),
    text=st.text(
        st.sampled_from("metrics:thresholds \n\t'\"#-?{}[]&*!|>@%\\abc01.é\r"), max_size=80
    ),
)
def test_any_text_loads_or_raises_a_record_error(kind: str, text: str) -> None:
    """Whatever the text, the loader returns records or raises RecordError, never anything else."""
    try:
        records_from_text(kind, text)
    except RecordError as exc:
        assert "\n" not in str(exc)
