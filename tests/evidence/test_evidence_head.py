"""What a sniffer sees of a file: its first bytes of structure, however much text comes before a
format's mark, read with bounded work."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.evidence import head, registry
from evalglass.evidence.read import read_outputs
from evalglass.evidence.registry import HEAD
from tests.evidence_files import FIXTURES, outputs

LONG_CONTEXT = FIXTURES / "deepeval/long-context/results/test_run_20261206_223252.json"


def test_a_deepeval_run_with_long_retrieval_contexts_is_recognised() -> None:
    """Its first metricsData lies past the first 4096 bytes, and the run reads as DeepEval's
    own summary has it (Exact Match 10 of 11, n 11)."""
    raw = LONG_CONTEXT.read_bytes()
    assert raw.find(b'"metricsData"') > HEAD and b'"testFile"' not in raw
    doc = json.loads(raw)
    scores = next(m["scores"] for m in doc["metricsScores"] if m["metric"] == "Exact Match")
    got = read_outputs([LONG_CONTEXT.parent]).measurements["Exact Match"]
    assert (got.value, got.n) == (sum(scores) / len(scores), len(doc["testCases"]))


class _Counted(io.BytesIO):
    """A stream that counts what was read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


def test_a_file_of_one_huge_string_is_not_read_whole() -> None:
    """A 40 MiB JSON string: at most 16 MiB is read to find the head."""
    stream = _Counted(b'{"a": "' + b"x" * (40 * 1024 * 1024) + b'"}')
    seen = head.read_head(stream)
    assert stream.taken <= 16 * 1024 * 1024 and seen.startswith(b'{"a": "xxx')


def test_files_that_are_not_json_are_seen_as_their_first_bytes() -> None:
    """An archive, XML or CSV head is the file's first 4096 bytes, as read."""
    for start in (b"PK\x03\x04", b"<?xml", b"metric,score\n"):
        data = start + b'"' + b"y" * 9000 + b'"'
        assert head.read_head(io.BytesIO(data)) == data[:HEAD]


_TEXT = st.text(max_size=300)
_DOCS = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(_DOCS, st.booleans())
def test_squeezing_keeps_the_structure_of_json(doc: object, ascii_only: bool) -> None:
    """A squeezed JSON document is still JSON, with the same keys, arrays and numbers; only
    strings longer than 64 bytes change, to at most 53 bytes."""
    raw = json.dumps(doc, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    squeezed, rest = head.squeeze(raw)
    assert rest == b""
    # A cut may fall inside a character's bytes (sniffers read bytes): such bytes decode to
    # surrogates, which encode back to the same bytes.
    assert _same_shape(doc, json.loads(squeezed.decode("utf-8", "surrogateescape")), ascii_only)


@given(_DOCS, st.integers(min_value=0, max_value=2000))
def test_a_cut_document_squeezes_to_a_prefix_of_the_whole(doc: object, cut: int) -> None:
    """Cut anywhere, a document squeezes to what the whole squeezes to, up to where a string
    the cut falls in begins (held back, to be read on)."""
    raw = json.dumps({"k": doc}).encode()
    whole, _ = head.squeeze(raw)
    part, rest = head.squeeze(raw[:cut])
    assert whole.startswith(part) and raw[:cut].endswith(rest)


def _same_shape(doc: object, squeezed: object, ascii_only: bool) -> bool:
    """The same document, but for strings written in more than 64 bytes: those may differ, and
    are at most 53 (cut to 24 bytes of each end)."""
    if isinstance(doc, dict) and isinstance(squeezed, dict):
        return len(doc) == len(squeezed) and all(
            _same_shape(k, k2, ascii_only) and _same_shape(v, v2, ascii_only)
            for (k, v), (k2, v2) in zip(doc.items(), squeezed.items(), strict=True)
        )
    if isinstance(doc, list) and isinstance(squeezed, list):
        return len(doc) == len(squeezed) and all(
            _same_shape(a, b, ascii_only) for a, b in zip(doc, squeezed, strict=True)
        )
    if isinstance(doc, str) and isinstance(squeezed, str):
        written = json.dumps(doc, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
        shown = json.dumps(squeezed, ensure_ascii=False).encode("utf-8", "surrogateescape")
        return squeezed == doc if len(written) <= 64 else len(shown) <= 53
    return doc == squeezed


@pytest.mark.parametrize("path", outputs(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_earlier_fixture_is_claimed_as_before(path: Path) -> None:
    """Each real output is claimed by the same format (or skipped with the same note) from its
    head as from its first 4096 bytes: only files whose marks lay past them read otherwise."""
    raw = path.read_bytes()[:HEAD]
    with path.open("rb") as stream:
        seen = head.read_head(stream)
    before = (registry.detect(path, raw), registry.not_a_run(path, raw))
    after = (registry.detect(path, seen), registry.not_a_run(path, seen))
    if path == LONG_CONTEXT:
        assert before == (None, None) and after[0] is registry.by_name("deepeval")
    else:
        assert after == before
