"""No crash on untrusted or mistaken input: one line and exit 4 for input, 2 for usage; an
exception evalglass did not expect is reported as its own bug (exit 70), never as a verdict or
as a fault in the user's file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evalglass.core.exits import INTERNAL_ERROR_EXIT
from evalglass.evidence.adapters import _common
from evalglass.shell.cli import app
from tests.cli_runner import cli
from tests.evidence_files import FIXTURES
from tests.hostile.harness import copy_example, one_line_error, run

LMEVAL = next((FIXTURES / "lm-eval").rglob("results_*.json"))

DEEP = "[" * 100_000 + "]" * 100_000
HUGE_INTEGER = "1" * 5000  # past Python's 4,300-digit limit on int(str)
WIDE_INTEGER = "9" * 400  # parses, but no float holds it


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


OUTPUTS = {
    "deep JSON": ("run.json", '{"metrics": {"a": ' + DEEP + "}}"),
    "deep JSON row": ("rows.jsonl", '{"metric": "a", "score": 1, "x": ' + DEEP + "}\n"),
    "an integer past 4,300 digits": ("run.json", '{"metrics": {"a": ' + HUGE_INTEGER + "}}"),
    "an integer score past 4,300 digits": (
        "rows.jsonl",
        '{"metric": "a", "score": ' + HUGE_INTEGER + "}\n",
    ),
    "a cluster that is a list": ("rows.jsonl", '{"metric": "a", "score": 1, "cluster": [1]}\n'),
    "a cluster that is an object": (
        "rows.jsonl",
        '{"metric": "a", "score": 1, "cluster": {"k": 1}}\n',
    ),
    "a deep lm-eval results file": (
        "results_2026-01-01T00-00-00.json",
        '{"results": {"t": {"alias": "t", "acc,none": ' + DEEP + "}}}",
    ),
}


@pytest.mark.parametrize("case", list(OUTPUTS), ids=list(OUTPUTS))
def test_malformed_outputs_are_one_line_errors(work: Path, case: str) -> None:
    """Each hostile output is refused in one line naming the file, exit 4, no traceback."""
    name, text = OUTPUTS[case]
    (work / name).write_text(text)
    error = one_line_error(cli("score", name, cwd=work))
    assert error.startswith(f"evalglass: {name}")


@pytest.mark.parametrize(
    "content",
    [
        '{"metrics": {"a": ' + WIDE_INTEGER + "}}",
        '{"metrics": {"a": {"scores": [1e308, -1e308, 1e308, 1e308]}}}',
        '{"metrics": {"a": {"value": 0.5, "n": 10, "stderr": 1e308}}}',
    ],
    ids=["an integer no float holds", "scores whose squares overflow", "a huge stderr"],
)
def test_numbers_past_a_float_are_unsound_never_a_crash(work: Path, content: str) -> None:
    """Values and spreads past the largest float leave no finite interval: the gate on them is
    unsound (exit 3), never a crash and never a pass."""
    (work / "run.json").write_text(content)
    _gate_on_a(work)
    result = cli("score", "run.json", "--format", "json", cwd=work)
    assert result.returncode == 3, result.stderr
    card = next(m for m in json.loads(result.stdout)["metrics"] if m["id"] == "a")
    assert card["gate"]["result"] == "unsound"


def _gate_on_a(work: Path) -> None:
    """Records that let metric `a` gate (and nothing else)."""
    (work / "host_records" / "metrics.yaml").write_text(
        "metrics:\n  a:\n    status: gating\n    dataset: qa-gold\n    min_samples: 1\n"
    )
    (work / "host_records" / "thresholds.yaml").write_text(
        "thresholds:\n  a:\n    op: '>='\n    value: 0.5\n    approval: approved\n"
        "    approved_by: '@alice'\n    approved_on: 2026-11-01\n    approved_for:\n"
        "      dataset_version: '2026-10'\n"
    )


def test_overflowing_rows_are_refused_in_one_line(work: Path) -> None:
    """±1e308 rows: past what the rows reader sums exactly, an input error (exit 4), never a
    crash."""
    (work / "rows.jsonl").write_text(
        "".join(f'{{"metric": "a", "score": {s}}}\n' for s in ("1e308", "-1e308", "1e308"))
    )
    assert "score" in one_line_error(cli("score", "rows.jsonl", cwd=work))


def test_a_lone_surrogate_in_an_output_id_is_shown_escaped(work: Path) -> None:
    """A JSON "\\ud800" escape in a metric id: every format prints, each escaping it."""
    (work / "run.json").write_text('{"metrics": {"a\\ud800b": 1}}')
    for fmt in ("terminal", "markdown", "json", "junit", "github", "html"):
        result = cli("score", "run.json", "--format", fmt, cwd=work)
        assert result.returncode == 3, (fmt, result.stderr)  # qa/exact_match is unmeasured
        assert "\\ud800" in result.stdout, fmt


def test_a_lone_surrogate_escape_in_the_records_fails_validation(work: Path) -> None:
    """A records id written "\\ud800" is refused by validate, as by score: exit 4, one line."""
    metrics = work / "host_records" / "metrics.yaml"
    metrics.write_text(metrics.read_text().replace("qa/exact_match:", '"qa/exact\\ud800":', 1))
    assert "lone surrogate" in one_line_error(cli("validate", cwd=work))
    assert "lone surrogate" in one_line_error(cli("score", "run.json", cwd=work))


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        ("metrics.yaml", "min_samples: 100", "min_samples: " + HUGE_INTEGER),
        ("thresholds.yaml", "value: 0.85", "value: " + HUGE_INTEGER),
    ],
    ids=["an integer field", "a number field"],
)
def test_huge_numbers_in_records_are_refused_in_a_short_line(
    work: Path, file: str, old: str, new: str
) -> None:
    """A 5,000-digit number in a records file: exit 4, one line, the value cut short."""
    path = work / "host_records" / file
    path.write_text(path.read_text().replace(old, new, 1))
    error = one_line_error(cli("validate", cwd=work))
    field = new.split(":")[0]
    assert error.startswith(f"evalglass: host_records/{file}:6: {field}: '111"), error
    assert "…' is " in error and len(error) < 400, error


BASELINES = {
    "deep JSON": '{"schema_version": 1, "metrics": ' + DEEP + "}",
    "a huge n": "n",
    "samples that are no list": "samples",
    "level 0": ("level", 0),
    "level 1": ("level", 1),
    "level 7.5": ("level", 7.5),
    "a NaN value": ("value", "NaN"),
    "an Infinity value": ("value", "Infinity"),
    "a true value": ("value", True),
}


@pytest.mark.parametrize("case", list(BASELINES), ids=list(BASELINES))
def test_a_malformed_baseline_scorecard_is_one_line(work: Path, case: str) -> None:
    """A baseline scorecard the strict contract refuses: exit 4 naming the baseline."""
    saved = cli("score", "run.json", "--format", "json", "--keep-samples", cwd=work)
    doc = json.loads(saved.stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    edit = BASELINES[case]
    if isinstance(edit, str) and edit.startswith("{"):
        text = edit
    else:
        if edit == "n":
            entry["n"] = 10**30
        elif edit == "samples":
            entry["samples"] = {"s": 1}
        else:
            entry[edit[0]] = edit[1]
        text = json.dumps(doc).replace('"NaN"', "NaN").replace('"Infinity"', "Infinity")
    (work / "host_records" / "base.json").write_text(text)
    (work / "host_records" / "baselines.yaml").write_text(
        "baselines:\n  qa/exact_match:\n    scorecard: base.json\n    dataset_version: '2026-10'\n"
    )
    error = one_line_error(cli("score", "run.json", cwd=work))
    assert "baseline 'qa/exact_match'" in error


def test_an_unknown_input_format_is_a_usage_error(work: Path) -> None:
    """--input-format bogus: exit 2 naming the formats there are, no traceback."""
    result = cli("score", "run.json", "--input-format", "bogus", cwd=work)
    assert result.returncode == 2, result.stderr
    assert "generic" in result.stderr and "Traceback" not in result.stderr


def test_an_unreadable_records_folder_is_an_input_error(work: Path) -> None:
    """A records folder whose files cannot be read (a FIFO where a file should be): exit 4."""
    (work / "host_records" / "metrics.yaml").unlink()
    os.mkfifo(work / "host_records" / "metrics.yaml")
    # In a subprocess: reading a FIFO that has no writer would hang this test, not fail it.
    assert "not a regular file" in one_line_error(run("score", "run.json", cwd=work))


@pytest.mark.parametrize("where", ["records", "baseline", "output"])
def test_a_fifo_or_device_input_never_hangs(work: Path, where: str) -> None:
    """A FIFO with no writer, or a device, named as a records file, a baseline file or an eval
    output, is refused at once (the run's time limit is the hang guard)."""
    records = work / "host_records"
    if where == "records":
        (records / "policies.yaml").unlink()
        os.mkfifo(records / "policies.yaml")
        args = ["score", "run.json"]
    elif where == "baseline":
        os.mkfifo(records / "base.json")
        (records / "baselines.yaml").write_text(
            "baselines:\n  qa/exact_match:\n    scorecard: base.json\n"
            "    dataset_version: '2026-10'\n"
        )
        args = ["score", "run.json"]
    else:
        os.mkfifo(work / "run.fifo")
        args = ["score", "run.fifo", "/dev/zero"]
    one_line_error(run(*args, cwd=work))


def test_a_bug_in_an_adapter_is_reported_as_ours(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A KeyError inside an adapter (here a helper every adapter uses, broken on purpose) is not
    blamed on the user's file: one line saying it is a bug in evalglass, with how to see the
    traceback, and exit 70 (never 1, "a gate failed", nor 4, "your input")."""

    def broken(obj: object, key: str) -> dict[str, object]:
        raise KeyError(key)

    monkeypatch.setattr(_common, "section", broken)
    monkeypatch.chdir(work)
    result = CliRunner().invoke(app, ["score", str(LMEVAL)])
    assert result.exit_code == INTERNAL_ERROR_EXIT, result.output
    assert "bug in evalglass" in result.output and "EVALGLASS_DEBUG=1" in result.output
    assert "unexpected structure" not in result.output
    assert len(result.output.splitlines()) == 1


def test_with_debug_set_the_bug_shows_its_traceback(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EVALGLASS_DEBUG=1 lets the unexpected exception through, traceback and all."""
    monkeypatch.setattr(
        "evalglass.shell.api.score", lambda *a, **k: (_ for _ in ()).throw(TypeError("ours"))
    )
    monkeypatch.setenv("EVALGLASS_DEBUG", "1")
    monkeypatch.chdir(work)
    result = CliRunner().invoke(app, ["score", "run.json"])
    assert isinstance(result.exception, TypeError)


LONG_NAME = "a" * 5000  # one name past NAME_MAX
LONG_PATH = "a/" * 3000 + "run.json"  # a path past PATH_MAX


@pytest.mark.parametrize(
    "args",
    [
        ("score", LONG_NAME),
        ("score", LONG_PATH),
        ("score", LONG_NAME + "*"),
        ("metrics", LONG_PATH),
        ("score", "run.json", "--records", LONG_NAME),
        ("doctor", "--records", LONG_PATH),
        ("score", "run.json", "--template", LONG_NAME),
    ],
    ids=["output-name", "output-path", "pattern", "metrics", "records", "doctor", "template"],
)
def test_a_path_longer_than_the_os_allows_is_one_line(work: Path, args: tuple[str, ...]) -> None:
    """A path the OS refuses to look up is the input's error: one short line, exit 4."""
    line = one_line_error(run(*args, cwd=work))
    # The path is cut short and the line says why it could not be used.
    assert line.startswith("evalglass: ") and "…: " in line and len(line) < 1000, line
    assert line.endswith(("File name too long", "name yours with --records DIR")), line


@pytest.mark.parametrize("target", [LONG_NAME, LONG_PATH])
def test_an_output_path_longer_than_the_os_allows_is_refused(work: Path, target: str) -> None:
    """An --output the OS cannot look up is refused as a target, before any work (exit 2)."""
    result = run("score", "run.json", "--output", target, cwd=work)
    assert result.returncode == 2, result.stderr[-500:]
    assert "File name too long" in result.stderr
    assert "Traceback" not in result.stderr
