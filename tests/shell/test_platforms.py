"""evalglass runs where its users run it: no module of the package needs a POSIX-only module at
import time, and the check runner ends a process tree by each platform's own means."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evalglass.tools.checks import processes

ROOT = Path(__file__).resolve().parents[2]

# Modules CPython ships on POSIX systems only (Windows has none of them).
POSIX_ONLY = ("fcntl", "termios", "resource", "pwd", "grp", "tty", "pty", "posix", "syslog")


def test_every_module_imports_without_posix_only_modules() -> None:
    """With each POSIX-only module made unimportable (as on Windows), every module of the package
    still imports. A module that fails only for want of an optional extra, or because a
    third-party library takes its own POSIX branch on this machine, is passed over: only an
    import written in evalglass counts."""
    code = textwrap.dedent(f"""
        import importlib, pkgutil, sys, traceback
        for name in {POSIX_ONLY!r}:
            if name != "posix":
                sys.modules[name] = None
        import evalglass
        package = evalglass.__path__[0]
        failed, imported = [], 0
        for info in pkgutil.walk_packages(evalglass.__path__, "evalglass."):
            try:
                importlib.import_module(info.name)
                imported += 1
            except ImportError as exc:
                importer = traceback.extract_tb(exc.__traceback__)[-1].filename
                if exc.name in {POSIX_ONLY!r} and importer.startswith(package):
                    failed.append(f"{{info.name}}: {{exc.name}}")
        print(imported)
        print("\\n".join(failed))
    """)
    result = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT,
        timeout=120,
    )  # fmt: skip
    imported, *failed = result.stdout.strip().split("\n")
    assert [line for line in failed if line] == []
    assert int(imported) > 100


def test_the_cli_runs_without_posix_only_modules() -> None:
    """`evalglass demo` scores the bundled example with those modules unavailable."""
    code = (
        f"import sys\nfor n in {POSIX_ONLY[:-2]!r}: sys.modules[n] = None\n"
        "sys.argv = ['evalglass', 'demo']\nfrom evalglass.__main__ import main\nmain()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS — 1 gate enforced")


def test_on_windows_the_tree_is_ended_by_taskkill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no process groups: the check's tree is ended with `taskkill /T /F /PID`."""
    calls: list[list[str]] = []

    def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0)

    def killpg(*args: object) -> None:
        raise AssertionError("no os.killpg on Windows")

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(processes.subprocess, "run", run)
    monkeypatch.setattr(processes.os, "killpg", killpg, raising=False)
    processes._kill_group(4242)
    assert calls == [["taskkill", "/T", "/F", "/PID", "4242"]]


def test_readme_states_the_supported_platforms() -> None:
    """The README says where evalglass runs, and the classifiers say the same."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Linux, macOS and Windows" in readme and "Python 3.11 to 3.13" in readme
