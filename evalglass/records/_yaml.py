"""A strict, line-based reader for the one YAML shape host records have: `kind:`, ids, fields.

It owns syntax only (quoting, indentation, comments) and returns raw strings with line numbers; it
must not type or interpret values (that is `schema.py`), and it must stay O(lines): one pass, no
backtracking.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from typing import NoReturn

from evalglass.errors import RecordError

# (text, line): a field's text as YAML reads it (quotes removed, escapes resolved). Plain tuples,
# not NamedTuples: a big file has hundreds of thousands of them, and building those costs 2x.
RawValue = tuple[str, int]
# (line of the id, fields by name)
RawRecord = tuple[int, dict[str, RawValue]]


# Outside YAML's printable set, or what YAML reads as a line break (\r alone, \x85, \u2028,
# \u2029), or a BOM past the start: any of these would make our lines differ from YAML's.
_UNSUPPORTED = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
)
_HEX = re.compile("[0-9a-fA-F]+")
_DQ_SPECIAL = re.compile(r'["\\]')
_SINGLE_QUOTED = re.compile("'((?:[^']|'')*)'")
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
# What YAML reads as structure at the start of a plain scalar (`-?:` only before a space), and `<`.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`<")
# A field line `key: value`, `key: 'value'` or `key: value  # why`, with an identifier for a key and
# nothing YAML could read as structure; and a record line `some/id-1.2:`, optionally commented.
_SIMPLE_FIELD = re.compile(
    r"( *)([A-Za-z_][A-Za-z0-9_]*): +"
    r"(?:'([^']*)'|([^\s\-?:,\[\]{}#&*!|>'\"%@`<][^\t#: ]*(?: +[^\t#: ]+)*))"
    r"(?: +#.*)? *"
)
_SIMPLE_RECORD = re.compile(r"( *)([A-Za-z0-9_][A-Za-z0-9_./-]*):(?: +#.*)? *")
# Levels of the document, as `entry` and messages name them.
_TOP, _RECORDS, _FIELDS = 0, 1, 2
_TAB = "tab characters are not allowed; indent and separate with spaces"


def quote(text: str) -> str:
    """`text` as a user would write it in YAML: single-quoted, or double-quoted with escapes."""
    if text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    escaped = text.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return f'"{escaped}"'


def parse_records(
    text: str, *, path: str, kind: str, noun: str = "record", kinds: Collection[str] = ()
) -> dict[str, RawRecord]:
    """Read one host-records file: `kind:` then `id:` lines, each with `field: value` lines below.

    `noun` names one record in messages ("metric"); `kinds` are the other files' top-level keys,
    so a key in the wrong file can be named as such. Raises RecordError on the first problem.
    """
    return _Reader(path, kind, noun, kinds).read(text)


class _Reader:
    def __init__(self, path: str, kind: str, noun: str, kinds: Collection[str]) -> None:
        self.path = path
        self.kind = kind
        self.noun = noun
        self.kinds = kinds
        self.line = 0
        self.started = False
        self.record_id = ""

    def fail(self, message: str, line: int | None = None) -> NoReturn:
        raise RecordError(self.path, message, self.line if line is None else line)

    def read(self, text: str) -> dict[str, RawRecord]:
        text = self.normalise(text)
        records: dict[str, RawRecord] = {}
        top_line = 0
        # -1 until the first record (field) line sets the column every record (field) must use.
        record_indent = field_indent = -1
        fields: dict[str, RawValue] | None = None
        record_id = ""
        # The last field written with nothing after its colon: lines deeper than it would nest.
        open_field: str | None = None
        simple_field, simple_record = _SIMPLE_FIELD.fullmatch, _SIMPLE_RECORD.fullmatch
        for line, raw in enumerate(text.split("\n"), 1):
            # Fast paths for the shapes almost every line has; what they do not match, or match
            # at an unexpected indent, goes the careful way below, which alone gives messages.
            simple = simple_field(raw)
            if simple is not None and fields is not None:
                spaces, key, quoted, plain = simple.groups()
                if len(spaces) == field_indent and key not in fields:
                    fields[key] = (plain if quoted is None else quoted, line)
                    open_field = None
                    continue
            elif simple is None:
                simple = simple_record(raw)
                if simple is not None:
                    spaces, key = simple.groups()
                    if len(spaces) == record_indent and key not in records:
                        fields = {}
                        records[key] = (line, fields)
                        record_id = self.record_id = key
                        open_field = None
                        continue
            self.line = line
            body = raw.lstrip(" ")
            if not body or body[0] == "#":
                continue
            indent = len(raw) - len(body)
            if indent == field_indent and fields is not None:
                key, rest = self.entry(body, _FIELDS)
                value = self.value(rest, key)
                if key in fields:
                    self.fail(
                        f"duplicate field {quote(key)} in {self.noun} {quote(record_id)} "
                        f"(first on line {fields[key][1]})"
                    )
                fields[key] = ("" if value is None else value, self.line)
                open_field = key if value is None else None
                continue
            if body[0] == "\t":
                self.fail(_TAB)
            if indent == record_indent or record_indent == -1 and top_line and indent:
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
                        f"duplicate {self.noun} id {quote(record_id)} (first on line {first})"
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
                            f"duplicate top-level key {quote(key)} (first on line {top_line})"
                        )
                    self.fail(
                        f"unexpected top-level key {quote(key)}: this file holds only "
                        f"'{self.kind}:' (line {top_line})"
                    )
                self.check_top_key(key)
                self.no_value(rest, _RECORDS)
                top_line = self.line
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
            if indent > field_indent and open_field is not None:
                self.fail(
                    f"{open_field}: nested mappings and lists are not allowed; "
                    "a field holds one value on its own line"
                )
            # Deeper than a field with a value: YAML would continue that value on this line.
            hint = (
                " (a value must fit on its key's line)" if indent > field_indent and fields else ""
            )
            self.fail(f"wrong indentation: expected {field_indent} spaces, found {indent}{hint}")
        return records

    def normalise(self, text: str) -> str:
        text = text.removeprefix("\ufeff")
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        bad = _UNSUPPORTED.search(text)
        if bad is not None:
            line = text.count("\n", 0, bad.start()) + 1
            if bad.group() == "\r":
                self.fail("a carriage return without a line feed: use LF or CRLF line ends", line)
            self.fail(
                f"unsupported character U+{ord(bad.group()):04X}: records are plain text", line
            )
        return text

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
            self.fail(f"top-level key {quote(key)} belongs in {key}.yaml; {expected}")
        self.fail(f"unknown top-level key {quote(key)}{did_you_mean(key, [self.kind])}; {expected}")

    def where(self, level: int) -> str:
        """The mapping a line at `level` belongs to, as messages name it."""
        if level == _TOP:
            return "the top level"
        if level == _RECORDS:
            return quote(self.kind)
        return f"{self.noun} {quote(self.record_id)}"

    def entry(self, body: str, level: int) -> tuple[str, str]:
        """Split a `key: value` line at `level` into the key and the raw text after the colon."""
        if body[0] in "'\"":
            key, end = self.quoted(body, "key")
            rest = body[end:].lstrip(" ")
            if not rest.startswith(":") or len(rest) > 1 and rest[1] != " ":
                if rest.startswith("\t"):
                    self.fail(_TAB)
                self.fail(f"expected ':' after the key {quote(key)}")
            after = rest[1:]
        else:
            colon = body.find(": ")
            if colon == -1 and body.endswith(":"):
                colon = len(body) - 1
            comment = body.find(" #")
            if colon == -1 or -1 < comment < colon:
                found = body if comment == -1 else body[:comment].rstrip(" ")
                if "\t" in found:
                    self.fail(_TAB)
                self.check_plain_start(found, level, None)
                hint = " (put a space after ':')" if ":" in found else ""
                self.fail(
                    f"expected 'key: value' in {self.where(level)}, found {quote(found)}{hint}"
                )
            key = body[:colon].rstrip(" ")
            if not key:
                self.fail(f"missing key before ':' in {self.where(level)}")
            if "\t" in key:
                self.fail(_TAB)
            self.check_plain_start(key, level, None)
            after = body[colon + 1 :]
        return key, after.lstrip(" ")

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
        named = {"&": "anchors (&)", "*": "aliases (*)", "!": "tags (!)"}.get(first)
        if named is not None:
            self.fail(f"{label}: {named} are not allowed")
        comment = text.find(" #")
        shown = (text if comment == -1 else text[:comment]).rstrip(" ")
        if "\t" in shown:
            self.fail(_TAB)
        self.fail(f"{label} must be a mapping of {holds}, not the value {quote(shown)}")

    def value(self, text: str, key: str) -> str | None:
        if not text or text[0] == "#":
            return None
        if text[0] in "'\"":
            value, end = self.quoted(text, key)
            rest = text[end:].lstrip(" ")
            if rest and rest[0] != "#":
                if rest[0] == "\t":
                    self.fail(_TAB)
                self.fail(f"{key}: unexpected text after the quoted value: {quote(rest)}")
            return value
        comment = text.find(" #")
        if comment != -1:
            text = text[:comment]
        text = text.rstrip(" ")
        self.check_plain_start(text, _FIELDS, key)
        if "\t" in text:
            self.fail(_TAB)
        if ": " in text or text.endswith(":"):
            self.fail(
                f"{key}: nested mappings are not allowed; quote the value if ':' is part of the "
                f"text (write {key}: {quote(text)})"
            )
        return text

    def check_plain_start(self, text: str, level: int, key: str | None) -> None:
        """Refuse what YAML reads as structure, not text, at the start of an unquoted key or value.

        `key` is the field whose value `text` is, or None when `text` is itself a key at `level`.
        """
        first = text[0]
        if first not in _INDICATORS:
            return
        if key is not None and is_placeholder(text):
            self.fail(f"{key}: {text} is a placeholder: write the value in its place")
        spaced = len(text) == 1 or text[1] in " \t"
        if key is None:
            prefix, write = "", f"{quote(text)}:"
            holds = f"{self.where(level)} holds 'key: value' lines"
        else:
            prefix, write, holds = f"{key}: ", f"{key}: {quote(text)}", "a field holds one value"
        if first in "{[":
            self.fail(
                f"{prefix}flow style is not allowed: write one 'key: value' per line "
                f"(and quote text that starts with '{first}')"
            )
        if first == "-" and spaced:
            self.fail(f"{prefix}lists are not allowed here: {holds}")
        if first == "?" and spaced:
            self.fail(f"{prefix}complex keys ('? ') are not allowed: {holds}")
        named = {"&": "anchors (&)", "*": "aliases (*)", "!": "tags (!)"}.get(first)
        if named is not None:
            self.fail(f"{prefix}{named} are not allowed; quote the text (write {write})")
        if first == "|":
            self.fail(f"{prefix}block scalars (|) are not allowed; write the value on one line")
        if first not in "-?:" or spaced:
            # `>` would start a folded block scalar. `<` is legal YAML, but an unquoted `<=`
            # beside a quoted `>=` reads as a different thing, so every comparison op is quoted.
            self.fail(f"{prefix}{quote(text)} must be quoted (write {write})")

    def quoted(self, text: str, key: str) -> tuple[str, int]:
        """Read the quoted scalar `text` opens with: its value and the index just past it."""
        unterminated = f"{key}: the quoted value does not close on its line (values are one line)"
        if text[0] == "'":
            single = _SINGLE_QUOTED.match(text)
            if single is None:
                self.fail(unterminated)
            return single.group(1).replace("''", "'"), single.end()
        parts = []
        at = 1
        while True:
            special = _DQ_SPECIAL.search(text, at)
            if special is None:
                self.fail(unterminated)
            cut = special.start()
            parts.append(text[at:cut])
            if text[cut] == '"':
                return "".join(parts), cut + 1
            code = text[cut + 1 : cut + 2]
            if not code:
                self.fail(f"{key}: multi-line quoted values are not allowed")
            if code in _ESCAPES:
                parts.append(_ESCAPES[code])
                at = cut + 2
                continue
            width = _HEX_ESCAPES.get(code, 0)
            digits = text[cut + 2 : cut + 2 + width]
            if not width or len(digits) != width or not _HEX.fullmatch(digits):
                shown = text[cut : cut + 2 + width]
                self.fail(f"{key}: unknown escape {quote(shown)} in a double-quoted value")
            if int(digits, 16) > 0x10FFFF:
                self.fail(f"{key}: escape {quote(text[cut : cut + 10])} is beyond Unicode")
            parts.append(chr(int(digits, 16)))
            at = cut + 2 + width


def _is_blank(rest: str) -> bool:
    rest = rest.lstrip(" ")
    return not rest or rest[0] == "#"


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `choices`, or nothing when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {quote(close[0])}?)" if close else ""


def is_placeholder(text: str) -> bool:
    """`<...>`: a value `evalglass explain --patch` left for a person to fill in."""
    return len(text) > 2 and text.startswith("<") and text.endswith(">")


def reads_plain(text: str) -> bool:
    """Whether `text`, written unquoted as a field's value, reads back as exactly `text`."""
    found = _SIMPLE_FIELD.fullmatch(f"    k: {text}")
    return found is not None and found.group(4) == text
