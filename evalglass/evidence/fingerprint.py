"""A dataset fingerprint: one rule over the keys of the samples an output records.

Each format says what a sample's key is (docs/formats.md); the fingerprint is the same function
of those keys for every format, so a record's `fingerprint` is what `evalglass metrics` prints.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

PREFIX = "sha256:"


def fingerprint(keys: Iterable[str]) -> str | None:
    """`sha256:` and the hex SHA-256 of the distinct keys, sorted by code point, as a compact
    JSON array (UTF-8, non-ASCII unescaped); None when there is no key: nothing to fingerprint."""
    distinct = sorted(set(keys))
    if not distinct:
        return None
    text = json.dumps(distinct, ensure_ascii=False, separators=(",", ":"))
    return PREFIX + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def canonical(value: object) -> str:
    """A value as compact JSON with sorted keys: the key of a sample recorded as a structure."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
