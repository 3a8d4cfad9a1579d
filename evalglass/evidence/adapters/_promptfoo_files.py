"""promptfoo's exports read into the shape of its JSON export: `-o results.json`, `.yaml` (the
same object), `.xml` (the same object as text elements) and `.jsonl` (the result rows alone).
It loads; what the rows mean is the adapter's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evalglass import _inputs
from evalglass.errors import OutputError, install_hint
from evalglass.evidence import progress
from evalglass.evidence.adapters import _common as c

# What a loaded export is, when it is not the whole JSON object: the rows of `-o results.jsonl`.
ROWS_ONLY = "rows only"

# A YAML document may repeat a node by alias; expanded, a few aliases can stand for billions of
# nodes. More nodes than this (a generous multiple of any real export's) is refused.
_MAX_NODES = 20_000_000
# XML text that reads as a JSON scalar is that scalar: promptfoo writes every value as text.
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS: dict[str, object] = {"true": True, "false": False}
# Lists the adapter reads that XML cannot tell from one element when they hold one.
_LISTS = (("results", "prompts"), ("results", "results"))
_ROW_LISTS = (("gradingResult", "componentResults"),)


def load(path: Path, shown: str) -> dict[str, Any]:
    """The export as the JSON export's object; `-o results.jsonl` as {ROWS_ONLY: rows}."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return {ROWS_ONLY: list(_rows(path, shown))}
    if suffix in (".yaml", ".yml"):
        return c.mapping(_yaml(path, shown), shown, "results file")
    if suffix == ".xml":
        return _xml(path, shown)
    return c.mapping(c.load_json_file(path, shown), shown, "results file")


def _rows(path: Path, shown: str) -> Iterator[dict[str, Any]]:
    try:
        with progress.open_binary(path) as stream:
            for _, row in c.json_objects(stream, shown, "expected one result object per line"):
                yield row
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc


def _yaml(path: Path, shown: str) -> Any:
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError as exc:
        raise OutputError(
            shown,
            f"reading promptfoo's YAML export needs PyYAML: {install_hint('yaml')}, or export "
            "JSON with -o results.json",
        ) from exc
    try:
        with progress.open_binary(path) as stream:
            _inputs.PARSE_BYTES.check(os.fstat(stream.fileno()).st_size)
            loader = _loader(yaml)(stream)
            try:
                node = loader.get_single_node()
                if node is not None and _expanded(node) > _MAX_NODES:
                    raise OutputError(shown, "YAML aliases expand to too many nodes")
                return None if node is None else loader.construct_document(node)
            finally:
                loader.dispose()
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc
    except _inputs.TooLarge as exc:
        raise OutputError(shown, str(exc)) from exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = None if mark is None else mark.line + 1
        raise OutputError(shown, f"not valid YAML: {c.one_line(exc.problem)}", line) from exc
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as exc:
        raise OutputError(shown, f"not valid YAML: {c.one_line(exc)}") from exc


def _loader(yaml: Any) -> Any:
    """PyYAML's safe loader reading scalars as YAML 1.2 (and JSON) do, as promptfoo wrote them:
    `yes`, `on` and `1:20` stay text, and a date stays the string it was."""

    # libyaml's parser where PyYAML was built with it; the resolvers below apply to both.
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        pass

    replaced = {"bool", "int", "float", "timestamp"}
    Loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag.rsplit(":", 1)[-1] not in replaced]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    core = (
        ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
        ("int", r"[-+]?[0-9]+", "-+0123456789"),
        (
            "float",
            r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)",
            "-+0123456789.",
        ),
    )
    for name, pattern, first in core:
        Loader.add_implicit_resolver(
            f"tag:yaml.org,2002:{name}", re.compile(f"^(?:{pattern})$"), list(first)
        )
    return Loader


def _expanded(root: Any) -> int:
    """How many nodes the document holds with every alias expanded, without expanding them."""
    sizes: dict[int, int] = {}
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        if id(node) in sizes:
            continue
        sizes[id(node)] = 0
        order.append(node)
        stack.extend(_children(node))
    for node in reversed(order):
        sizes[id(node)] = 1 + sum(sizes[id(child)] for child in _children(node))
        if sizes[id(node)] > _MAX_NODES:
            return sizes[id(node)]
    return sizes[id(root)]


def _children(node: Any) -> list[Any]:
    value = node.value
    if not isinstance(value, list):
        return []
    return [part for item in value for part in (item if isinstance(item, tuple) else (item,))]


def _xml(path: Path, shown: str) -> dict[str, Any]:
    import xml.etree.ElementTree as ET

    text = c.read_whole(path, shown)
    # promptfoo declares no document type: one that does may define entities that expand.
    if b"<!DOCTYPE" in text or b"<!ENTITY" in text:
        raise OutputError(shown, "XML with a document type declaration is not read")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise OutputError(shown, f"not valid XML: {c.one_line(exc)}", line) from exc
    if root.tag != "promptfoo":
        raise OutputError(
            shown, f"expected promptfoo's XML export, found <{c.one_line(root.tag, 40)}>"
        )
    doc = _element(root)
    doc = doc if isinstance(doc, dict) else {}
    for outer, inner in _LISTS:
        section = doc.get(outer)
        if isinstance(section, dict) and inner in section:
            section[inner] = _listed(section[inner])
    results = c.section(doc, "results")
    for row in results.get("results") or []:
        for outer, inner in _ROW_LISTS:
            section = row.get(outer) if isinstance(row, dict) else None
            if isinstance(section, dict) and inner in section:
                section[inner] = _listed(section[inner])
    return doc


def _element(element: Any) -> object:
    """An element as JSON would hold it: children by tag (repeated tags as a list), text as
    the scalar it reads as, an empty element as null."""
    children = list(element)
    if not children:
        return _scalar(element.text)
    found: dict[str, object] = {}
    for child in children:
        value = _element(child)
        held = found.get(child.tag, _ABSENT)
        if held is _ABSENT:
            found[child.tag] = value
        elif isinstance(held, _Repeated):
            held.append(value)
        else:
            found[child.tag] = _Repeated([held, value])
    return {
        key: list(value) if isinstance(value, _Repeated) else value for key, value in found.items()
    }


_ABSENT = object()


class _Repeated(list[object]):
    """Children that shared a tag: a list in the export (a plain list could be a value)."""


def _scalar(text: str | None) -> object:
    if text is None or text == "":
        return None
    if text in _LITERALS:
        return _LITERALS[text]
    if _INTEGER.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _listed(value: object) -> list[object]:
    """One element where a list was written is a list of one."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
