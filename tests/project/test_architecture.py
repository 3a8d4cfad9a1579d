"""The layers in docs/architecture.md are the package's: every import, lazy ones included, goes to
its own layer or one its row allows; and the page names every module the package has."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "evalglass"
DOC = ROOT / "docs" / "architecture.md"


def _layers() -> tuple[dict[str, str], dict[str, set[str]]]:
    """From the doc's table: module prefix -> layer, and layer -> the layers it may import."""
    owners: dict[str, str] = {}
    allowed: dict[str, set[str]] = {}
    rows = re.findall(r"^\| (\w+) \| (`.+?`) \| ([\w, ]+) \|$", DOC.read_text(), re.MULTILINE)
    for layer, modules, may in rows:
        for module in re.findall(r"`([\w.]+)`", modules):
            owners[module] = layer
        allowed[layer] = {name.strip() for name in may.split(",")}
    return owners, allowed


def _layer_of(module: str, owners: dict[str, str]) -> str | None:
    """The layer of the longest prefix of `module` the table names."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        layer = owners.get(".".join(parts[:end]))
        if layer is not None and (end > 1 or module == "evalglass"):
            return layer
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str) -> set[str]:
    """Every evalglass module `path` imports, at the top or inside a function."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                # `from evalglass import contract` names a module; `from x import Name` does not.
                found.add(f"{base}.{alias.name}" if base == "evalglass" else base)
    return {name for name in found if name == "evalglass" or name.startswith("evalglass.")}


def test_the_doc_names_every_layer_and_every_module_has_one() -> None:
    """Each module of the package belongs to a layer the doc's table names."""
    owners, allowed = _layers()
    assert set(allowed) == {"foundation", "records", "evidence", "core", "tools", "render", "shell"}
    for path in PACKAGE.rglob("*.py"):
        module = _module_name(path)
        assert _layer_of(module, owners) is not None, f"{module} is in no layer of architecture.md"


def test_no_module_imports_a_layer_it_may_not() -> None:
    """No upward import anywhere, and records and evidence never import each other."""
    owners, allowed = _layers()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        layer = _layer_of(module, owners)
        assert layer is not None
        for imported in _imports(path, module):
            target = _layer_of(imported, owners)
            if target is not None and target != layer and target not in allowed[layer]:
                wrong.append(f"{module} ({layer}) imports {imported} ({target})")
    assert wrong == []


def test_records_and_evidence_are_siblings() -> None:
    """The doc's table keeps host records and eval outputs apart, both ways."""
    _, allowed = _layers()
    assert "evidence" not in allowed["records"] and "records" not in allowed["evidence"]


# The layers above, and the folders for what belongs to none: the repository as a whole, and the
# adversarial suite that attacks every layer at once.
TEST_FOLDERS = {"foundation", "records", "evidence", "core", "tools", "render", "shell", "project",
                "hostile"}  # fmt: skip


def test_the_tests_mirror_the_layers() -> None:
    """Every test file sits in the folder of a layer the doc's table names (or `project`,
    `hostile`), and every layer has its folder: none is left at the top of tests/."""
    _, allowed = _layers()
    tests = ROOT / "tests"
    assert set(allowed) <= TEST_FOLDERS
    placed = {p.relative_to(tests).parts[0] for p in tests.rglob("test_*.py")
              if "fixtures" not in p.parts}  # fmt: skip
    assert placed == TEST_FOLDERS
    assert not list(tests.glob("test_*.py"))


def _named_on_the_page() -> set[str]:
    """Every name the page gives in code: inside backticks, in the layer diagram, as `NAME.py`
    or as a folder `NAME/`."""
    text = DOC.read_text(encoding="utf-8")
    names: set[str] = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        names.update(re.findall(r"\w+", span))
    for block in re.findall(r"^```\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        names.update(re.findall(r"\w+", block))
    names.update(re.findall(r"(\w+)\.py\b", text))
    names.update(re.findall(r"(\w+)/", text))
    return names


def test_the_page_names_every_module_and_package() -> None:
    """docs/architecture.md names each module and each package of evalglass/ (the compiled
    templates aside, which are generated): a module added without a word on the page fails
    here."""
    named = _named_on_the_page()
    unnamed = []
    for path in sorted(PACKAGE.rglob("*")):
        if "_compiled" in path.parts or "__pycache__" in path.parts:
            continue
        if path.is_dir():
            name = path.name
        elif path.suffix == ".py" and path.stem not in {"__init__", "__main__"}:
            name = path.stem
        else:
            continue
        if name not in named:
            unnamed.append(str(path.relative_to(ROOT)))
    assert unnamed == []
