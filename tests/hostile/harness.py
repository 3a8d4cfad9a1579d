"""How the hostile tests run evalglass: the real CLI in a subprocess, optionally under an
address-space limit and a time limit, so no bomb can take the machine or CI down; and the
settings the fuzz tests share."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

from tests.cli_runner import Result
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS

# A bomb gets this much address space: Python, the libraries and evalglass fit in a fifth of it.
ADDRESS_SPACE = 1 << 30
# Long enough for a slow shared machine; a hang or a bomb that is not refused takes longer.
GUARD_SECONDS = 60

# The fuzz tests run briefly in CI; EVALGLASS_FUZZ_EXAMPLES=5000 runs them for longer.
FUZZ = settings(
    max_examples=int(os.environ.get("EVALGLASS_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize="EVALGLASS_FUZZ_EXAMPLES" not in os.environ,
)


def copy_example(where: Path) -> Path:
    """The bundled example records and output under `where`, to be edited freely."""
    shutil.copytree(EXAMPLE_RECORDS, where / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, where / "run.json")
    return where


def run(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    limited: bool = False,
    stdin: int | None = subprocess.DEVNULL,
    timeout: float = GUARD_SECONDS,
) -> subprocess.CompletedProcess[str]:
    """`evalglass ARGS` in `cwd`; with `limited`, under ADDRESS_SPACE bytes of address space.
    Stderr is read as UTF-8 with escapes, so a message that is not UTF-8 still fails cleanly."""
    full_env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", **(env or {})}
    if "PYTHONPATH" in os.environ:  # a checkout under test that is not the installed one
        full_env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return subprocess.run(
        [sys.executable, "-c", _LIMITED if limited else _PLAIN, *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        timeout=timeout,
        check=False,
        stdin=stdin,
        text=True,
        errors="backslashreplace",
    )


_PLAIN = """
import sys
from evalglass.__main__ import main
sys.argv = ["evalglass", *sys.argv[1:]]
main()
"""

_LIMITED = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
from evalglass.__main__ import main
sys.argv = ["evalglass", *sys.argv[1:]]
main()
"""


_BATCH = f"""
import contextlib, io, json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
from typer.testing import CliRunner
from evalglass.shell.cli import app
found = {{}}
for name, args, env in json.loads(sys.stdin.read()):
    try:
        got = CliRunner().invoke(app, args, env=env)
        error = got.exception if not isinstance(got.exception, SystemExit) else None
        found[name] = [got.exit_code, got.stdout, got.stderr + (repr(error) if error else "")]
    except BaseException as exc:  # a bomb that was not refused: MemoryError, most likely
        found[name] = [-1, "", repr(exc)]
print(json.dumps(found))
"""


def run_batch(runs: dict[str, tuple[list[str], dict[str, str]]], cwd: Path) -> dict[str, Result]:
    """Several `evalglass` runs (name -> (args, env)) in one subprocess under ADDRESS_SPACE
    bytes of address space, each run in-process there: one interpreter start for many bombs."""
    full_env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    if "PYTHONPATH" in os.environ:
        full_env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    payload = json.dumps([[name, args, env] for name, (args, env) in runs.items()])
    done = subprocess.run(
        [sys.executable, "-c", _BATCH],
        cwd=cwd,
        env=full_env,
        input=payload,
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS * 3,
        check=False,
    )
    try:
        found = json.loads(done.stdout)
    except json.JSONDecodeError:
        found = {}
    missing = Result(-1, "", f"the batch ended: {done.returncode} {done.stderr[-2000:]}")
    return {name: Result(*found[name]) if name in found else missing for name in runs}


def one_line_error(result: subprocess.CompletedProcess[str] | Result, code: int = 4) -> str:
    """The run ended with `code` and one line on stderr starting `evalglass:`, nothing on
    stdout, no traceback; the line is returned."""
    assert result.returncode == code, (result.returncode, result.stderr[-2000:])
    assert result.stdout == "", result.stdout[:500]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("evalglass: "), lines[0]
    assert "Traceback" not in result.stderr
    return lines[0]
