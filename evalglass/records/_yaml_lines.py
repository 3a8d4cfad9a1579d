"""One line of a host-records file at a time, for the reader of the whole file (`_yaml.py`): a
`key: value` line split at its level, a block's entry, a document marker, and the messages that
refuse each, with the file, line and record they are about. Syntax only, as `_yaml.py`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NoReturn

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

# Levels of the document, as `entry` and messages name them.
TOP, RECORDS, FIELDS, SUBFIELDS = 0, 1, 2, 3


class Block:
    """The block a field holds, while its lines are read."""

    __slots__ = ("field", "indent", "items", "open_entry")

    def __init__(self, field: str, indent: int, items: RawBlock) -> None:
        """The block of `field`, whose lines start at column `indent`."""
        self.field = field
        self.indent = indent  # every line of the block starts at this column
        self.items = items
        # The name of the last entry written with nothing after it: a deeper line would nest.
        self.open_entry: str | None = None


class Lines:
    """What reading one line needs to know of the file: its path, kind and the record the line
    is in; and the line's number, for the message that refuses it."""

    def __init__(
        self, path: str, kind: str, noun: str, kinds: Collection[str], single: bool
    ) -> None:
        """A reader of `path`'s lines, a file of `kind` (`kinds` are the other files')."""
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
        """Refuse the file at the current line (or `line`)."""
        raise RecordError(self.path, message, self.line if line is None else line)

    def open_block(self, fields: dict[str, RawValue], field: str, indent: int, body: str) -> Block:
        """Start the block of `field`, whose first line (without its indent) is `body`."""
        items: RawBlock = [] if is_item(body) else {}
        fields[field] = (items, fields[field][1])
        self.block_field = field
        self.blocks = True
        return Block(field, indent, items)

    def owner(self) -> str:
        """The record a field line belongs to, as messages name it."""
        return excerpt(self.kind) if self.single else f"{self.noun} {excerpt(self.record_id)}"

    def block_entry(self, block: Block, body: str) -> None:
        """Read one `key: value` line of a block mapping, or one `- item` line of a block list."""
        items = block.items
        if isinstance(items, list):
            if not is_item(body):
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
        key, rest = self.entry(body, SUBFIELDS)
        name = f"{block.field}.{key}"
        value = self.value(rest, name, written=f"{key}: ")
        if key in items:
            self.fail(
                f"duplicate field {excerpt(key)} in {block.field} of {self.owner()} "
                f"(first on line {items[key][1]})"
            )
        items[key] = ("" if value is None else value, self.line)
        block.open_entry = name if value is None else None

    def too_deep(self, block: Block, indent: int) -> NoReturn:
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
        if level == TOP:
            return "the top level"
        if level == RECORDS:
            return excerpt(self.kind)
        if level == SUBFIELDS:
            return f"{self.block_field} of {self.owner()}"
        return self.owner()

    def entry(self, body: str, level: int) -> tuple[str, str]:
        """Split a `key: value` line at `level` into the key and the raw text after the colon."""
        try:
            return split_entry(body, self.where(level), in_block=level == SUBFIELDS)
        except Refused as exc:
            if level == TOP and body[0] not in "{[-?" and not self.names_kind(body):
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
            if level == RECORDS
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


def is_item(body: str) -> bool:
    """Whether a line (without its indent) is a block list item: `-` alone or before a blank."""
    return body[0] == "-" and (len(body) == 1 or body[1] in " \t")


def _is_blank(rest: str) -> bool:
    rest = rest.lstrip(" ")
    return not rest or rest[0] == "#"
