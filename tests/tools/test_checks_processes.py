"""Host checks that start real processes: exit codes, time limits that kill the whole process
group, signals, and the checks that could not run at all."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from evalglass.evidence.model import STDERR_KEPT, STDOUT_KEPT, AttemptOutcome
from evalglass.records.model import CheckRecord
from evalglass.tools.checks.attempts import attempt

PY = shlex.quote(sys.executable)
PASSED, FAILED, UNRUN = AttemptOutcome.PASSED, AttemptOutcome.FAILED, AttemptOutcome.COULD_NOT_RUN


def python(code: str, **fields: object) -> CheckRecord:
    """A run check of `python -c code`."""
    return CheckRecord(run=f"{PY} -c {shlex.quote(code)}", timeout=10, **fields)  # type: ignore[arg-type]


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone(pid: int, within: float = 2.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize(
    ("code", "expect_exit", "outcome"),
    [(0, 0, PASSED), (1, 0, FAILED), (3, 3, PASSED), (0, 3, FAILED), (2, 0, FAILED)],
)
def test_pass_is_the_expected_exit_code(
    tmp_path: Path, code: int, expect_exit: int, outcome: AttemptOutcome
) -> None:
    """A run check passes iff the process exits with expect_exit; the code is the evidence."""
    result = attempt(python(f"raise SystemExit({code})", expect_exit=expect_exit), tmp_path)
    assert result.outcome is outcome
    assert result.exit_code == code
    assert result.found.startswith(f"exit {code} (expected {expect_exit}), ")
    assert result.duration is not None and result.duration >= 0
    assert not result.timed_out


def test_run_splits_like_a_shell_and_uses_no_shell(tmp_path: Path) -> None:
    """`run` is split by shlex and started without a shell: quoting holds, `$HOME` stays text."""
    check = python("import sys; sys.exit(0 if sys.argv[1:] == ['a b', '$HOME'] else 1)")
    check = CheckRecord(run=f"{check.run} 'a b' '$HOME'", timeout=10)
    result = attempt(check, tmp_path)
    assert result.outcome is PASSED
    assert result.command == f"{shlex.join(shlex.split(check.target))}"


def test_shell_runs_through_bin_sh(tmp_path: Path) -> None:
    """`shell` goes through /bin/sh -c: pipes and && work, and the command shows how it ran."""
    check = CheckRecord(shell="echo hi > out.txt && grep -q hi out.txt", timeout=10)
    result = attempt(check, tmp_path)
    assert result.outcome is PASSED
    assert result.command == "/bin/sh -c 'echo hi > out.txt && grep -q hi out.txt'"
    assert (tmp_path / "out.txt").read_text() == "hi\n"


def test_cwd_is_relative_to_where_evalglass_runs(tmp_path: Path) -> None:
    """The process starts in `cwd`, relative to the base directory."""
    (tmp_path / "sub").mkdir()
    check = python("import os; raise SystemExit(os.path.basename(os.getcwd()) != 'sub')", cwd="sub")
    assert attempt(check, tmp_path).outcome is PASSED


def test_timeout_kills_the_process_and_fails(tmp_path: Path) -> None:
    """A process past its time limit is killed and fails, saying it timed out; no waiting on."""
    started = time.monotonic()
    result = attempt(python("import time; time.sleep(30)"), tmp_path, timeout=0.3)
    assert time.monotonic() - started < 5
    assert result.outcome is FAILED
    assert result.timed_out
    assert result.found == "timed out after 0.3 s: its process group was killed"


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    """A grandchild the check forked does not survive its timeout."""
    check = CheckRecord(shell="sleep 30 & echo $! > sleeper.pid; wait", timeout=10)
    result = attempt(check, tmp_path, timeout=0.5)
    assert result.timed_out
    pid = int((tmp_path / "sleeper.pid").read_text())
    assert gone(pid), f"grandchild {pid} survived the timeout"


def test_a_check_leaves_no_process_behind_when_it_ends(tmp_path: Path) -> None:
    """A check that exits while its background child sleeps on: the child is killed with it,
    and the run does not wait for it."""
    check = CheckRecord(shell="sleep 30 & echo $! > sleeper.pid; exit 0", timeout=10)
    started = time.monotonic()
    result = attempt(check, tmp_path)
    assert time.monotonic() - started < 5
    assert result.outcome is PASSED
    assert gone(int((tmp_path / "sleeper.pid").read_text()))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's")
@pytest.mark.parametrize("ends", ["exits", "times out"])
def test_a_daemon_that_left_the_group_does_not_outlive_its_check(tmp_path: Path, ends: str) -> None:
    """A process started in a session of its own (setsid, double-forked so init would adopt it)
    is killed when its check ends, as the group is, and so are the processes it started."""
    daemon = (
        "import os, sys, time\n"
        "if os.fork(): sys.exit(0)\n"
        "os.setsid()\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    time.sleep(60); sys.exit(0)\n"
        "open('daemon.pid', 'w').write(f'{os.getpid()} {child}')\n"
        "time.sleep(60)\n"
    )
    (tmp_path / "daemon.py").write_text(daemon)
    tail = "exit 0" if ends == "exits" else "sleep 30"
    check = CheckRecord(
        shell=f"{PY} daemon.py; while [ ! -s daemon.pid ]; do sleep 0.05; done; {tail}",
        timeout=10,
    )
    try:
        result = attempt(check, tmp_path, timeout=None if ends == "exits" else 2.0)
        assert result.timed_out is (ends == "times out")
        pids = [int(p) for p in (tmp_path / "daemon.pid").read_text().split()]
        for pid in pids:
            assert gone(pid), f"{pid} outlived its check"
    finally:
        for pid in (int(p) for p in (tmp_path / "daemon.pid").read_text().split()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)


def test_children_from_before_the_check_are_left_alone(tmp_path: Path) -> None:
    """Only what the check left behind is ended: a process evalglass's caller started earlier
    keeps running through the check."""
    import subprocess

    own = subprocess.Popen(["sleep", "30"])
    try:
        result = attempt(CheckRecord(shell="exit 0", timeout=10), tmp_path)
        assert result.outcome is PASSED
        assert own.poll() is None
    finally:
        own.kill()
        own.wait()


def test_a_signal_is_a_negative_exit_code(tmp_path: Path) -> None:
    """A process ended by signal N exits -N: a fail, whatever expect_exit says."""
    result = attempt(python("import os, signal; os.kill(os.getpid(), signal.SIGTERM)"), tmp_path)
    assert result.outcome is FAILED
    assert result.exit_code == -15
    assert result.found.startswith("killed by signal 15 (exit -15; expected 0)")


def test_missing_executable_could_not_run(tmp_path: Path) -> None:
    """An executable that is not there: could not run (never a fail, never a pass)."""
    result = attempt(CheckRecord(run="no-such-program-evalglass --x", timeout=5), tmp_path)
    assert result.outcome is UNRUN
    assert result.found == "executable not found: 'no-such-program-evalglass'"
    assert result.exit_code is None


def test_a_file_without_execute_permission_could_not_run(tmp_path: Path) -> None:
    """A script that cannot be executed could not run."""
    script = tmp_path / "check.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)
    result = attempt(CheckRecord(run="./check.sh", timeout=5), tmp_path)
    assert result.outcome is UNRUN
    assert result.found == "cannot execute './check.sh': permission denied"


def test_missing_cwd_could_not_run(tmp_path: Path) -> None:
    """A cwd that does not exist: could not run, naming it."""
    result = attempt(CheckRecord(run="true", timeout=5, cwd="nowhere"), tmp_path)
    assert (result.outcome, result.found) == (UNRUN, "cwd 'nowhere' does not exist")


def test_unsplittable_command_could_not_run(tmp_path: Path) -> None:
    """A run command shlex cannot split (an open quote) could not run."""
    result = attempt(CheckRecord(run="echo 'open", timeout=5), tmp_path)
    assert result.outcome is UNRUN
    assert result.found.startswith("cannot split the command like a shell would")


def test_a_command_missing_inside_a_shell_is_an_ordinary_fail(tmp_path: Path) -> None:
    """Through /bin/sh the shell itself runs, so a missing program is its exit 127: a fail."""
    result = attempt(CheckRecord(shell="no-such-program-evalglass", timeout=5), tmp_path)
    assert (result.outcome, result.exit_code) == (FAILED, 127)
    assert "not found" in result.last_stderr_line


def test_only_the_end_of_each_stream_is_kept(tmp_path: Path) -> None:
    """Stderr and stdout are each kept to their last 4 KB, whatever was printed (here 10 MB on
    stdout); the last line of each is the one the evidence shows."""
    code = (
        "import sys; sys.stdout.write('x' * 10_000_000 + '\\n1 failed, 4 passed in 0.12s\\n');"
        "sys.stderr.write('e' * 10000 + '\\n');"
        "sys.stderr.write('AssertionError: 2 != 3\\n'); sys.exit(1)"
    )
    result = attempt(python(code), tmp_path)
    assert len(result.stderr.encode()) == STDERR_KEPT
    assert len(result.stdout.encode()) == STDOUT_KEPT
    assert result.last_stderr_line == "AssertionError: 2 != 3"
    assert result.last_stdout_line == "1 failed, 4 passed in 0.12s"
    assert "xxxx" not in result.stderr and "eeee" not in result.stdout
