"""A strict, line-based reader for the YAML shapes host records have: `kind:`, ids, fields (or
`kind:` then fields, for a file of one record), and under a field one level of block mapping or
block list. It owns syntax only (indentation, comments; one scalar's syntax is `_scalars.py`) and
returns raw strings with line numbers; it must not type or interpret values (that is
`build.py`), and it must stay O(lines): one pass, no backtracking.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NoReturn

import attrs

from evalglass.errors import RecordError
from evalglass.records._scalars import (
    TAB,
    Refused,
    did_you_mean,
    excerpt,
    named_indicator,
    plain_text,
    read_value,
    split_entry,
)

# (text, line): a field's text as YAML reads it (quotes removed, escapes resolved). Plain tuples,
# not NamedTuples: a big file has hundreds of thousands of them, and those are slower to build.
RawScalar = tuple[str, int]
# A field written as a block: sub-fields by name, or list items in order.
RawBlock = dict[str, RawScalar] | list[RawScalar]
# (value, line of the field): a scalar's text, or a block.
RawValue = tuple[str | RawBlock, int]
# (line of the id, fields by name)
RawRecord = tuple[int, dict[str, RawValue]]


@attrs.frozen
class RawFile:
    """A file's records by id (for a file of one record: at most one, keyed by the file's kind),
    and whether any field was written as a block (so scalars need a shape check)."""

    records: dict[str, RawRecord]
    blocks: bool


# A field line `key: value`, `key: 'value'` or `key: value  # why`, with an identifier for a key and
# nothing YAML could read as structure; and a record line `some/id-1.2:`, optionally commented.
_SIMPLE_FIELD = re.compile(
    r"( *)([A-Za-z_][A-Za-z0-9_]*): +"
    r"(?:'([^']*)'|([^\s\-?:,\[\]{}#&*!|>'\"%@`<][^\t#: ]*(?: +[^\t#: ]+)*))"
    r"(?: +#.*)? *"
)
_SIMPLE_RECORD = re.compile(r"( *)([A-Za-z0-9_][A-Za-z0-9_./-]*):(?: +#.*)? *")
# Levels of the document, as `entry` and messages name them.
_TOP, _RECORDS, _FIELDS, _SUBFIELDS = 0, 1, 2, 3


def parse_records(
    text: str,
    *,
    path: str,
    kind: str,
    noun: str = "record",
    kinds: Collection[str] = (),
    single: bool = False,
) -> RawFile:
    """Read one host-records file: `kind:` then `id:` lines, each with `field: value` lines below;
    or, when `single`, `kind:` with the `field: value` lines of its one record right below it.

    A field with nothing after its colon may hold one indented block: `key: value` lines, or
    `- item` lines (which YAML also allows at the field's own column). `noun` names one record in
    messages ("metric"); `kinds` are the other files' top-level keys, so a key in the wrong file
    can be named as such. Raises RecordError on the first problem.
    """
    return _Reader(path, kind, noun, kinds, single).read(text)


class _Block:
    """The block a field holds, while its lines are read."""

    __slots__ = ("field", "indent", "items", "open_entry")

    def __init__(self, field: str, indent: int, items: RawBlock) -> None:
        self.field = field
        self.indent = indent  # every line of the block starts at this column
        self.items = items
        # The name of the last entry written with nothing after it: a deeper line would nest.
        self.open_entry: str | None = None


class _Reader:
    def __init__(
        self, path: str, kind: str, noun: str, kinds: Collection[str], single: bool
    ) -> None:
        self.path = path
        self.kind = kind
        self.noun = noun
        self.kinds = kinds
        self.single = single
        self.line = 0
        self.started = False
        self.record_id = ""
        self.block_field = ""
        self.blocks = False

    def fail(self, message: str, line: int | None = None) -> NoReturn:
        raise RecordError(self.path, message, self.line if line is None else line)

    def read(self, text: str) -> RawFile:
        text = self.normalise(text)
        records: dict[str, RawRecord] = {}
        top_line = 0
        # -1 until the first record (field) line sets the column every record (field) must use.
        record_indent = field_indent = -1
        fields: dict[str, RawValue] | None = None
        record_id = ""
        # The last field, when it had nothing after its colon: its name until the next line
        # shows whether a block follows, then the block being read.
        open_field: str | _Block | None = None
        simple_field, simple_record = _SIMPLE_FIELD.fullmatch, _SIMPLE_RECORD.fullmatch
        for line, raw in enumerate(text.split("\n"), 1):
            # Fast paths for the shapes almost every line has; what they do not match, or match
            # at an unexpected indent, goes the careful way below, which alone gives messages.
            simple = simple_field(raw)
            if simple is not None and fields is not None:
                spaces, key, quoted, plain = simple.groups()
                indent = len(spaces)
                if indent == field_indent:
                    if key not in fields:
                        fields[key] = (plain if quoted is None else quoted, line)
                        open_field = None
                        continue
                elif open_field is not None and indent > field_indent:
                    # A sub-field of the block the last field opened (or opens now).
                    if isinstance(open_field, str):
                        open_field = self.open_block(fields, open_field, indent, body=key)
                    items = open_field.items
                    if indent == open_field.indent and isinstance(items, dict) and key not in items:
                        items[key] = (plain if quoted is None else quoted, line)
                        open_field.open_entry = None
                        continue
            elif simple is None:
                simple = simple_record(raw)
                if simple is not None:
                    spaces, key = simple.groups()
                    indent = len(spaces)
                    if indent == record_indent and key not in records:
                        fields = {}
                        records[key] = (line, fields)
                        record_id = self.record_id = key
                        open_field = None
                        continue
                    if indent == field_indent and fields is not None and key not in fields:
                        # A field with nothing after its colon: a block may follow.
                        fields[key] = ("", line)
                        open_field = key
                        continue
            self.line = line
            body = raw.lstrip(" ")
            if not body or body[0] == "#":
                continue
            indent = len(raw) - len(body)
            if open_field is not None and fields is not None and indent >= field_indent:
                # The first line below a field with nothing after its colon: deeper, it opens a
                # block; a `- ` item may also sit at the field's own column.
                if isinstance(open_field, str) and (indent > field_indent or _is_item(body)):
                    open_field = self.open_block(fields, open_field, indent, body)
                if isinstance(open_field, _Block):
                    block = open_field
                    if indent == block.indent and (indent > field_indent or _is_item(body)):
                        self.block_entry(block, body)
                        continue
                    if indent > block.indent:
                        self.too_deep(block, indent)
                    if indent > field_indent:
                        self.fail(
                            f"wrong indentation: expected {block.indent} spaces, found {indent}"
                        )
                open_field = None
            if indent == field_indent and fields is not None:
                key, rest = self.entry(body, _FIELDS)
                value = self.value(rest, key)
                if key in fields:
                    self.fail(
                        f"duplicate field {excerpt(key)} in {self.owner()} "
                        f"(first on line {fields[key][1]})"
                    )
                fields[key] = ("" if value is None else value, self.line)
                open_field = key if value is None else None
                continue
            if body[0] == "\t":
                self.fail(TAB)
            if not self.single and (
                indent == record_indent or record_indent == -1 and top_line and indent
            ):
                record_indent = indent
                record_id, rest = self.entry(body, _RECORDS)
                self.record_id = record_id
                if rest:
                    self.no_value(rest, _FIELDS)
                if record_id == "":
                    self.fail(f"a {self.noun} id must not be empty")
                if record_id in records:
                    first = records[record_id][0]
                    self.fail(
                        f"duplicate {self.noun} id {excerpt(record_id)} (first on line {first})"
                    )
                fields = {}
                records[record_id] = (self.line, fields)
                open_field = None
                continue
            if indent == 0:
                if self.document_marker(body, seen_content=top_line > 0):
                    continue
                key, rest = self.entry(body, _TOP)
                if top_line:
                    if key == self.kind:
                        self.fail(
                            f"duplicate top-level key {excerpt(key)} (first on line {top_line})"
                        )
                    self.fail(
                        f"unexpected top-level key {excerpt(key)}: this file holds only "
                        f"'{self.kind}:' (line {top_line})"
                    )
                self.check_top_key(key)
                self.no_value(rest, _FIELDS if self.single else _RECORDS)
                top_line = self.line
                if self.single:
                    fields = {}
                    records[key] = (top_line, fields)
                continue
            if not top_line:
                self.fail(
                    f"wrong indentation: '{self.kind}:' must start at the beginning of the line, "
                    f"found {indent} spaces"
                )
            if indent < record_indent or fields is None:
                self.fail(f"wrong indentation: expected {record_indent} spaces, found {indent}")
            if field_indent == -1:
                field_indent = indent
                key, rest = self.entry(body, _FIELDS)
                value = self.value(rest, key)
                fields[key] = ("" if value is None else value, self.line)
                open_field = key if value is None else None
                continue
            # Deeper than a field with a value: YAML would continue that value on this line.
            hint = (
                " (a value must fit on its key's line)" if indent > field_indent and fields else ""
            )
            self.fail(f"wrong indentation: expected {field_indent} spaces, found {indent}{hint}")
        return RawFile(records, self.blocks)

    def open_block(self, fields: dict[str, RawValue], field: str, indent: int, body: str) -> _Block:
        """Start the block of `field`, whose first line (without its indent) is `body`."""
        items: RawBlock = [] if _is_item(body) else {}
        fields[field] = (items, fields[field][1])
        self.block_field = field
        self.blocks = True
        return _Block(field, indent, items)

    def owner(self) -> str:
        """The record a field line belongs to, as messages name it."""
        return excerpt(self.kind) if self.single else f"{self.noun} {excerpt(self.record_id)}"

    def block_entry(self, block: _Block, body: str) -> None:
        """Read one `key: value` line of a block mapping, or one `- item` line of a block list."""
        items = block.items
        if isinstance(items, list):
            if not _is_item(body):
                self.fail(
                    f"{block.field}: expected a list item ('- value') at this indentation, "
                    f"found {excerpt(body.split(' #')[0].rstrip(' '))}"
                )
            if body[1:2] == "\t":
                self.fail(TAB)
            value = self.value(body[1:].lstrip(" "), block.field, written="- ")
            items.append(("" if value is None else value, self.line))
            block.open_entry = block.field if value is None else None
            return
        key, rest = self.entry(body, _SUBFIELDS)
        name = f"{block.field}.{key}"
        value = self.value(rest, name, written=f"{key}: ")
        if key in items:
            self.fail(
                f"duplicate field {excerpt(key)} in {block.field} of {self.owner()} "
                f"(first on line {items[key][1]})"
            )
        items[key] = ("" if value is None else value, self.line)
        block.open_entry = name if value is None else None

    def too_deep(self, block: _Block, indent: int) -> NoReturn:
        """Refuse a line deeper than the block's own lines."""
        if block.open_entry is not None:
            self.fail(
                f"{block.open_entry}: nesting deeper than one level is not allowed; "
                f"write one value on the line of its {'item' if isinstance(block.items, list) else 'key'}"
            )
        # YAML would continue the value above on this line.
        self.fail(
            f"wrong indentation: expected {block.indent} spaces, found {indent} "
            "(a value must fit on its key's line)"
        )

    def normalise(self, text: str) -> str:
        try:
            return plain_text(text)
        except Refused as exc:
            self.fail(str(exc), exc.line)

    def document_marker(self, body: str, *, seen_content: bool) -> bool:
        """True for the one leading `---`, to skip; other document markers are refused."""
        marker = body[:3]
        if marker not in ("---", "...") or len(body) > 3 and body[3] not in " #":
            return False
        if marker == "...":
            self.fail("the document end marker '...' is not allowed")
        if not _is_blank(body[3:]):
            self.fail("write '---' on a line of its own")
        if seen_content or self.started:
            self.fail("only one YAML document is allowed: remove this '---' line")
        self.started = True
        return True

    def check_top_key(self, key: str) -> None:
        if key == self.kind:
            return
        expected = f"this file must start with '{self.kind}:'"
        if key in self.kinds:
            self.fail(f"top-level key {excerpt(key)} belongs in {key}.yaml; {expected}")
        self.fail(
            f"unknown top-level key {excerpt(key)}{did_you_mean(key, [self.kind])}; {expected}"
        )

    def where(self, level: int) -> str:
        """The mapping a line at `level` belongs to, as messages name it."""
        if level == _TOP:
            return "the top level"
        if level == _RECORDS:
            return excerpt(self.kind)
        if level == _SUBFIELDS:
            return f"{self.block_field} of {self.owner()}"
        return self.owner()

    def entry(self, body: str, level: int) -> tuple[str, str]:
        """Split a `key: value` line at `level` into the key and the raw text after the colon."""
        try:
            return split_entry(body, self.where(level), in_block=level == _SUBFIELDS)
        except Refused as exc:
            if level == _TOP and body[0] not in "{[-?" and not self.names_kind(body):
                # No `key:` at all on the first line: not a records file, and none of it is
                # shown (it may be any file, holding anything).
                self.fail(
                    f"expected '{self.kind}:' as the first key; this is not a host-records file"
                )
            self.fail(str(exc))

    def names_kind(self, text: str) -> bool:
        """Whether a top-level line is a slip in writing `kind:` (shown back in the message)
        rather than some other file's content (never shown)."""
        return text.lstrip("'\"").startswith(self.kind) or bool(did_you_mean(text, [self.kind]))

    def no_value(self, text: str, level: int) -> None:
        """Refuse anything after the colon of a key whose value is the `level` lines below it."""
        if not text or text[0] == "#":
            return
        label = self.where(level)
        holds = (
            "records (indented 'id:' lines below it)"
            if level == _RECORDS
            else "fields (indented 'field: value' lines below it)"
        )
        first = text[0]
        if first in "{[":
            self.fail(f"{label}: flow style is not allowed: write one 'key: value' per line")
        named = named_indicator(first)
        if named is not None:
            self.fail(f"{label}: {named} are not allowed")
        comment = text.find(" #")
        shown = (text if comment == -1 else text[:comment]).rstrip(" ")
        if "\t" in shown:
            self.fail(TAB)
        self.fail(f"{label} must be a mapping of {holds}, not the value {excerpt(shown)}")

    def value(self, text: str, key: str, written: str | None = None) -> str | None:
        """The scalar after a key's colon (or a list's `- `): see `_scalars.read_value`."""
        try:
            return read_value(text, key, written)
        except Refused as exc:
            self.fail(str(exc))


def _is_item(body: str) -> bool:
    """Whether a line (without its indent) is a block list item: `-` alone or before a blank."""
    return body[0] == "-" and (len(body) == 1 or body[1] in " \t")


def _is_blank(rest: str) -> bool:
    rest = rest.lstrip(" ")
    return not rest or rest[0] == "#"


def reads_plain(text: str) -> bool:
    """Whether `text`, written unquoted as a field's value, reads back as exactly `text`."""
    found = _SIMPLE_FIELD.fullmatch(f"    k: {text}")
    return found is not None and found.group(4) == text
