"""A strict, line-based reader for the YAML shapes host records have: `kind:`, ids, fields (or
`kind:` then fields, for a file of one record), and under a field one level of block mapping or
block list. It owns syntax only (indentation, comments; one scalar's syntax is `_scalars.py`) and
returns raw strings with line numbers; it must not type or interpret values (that is
`build.py`), and it must stay O(lines): one pass, no backtracking.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import attrs

from evalglass.records._scalars import TAB, excerpt
from evalglass.records._yaml_lines import (
    FIELDS,
    RECORDS,
    TOP,
    Block,
    Lines,
    RawBlock,
    RawScalar,
    RawValue,
    is_item,
)

__all__ = [
    "RawBlock", "RawFile", "RawRecord", "RawScalar", "RawValue", "parse_records", "reads_plain",
]  # fmt: skip

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


class _Reader(Lines):
    """The walk through a whole file, line by line: where each line belongs (the top-level key, a
    record, a field, a block) decided by its indentation against the columns set so far."""

    def __init__(
        self, path: str, kind: str, noun: str, kinds: Collection[str], single: bool
    ) -> None:
        super().__init__(path, kind, noun, kinds, single)
        self.records: dict[str, RawRecord] = {}
        self.top_line = 0
        # -1 until the first record (field) line sets the column every record (field) must use.
        self.record_indent = self.field_indent = -1
        self.fields: dict[str, RawValue] | None = None
        # The last field, when it had nothing after its colon: its name until the next line
        # shows whether a block follows, then the block being read.
        self.open_field: str | Block | None = None

    def read(self, text: str) -> RawFile:
        # Fast paths for the shapes almost every line has; what they do not match, or match at an
        # unexpected indent, goes the careful way, which alone gives messages.
        simple_field, simple_record = _SIMPLE_FIELD.fullmatch, _SIMPLE_RECORD.fullmatch
        fast_field, fast_record, careful = self.fast_field, self.fast_record, self.careful
        for line, raw in enumerate(self.normalise(text).split("\n"), 1):
            simple = simple_field(raw)
            if simple is not None:
                if self.fields is not None and fast_field(simple.groups(), line):
                    continue
            else:
                simple = simple_record(raw)
                if simple is not None and fast_record(simple.groups(), line):
                    continue
            self.line = line
            careful(raw)
        return RawFile(self.records, self.blocks)

    def fast_field(self, groups: tuple[str, ...], line: int) -> bool:
        """A plain `key: value` line that is a new field, or a new sub-field of the open block."""
        fields = self.fields
        assert fields is not None
        spaces, key, quoted, plain = groups
        indent = len(spaces)
        if indent == self.field_indent:
            if key in fields:
                return False
            fields[key] = (plain if quoted is None else quoted, line)
            self.open_field = None
            return True
        open_field = self.open_field
        if open_field is None or indent <= self.field_indent:
            return False
        # A sub-field of the block the last field opened (or opens now).
        if isinstance(open_field, str):
            open_field = self.open_field = self.open_block(fields, open_field, indent, body=key)
        items = open_field.items
        if indent != open_field.indent or not isinstance(items, dict) or key in items:
            return False
        items[key] = (plain if quoted is None else quoted, line)
        open_field.open_entry = None
        return True

    def fast_record(self, groups: tuple[str, ...], line: int) -> bool:
        """A plain `id:` line that is a new record, or a new field with nothing after its colon."""
        spaces, key = groups
        indent = len(spaces)
        if indent == self.record_indent and key not in self.records:
            self.start_record(key, line)
            return True
        fields = self.fields
        if indent == self.field_indent and fields is not None and key not in fields:
            # A field with nothing after its colon: a block may follow.
            fields[key] = ("", line)
            self.open_field = key
            return True
        return False

    def start_record(self, record_id: str, line: int) -> None:
        self.fields = {}
        self.records[record_id] = (line, self.fields)
        self.record_id = record_id
        self.open_field = None

    def careful(self, raw: str) -> None:
        """Any line, by where its indentation puts it."""
        body = raw.lstrip(" ")
        if not body or body[0] == "#":
            return
        indent = len(raw) - len(body)
        opened = self.open_field is not None and self.fields is not None
        if opened and indent >= self.field_indent and self.below_open_field(indent, body):
            return
        if indent == self.field_indent and self.fields is not None:
            self.field_line(body, self.fields)
            return
        if body[0] == "\t":
            self.fail(TAB)
        record_indent = self.record_indent
        if not self.single and (
            indent == record_indent or record_indent == -1 and self.top_line and indent
        ):
            self.record_line(indent, body)
        elif indent == 0:
            self.top_level_line(body)
        else:
            self.first_field(indent, body)

    def below_open_field(self, indent: int, body: str) -> bool:
        """The first line below a field with nothing after its colon, or a line of the block it
        opened: deeper, it opens a block; a `- ` item may also sit at the field's own column.
        True when the line was the block's; else the field is closed."""
        open_field, field_indent = self.open_field, self.field_indent
        assert self.fields is not None and open_field is not None
        if isinstance(open_field, str) and (indent > field_indent or is_item(body)):
            open_field = self.open_field = self.open_block(self.fields, open_field, indent, body)
        if isinstance(open_field, Block):
            block = open_field
            if indent == block.indent and (indent > field_indent or is_item(body)):
                self.block_entry(block, body)
                return True
            if indent > block.indent:
                self.too_deep(block, indent)
            if indent > field_indent:
                self.fail(f"wrong indentation: expected {block.indent} spaces, found {indent}")
        self.open_field = None
        return False

    def field_line(self, body: str, fields: dict[str, RawValue]) -> None:
        """A `field: value` line of the record being read."""
        key, rest = self.entry(body, FIELDS)
        value = self.value(rest, key)
        if key in fields:
            self.fail(
                f"duplicate field {excerpt(key)} in {self.owner()} (first on line {fields[key][1]})"
            )
        fields[key] = ("" if value is None else value, self.line)
        self.open_field = key if value is None else None

    def record_line(self, indent: int, body: str) -> None:
        """An `id:` line: a record starts."""
        self.record_indent = indent
        record_id, rest = self.entry(body, RECORDS)
        self.record_id = record_id
        if rest:
            self.no_value(rest, FIELDS)
        if record_id == "":
            self.fail(f"a {self.noun} id must not be empty")
        if record_id in self.records:
            first = self.records[record_id][0]
            self.fail(f"duplicate {self.noun} id {excerpt(record_id)} (first on line {first})")
        self.start_record(record_id, self.line)

    def top_level_line(self, body: str) -> None:
        """A line at column 0: a document marker, or the file's one top-level key."""
        if self.document_marker(body, seen_content=self.top_line > 0):
            return
        key, rest = self.entry(body, TOP)
        if self.top_line:
            if key == self.kind:
                self.fail(f"duplicate top-level key {excerpt(key)} (first on line {self.top_line})")
            self.fail(
                f"unexpected top-level key {excerpt(key)}: this file holds only "
                f"'{self.kind}:' (line {self.top_line})"
            )
        self.check_top_key(key)
        self.no_value(rest, FIELDS if self.single else RECORDS)
        self.top_line = self.line
        if self.single:
            self.fields = {}
            self.records[key] = (self.top_line, self.fields)

    def first_field(self, indent: int, body: str) -> None:
        """The first field line, which sets the fields' column; any other line is misplaced."""
        if not self.top_line:
            self.fail(
                f"wrong indentation: '{self.kind}:' must start at the beginning of the line, "
                f"found {indent} spaces"
            )
        fields = self.fields
        if indent < self.record_indent or fields is None:
            self.fail(f"wrong indentation: expected {self.record_indent} spaces, found {indent}")
        field_indent = self.field_indent
        if field_indent == -1:
            self.field_indent = indent
            key, rest = self.entry(body, FIELDS)
            value = self.value(rest, key)
            fields[key] = ("" if value is None else value, self.line)
            self.open_field = key if value is None else None
            return
        # Deeper than a field with a value: YAML would continue that value on this line.
        hint = " (a value must fit on its key's line)" if indent > field_indent and fields else ""
        self.fail(f"wrong indentation: expected {field_indent} spaces, found {indent}{hint}")


def reads_plain(text: str) -> bool:
    """Whether `text`, written unquoted as a field's value, reads back as exactly `text`."""
    found = _SIMPLE_FIELD.fullmatch(f"    k: {text}")
    return found is not None and found.group(4) == text
