"""CONTRIBUTING.md tells a contributor what CI runs and how to regenerate what is generated:
its test command is the README's, and every file it names to run or read exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_test_command_is_the_readmes() -> None:
    """The command under "Set up and test" is the README's second command, word for word."""
    readme = re.search(r"^python3 -m venv .venv && .venv/bin/pip install -q '\.\[test,lint\]'.*$",
                       _text("README.md"), re.MULTILINE)  # fmt: skip
    assert readme is not None
    assert f"```sh\n{readme[0]}\n```" in _text("CONTRIBUTING.md")


def test_every_path_it_names_exists() -> None:
    """Each repository path in a code span (a script, a test file or folder, a docs page) is
    there: a renamed script or test leaves no stale regeneration command."""
    spans = re.findall(r"`([^`\n]+)`", _text("CONTRIBUTING.md"))
    paths = {word for span in spans for word in span.split()
             if re.fullmatch(r"(scripts|tests|examples|docs|evalglass|\.ci)/[\w./-]*", word)}  # fmt: skip
    assert {"scripts/docs.py", "tests/render", "examples/trend/make.sh",
            "tests/render/test_compiled_templates.py",
            "tests/project/test_architecture.py"} <= paths  # fmt: skip
    # A placeholder (`tests/fixtures/NAME/`) stands for a path a contributor makes.
    real = {p for p in paths if not re.search(r"\b[A-Z]{2,}\b", p)}
    assert sorted(p for p in real if not (ROOT / p.rstrip("/")).exists()) == []
