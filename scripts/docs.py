"""Regenerate the parts of docs/ that restate the code, or check that they still do.

    python scripts/docs.py           rewrite every generated block in docs/ and the README
    python scripts/docs.py --check   change nothing; exit 1 naming each file that differs

A generated block sits between `<!-- generated: NAME -->` and `<!-- end generated -->`; the
text around it is written by hand. The test suite runs --check (tests/project/test_docs_generated.py),
so a reason code, condition or format added in code and not in the docs fails CI. The formats'
tables and lists are written from what each adapter declares (`Adapter.docs`, one
`evidence/format_docs.FormatDocs` each), in the registry's order. The console
sessions of docs/promoting-a-gate.md are what the commands print, run on the bundled example.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import datetime as dt
import enum

from evalglass.core.conditions import AUTHORIZING, BY_CODE, SOUNDNESS, Condition
from evalglass.evidence import format_docs, registry
from evalglass.reasons import AuthorityCode
from evalglass.records.schema import KINDS, Field, Loosens, Pattern, Role

_BLOCK = re.compile(
    r"(?P<open><!-- generated: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(?P<close><!-- end generated -->)",
    re.DOTALL,
)


def _condition_table(rows: tuple[Condition, ...]) -> str:
    lines = ["| condition | reason code when it fails |", "|---|---|"]
    lines += [f"| {row.holds_when} | `{row.code.value}` |" for row in rows]
    return "\n".join(lines) + "\n"


def _stage_1() -> str:
    return _condition_table((BY_CODE[AuthorityCode.NO_RECORD], *AUTHORIZING))


def _stage_2() -> str:
    return _condition_table(SOUNDNESS)


def _shown(value: object) -> str:
    """A default as the records spell it: words in backticks, numbers plain."""
    if isinstance(value, bool):
        return "`yes`" if value else "`no`"
    if isinstance(value, enum.Enum):
        return f"`{value.value}`"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _required(field: Field) -> str:
    if field.doc.required is not None:
        return field.doc.required
    if field.required:
        return "yes"
    return "no" if field.default in (None, ()) else f"no (default {_shown(field.default)})"


def _values(field: Field) -> str:
    if field.doc.values is not None:
        return field.doc.values
    kind = field.type
    if issubclass(kind, enum.Enum):
        return ", ".join(str(member.value) for member in kind)
    if kind is bool:
        return "yes/no"
    if kind is dt.date:
        return "date `YYYY-MM-DD`"
    if kind is Pattern:
        return "a Python regular expression"
    if field.many:
        return "block list of text, no repeats"
    if kind in (int, float):
        noun = "integer" if kind is int else "number"
        if field.max is not None:
            low = "(" if field.min_exclusive else ""
            if low:
                return f"{noun} in ({field.min:g}, {field.max:g}]"
            return f"{field.min:g} to {field.max:g}"
        if field.min is not None:
            return f"{noun} ≥ {field.min:g}"
        return "a finite number"
    return "text"


_LOOSENS = {
    Loosens.AUTHORITY: "as authority moves",
    Loosens.NEVER: "never",
    Loosens.UNRANKED: "no direction (a plain change)",
    Loosens.LOWER: "lowered",
    Loosens.HIGHER: "raised",
    Loosens.LATER: "moved later, or removed",
    Loosens.AGAINST_OP: "lowered for `>=`/`>`, raised for `<=`/`<`",
    Loosens.OP: "flipped, or made non-strict",
    Loosens.REMOVED: "removed, or an item or part of it",
    Loosens.ANY: "edited, on a gating check",
}


def _loosens(field: Field, approved: bool) -> str:
    """Which change `diff --fail-on-loosen` refuses, in words."""
    if field.loosens is Loosens.RANKED:
        said = " → ".join("none" if o is None else _shown(o) for o in field.order)
        return f"moved along {said}"
    said = _LOOSENS[field.loosens]
    if approved and field.role is Role.BINDS:
        said += "; moved without a new approval"
    elif approved and field.role is Role.EXPIRES:
        said += ", without a new approval"
    return said


def _field_table(fields: tuple[Field, ...], head: str = "field", approved: bool = False) -> str:
    """A kind's (or a block's) fields as docs/host-records.md shows them: read from the
    declaration in records/schema.py. `approved`: the kind's records carry an approval."""
    lines = [f"| {head} | required | values | meaning | loosens when |", "|---|---|---|---|---|"]
    lines += [
        f"| {f.name} | {_required(f)} | {_values(f)} | {f.doc.meaning} | {_loosens(f, approved)} |"
        for f in fields
    ]
    return "\n".join(lines) + "\n"


def _field_blocks() -> dict[str, tuple[str, Callable[[], str]]]:
    """One table per kind, and one per field that holds a block of sub-fields."""
    blocks: dict[str, tuple[str, Callable[[], str]]] = {}
    for spec in KINDS.values():
        approved = bool(spec.having(Role.APPROVAL))
        blocks[f"fields-{spec.kind}"] = (
            "docs/host-records.md",
            lambda spec=spec, approved=approved: _field_table(spec.fields, approved=approved),
        )
        for field in spec.fields:
            if field.nested:
                blocks[f"fields-{spec.kind}-{field.name}".replace("_", "-")] = (
                    "docs/host-records.md",
                    lambda field=field: _field_table(field.fields, "sub-field"),
                )
    return blocks


def _input_formats() -> str:
    # The built-in formats only: what a plugin adds depends on the machine, not on this page.
    names = ", ".join(f"`{name}`" for name, _ in registry.FORMATS)
    return (
        f"`--input-format NAME` ({names}, or a format an installed plugin adds: see "
        "[plugins.md](plugins.md)) reads every file as that format instead.\n"
    )


def _declared(adapters: tuple[registry.Adapter, ...]) -> list[format_docs.FormatDocs]:
    """What each built-in format declares of itself; one that declares nothing is an error."""
    missing = [a.name for a in adapters if a.docs is None]
    if missing:
        raise SystemExit(f"format(s) declaring no docs (Adapter.docs): {', '.join(missing)}")
    return [a.docs for a in adapters if a.docs is not None]


def _labels(adapters: tuple[registry.Adapter, ...]) -> str:
    labels = [docs.label for docs in _declared(adapters)]
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]


def _frameworks() -> tuple[registry.Adapter, ...]:
    return registry.builtin()[: len(registry.FRAMEWORKS)]


def _generic() -> tuple[registry.Adapter, ...]:
    return registry.builtin()[len(registry.FRAMEWORKS) :]


def _format_table(name: str) -> Callable[[], str]:
    return lambda: format_docs.table(name, _declared(registry.builtin()))


def _detection_order() -> str:
    return (
        "The format of each file is detected from its name and head (below), in this order: "
        f"{_labels(_frameworks())}; then the formats installed plugins add "
        f"([plugins.md](plugins.md)); then {_labels(_generic())}.\n"
    )


def _plugin_order() -> str:
    return (
        "Files are offered to a plugin like a built-in format's: **after the frameworks' own "
        f"formats** ({_labels(_frameworks())}) **and before the generic ones** "
        f"({_labels(_generic())}). Plugins are offered a file in the order of their names.\n"
    )


def _readme_formats() -> str:
    declared = _declared(_frameworks())
    silent = [docs.label for docs in declared if not docs.reads]
    if silent:
        raise SystemExit(f"framework format(s) declaring no `reads`: {', '.join(silent)}")
    reads = [str(docs.reads) for docs in declared]
    return (
        f"evalglass reads {', '.join(reads)}, and a generic JSON / JSONL / CSV format for any "
        "other harness; it finds the format by itself, counts each case once however often it "
        "was repeated, and names every file it skips (docs/formats.md).\n"
    )


def _adapter_modules() -> str:
    """Every module of evidence/adapters/, with the format it declares (from the registry) and
    the first sentence of its docstring: a format added needs no hand edit to the page."""
    import ast

    declares = {module: name for name, module in registry.FORMATS}
    lines = ["| module | format | what it holds |", "|---|---|---|"]
    folder = ROOT / "evalglass" / "evidence" / "adapters"
    for path in sorted(folder.glob("*.py"), key=lambda p: (p.stem.startswith("_"), p.stem)):
        if path.stem == "__init__":
            continue
        doc = " ".join((ast.get_docstring(ast.parse(path.read_text("utf-8"))) or "").split())
        first = re.split(r"(?<=[.:;])\s", doc, maxsplit=1)[0].rstrip(".:;")
        lines.append(f"| `{path.name}` | {declares.get(path.stem, '')} | {first} |")
    return "\n".join(lines) + "\n"


def _run(argv: list[str], cwd: Path) -> str:
    """What `evalglass ARGV` prints in `cwd` (stdout, then stderr), with a clean environment."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "evalglass", *argv],
        cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    return done.stdout + done.stderr


def _session(*steps: tuple[str, str]) -> str:
    """A console block: each command after `$ ` and what it printed."""
    lines = ["```console"]
    for command, printed in steps:
        lines += (
            [f"$ {command}", *printed.removesuffix("\n").split("\n")]
            if printed
            else [f"$ {command}"]
        )
    return "\n".join([*lines, "```"]) + "\n"


def _example(*argv: str) -> str:
    """A command on the bundled example, run from the repository's root as the page says."""
    return _session(("evalglass " + " ".join(argv), _run(list(argv), ROOT)))


def _reapproval() -> str:
    """The re-approval walk: a copy of the example in a git repository, qa-gold bumped to
    2026-11 in datasets.yaml and in the run; explain's checklist (its head cut, and marked),
    its patch, and validate on the patch applied unfilled."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "host_records", work / "host_records")
        data = work / "host_records" / "datasets.yaml"
        data.write_text(data.read_text().replace("version: '2026-10'", "version: '2026-11'", 1))
        run = (ROOT / "examples" / "run.json").read_text()
        (work / "run.json").write_text(run.replace('"2026-10"', '"2026-11"'))
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        explained = _run(["explain", "qa/exact_match", "run.json"], work)
        patch = _run(["explain", "qa/exact_match", "run.json", "--patch"], work)
        (work / "reapprove.patch").write_text(patch)
        subprocess.run(["git", "apply", "reapprove.patch"], cwd=work, check=True)
        validated = _run(["validate"], work)
    _, cut, tail = explained.partition("To make it gate\n")
    assert cut, explained
    return _session(
        # The blank line parts the checklist from the next command.
        ("evalglass explain qa/exact_match run.json", "...\n" + cut + tail + "\n"),
        ("evalglass explain qa/exact_match run.json --patch > reapprove.patch", ""),
        ("cat reapprove.patch", patch),
        ("git apply reapprove.patch && evalglass validate", validated),
    )


def _row_columns() -> str:
    """What the DuckDB path takes in each column of generic rows, from the columns' declarations."""
    from evalglass.evidence.adapters._row_columns import COLUMNS

    lines = ["| column | what the engine path takes (anything else: the rows reader reads the file) |",
             "|---|---|"]  # fmt: skip
    lines += [f"| `{column.name}` | {column.takes} |" for column in COLUMNS]
    return "\n".join(lines) + "\n"


# Each block's name, the file it lives in, and what writes it.
BLOCKS: dict[str, tuple[str, Callable[[], str]]] = {
    "authority-stage-1": ("docs/authority.md", _stage_1),
    "authority-stage-2": ("docs/authority.md", _stage_2),
    "input-formats": ("docs/formats.md", _input_formats),
    "format-order": ("docs/formats.md", _detection_order),
    "format-counting": ("docs/formats.md", _format_table("counting")),
    "format-versions": ("docs/formats.md", _format_table("versions")),
    "format-runs": ("docs/formats.md", _format_table("runs")),
    "format-datasets": ("docs/formats.md", _format_table("datasets")),
    "plugin-order": ("docs/plugins.md", _plugin_order),
    "adapter-modules": ("docs/architecture.md", _adapter_modules),
    "row-columns": ("docs/scale.md", _row_columns),
    "readme-formats": ("README.md", _readme_formats),
    "promote-metrics": (
        "docs/promoting-a-gate.md",
        lambda: _example("metrics", "examples/run.json"),
    ),
    "promote-doctor": ("docs/promoting-a-gate.md", lambda: _example("doctor", "examples/run.json")),
    "promote-reapproval": ("docs/promoting-a-gate.md", _reapproval),
    **_field_blocks(),
}


def regenerate(root: Path) -> dict[Path, str]:
    """Every docs file holding a block, as it reads with each block regenerated. A block
    missing from its file, or one no generator writes, is an error (SystemExit)."""
    pages = sorted({relative for relative, _ in BLOCKS.values()})
    out = {}
    for relative in pages:
        path = root / relative
        found: set[str] = set()

        def fill(
            match: re.Match[str], path: Path = path, found: set[str] = found, page: str = relative
        ) -> str:
            name = match["name"]
            if BLOCKS.get(name, ("", None))[0] != page:
                raise SystemExit(f"{path}: no generator writes block '{name}' here")
            found.add(name)
            return match["open"] + BLOCKS[name][1]() + match["close"]

        out[path] = _BLOCK.sub(fill, path.read_text(encoding="utf-8"))
        missing = sorted(n for n, (rel, _) in BLOCKS.items() if rel == relative and n not in found)
        if missing:
            raise SystemExit(f"{path}: missing generated block(s): {', '.join(missing)}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Regenerate (or with --check, compare) every block; the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 on a difference"
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    args = parser.parse_args(argv)
    stale = []
    for path, text in regenerate(args.root).items():
        if path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        for path in stale:
            print(
                f"{path}: generated docs are out of date; run python scripts/docs.py",
                file=sys.stderr,
            )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
