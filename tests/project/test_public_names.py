"""A public name means one thing: no module of the package defines a second class under a name
`evalglass` exports (the contract's classes excepted: they mirror the core's on purpose, so the
JSON cannot change unseen)."""

from __future__ import annotations

import ast
from pathlib import Path

import evalglass

PACKAGE = Path(evalglass.__file__).resolve().parent


def test_no_module_reuses_a_public_class_name() -> None:
    """Each class `evalglass` exports is defined once: a trend's run, a bootstrap's result, a
    git object reader and the like carry names of their own."""
    public = {name for name in evalglass.__all__ if isinstance(getattr(evalglass, name), type)}
    homes: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "contract" or "_compiled" in relative.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            named = [node] if isinstance(node, ast.ClassDef) else []
            if isinstance(node, ast.Assign | ast.AnnAssign):
                # A type alias under a public name is a second home too.
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named = [t for t in targets if isinstance(t, ast.Name)]
            for name in (n.name if isinstance(n, ast.ClassDef) else n.id for n in named):
                if name in public:
                    homes.setdefault(name, []).append(str(relative))
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}
    assert set(homes) <= public and len(homes) > 10
