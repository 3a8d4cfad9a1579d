"""Which format a file is, from its name and first 4 KiB: one predicate per adapter.

Kept apart from the adapters so that recognising a file imports none of them: a run that reads
one format loads that adapter alone (the .eval reader brings zipfile and zstandard with it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

ZIP_MAGIC = b"PK\x03\x04"
_BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"
_LMEVAL_RESULTS_FIRST = re.compile(rb'\{\s*"results"\s*:\s*\{')
_LMEVAL_METRIC_KEY = re.compile(rb'"[^",]+,[^",]+"\s*:')
ROWS_REQUIRED = ("metric", "score")


def inspect(path: Path, head: bytes) -> bool:
    if head.startswith(ZIP_MAGIC):
        return path.suffix.lower() == ".eval" or b"_journal/" in head or b"header.json" in head
    body = head.lstrip(_BOM_AND_SPACE)
    return body.startswith(b"{") and all(
        key in head for key in (b'"status"', b'"eval_id"', b'"task_id"')
    )


def lmeval(path: Path, head: bytes) -> bool:
    body = head.lstrip(_BOM_AND_SPACE)
    return bool(_LMEVAL_RESULTS_FIRST.match(body)) and (
        b'"alias"' in head or _LMEVAL_METRIC_KEY.search(head) is not None
    )


def promptfoo(path: Path, head: bytes) -> bool:
    body = head.lstrip(_BOM_AND_SPACE)
    return body.startswith(b"{") and b'"evalId"' in head and b'"results"' in head


def deepeval(path: Path, head: bytes) -> bool:
    body = head.lstrip(_BOM_AND_SPACE)
    return (
        body.startswith(b"{")
        and b'"testCases"' in head
        and any(key in head for key in (b'"testFile"', b'"metricsData"', b'"metricsScores"'))
    )


def rows(path: Path, head: bytes) -> bool:
    first = head.split(b"\n", 1)[0].strip()
    if path.suffix.lower() == ".jsonl":
        return first.startswith(b"{") and b'"metric"' in first and b'"score"' in first
    if path.suffix.lower() == ".csv":
        columns = {c.strip().strip('"') for c in first.decode("utf-8", "replace").split(",")}
        return set(ROWS_REQUIRED) <= columns
    return False


def generic(path: Path, head: bytes) -> bool:
    text = head.lstrip()
    return path.suffix.lower() == ".json" and text.startswith(b"{") and b'"metrics"' in head


# Most specific first: the generic format is the fallback for JSON nobody else claims.
SNIFFERS: dict[str, Callable[[Path, bytes], bool]] = {
    "inspect": inspect,
    "lm-eval": lmeval,
    "promptfoo": promptfoo,
    "deepeval": deepeval,
    "rows": rows,
    "generic": generic,
}
