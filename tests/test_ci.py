"""CI runs the README's test command: the last line of .ci/run is that command, word for word."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_command(number: int) -> str:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"# {number}. "))
    return lines[at + 1]


def test_ci_ends_with_the_readme_test_command() -> None:
    """The README's second command is .ci/run's last line, so the two cannot say different
    things; it runs the tests and every linter."""
    command = _readme_command(2)
    last = (ROOT / ".ci/run").read_text(encoding="utf-8").rstrip("\n").splitlines()[-1]
    assert last == command
    for step in ("python -m pytest", "ruff check", "mypy evalglass", "actionlint"):
        assert step in command
