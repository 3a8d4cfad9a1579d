"""Writes where nothing may be written, and lost data: every output goes only where it may, is
put in place whole or not at all, and never turns a device, a FIFO or a link into a file."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from evalglass.errors import WriteError
from evalglass.shell import writing
from tests.cli_runner import Result, cli
from tests.hostile.harness import copy_example, one_line_error, run

SUMMARY = "GITHUB_STEP_SUMMARY"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


def _usage(result: subprocess.CompletedProcess[str] | Result, *words: str) -> None:
    """Refused as a bad command line (exit 2), naming what, before anything was written."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize("target", ["host_records/metrics.yaml", "run.json"])
def test_the_job_summary_is_refused_like_an_output(work: Path, target: str) -> None:
    """GITHUB_STEP_SUMMARY pointed at a records file or an eval output is never appended to."""
    before = (work / target).read_bytes()
    result = cli("score", "run.json", "--format", "github", cwd=work, env={SUMMARY: target})
    _usage(result, SUMMARY)
    assert (work / target).read_bytes() == before


def test_the_job_summary_set_to_a_folder_is_a_usage_error(work: Path) -> None:
    """GITHUB_STEP_SUMMARY naming a folder: exit 2 naming the variable, no traceback."""
    (work / "summary").mkdir()
    result = cli("score", "run.json", "--format", "github", cwd=work, env={SUMMARY: "summary"})
    _usage(result, SUMMARY, "directory")


def test_the_job_summary_is_appended_to(work: Path) -> None:
    """A regular job summary gets the Markdown scorecard after what other steps wrote."""
    (work / "summary.md").write_text("earlier step\n")
    result = cli("score", "run.json", "--format", "github", cwd=work, env={SUMMARY: "summary.md"})
    assert result.returncode == 0, result.stderr
    text = (work / "summary.md").read_text()
    assert text.startswith("earlier step\n<!-- evalglass-scorecard -->")


def _device(where: Path, name: str) -> Path:
    """A private copy of /dev/null or /dev/full (same device numbers) in the test's folder: if
    writing ever replaced a device again, it would replace this node, not the machine's."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    minor = {"null": 3, "full": 7}[name]
    node = where / name
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return node


@pytest.mark.parametrize("device", ["null", "full"])
def test_a_device_is_written_through_never_replaced(work: Path, device: str) -> None:
    """--output to a null device works and a full one is a one-line write error; both stay
    devices."""
    node = _device(work, device)
    result = run("score", "run.json", "--output", str(node), cwd=work)
    if device == "null":
        assert result.returncode == 0, result.stderr
    else:
        assert "No space left on device" in one_line_error(result)
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_stdout_as_a_file_name_is_written_through(work: Path) -> None:
    """--write markdown=<a link to /proc/self/fd/1>, as /dev/stdout is, writes into the pipe
    evalglass's stdout already is, and the link stays a link."""
    link = work / "stdout"
    link.symlink_to("/proc/self/fd/1")
    result = run(
        "score",
        "run.json",
        "--format",
        "json",
        "--output",
        "card.json",
        "--write",
        f"markdown={link}",
        cwd=work,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<!-- evalglass-scorecard -->")
    assert (work / "card.json").is_file()
    assert link.is_symlink()


def test_a_fifo_is_written_through(work: Path) -> None:
    """A FIFO target receives the scorecard through the pipe and is still a FIFO after."""
    fifo = work / "card.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run("score", "run.json", "--write", f"json={fifo}", cwd=work)
    reader.join(timeout=30)
    assert result.returncode == 0, result.stderr
    assert received and received[0].startswith(b"{\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symbolic_link_is_refused_and_its_target_untouched(work: Path) -> None:
    """A link (here to a file outside the folder) is never written through: the change under test
    may have planted it to aim the write elsewhere."""
    outside = work / "elsewhere.txt"
    outside.write_text("precious\n")
    (work / "card.md").symlink_to(outside)
    result = cli("score", "run.json", "--write", "markdown=card.md", cwd=work)
    _usage(result, "symbolic link")
    assert outside.read_text() == "precious\n"
    assert (work / "card.md").is_symlink()


@pytest.mark.parametrize("case", ["a folder", "a missing folder"])
def test_a_target_that_cannot_be_a_file_is_a_usage_error(work: Path, case: str) -> None:
    """--write to a directory, or into a folder that does not exist: exit 2 before any work."""
    (work / "adir").mkdir()
    target = "adir" if case == "a folder" else "nowhere/card.md"
    result = cli("score", "run.json", "--write", f"markdown={target}", cwd=work)
    _usage(result, target)


def test_a_folder_that_refuses_writes_is_a_one_line_write_error(work: Path) -> None:
    """A folder the run may not create files in (sysfs refuses even root): exit 4 in one line,
    nothing on stdout, nothing created."""
    if not Path("/sys/kernel").is_dir() or os.access("/sys", os.W_OK) and _creates("/sys"):
        pytest.skip("no folder here refuses new files")
    result = run("score", "run.json", "--output", "/sys/evalglass-card.txt", cwd=work)
    assert "cannot be written" in one_line_error(result)
    assert not Path("/sys/evalglass-card.txt").exists()


def _creates(folder: str) -> bool:
    try:
        fd = os.open(os.path.join(folder, ".evalglass-probe"), os.O_WRONLY | os.O_CREAT, 0o600)
    except OSError:
        return False
    os.close(fd)
    os.unlink(os.path.join(folder, ".evalglass-probe"))
    return True


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(work: Path) -> None:
    """An existing output keeps its permission bits; a new one is 0644 under umask 022, not the
    0600 of a temporary file."""
    kept = work / "kept.md"
    kept.write_text("old\n")
    os.chmod(kept, 0o640)
    old_umask = os.umask(0o022)
    try:
        writing.write_all([(kept, "new\n"), (work / "fresh.md", "fresh\n")])
    finally:
        os.umask(old_umask)
    assert kept.read_text() == "new\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    assert stat.S_IMODE((work / "fresh.md").stat().st_mode) == 0o644


def test_several_targets_change_nothing_when_one_fails_before_the_first_is_written(
    work: Path,
) -> None:
    """Staging fails on the last target: the earlier targets keep their old contents, and no
    temporary file is left behind."""
    first, second = work / "a.md", work / "b.md"
    first.write_text("a\n")
    second.write_text("b\n")
    with pytest.raises(WriteError):
        writing.write_all([(first, "A\n"), (second, "B\n"), (work / "nowhere" / "c.md", "C\n")])
    assert (first.read_text(), second.read_text()) == ("a\n", "b\n")
    assert sorted(p.name for p in work.iterdir() if p.name.endswith(".tmp")) == []


def test_a_failed_write_leaves_every_target_as_it_was(work: Path) -> None:
    """With a full device among several targets, no file target is replaced and stdout stays
    empty."""
    (work / "card.json").write_text("old\n")
    full = _device(work, "full")
    result = run(
        "score", "run.json", "--write", "json=card.json", "--write", f"markdown={full}", cwd=work
    )
    one_line_error(result)
    assert (work / "card.json").read_text() == "old\n"


@pytest.mark.parametrize("escape", ["../../x.json", "/etc/passwd", "sub/../../x.json"])
def test_a_baseline_scorecard_outside_the_records_is_refused(work: Path, escape: str) -> None:
    """A baselines.yaml `scorecard:` that leaves the records folder is exit 4 in the working
    tree, as at a git ref, and names the baseline."""
    (work / "x.json").write_text("{}")
    (work / "host_records" / "baselines.yaml").write_text(
        f"baselines:\n  qa/exact_match:\n    scorecard: '{escape}'\n    dataset_version: '2026-10'\n"
    )
    error = one_line_error(cli("score", "run.json", cwd=work))
    assert "outside the records folder" in error and "qa/exact_match" in error


def _committed(work: Path) -> Path:
    """The example as a git repository whose run check passes, so a run caches its pass."""
    (work / "examples").mkdir()
    (work / "examples" / "run.json").write_bytes((work / "run.json").read_bytes())
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "example"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=work, check=True,
            capture_output=True,
        )  # fmt: skip
    return work


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("how", "hint"),
    [
        (["--cache-dir", "host_records/cache"], "--cache-dir"),
        (["--cache-dir", "host_records"], "--cache-dir"),
        (["--cache-dir", "records-link/cache"], "--cache-dir"),
        (["--cache-dir", "run.json"], "--cache-dir"),
        ([], "XDG_CACHE_HOME"),
    ],
)
def test_the_check_cache_is_refused_where_an_output_would_be(
    work: Path, how: list[str], hint: str
) -> None:
    """The check cache, named by --cache-dir or by XDG_CACHE_HOME, is never written into the
    records folder (through a link too) or over an eval output: exit 2, before any check runs."""
    _committed(work)
    (work / "records-link").symlink_to("host_records")
    before = _files(work / "host_records")
    env = {"XDG_CACHE_HOME": str(work / "host_records" / "xdg")} if not how else {}
    result = cli("run", "run.json", *how, cwd=work, env=env)
    _usage(result, hint)
    assert _files(work / "host_records") == before


def test_no_cache_needs_no_cache_folder(work: Path) -> None:
    """With --no-cache nothing is written, so a cache folder in the records is not refused."""
    _committed(work)
    env = {"XDG_CACHE_HOME": str(work / "host_records" / "xdg")}
    result = cli("run", "run.json", "--no-cache", cwd=work, env=env)
    assert result.returncode == 0, result.stderr
    assert not (work / "host_records" / "xdg").exists()
