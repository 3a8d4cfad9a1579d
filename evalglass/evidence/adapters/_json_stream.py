"""One JSON document read a piece at a time (the elements of an array, the members of an object),
so a large array never sits in memory whole, as text or as objects. Syntax errors leave as
`json.JSONDecodeError` placed in the whole document, as `json.load` places them, and a value
past the parse cap as `TooLarge`; it knows nothing of what the JSON means."""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, TypeVar

from evalglass._inputs import PARSE_BYTES, check_json_values, read_capped

T = TypeVar("T")

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"[0-9.eE+-]*")
# JSON's whitespace, and the end of the text held (the empty string is in every string).
_BLANK = " \t\n\r"
_DELIMITERS = frozenset(",]")
# From Python 3.13, json names a comma before a closing bracket; earlier, it expects a value.
_NAMES_TRAILING_COMMA = sys.version_info >= (3, 13)
_CHUNK = 1 << 20


class JsonStream:
    """A JSON document on a binary stream, consumed in document order by `items`, `members` and
    `value`, or parsed whole by `whole` when it is not a document to read in pieces."""

    def __init__(self, raw: IO[bytes], chunk: int = _CHUNK) -> None:
        self._raw, self._chunk = raw, chunk
        # As json.loads decodes bytes: surrogates written as UTF-8 are let through.
        self._utf8 = codecs.getincrementaldecoder("utf-8")("surrogatepass")
        decoder = json.JSONDecoder()
        self._scan = decoder.raw_decode
        # The scanner under raw_decode (JSONDecoder sets it; typeshed does not say so), for the
        # loop over an array's elements: one call less per element, its StopIteration ("no
        # value here") taken as raw_decode's error.
        self._scan_once: Callable[[str, int], tuple[Any, int]] = decoder.scan_once  # type: ignore[attr-defined]
        self._text, self._pos, self._eof = "", 0, False
        # The bytes read before anything was consumed, for `whole`; None once consumed.
        self._head: bytes | None = b""
        # Where _text begins in the whole document: its offset, its line, and the offset of the
        # last newline before it, so an error is placed as json.load would place it.
        self._offset, self._line, self._newline = 0, 1, -1
        # A position in _text that reading more must keep, for an error placed there.
        self._mark: int | None = None

    def peek(self) -> str:
        """The next character that is not whitespace; empty at the end of the document."""
        self._skip()
        return self._text[self._pos] if self._pos < len(self._text) else ""

    def opens(self, bracket: str) -> bool:
        """Whether the document opens with `bracket` ("[" or "{") and can be read in pieces: UTF-8
        with no byte-order mark. Anything else is for `whole`, which reads it as json.load does."""
        try:
            start = self.peek()
            while self._head is not None and len(self._head) < 4 and not self._eof:
                self._fill()
        except UnicodeDecodeError:
            return False  # perhaps UTF-16 or UTF-32, which json.load detects
        # json.load tells UTF-16 and UTF-32 by a NUL among the first four bytes.
        return start == bracket and self._head is not None and b"\x00" not in self._head[:4]

    def whole(self) -> Any:
        """The document parsed whole, with json.load's every rule (encodings, BOM, errors)."""
        if self._head is None:
            raise RuntimeError("part of the document has already been consumed")
        rest = read_capped(self._raw, PARSE_BYTES)
        PARSE_BYTES.check(len(self._head) + len(rest))
        data, self._head = self._head + rest, None
        self._text, self._pos, self._eof = "", 0, True
        check_json_values(data)
        return json.loads(data)

    def value(self) -> Any:
        """The next complete value."""
        self._consume()
        self._skip()
        while True:
            try:
                found, end = self._scan(self._text, self._pos)
            except json.JSONDecodeError as exc:
                if self._eof:
                    raise self._error(exc.msg, exc.pos) from None
                self._fill(grow=True)
                continue
            # A number may go on in the next chunk ("1" of "12", or of "1e5" when "e" is the
            # last character read).
            if (
                self._eof
                or type(found) not in (int, float)
                or not _NUMBER.fullmatch(self._text, end)
            ):
                self._pos = end
                return found
            self._fill(grow=True)

    def values(self, convert: Callable[[Any], T]) -> list[T]:
        """Every element of the array that comes next, each converted as soon as it is read."""
        self._open("[")
        converted: list[T] = []
        if self.peek() == "]":
            self._pos += 1
            return converted
        scan, space, add = self._scan_once, _WHITESPACE.match, converted.append
        # Twice the longest element so far, up to a chunk: with less than that left of the text
        # held, more is read first. An element cut off by the end of the text fails the scan,
        # and each failure builds a JSONDecodeError, which counts the newlines of all the text
        # held. (An element longer than a chunk is read by value(), within the parse cap.)
        margin, most = 0, self._chunk
        while True:
            # Most elements lie, with the delimiter after them, inside the text already held.
            text, start = self._text, self._pos
            if len(text) - start <= margin and not self._eof:
                self._fill()
                continue
            # Whitespace is looked for with the pattern only where there is some (or no text)
            # beyond the one space json.dumps puts after a comma.
            blank = text[start : start + 1]
            if blank == " " and text[start + 1 : start + 2] not in _BLANK:
                start += 1
            elif blank in _BLANK:
                start = space(text, start).end()  # type: ignore[union-attr]
            try:
                element, end = scan(text, start)
            except (StopIteration, json.JSONDecodeError):
                end = len(text)
            after = end
            if text[end : end + 1] not in _DELIMITERS:
                after = space(text, end).end()  # type: ignore[union-attr]
            delimiter = text[after : after + 1]
            if delimiter == "," or delimiter == "]":
                if 2 * (after - start) > margin:
                    margin = min(2 * (after - start), most)
                self._pos = after + 1
                add(convert(element))
                if delimiter == "]":
                    return converted
                if _NAMES_TRAILING_COMMA:
                    self._after_comma("]", "array")
                continue
            # Otherwise the element, or its delimiter, needs more text, or it is malformed.
            converted.append(convert(self.value()))
            following = self.peek()
            self._pos += 1
            if following == "]":
                return converted
            if following != ",":
                raise self._error("Expecting ',' delimiter", self._pos - 1)
            self._after_comma("]", "array")

    def items(self) -> Iterator[None]:
        """Opens the array that comes next and yields once per element, which the caller then
        consumes (with `value`, `items` or `members`); closes it after the last."""
        self._open("[")
        if self.peek() == "]":
            self._pos += 1
            return
        while True:
            yield
            following = self.peek()
            self._pos += 1
            if following == "]":
                return
            if following != ",":
                raise self._error("Expecting ',' delimiter", self._pos - 1)
            self._after_comma("]", "array")

    def members(self) -> Iterator[str]:
        """Opens the object that comes next and yields each member's name, whose value the caller
        then consumes; closes it after the last."""
        self._open("{")
        following = self.peek()
        if following == "}":
            self._pos += 1
            return
        while True:
            if following != '"':
                raise self._error("Expecting property name enclosed in double quotes", self._pos)
            name = self.value()
            if self.peek() != ":":
                raise self._error("Expecting ':' delimiter", self._pos)
            self._pos += 1
            yield name
            following = self.peek()
            self._pos += 1
            if following == "}":
                return
            if following != ",":
                raise self._error("Expecting ',' delimiter", self._pos - 1)
            self._after_comma("}", "object")
            following = self.peek()

    def end(self) -> None:
        """Nothing but whitespace may follow the document."""
        if self.peek():
            raise self._error("Extra data", self._pos)

    def _open(self, bracket: str) -> None:
        self._consume()
        if self.peek() != bracket:
            raise self._error("Expecting value", self._pos)
        self._pos += 1

    def _consume(self) -> None:
        self._head = None

    def _after_comma(self, closing: str, container: str) -> None:
        if not _NAMES_TRAILING_COMMA:
            return
        self._mark = self._pos - 1
        closed = self.peek() == closing
        comma, self._mark = self._mark, None
        if closed:
            raise self._error(f"Illegal trailing comma before end of {container}", comma)

    def _skip(self) -> None:
        while True:
            self._pos = _WHITESPACE.match(self._text, self._pos).end()  # type: ignore[union-attr]
            if self._pos < len(self._text) or self._eof:
                return
            self._fill()

    def _fill(self, grow: bool = False) -> None:
        """Read more; with `grow`, at least as much again as is pending, so a value longer than a
        chunk is rescanned a few times at most, not once per chunk. One value may be no longer
        than the parse cap: it is held whole, as text and as what it parses into."""
        pending = len(self._text) - self._pos
        if grow:
            PARSE_BYTES.check(pending)
        data = self._raw.read(max(self._chunk, pending) if grow else self._chunk)
        if self._head is not None:
            self._head += data
        self._eof = not data
        text = self._utf8.decode(data, final=self._eof)
        cut = self._pos if self._mark is None else self._mark
        dropped = self._text[:cut]
        # Logs written without indent have no newline: finding none is far quicker than
        # counting none.
        if "\n" in dropped:
            self._line += dropped.count("\n")
            self._newline = self._offset + dropped.rfind("\n")
        self._offset += cut
        self._text, self._pos = self._text[cut:] + text, self._pos - cut
        if self._mark is not None:
            self._mark = 0

    def _error(self, message: str, pos: int) -> json.JSONDecodeError:
        """An error at `pos` in the text held, placed in the whole document."""
        error = json.JSONDecodeError(message, self._text, pos)
        newlines = self._text.count("\n", 0, pos)
        newline = self._offset + self._text.rfind("\n", 0, pos) if newlines else self._newline
        error.pos = self._offset + pos
        error.lineno = self._line + newlines
        error.colno = error.pos - newline
        # The document was not empty: something was read before the error.
        error.doc = self._text if self._text.strip() else "[…]"
        return error
