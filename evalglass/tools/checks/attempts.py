"""One live attempt at a check: start its process (run, shell) or look at its file (file_exists,
regex), and say what happened as an Attempt. Paths and cwd are relative to `base`, the directory
evalglass runs in. Never raises for what a check does: a check that cannot start could not run.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path

from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.records.model import CheckKind, CheckRecord, HostRecords
from evalglass.tools.checks import detectors
from evalglass.tools.checks.processes import Finished, run_process

SHELL = "/bin/sh"


def attempt(check: CheckRecord, base: Path, timeout: float | None = None) -> Attempt:
    """Run the check once, live. `timeout` overrides the record's (seconds, for tests)."""
    kind = check.kind
    if kind is CheckKind.FILE_EXISTS:
        return detectors.file_exists(check, base)
    if kind is CheckKind.REGEX:
        return detectors.regex(check, base)
    limit = float(check.timeout or 0) if timeout is None else timeout
    argv, problem = command(check)
    shown = shlex.join(argv) if argv else check.target
    if problem:
        return _unrun(shown, problem)
    cwd = base / (check.cwd or ".")
    if not cwd.is_dir():
        said = "does not exist" if not cwd.exists() else "is not a directory"
        return _unrun(shown, f"cwd '{check.cwd}' {said}")
    try:
        finished = run_process(argv, str(cwd), limit)
    except FileNotFoundError:
        return _unrun(shown, f"executable not found: '{argv[0]}'")
    except PermissionError:
        return _unrun(shown, f"cannot execute '{argv[0]}': permission denied")
    except OSError as exc:
        return _unrun(shown, f"cannot start '{argv[0]}': {exc.strerror or exc}")
    return _ended(shown, finished, check.expect_exit, limit)


def command(check: CheckRecord) -> tuple[list[str], str]:
    """The argv a run or shell check starts, or why it cannot be split into one."""
    if check.kind is CheckKind.SHELL:
        return [SHELL, "-c", check.target], ""
    try:
        argv = shlex.split(check.target)
    except ValueError as exc:
        return [], f"cannot split the command like a shell would: {exc}"
    return argv, "" if argv else "the command is empty"


def executable(check: CheckRecord) -> str | None:
    """The program a run check starts (its first word), or None for any other check."""
    if check.kind is not CheckKind.RUN:
        return None
    argv, _ = command(check)
    return argv[0] if argv else None


def unfound_executables(records: HostRecords, base: Path) -> Mapping[str, str]:
    """By check name, the program each run check starts that cannot be found: not on PATH, or
    (a path) no executable file from its cwd."""
    unfound = {}
    for name, check in records.checks.items():
        program = executable(check)
        if program is None:
            continue
        if os.sep in program:
            path = base / (check.cwd or ".") / program
            found = path.is_file() and os.access(path, os.X_OK)
        else:
            found = shutil.which(program) is not None
        if not found:
            unfound[name] = program
    return unfound


def _unrun(command: str, why: str) -> Attempt:
    return Attempt(outcome=AttemptOutcome.COULD_NOT_RUN, command=command, found=why)


def _ended(command: str, finished: Finished, expect: int, limit: float) -> Attempt:
    code, took = finished.exit_code, f"{finished.duration:.2f} s"
    if finished.timed_out:
        outcome, found = (
            AttemptOutcome.FAILED,
            (f"timed out after {limit:g} s: its process group was killed"),
        )
    elif code < 0:
        outcome, found = (
            AttemptOutcome.FAILED,
            (f"killed by signal {-code} (exit {code}; expected {expect}), {took}"),
        )
    else:
        outcome = AttemptOutcome.PASSED if code == expect else AttemptOutcome.FAILED
        found = f"exit {code} (expected {expect}), {took}"
    return Attempt(
        outcome=outcome,
        command=command,
        found=found,
        exit_code=code,
        duration=finished.duration,
        timed_out=finished.timed_out,
        stderr=finished.stderr,
        stdout=finished.stdout,
    )
