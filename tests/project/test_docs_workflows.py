"""The workflow examples in the docs never paste a `${{ }}` expression into a shell script: a
value such as a branch name reaches `run:` through `env:`, so no text in it can become a
command (GitHub's own hardening advice)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md"])
FENCE = re.compile(r"^```(\w*)\s*$")


def _scripts(text: str) -> list[tuple[int, str]]:
    """Each line of a `run:` script in the page's YAML blocks, with its line number."""
    found: list[tuple[int, str]] = []
    in_yaml = False
    block_indent: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            in_yaml = not in_yaml and fence.group(1) in ("yaml", "yml")
            block_indent = None
            continue
        if not in_yaml:
            continue
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and line.strip() and indent <= block_indent:
            block_indent = None
        if block_indent is not None:
            found.append((number, line))
            continue
        run = re.match(r"^(\s*)(?:-\s+)?run:\s*(.*)$", line)
        if run:
            if run.group(2).strip() in ("|", ">", "|-", ">-"):
                block_indent = indent
            else:
                found.append((number, line))
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_expression_is_pasted_into_a_run_script(page: Path) -> None:
    """Every `${{ }}` in a workflow example is an `env:` value or an input, never shell text."""
    pasted = [f"{page.name}:{n}: {line.strip()}" for n, line in _scripts(page.read_text())
              if "${{" in line]  # fmt: skip
    assert pasted == []
