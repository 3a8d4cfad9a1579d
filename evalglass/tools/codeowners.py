"""Who owns a file by a CODEOWNERS file, read as GitHub reads it: gitignore-style patterns (a
pattern matching a folder owns what is below it, except that `dir/*` owns only the files right in
`dir`), the last matching line wins, a line with no owners leaves the file unowned. Pure: it
parses text it is given and matches paths; finding and reading the file is the shell's.
"""

from __future__ import annotations

import re

import attrs

# Where GitHub looks, in the order it looks: the first that exists is the one used.
LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")


@attrs.frozen
class OwnerRule:
    """One line: a pattern and the owners it names (none: the files it matches are unowned)."""

    pattern: str
    owners: tuple[str, ...]
    line: int
    text: str  # the line as written, for messages
    regex: re.Pattern[str] = attrs.field(eq=False, repr=False)
    directories_only: bool = False
    files_only: bool = False  # `dir/*`: not the folders in dir, nor what is below them


@attrs.frozen
class CodeOwners:
    """A CODEOWNERS file's rules, in order; the last matching rule owns a path."""

    path: str  # as shown in messages, e.g. `.github/CODEOWNERS`
    rules: tuple[OwnerRule, ...]

    def rule_for(self, path: str) -> OwnerRule | None:
        """The rule that decides who owns `path` (relative to the repository's top, with `/`):
        the last one that matches it or a folder above it; None when none does."""
        parts = path.strip("/").split("/")
        folders = ["/".join(parts[:i]) for i in range(1, len(parts))]
        for rule in reversed(self.rules):
            candidates = [] if rule.files_only else folders
            if not rule.directories_only:
                candidates = [*candidates, "/".join(parts)]
            if any(rule.regex.fullmatch(c) for c in candidates):
                return rule
        return None


@attrs.frozen
class Ownership:
    """Who owns the thresholds file: the CODEOWNERS file read, the file's path in the
    repository, and the rule that decides (None: no line matches it)."""

    codeowners: str
    path: str
    rule: OwnerRule | None


def parse(text: str, path: str) -> CodeOwners:
    """Every rule of a CODEOWNERS file, in order; comments and blank lines skipped."""
    rules = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = _words(line)
        if words:
            rules.append(_rule(words[0], tuple(words[1:]), number, line))
    return CodeOwners(path=path, rules=tuple(rules))


def is_owner(who: str, owners: tuple[str, ...]) -> bool:
    """Whether `who` is named among `owners` (user names and emails ignore case). A team
    (`@org/team`) names no one in particular: its members cannot be known from the file."""
    return who.casefold() in {o.casefold() for o in owners}


def _words(line: str) -> list[str]:
    """The line's words, up to a comment; `\\#` and `\\ ` escape a hash or a space in a pattern."""
    words, current, escaped = [], "", False
    for ch in line:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "#" and not current:
            break
        elif ch.isspace():
            if current:
                words.append(current)
            current = ""
        else:
            current += ch
    if current:
        words.append(current)
    return words


def _rule(pattern: str, owners: tuple[str, ...], line: int, text: str) -> OwnerRule:
    directories_only = pattern.endswith("/")
    body = pattern.rstrip("/")
    # A slash at the start or in the middle anchors the pattern at the top; else any depth.
    anchored = "/" in body
    body = body.lstrip("/")
    regex = "" if anchored else "(?:.*/)?"
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            regex += "(?:.*/)?"
            i += 3
        elif body.startswith("**", i):
            regex += ".*"
            i += 2
        elif body[i] == "*":
            regex += "[^/]*"
            i += 1
        elif body[i] == "?":
            regex += "[^/]"
            i += 1
        else:
            regex += re.escape(body[i])
            i += 1
    return OwnerRule(
        pattern=pattern,
        owners=owners,
        line=line,
        text=text,
        regex=re.compile(regex or ".*"),
        directories_only=directories_only,
        files_only=pattern.endswith("/*"),
    )
