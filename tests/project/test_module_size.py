"""Small modules: no module of the package grows past 400 lines, the size past which the house
style splits a module by concept (templates compiled by jinja2 are its output, not ours)."""

from __future__ import annotations

from pathlib import Path

import evalglass

PACKAGE = Path(evalglass.__file__).resolve().parent
MAX_LINES = 400


def test_no_module_is_longer_than_400_lines() -> None:
    """Every hand-written module of evalglass/ is at most 400 lines long."""
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
        if "_compiled" not in path.parts
    }
    assert len(sizes) > 100
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
