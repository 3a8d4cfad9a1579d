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


# The optional parts an action run can use; the others (calibrate, mcp, spark) serve commands
# the action never runs.
EXTRAS = ("parquet", "yaml")


def extras(given: str) -> list[str]:
    """The `extras` input's names (comma-separated, spaces ignored, each once); InputError for a
    name evalglass does not offer here, so a typo cannot install less than was asked."""
    names = list(dict.fromkeys(name.strip() for name in given.split(",") if name.strip()))
    unknown = [name for name in names if name not in EXTRAS]
    if unknown:
        raise runner.InputError(
            f"extras: no optional part {unknown[0]!r}; choose from {', '.join(EXTRAS)}"
        )
    return names


def main() -> int:
    """Install evalglass (with the `extras` asked for) from GITHUB_ACTION_PATH into a fresh
    virtual environment and set the step's `python` output to its interpreter. Exits 2 outside
    an action step or for an unknown extra; a failed install raises, so the step fails."""
    source = runner.env("GITHUB_ACTION_PATH")
    if not source:
        runner.command("error", "GITHUB_ACTION_PATH is not set: run this as the action's step")
        return runner.USAGE_EXIT
    try:
        wanted = extras(runner.env("INPUT_EXTRAS"))
    except runner.InputError as error:
        return runner.stop_on_bad_input(error)
    if wanted:
        source = f"{source}[{','.join(wanted)}]"
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
