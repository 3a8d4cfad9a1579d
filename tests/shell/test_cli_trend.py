"""End to end: `evalglass trend` on real scorecard files, and the example series regenerated."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import cli

ROOT = Path(__file__).resolve().parents[2]
SERIES = ROOT / "examples" / "trend"
GOLDEN = ROOT / "tests" / "golden" / "trend"
# As the golden files name them: relative to the repository, given newest first.
WEEKS = [f"examples/trend/scorecards/week-{n}.json" for n in range(6, 0, -1)]


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """A copy of the example scorecards, and no host records anywhere near them."""
    shutil.copytree(SERIES / "scorecards", tmp_path / "cards")
    return tmp_path


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("terminal", "txt"), ("markdown", "md"), ("html", "html")]
)
def test_trend_prints_each_format_exactly_as_reviewed(fmt: str, suffix: str) -> None:
    """The command's output is the golden rendering of the example series; exit 0."""
    result = cli("trend", *WEEKS, "--format", fmt, cwd=ROOT)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == (GOLDEN / f"trend.{suffix}").read_text(encoding="utf-8")


def test_trend_reads_no_records_and_changes_no_verdict(cards: Path) -> None:
    """With no host_records folder and a failing run in the series, trend still exits 0."""
    assert not (cards / "host_records").exists()
    result = cli("trend", *sorted(str(p) for p in (cards / "cards").iterdir()), cwd=cards)
    assert result.returncode == 0, result.stderr
    assert "  5  2026-11-30        fail" in result.stdout


def test_metric_option_limits_the_trend_and_an_unknown_id_exits_2(cards: Path) -> None:
    """--metric shows only the ids asked for; an id no scorecard has is a one-line usage error."""
    files = sorted(str(p) for p in (cards / "cards").iterdir())
    result = cli("trend", *files, "--metric", "qa/helpfulness", "--format", "markdown", cwd=cards)
    assert result.returncode == 0
    assert "`qa/helpfulness`" in result.stdout and "`qa/exact_match`" not in result.stdout
    bad = cli("trend", *files, "--metric", "qa/helpfulnes", cwd=cards)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "evalglass: --metric: no scorecard given has the metric 'qa/helpfulnes'\n"


def test_output_writes_the_file_and_never_over_a_scorecard(cards: Path) -> None:
    """--output writes the page atomically; pointing it at a given scorecard is refused."""
    files = sorted(str(p) for p in (cards / "cards").iterdir())
    result = cli("trend", *files, "--format", "html", "--output", "trend.html", cwd=cards)
    assert result.returncode == 0 and result.stdout == ""
    assert (cards / "trend.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    before = Path(files[0]).read_bytes()
    refused = cli("trend", *files, "--output", files[0], cwd=cards)
    assert refused.returncode == 2 and "would overwrite the scorecard" in refused.stderr
    assert Path(files[0]).read_bytes() == before


def test_scorecard_formats_are_not_trend_formats(cards: Path) -> None:
    """--format json (a scorecard format) is a usage error."""
    result = cli("trend", "cards/week-1.json", "--format", "json", cwd=cards)
    assert result.returncode == 2


BAD = {
    "not json": ("{", "bad.json: not valid JSON"),
    "a wrong field": (None, "bad.json: metrics[0].n: expected an integer"),
    "a bad time": ("evaluated_at", "bad.json: evaluated_at: expected a time like"),
    "not a scorecard": ('{"hello": 1}', "bad.json: is not an evalglass scorecard JSON"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_scorecard_is_exit_4_naming_the_file_and_field(cards: Path, case: str) -> None:
    """One line on stderr, nothing on stdout, exit 4; the good files do not hide the bad one."""
    text, message = BAD[case]
    doc = json.loads((cards / "cards" / "week-1.json").read_text())
    if text is None:
        doc["metrics"][0]["n"] = "200"
        text = json.dumps(doc)
    elif text == "evaluated_at":
        doc["evaluated_at"] = "last week"
        text = json.dumps(doc)
    (cards / "bad.json").write_text(text)
    result = cli("trend", "cards/week-1.json", "bad.json", cwd=cards)
    assert result.returncode == 4 and result.stdout == ""
    assert result.stderr.startswith(f"evalglass: {message}") and result.stderr.count("\n") == 1


def test_a_missing_file_is_exit_4(cards: Path) -> None:
    """A scorecard that does not exist is named."""
    result = cli("trend", "cards/week-1.json", "nowhere.json", cwd=cards)
    assert result.returncode == 4 and result.stderr.startswith("evalglass: nowhere.json: ")


def test_scorecards_from_before_evaluated_at_come_first_and_it_says_so(cards: Path) -> None:
    """A file without evaluated_at (an older evalglass) is shown first, with the rule stated."""
    doc = json.loads((cards / "cards" / "week-6.json").read_text())
    del doc["evaluated_at"]
    (cards / "old.json").write_text(json.dumps(doc))
    result = cli("trend", "cards/week-2.json", "old.json", "cards/week-1.json", cwd=cards)
    assert result.returncode == 0, result.stderr
    assert "1 of 3 scorecards records no evaluation time" in result.stdout
    runs = [line.split() for line in result.stdout.splitlines()[4:7]]
    assert [r[-1] for r in runs] == ["old.json", "cards/week-1.json", "cards/week-2.json"]
    assert runs[0][1:3] == ["time", "unknown"]


def test_the_same_file_twice_is_one_run(cards: Path) -> None:
    """Overlapping globs name a file twice: it is one run."""
    result = cli("trend", "cards/week-1.json", "./cards/week-1.json", cwd=cards)
    metrics = len(json.loads((cards / "cards" / "week-1.json").read_text())["metrics"])
    assert result.returncode == 0 and f"1 run of {metrics} metrics" in result.stdout


def test_make_sh_regenerates_the_example_series_byte_for_byte(tmp_path: Path) -> None:
    """examples/trend/make.sh, run with the real CLI, writes exactly the committed files."""
    env = {
        **os.environ,
        "EVALGLASS": str(Path(sys.executable).parent / "evalglass"),
        "PYTHON": sys.executable,
        "NO_COLOR": "1",
    }
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run(
        ["bash", str(SERIES / "make.sh"), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.json"))
    committed = sorted(p.relative_to(SERIES) for p in SERIES.rglob("*.json"))
    assert made == committed and len(made) == 12
    for name in made:
        assert (tmp_path / name).read_bytes() == (SERIES / name).read_bytes(), name
