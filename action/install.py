"""The action's install step: evalglass from the action's own checkout, so its version is the
ref the workflow wrote after `uses:`, into a virtual environment of its own, so neither its
dependencies nor the user's can change the other's. Run by the Python setup-python provided."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import _runner as runner


def venv_python(folder: Path) -> Path:
    """The interpreter of the virtual environment at `folder`, on Windows runners too."""
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def main() -> int:
    """Install evalglass from GITHUB_ACTION_PATH into a fresh virtual environment and set the
    step's `python` output to its interpreter. Exits 2 outside an action step; a failed install
    raises, so the step fails."""
    source = runner.env("GITHUB_ACTION_PATH")
    if not source:
        runner.command("error", "GITHUB_ACTION_PATH is not set: run this as the action's step")
        return runner.USAGE_EXIT
    folder = Path(tempfile.mkdtemp(prefix="evalglass-venv-", dir=runner.env("RUNNER_TEMP") or None))
    python = venv_python(folder)
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", source],
        check=True,
    )
    subprocess.run([str(python), "-m", "evalglass", "--version"], check=True)
    runner.set_output("python", str(python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
