"""The checklist's edits as a patch a person reviews and applies: a unified diff of the host-records
files that changes only the lines the edits name, so every comment and all layout elsewhere stay.

It writes nothing: it returns text. A value only a person can choose (who approved, when, the bar)
is written as a bare `<placeholder>`, which the records loader refuses, so the patch applied as it
is can never make a gate pass: each placeholder must be filled in first.

Edits are made on lines located by our own records reader rather than by strictyaml's round trip:
strictyaml 1.7.3 re-emits a quoted `'<='` in an untouched record as a bare `<=`, which the records
dialect refuses (a bare `>` would start a block scalar), so its output would not load.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Mapping

from evalglass.errors import RecordError
from evalglass.records._scalars import is_placeholder
from evalglass.records._yaml import parse_records, reads_plain
from evalglass.tools.edits import ORDER, Edit, scalar_text

# Words YAML would read as a boolean or null, which a string must not be taken for.
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "null", "~"})
# `  key: value  # comment`: the key part, the value as written, and a trailing comment.
_FIELD_LINE = re.compile(
    r"""(\s*[^\s:][^:]*:[ ]+)('(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^#]*?)([ ]+\#.*)?[ ]*"""
)


_BARE = re.compile(r"^( *[A-Za-z_][A-Za-z0-9_]*: )(<[^'\n]*>)$", re.MULTILINE)


class Placeholder(str):
    """A value the person must choose, written bare so that the loader refuses it until then."""


def patch(files: Mapping[str, str | None], folder: str, edits: tuple[Edit, ...]) -> str:
    """A unified diff (git-apply-able, paths under `folder` as given) making `edits`.

    `files` maps each record kind ("metrics", ...) to its file's text, None when the file does not
    exist yet. Kinds the edits do not touch may be left out.
    """
    grouped: dict[str, dict[str, dict[str, Edit]]] = {}
    for edit in edits:
        grouped.setdefault(edit.kind, {}).setdefault(edit.record, {})[edit.field] = edit
    base = posixpath.normpath(folder.replace("\\", "/").rstrip("/") or ".")
    parts = []
    for kind in sorted(grouped, key=ORDER.index):
        before = files.get(kind)
        after = edited(kind, before, grouped[kind])
        parts.append(_diff(posixpath.join(base, f"{kind}.yaml"), before, after))
    return "".join(parts)


def edited(kind: str, text: str | None, records: dict[str, dict[str, Edit]]) -> str:
    """`text` (a records file of `kind`, or None for none) with the edits made, one field at a
    time, each located afresh by the records reader."""
    if text is None or not _has_top_key(text):
        # No `kind:` line yet (no file, or one of comments only, as `init` writes when it has
        # nothing to record): the records go under a new one, after any comments.
        head = "" if text is None or not text.strip() else text.rstrip("\n") + "\n"
        blocks = "\n".join(_block(rid, fields, 2) for rid, fields in records.items())
        return f"{head}{kind}:\n{blocks}"
    # Read once as written, so that a problem in the file is named at its own line; every later
    # read is of a copy this function made, which must load.
    parse_records(text, path=f"{kind}.yaml", kind=kind)
    for record_id, fields in records.items():
        for name, edit in fields.items():
            try:
                text = _edit_field(kind, text, record_id, name, edit)
            except RecordError as exc:
                raise RuntimeError(f"the patch made {kind}.yaml unreadable: {exc}") from exc
    return text


def _has_top_key(text: str) -> bool:
    """Whether the file holds a line at the top level other than a comment or `---`."""
    return any(
        line[:1] not in ("", " ", "#") and not line.startswith("---") for line in text.split("\n")
    )


def _edit_field(kind: str, text: str, record_id: str, name: str, edit: Edit) -> str:
    # Placeholders written by earlier edits are quoted in the copy that is parsed for lines.
    parsed = parse_records(_BARE.sub(r"\1'\2'", text), path=f"{kind}.yaml", kind=kind).records
    lines = text.split("\n")
    indent = _indent(lines[next(iter(parsed.values()))[0] - 1]) if parsed else 2
    # One field indentation for the whole file, as the reader requires.
    field_lines = [line for _, fields in parsed.values() for _, line in fields.values()]
    field_indent = _indent(lines[field_lines[0] - 1]) if field_lines else indent + 2
    if record_id not in parsed:
        while lines and not lines[-1].strip():
            lines.pop()
        head = f"{' ' * indent}{spelling(record_id)}:"
        block = [head, *_field(None, name, edit, field_indent)]
        return "\n".join([*lines, "", *block]) + "\n"
    record_line, fields = parsed[record_id]
    if name in fields:
        at = fields[name][1] - 1
        lines[at : _block_end(lines, at)] = _field(lines[at], name, edit, field_indent)
    else:
        last = max((line for _, line in fields.values()), default=record_line) - 1
        end = _block_end(lines, last)
        lines[end:end] = _field(None, name, edit, field_indent)
    return "\n".join(lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block_end(lines: list[str], at: int) -> int:
    """The index just past line `at` (an index) and any lines nested deeper below it."""
    base = _indent(lines[at])
    end = at + 1
    while end < len(lines) and lines[end].strip() and _indent(lines[end]) > base:
        end += 1
    return end


def _field(old: str | None, name: str, edit: Edit, indent: int) -> list[str]:
    """The line(s) for a field: an existing line keeps its indentation and trailing comment."""
    comment = ""
    pad = " " * indent
    if old is not None:
        found = _FIELD_LINE.fullmatch(old)
        if found is not None and found.group(3):
            comment = found.group(3)
        pad = old[: len(old) - len(old.lstrip(" "))]
    value = edit.value
    if isinstance(value, Mapping):
        nested = [f"{pad}  {key}: {spelling(_sub_value(item))}" for key, item in value.items()]
        return [f"{pad}{name}:{comment}", *nested]
    return [f"{pad}{name}: {spelling(_value(edit))}{comment}"]


def _block(record_id: str, fields: dict[str, Edit], indent: int) -> str:
    lines = [f"{' ' * indent}{spelling(record_id)}:"]
    for name, edit in fields.items():
        lines += _field(None, name, edit, indent + 2)
    return "\n".join(lines) + "\n"


def _value(edit: Edit) -> str:
    if edit.choose is not None:
        return _placeholder(edit.choose)
    return scalar_text(edit.value)


def _sub_value(item: object) -> str:
    """A block's sub-value: one still to be chosen elsewhere in the checklist (`<version>`)
    stays a bare placeholder, so the patch cannot load until it is filled in here too."""
    text = scalar_text(item)
    if is_placeholder(text):
        return _placeholder(text[1:-1])
    return text


def _placeholder(choose: str) -> Placeholder:
    # Bare in the file: nothing in it that YAML would read as structure or a quote.
    words = " ".join(choose.replace("'", "").replace('"', "").replace(":", "").split())
    return Placeholder(f"<{words.replace('#', 'no.')}>")


def spelling(text: str) -> str:
    """`text` as the records loader reads it back unchanged: plain where its fast path takes it
    plain, else single-quoted; a placeholder bare."""
    if isinstance(text, Placeholder):
        return str(text)
    if reads_plain(text) and text.lower() not in _YAML_WORDS:
        return text
    return "'" + text.replace("'", "''") + "'"


def _diff(name: str, before: str | None, after: str) -> str:
    old = [] if before is None else before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    header = f"diff --git a/{name} b/{name}\n"
    if before is None:
        header += "new file mode 100644\n"
    lines = difflib.unified_diff(
        old, new, fromfile="/dev/null" if before is None else f"a/{name}", tofile=f"b/{name}"
    )
    body = "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
    return header + body if body else ""
