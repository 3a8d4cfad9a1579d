"""Broken and wrongly shaped outputs, for every framework reader at once: each is refused with one
OutputError line naming the file, and no bytes make a reader raise anything else."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence.adapters import deepeval, inspect_log, lmeval, promptfoo
from tests.evidence_files import FIXTURES, damaged, refuse


@attrs.frozen
class Reader:
    """One framework's reader, a real output of it, the name a broken copy is written under,
    starts of a document its sniffer would take, and JSON that is not shaped like its output."""

    adapter: ModuleType
    good: Path
    name: str
    prefixes: tuple[bytes, ...]
    wrong: tuple[object, ...]


READERS = {
    "inspect eval": Reader(
        inspect_log,
        FIXTURES / "inspect/logs/eval/2026-11-29T22-43-36-00-00_arith_KCmg8Bm4Msnz8Zkf4n9mxT.eval",
        "x.eval", (b"", b"PK\x03\x04"), (),
    ),
    "inspect json": Reader(
        inspect_log,
        FIXTURES / "inspect/logs/json/2026-11-29T22-43-42-00-00_arith-errors_dmLPCb9HDuF43ZxkuVPRty.json",
        "x.json", (b"", b'{"eval": {"task": "t"}, '),
        (
            [], {"status": "success"}, {"eval": 3},
            {"eval": {"task": "t"}, "results": {"scores": [{"name": "m", "metrics": []}]}},
            {"eval": {"task": "t"}, "results": {"scores": [{"name": "m", "metrics": {"mean": 3}}]}},
            {"eval": {"task": "t"},
             "results": {"scores": [{"name": "m", "metrics": {"mean": {"value": "x"}}}]}},
            {"eval": {"task": "t", "scorers": [{"metrics": []}]}},
            {"eval": {"task": "t"}, "samples": [1], "results": {"scores": []}},
        ),
    ),
    "lm-eval": Reader(
        lmeval,
        FIXTURES / "lm-eval/results/offline__dummy-lm/results_2026-11-29T22-44-33.541250.json",
        "results_x.json", (b"", b'{"results": {"t": {'),
        (
            [], {"results": []}, {"results": {"t": []}}, {"results": {"t": {"acc,none": "high"}}},
            {"results": {"t": {"acc,none": True}}},
            {"results": {"t": {"acc,none": 0.5, "acc_stderr,none": [1]}}},
        ),
    ),
    "promptfoo": Reader(
        promptfoo, FIXTURES / "promptfoo/results/results.json", "results.json",
        (b"", b'{"evalId": "e", "results": {'),
        (
            [], {"evalId": "e", "results": []}, {"evalId": "e", "results": {"version": 3}},
            {"evalId": "e", "results": {"version": 3, "prompts": [{}], "results": []}},
            {"evalId": "e",
             "results": {"version": 3, "prompts": [], "results": [{"promptIdx": 4}]}},
            {"evalId": "e", "results": {"version": 3, "results": [], "prompts": [
                {"provider": "p", "label": "l", "metrics": {"namedScores": {"m": "x"}}}]}},
        ),
    ),
    "deepeval": Reader(
        deepeval, FIXTURES / "deepeval/results/main/test_run_20261129_224500.json",
        "test_run_x.json", (b"", b'{"testFile": "t.py", "testCases": ['),
        (
            [], {"testCases": 3}, {"testCases": [3]},
            {"testCases": [{"metricsData": [{"score": 1}]}]},
            {"testCases": [{"metricsData": [{"name": "m", "score": "high"}]}]},
            {"testCases": [], "metricsScores": [{"metric": "m", "scores": 1}]},
            {"testCases": [], "metricsScores": [{"scores": []}]},
        ),
    ),
}  # fmt: skip

DAMAGED = [
    (name, label) for name, r in READERS.items() for label, _ in damaged(r.good.read_bytes())
]
WRONG = [(name, i) for name, r in READERS.items() for i in range(len(r.wrong))]


@pytest.mark.parametrize(("reader", "label"), DAMAGED)
def test_a_damaged_output_is_refused_naming_the_file(
    tmp_path: Path, reader: str, label: str
) -> None:
    """Empty, cut short, noise, not UTF-8: one OutputError line naming the file, for each reader."""
    r = READERS[reader]
    data = dict(damaged(r.good.read_bytes()))[label]
    path = tmp_path / r.name
    path.write_bytes(data)
    refuse(r.adapter, path, f"out/{label}/{r.name}")


@pytest.mark.parametrize(("reader", "index"), WRONG)
def test_json_of_the_wrong_shape_is_refused(tmp_path: Path, reader: str, index: int) -> None:
    """JSON that is not shaped like the framework's output is an OutputError, never a crash."""
    r = READERS[reader]
    path = tmp_path / r.name
    path.write_text(json.dumps(r.wrong[index]))
    refuse(r.adapter, path, f"out/{r.name}")


@settings(max_examples=100, deadline=None)
@given(
    reader=st.sampled_from(sorted(READERS)), data=st.binary(max_size=2000), which=st.integers(0, 1)
)
def test_no_bytes_make_a_reader_raise_anything_but_output_error(
    tmp_path_factory: pytest.TempPathFactory, reader: str, data: bytes, which: int
) -> None:
    """Whatever the bytes after a start its sniffer would take, read() returns or says why not."""
    r = READERS[reader]
    path = tmp_path_factory.mktemp("fuzz") / r.name
    path.write_bytes(r.prefixes[which % len(r.prefixes)] + data)
    with contextlib.suppress(OutputError):
        r.adapter.read(path, r.name)
