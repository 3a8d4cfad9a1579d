"""End to end: `evalglass run` on real records and real processes, through the installed command."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

from evalglass.evidence.model import Attempt, AttemptOutcome, CachedPass
from evalglass.records.model import CheckRecord
from evalglass.shell.check_progress import terminal_progress
from tests.shell.test_cli import EXAMPLE_OUTPUT, ROOT, run


def test_run_on_the_repositorys_example_passes_with_both_checks() -> None:
    """The bundled example: its fast file check and its full command check pass beside the
    eval output's gate; one scorecard, exit 0; quiet on stderr when it is not a terminal (and
    the command runs with PATH /usr/bin:/bin, as a bare CI machine has it)."""
    result = run("run", "--records", "host_records", "examples/run.json", "--no-cache", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "PASS — full tier: 3 gates enforced, all passed; 4 informational; success policy: "
        "success.yaml"
    )
    assert "  PASS     check/eval-output-names-model" in lines
    assert "  PASS     check/eval-output-present" in lines
    assert """      check: grep -q '"model"' examples/run.json""" in lines
    assert result.stderr == ""


def test_the_fast_tier_on_every_push_needs_no_eval_outputs() -> None:
    """`evalglass run --tier fast` with the bundled records (success.yaml: must_pass
    qa/exact_match) and no outputs, as docs/checks.md's every-push job runs it: the fast check
    decides (exit 0); the must-pass eval gate is left to the full run and said so."""
    result = run("run", "--tier", "fast", "--no-cache", cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "PASS — fast tier: 1 gate enforced, all passed; 3 informational; 2 gates not run; "
        "success policy: success.yaml"
    )
    assert (
        "  must-pass gate 'qa/exact_match' is left to the full run: this fast-tier run does not "
        "measure it"
    ) in lines
    assert (
        "      why: not_run: no output given to this fast-tier run measures it; the full run does"
    ) in lines
    # The full run of the same records asks for the number: missing, it cannot pass.
    full = run("run", "--no-cache", cwd=ROOT)
    assert full.returncode == 3


def test_the_fast_tier_runs_only_fast_checks_and_says_so() -> None:
    """`--tier fast`: the full check is listed as not run and counted in the first line."""
    result = run(
        "run", "--tier", "fast", "--no-cache", "--format", "json", "examples/run.json", cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert (doc["tier"], doc["counts"]["not_run"]) == ("fast", 1)
    by_id = {m["id"]: m for m in doc["metrics"]}
    assert by_id["check/eval-output-present"]["attempts"][0]["outcome"] == "passed"
    assert "attempts" not in by_id["check/eval-output-names-model"]
    assert by_id["check/eval-output-names-model"]["gate"]["reasons"][0]["code"] == "not_run"
    assert "attempts" not in by_id["qa/exact_match"]


def _project(tmp_path: Path, checks: str, metrics: str) -> Path:
    """A git repository with records of its own, as a team would have one."""
    (tmp_path / "host_records").mkdir()
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    (tmp_path / "host_records" / "checks.yaml").write_text("checks:\n" + checks)
    (tmp_path / "host_records" / "metrics.yaml").write_text("metrics:\n" + metrics)
    (tmp_path / ".gitignore").write_text("cache/\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@e"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run([*git, *args], cwd=tmp_path, check=True)
    return tmp_path


def test_a_pass_is_cached_and_the_scorecard_says_so(tmp_path: Path) -> None:
    """Second run: the command's pass comes from the cache, with its commit and time."""
    work = _project(
        tmp_path,
        "  unit:\n    shell: 'echo ok > /dev/null'\n    timeout: 30\n",
        "  check/unit:\n    status: gating\n",
    )
    args = ("run", "run.json", "--cache-dir", "cache", "--format", "json")
    first, second = run(*args, cwd=work), run(*args, cwd=work)
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    attempts = [
        next(m for m in json.loads(r.stdout)["metrics"] if m["id"] == "check/unit")["attempts"]
        for r in (first, second)
    ]
    assert attempts[0][0]["cached"] is None
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert attempts[1][0]["cached"]["commit"] == head


def test_a_line_ending_edit_git_normalises_runs_the_check_again(tmp_path: Path) -> None:
    """With `.gitattributes` `* text=auto` committed, a byte-comparing check passes and is
    cached; `keep.txt` rewritten with CRLF (git's normalised view of it unchanged) runs the
    check again, which fails: the cache key covers the bytes on disk."""
    (tmp_path / ".gitattributes").write_text("* text=auto\n")
    (tmp_path / "keep.txt").write_text("good\n")
    (tmp_path / "expected.txt").write_text("good\n")
    work = _project(
        tmp_path,
        "  same:\n    run: cmp -s keep.txt expected.txt\n    timeout: 30\n",
        "  check/same:\n    status: gating\n",
    )
    args = ("run", "run.json", "--cache-dir", "cache", "--format", "json")
    assert run(*args, cwd=work).returncode == 0
    assert run(*args, cwd=work).returncode == 0  # the cached pass
    (work / "keep.txt").write_bytes(b"good\r\n")
    again = run(*args, cwd=work)
    assert again.returncode == 1, again.stderr
    entry = next(m for m in json.loads(again.stdout)["metrics"] if m["id"] == "check/same")
    assert entry["attempts"][0]["cached"] is None
    assert entry["gate"]["result"] == "fail"


# A pytest-like check: its failure is on stdout, and only a deprecation warning on stderr.
_PYTEST_LIKE = (
    "printf '%s\\n' '..F.' 'FAILED tests/test_scorer.py::test_exact - assert 0.5 == 1.0' "
    "'1 failed, 3 passed in 0.12s'; "
    "echo 'PytestDeprecationWarning: the asyncio_mode default will change' >&2; exit 1"
)


def test_what_a_failing_check_printed_is_its_evidence_in_every_format(tmp_path: Path) -> None:
    """A check that failed shows the last lines of its stdout, not only a warning from stderr:
    in the JSON's attempts and in the terminal, Markdown, HTML, JUnit and GitHub scorecards."""
    work = _project(
        tmp_path,
        f'  unit:\n    shell: "{_PYTEST_LIKE}"\n    timeout: 30\n',
        "  check/unit:\n    status: gating\n",
    )
    shown = {}
    for fmt in ("json", "terminal", "markdown", "html", "junit", "github"):
        result = run("run", "run.json", "--format", fmt, cwd=work)
        assert result.returncode == 1, result.stderr
        shown[fmt] = result.stdout
    check = next(m for m in json.loads(shown["json"])["metrics"] if m["id"] == "check/unit")
    assert [a["stdout"].splitlines()[-1] for a in check["attempts"]] == [
        "1 failed, 3 passed in 0.12s"
    ] * 2
    assert check["attempts"][0]["stderr"].startswith("PytestDeprecationWarning")
    for fmt in ("terminal", "html", "junit"):
        assert "FAILED tests/test_scorer.py::test_exact - assert 0.5 == 1.0" in shown[fmt], fmt
    for fmt in ("markdown", "github"):
        assert "stdout: 1 failed, 3 passed in 0.12s" in shown[fmt], fmt


def test_bad_outputs_fail_before_any_check_runs(tmp_path: Path) -> None:
    """An unreadable output is exit 4, one line, and no check has started."""
    work = _project(
        tmp_path,
        "  mark:\n    shell: 'touch started'\n    timeout: 30\n",
        "  check/mark:\n    status: gating\n",
    )
    result = run("run", "missing.json", "--no-cache", cwd=work)
    assert result.returncode == 4
    assert result.stdout == ""
    assert result.stderr.startswith("evalglass: missing.json")
    assert not (work / "started").exists()


def test_an_output_cannot_report_a_check(tmp_path: Path) -> None:
    """An eval output naming a `check/` metric is refused: only evalglass run says a check passed."""
    (tmp_path / "host_records").mkdir()
    (tmp_path / "out.json").write_text('{"model": "m", "metrics": {"check/unit": 1.0}}')
    for verb in ("score", "run"):
        result = run(verb, "out.json", cwd=tmp_path)
        assert result.returncode == 4
        assert "ids starting with 'check/' are the host's own checks" in result.stderr


def test_an_unknown_tier_is_a_usage_error() -> None:
    """--tier takes fast or full."""
    assert run("run", "--tier", "slow", cwd=ROOT).returncode == 2


def test_tier_offers_exactly_the_records_tiers() -> None:
    """--tier's choices are the tiers a check record may name, so a tier added to the records
    cannot be left out of the command line."""
    from evalglass.tiers import Tier

    shown = run("run", "--help", cwd=ROOT).stdout
    assert f"--tier <{'|'.join(Tier)}>" in shown


def test_progress_shows_a_line_per_attempt_with_its_time() -> None:
    """On a terminal: each attempt's line ends with its outcome and elapsed seconds."""
    stream = io.StringIO()
    progress = terminal_progress(stream)
    check = CheckRecord(run="pytest", timeout=5)
    progress.started("unit", check, 1)
    progress.ended("unit", Attempt(outcome=AttemptOutcome.FAILED, command="pytest", found="x"))
    progress.started("unit", check, 2)
    progress.ended(
        "unit",
        Attempt(
            outcome=AttemptOutcome.PASSED,
            command="pytest",
            found="x",
            cached=CachedPass(commit="c", recorded="t"),
        ),
    )
    finals = [part.split("\r\x1b[K")[-1] for part in stream.getvalue().split("\n")[:-1]]
    assert [line.rsplit("  ", 1)[0] for line in finals] == [
        "  fail     check/unit",
        "  cached   check/unit (retry)",
    ]
    assert all(line.endswith(" s") for line in finals)
