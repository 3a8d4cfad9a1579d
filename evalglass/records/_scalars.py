"""The characters and single scalars of the records dialect: which characters a file may hold,
quoting and escapes, what YAML would read as structure at the start of a plain scalar, and how
messages show a user's text. It knows nothing of indentation or records (`_yaml.py` does) and
never types a value (`build.py` does).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection

TAB = "tab characters are not allowed; indent and separate with spaces"
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
_NAMED = {"&": "anchors (&)", "*": "aliases (*)", "!": "tags (!)"}


class Refused(Exception):
    """The text is not of the dialect; the message is the whole one-line reason, and `line` the
    line it is on when the text had several."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def plain_text(text: str) -> str:
    """A file's text with a leading BOM dropped and CRLF line ends made LF; Refused for a
    character that would make its lines differ from YAML's."""
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    bad = _UNSUPPORTED.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        if bad.group() == "\r":
            raise Refused("a carriage return without a line feed: use LF or CRLF line ends", line)
        raise Refused(
            f"unsupported character U+{ord(bad.group()):04X}: records are plain text", line
        )
    return text


def quote(text: str) -> str:
    """`text` as a user would write it in YAML: single-quoted, or double-quoted with escapes."""
    if text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    escaped = text.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return f'"{escaped}"'


def excerpt(text: str, limit: int = 80) -> str:
    """`text` quoted for a message, cut short: a message shows where a file went wrong, not the
    file (which may not be a records file at all, and may hold anything)."""
    return quote(text if len(text) <= limit else text[:limit] + "…")


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `choices`, or nothing when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {quote(close[0])}?)" if close else ""


def is_placeholder(text: str) -> bool:
    """`<...>`: a value `evalglass explain --patch` or `metrics --skeleton` left for a person to
    fill in; or `TODO`, which drafts written by earlier versions of `--skeleton` hold."""
    return (len(text) > 2 and text.startswith("<") and text.endswith(">")) or text == "TODO"


def named_indicator(first: str) -> str | None:
    """What YAML makes of `&`, `*` or `!` at the start of a scalar, in words."""
    return _NAMED.get(first)


def split_entry(body: str, where: str, *, in_block: bool = False) -> tuple[str, str]:
    """Split a `key: value` line (without its indent) into the key and the text after the colon.

    `where` names the mapping the line belongs to in messages; `in_block` when that is a block
    under a field, where a line might be meant as a list item.
    """
    holds = f"{where} holds 'key: value' lines"
    if body[0] in "'\"":
        key, end = read_quoted(body, "key")
        rest = body[end:].lstrip(" ")
        if not rest.startswith(":") or len(rest) > 1 and rest[1] != " ":
            if rest.startswith("\t"):
                raise Refused(TAB)
            raise Refused(f"expected ':' after the key {excerpt(key)}")
        return key, rest[1:].lstrip(" ")
    colon = body.find(": ")
    if colon == -1 and body.endswith(":"):
        colon = len(body) - 1
    comment = body.find(" #")
    if colon == -1 or -1 < comment < colon:
        found = body if comment == -1 else body[:comment].rstrip(" ")
        if "\t" in found:
            raise Refused(TAB)
        problem = plain_start_problem(found, None, holds=holds)
        if problem:
            raise Refused(problem)
        hint = " (put a space after ':')" if ":" in found else ""
        if in_block and found[0] == "-":
            hint = " (a list item has a space after '-')"
        raise Refused(f"expected 'key: value' in {where}, found {excerpt(found)}{hint}")
    key = body[:colon].rstrip(" ")
    if not key:
        raise Refused(f"missing key before ':' in {where}")
    if "\t" in key:
        raise Refused(TAB)
    problem = plain_start_problem(key, None, holds=holds)
    if problem:
        raise Refused(problem)
    return key, body[colon + 1 :].lstrip(" ")


def read_value(text: str, key: str, written: str | None = None) -> str | None:
    """The scalar `text` (what follows a key's colon, or a list's `- `) holds, None when nothing.

    `key` names it in messages; `written` is how it is introduced inside a block (`- `, `sub: `),
    None for a field's own value, so hints can say how to write it.
    """
    if not text or text[0] == "#":
        return None
    if text[0] in "'\"":
        value, end = read_quoted(text, key)
        rest = text[end:].lstrip(" ")
        if rest and rest[0] != "#":
            if rest[0] == "\t":
                raise Refused(TAB)
            raise Refused(f"{key}: unexpected text after the quoted value: {excerpt(rest)}")
        return value
    comment = text.find(" #")
    if comment != -1:
        text = text[:comment]
    text = text.rstrip(" ")
    problem = plain_start_problem(text, key, written)
    if problem:
        raise Refused(problem)
    if "\t" in text:
        raise Refused(TAB)
    if ": " in text or text.endswith(":"):
        raise Refused(
            f"{key}: nested mappings are not allowed; quote the value if ':' is part of the "
            f"text (write {written or key + ': '}{excerpt(text)})"
        )
    return text


def plain_start_problem(
    text: str, key: str | None, written: str | None = None, holds: str = ""
) -> str | None:
    """Why YAML would read the start of the unquoted `text` as structure, not text; or None.

    `key` is the field whose value `text` is (`written` as in `read_value`), or None when `text`
    is itself a key, of a mapping that `holds` says what it holds.
    """
    first = text[0]
    if first not in _INDICATORS:
        return None
    if key is not None and is_placeholder(text):
        return f"{key}: {text} is a placeholder: write the value in its place"
    spaced = len(text) == 1 or text[1] in " \t"
    if key is None:
        prefix, write = "", f"{excerpt(text)}:"
    else:
        prefix = f"{key}: "
        write = f"{written or prefix}{excerpt(text)}"
        holds = "a list item holds one value" if written == "- " else "a field holds one value"
    if first in "{[":
        if key is None or written is not None:
            how = "write one 'key: value' per line"
        elif first == "{":
            how = f"write '{key}:' then one indented 'key: value' line per entry"
        else:
            how = f"write '{key}:' then one indented '- item' line per item"
        return (
            f"{prefix}flow style is not allowed: {how} (and quote text that starts with '{first}')"
        )
    if first == "-" and spaced:
        return f"{prefix}lists are not allowed here: {holds}"
    if first == "?" and spaced:
        return f"{prefix}complex keys ('? ') are not allowed: {holds}"
    named = _NAMED.get(first)
    if named is not None:
        return f"{prefix}{named} are not allowed; quote the text (write {write})"
    if first == "|":
        return f"{prefix}block scalars (|) are not allowed; write the value on one line"
    if first not in "-?:" or spaced:
        # `>` would start a folded block scalar. `<` is legal YAML, but an unquoted `<=`
        # beside a quoted `>=` reads as a different thing, so every comparison op is quoted.
        return f"{prefix}{excerpt(text)} must be quoted (write {write})"
    return None


def read_quoted(text: str, key: str) -> tuple[str, int]:
    """Read the quoted scalar `text` opens with: its value and the index just past it."""
    unterminated = f"{key}: the quoted value does not close on its line (values are one line)"
    if text[0] == "'":
        single = _SINGLE_QUOTED.match(text)
        if single is None:
            raise Refused(unterminated)
        return single.group(1).replace("''", "'"), single.end()
    parts = []
    at = 1
    while True:
        special = _DQ_SPECIAL.search(text, at)
        if special is None:
            raise Refused(unterminated)
        cut = special.start()
        parts.append(text[at:cut])
        if text[cut] == '"':
            return "".join(parts), cut + 1
        code = text[cut + 1 : cut + 2]
        if not code:
            raise Refused(f"{key}: multi-line quoted values are not allowed")
        if code in _ESCAPES:
            parts.append(_ESCAPES[code])
            at = cut + 2
            continue
        width = _HEX_ESCAPES.get(code, 0)
        digits = text[cut + 2 : cut + 2 + width]
        if not width or len(digits) != width or not _HEX.fullmatch(digits):
            shown = text[cut : cut + 2 + width]
            raise Refused(f"{key}: unknown escape {excerpt(shown)} in a double-quoted value")
        if int(digits, 16) > 0x10FFFF:
            raise Refused(f"{key}: escape {excerpt(text[cut : cut + 10])} is beyond Unicode")
        if 0xD800 <= int(digits, 16) <= 0xDFFF:
            # Half of a UTF-16 pair is no character: no file or terminal could show it.
            shown = text[cut : cut + 2 + width]
            raise Refused(f"{key}: escape {excerpt(shown)} is a lone surrogate, not a character")
        parts.append(chr(int(digits, 16)))
        at = cut + 2 + width
