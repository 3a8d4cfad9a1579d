"""No command writes under the records folder, whatever its flags, and no verb or flag grants
authority: the records change only by a person editing them."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer.main

from evalglass.records.model import Approval, Calibration, DatasetStatus, MetricStatus, Policy
from evalglass.render import Format
from evalglass.shell.cli import app
from evalglass.shell.mcp_tools import TOOLS
from tests.cli_runner import Result, cli
from tests.mcp_client import Call, calls
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS

FORMATS = [f.value for f in Format]
CALIBRATION = Path(__file__).resolve().parents[2] / "examples" / "calibration"
TREND = tuple(
    str(p)
    for p in sorted(
        (Path(__file__).resolve().parents[2] / "examples" / "trend" / "scorecards").glob("*.json")
    )
)
_CALIBRATE = (
    "calibrate",
    str(CALIBRATION / "judgments.jsonl"),
    str(CALIBRATION / "labels.csv"),
    "--judge",
    "grader-v2",
    "--resamples",
    "50",
)


def _commands() -> list[tuple[tuple[str, ...], set[int]]]:
    """Every command and format, with the exit codes each may end with on the example."""
    writes = [a for f in FORMATS for a in ("--write", f"{f}=../out/written.{f}")]
    return [
        *[(("score", "run.json", "--format", f), {0}) for f in FORMATS],
        (("score", "run.json", *writes), {0}),
        (("score", "run.json", "--format", "markdown", "--output", "../out/card.md"), {0}),
        (
            (
                "score",
                "run.json",
                "--format",
                "json",
                "--keep-samples",
                "--output",
                "../out/samples.json",
            ),
            {0},
        ),
        (("score", "run.json", "--require-gate", "--records-ref", "HEAD"), {0}),
        (("score", "run.json", "--output", "host_records/card.md"), {2}),
        (("score", "run.json", "--write", "json=host_records/card.json"), {2}),
        (("score", "run.json", "--write", "html=host_records/sub/card.html"), {2}),
        # The example's checks look for examples/run.json, which this copy keeps as run.json.
        (
            ("run", "run.json", "--write", "json=../out/run.json", "--cache-dir", "../out/cache"),
            {1},
        ),
        (("run", "--tier", "fast", "--no-cache"), {1}),
        (("run", "run.json", "--write", "json=host_records/card.json"), {2}),
        (("demo",), {0}),
        (("demo", "--format", "json"), {0}),
        (("metrics", "run.json"), {0}),
        (("metrics", "run.json", "--skeleton"), {0}),
        (("explain", "qa/helpfulness", "run.json"), {0}),
        (("explain", "safety/toxicity", "run.json", "--format", "markdown"), {0}),
        (("explain", "qa/refusal_rate"), {0}),
        (("explain", "qa/nope", "run.json"), {4}),
        (("plan", "qa/exact_match", "--expect", "0.9"), {0}),
        (("plan", "qa/exact_match", "--expect", "0.9", "--format", "json"), {0}),
        (("doctor",), {1}),
        (("doctor", "run.json", "--format", "json"), {1}),
        (("validate",), {0}),
        (("schema",), {0}),
        (("schema", "thresholds"), {0}),
        *[
            (("diff", "--base", "HEAD", "run.json", "--format", f), {0})
            for f in ("terminal", "markdown", "json")
        ],
        (("diff", "--base", "HEAD", "--head", "HEAD", "--fail-on-loosen"), {0}),
        (("--version",), {0}),
        (("score", "--help"), {0}),
        ((*_CALIBRATE, "--out", "../out/calibration.json"), {0}),
        ((*_CALIBRATE, "--against", str(CALIBRATION / "grader-v2.json"), "--format", "json"), {0}),
        ((*_CALIBRATE, "--out", "host_records/calibration.json"), {2}),
        (("trend", *TREND), {0}),
        (("trend", *TREND, "--format", "html", "--output", "../out/trend.html"), {0}),
        (("trend", *TREND, "--format", "markdown", "--output", "host_records/trend.md"), {2}),
        (("score", "run.json", "--as-of", "2026-11-30", "--format", "json"), {0}),
        # init creates only a folder that does not exist: the records folder is refused.
        (("init", "run.json"), {4}),
        (("init", "--records", "host_records"), {4}),
        (("init", "--records", "host_records/sub"), {4}),
    ]


def snapshot(folder: Path) -> dict[str, tuple[object, ...]]:
    """Every entry under `folder` (and itself): type, mode, mtime, ctime and content hash."""
    found = {}
    for path in [folder, *sorted(folder.rglob("*"))]:
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        found[path.relative_to(folder).as_posix()] = (
            stat.S_IFMT(info.st_mode),
            stat.S_IMODE(info.st_mode),
            info.st_mtime_ns,
            info.st_ctime_ns,
            digest,
        )
    return found


def _run(args: tuple[str, ...], cwd: Path, out: Path) -> Result:
    # In this process: the files a command writes are its code's, which a subprocess would only
    # run more slowly. HOME is apart so nothing the commands keep there can reach the records.
    return cli(
        *args, cwd=cwd, env={"GITHUB_STEP_SUMMARY": str(out / "summary.md"), "HOME": str(out)}
    )


def _run_all(repo: Path, out: Path) -> None:
    for args, codes in _commands():
        result = _run(args, repo, out)
        assert result.returncode in codes, (args, result.returncode, result.stderr)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The example in a git repository (for diff and --records-ref), with a nested records file."""
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE_RECORDS, repo / "host_records")
    (repo / "host_records" / "sub").mkdir()
    (repo / "host_records" / "sub" / "notes.md").write_text("calibration notes\n")
    shutil.copy(EXAMPLE_OUTPUT, repo / "run.json")
    git = [
        "git",
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "-c",
        "commit.gpgsign=false",
    ]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "-m", "records"], check=True)
    (tmp_path / "out").mkdir()
    return repo


def test_no_command_writes_under_the_records_folder(repo: Path) -> None:
    """Every command and format, on a writable then a read-only folder, leaves it as it was."""
    # Contents, listing, modes, mtimes and ctimes are compared: the tests run as root, which chmod
    # does not stop, so the times are what would show an attempt.
    records, out = repo / "host_records", repo.parent / "out"
    before = snapshot(records)
    _run_all(repo, out)
    assert snapshot(records) == before
    assert (out / "written.html").exists() and (out / "card.md").exists()
    paths = [records, *records.rglob("*")]
    for path in paths:
        os.chmod(path, stat.S_IMODE(path.lstat().st_mode) & ~0o222)
    try:
        locked = snapshot(records)
        _run_all(repo, out)
        assert snapshot(records) == locked
    finally:
        for path in paths:
            os.chmod(path, stat.S_IMODE(path.lstat().st_mode) | stat.S_IWUSR)


# Words that would set a record state, and every state word the records hold.
_STEMS = (
    "promot",
    "approv",
    "grant",
    "calibrat",
    "status",
    "authori",
    "unblock",
    "enabl",
    "permit",
    "validat",
    "retir",
    "drift",
    "write",
)
_STATES = {m.value for e in (MetricStatus, Approval, DatasetStatus, Calibration, Policy) for m in e}
# Each allowed on purpose: `score --write` and `run --write` write scorecards and refuse the
# records folder;
# `validate` checks the records against their schema and sets nothing; `calibrate` measures a
# judge's agreement into an evidence file outside the records and sets no calibration.
_ALLOWED = {
    ("score", "--write"),
    ("run", "--write"),
    ("validate", "validate"),
    ("calibrate", "calibrate"),
}


def _names(command: Any, path: str) -> list[tuple[str, str]]:
    """(command path, name) for the command, each of its options and arguments, and subcommands."""
    found = [(path, command.name or "")]
    for param in command.params:
        found += [(path, name) for name in (*param.opts, *param.secondary_opts)]
    for name, sub in getattr(command, "commands", {}).items():  # a group (typer's own click)
        found += _names(sub, name)
    return found


def _offending(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (command path, name) pairs whose words would set a record state."""
    offending = []
    for path, name in names:
        words = [w for w in re.split(r"[-_\s]+", name.lower()) if w]
        bad = any(w.startswith(_STEMS) or w == "set" or w in _STATES for w in words)
        if bad and (path, name) not in _ALLOWED:
            offending.append((path, name))
    return offending


def test_no_verb_or_flag_sets_a_status_an_approval_or_a_calibration() -> None:
    """No command or option is named to promote, approve, calibrate, set a status or write."""
    names = _names(typer.main.get_command(app), "")
    commands = {name for path, name in names if path == name}
    expected = {
        "score",
        "run",
        "demo",
        "metrics",
        "diff",
        "explain",
        "doctor",
        "validate",
        "schema",
        "calibrate",
        "mcp",
        "init",
    }
    assert expected <= commands
    assert _offending(names) == []


def test_init_writes_nothing_that_grants(tmp_path: Path) -> None:
    """`evalglass init OUTPUTS` starts every metric informational, every threshold proposed and
    every dataset proposed, with no data policy and no judge: scored at once, nothing gates."""
    import json

    from evalglass.records.load import load_records

    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    assert cli("init", "run.json", cwd=tmp_path).returncode == 0
    host = load_records(tmp_path / "host_records")
    assert host.metrics and {m.status for m in host.metrics.values()} == {
        MetricStatus.INFORMATIONAL
    }
    assert host.thresholds and {t.approval for t in host.thresholds.values()} == {Approval.PROPOSED}
    assert {d.status for d in host.datasets.values()} <= {DatasetStatus.PROPOSED}
    assert not host.policies and not host.judges and not host.baselines and not host.checks
    assert all(t.approved_by is None and t.approved_for is None for t in host.thresholds.values())
    card = json.loads(cli("score", "run.json", "--format", "json", cwd=tmp_path).stdout)
    assert card["verdict"] == "informational"
    assert {m["authority"]["outcome"] for m in card["metrics"]} == {"informational"}


def test_no_mcp_tool_or_argument_sets_a_status_an_approval_or_a_calibration() -> None:
    """The MCP server's tools and their arguments pass the same audit as the CLI's verbs."""
    names = [(tool.name, tool.name) for tool in TOOLS]
    names += [(tool.name, arg) for tool in TOOLS for arg in tool.schema["properties"]]
    assert {name for _, name in names} >= {"score", "explain", "doctor", "metrics", "diff"}
    assert _offending(names) == []
    assert _offending([("mcp", "set_status"), ("mcp", "promote")]) == [
        ("mcp", "set_status"),
        ("mcp", "promote"),
    ]


def _mcp_calls() -> list[Call]:
    """Every MCP tool, with outputs and without, and calls that are refused."""
    return [
        ("score", {"outputs": ["run.json"]}),
        ("score", {"outputs": ["run.json"], "require_gate": True, "input_format": "generic"}),
        ("score", {}),
        ("explain", {"metric": "qa/helpfulness", "outputs": ["run.json"]}),
        ("explain", {"metric": "qa/refusal_rate"}),
        ("doctor", {"outputs": ["run.json"]}),
        ("doctor", {}),
        ("metrics", {"outputs": ["run.json"]}),
        ("diff", {"base": "HEAD", "outputs": ["run.json"]}),
        ("diff", {"base": "HEAD"}),
        ("explain", {"metric": "qa/nope", "outputs": ["run.json"]}),
        ("score", {"outputs": ["run.json"], "records": "host_records"}),
        ("score", {"outputs": ["../out"]}),
        ("promote", {"metric": "qa/helpfulness"}),
    ]


def _serve_all(repo: Path, *, stdio: bool) -> None:
    for args in ([], ["--records-ref", "HEAD"]):
        answers = calls(repo, args, _mcp_calls(), stdio=stdio)
        assert [a.is_error for a in answers] == [False] * 10 + [True] * 4


def test_no_mcp_tool_writes_anything(repo: Path) -> None:
    """Every MCP tool, answered or refused, from a folder and a records-ref server, on a writable
    then a read-only tree: the working directory (records, outputs, .git) and the server's HOME
    are left as they were. The real server process on the writable tree; on the read-only one,
    the same command and tools in this process (tests/mcp_client.py)."""
    home = repo.parent / "mcp-home"
    home.mkdir()
    before = snapshot(repo), snapshot(home)
    _serve_all(repo, stdio=True)
    assert (snapshot(repo), snapshot(home)) == before
    paths = [repo, *repo.rglob("*")]
    for path in paths:
        os.chmod(path, stat.S_IMODE(path.lstat().st_mode) & ~0o222)
    try:
        locked = snapshot(repo), snapshot(home)
        _serve_all(repo, stdio=False)
        assert (snapshot(repo), snapshot(home)) == locked
    finally:
        for path in paths:
            os.chmod(path, stat.S_IMODE(path.lstat().st_mode) | stat.S_IWUSR)
