"""Broken and wrongly shaped outputs, for every reader at once (the frameworks' and evalglass's
own judgments and Parquet rows): each is refused with one OutputError line naming the file, and
no bytes make a reader raise anything else."""

from __future__ import annotations

import contextlib
import functools
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence.adapters import deepeval, inspect_log, judgments, lmeval, parquet, promptfoo
from tests.cli_runner import cli
from tests.evidence_files import FIXTURES, damaged, refuse
from tests.hostile.harness import one_line_error
from tests.shell.test_cli import EXAMPLE_RECORDS


@attrs.frozen
class Reader:
    """One reader, a real output of it, the name a broken copy is written under, starts of a
    document its sniffer would take, and JSON that is not shaped like its output."""

    adapter: ModuleType
    good: Callable[[], bytes]
    name: str
    prefixes: tuple[bytes, ...]
    wrong: tuple[object, ...]


def fixture(relative: str) -> Callable[[], bytes]:
    return (FIXTURES / relative).read_bytes


def judgment_rows() -> bytes:
    """Judgment rows as docs/formats.md shows them: two standards, scores on some rows."""
    rows = [
        {"standard": standard, "judge_model": "openai/gpt-4.1", "builder_model": "acme/model-x",
         "passed": i % 3 != 0, "sample_id": f"q{i}", "evidence": f"answer {i} cites its source",
         **({"score": i % 5 / 4} if standard == "helpfulness" else {})}
        for standard in ("helpfulness", "safety") for i in range(40)
    ]  # fmt: skip
    # No newline after the last row (as many writers leave it), so every cut breaks a row.
    return "\n".join(json.dumps(row) for row in rows).encode()


@functools.cache
def parquet_rows() -> bytes:
    """A Parquet file of generic rows, as DuckDB writes it (one thread, so the same bytes)."""
    import duckdb

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.parquet"
        with duckdb.connect(config={"threads": 1}) as con:
            con.execute(
                "COPY (SELECT 'qa/' || (i % 3) AS metric, CAST(i % 4 <> 0 AS DOUBLE) AS score, "
                "'s' || i AS sample_id, 'doc-' || (i % 7) AS cluster, 'acme/model-x' AS model "
                f"FROM range(600) t(i)) TO '{path}' (FORMAT parquet)"
            )
        return path.read_bytes()


READERS = {
    "inspect eval": Reader(
        inspect_log,
        fixture("inspect/logs/eval/2026-11-29T22-43-36-00-00_arith_KCmg8Bm4Msnz8Zkf4n9mxT.eval"),
        "x.eval", (b"", b"PK\x03\x04"), (),
    ),
    "inspect json": Reader(
        inspect_log,
        fixture("inspect/logs/json/2026-11-29T22-43-42-00-00_arith-errors_dmLPCb9HDuF43ZxkuVPRty.json"),
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
        fixture("lm-eval/results/offline__dummy-lm/results_2026-11-29T22-44-33.541250.json"),
        "results_x.json", (b"", b'{"results": {"t": {'),
        (
            [], {"results": []}, {"results": {"t": []}}, {"results": {"t": {"acc,none": "high"}}},
            {"results": {"t": {"acc,none": True}}},
            {"results": {"t": {"acc,none": 0.5, "acc_stderr,none": [1]}}},
        ),
    ),
    "promptfoo": Reader(
        promptfoo, fixture("promptfoo/results/results.json"), "results.json",
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
        deepeval, fixture("deepeval/results/main/test_run_20261129_224500.json"),
        "test_run_x.json", (b"", b'{"testFile": "t.py", "testCases": ['),
        (
            [], {"testCases": 3}, {"testCases": [3]},
            {"testCases": [{"metricsData": [{"score": 1}]}]},
            {"testCases": [{"metricsData": [{"name": "m", "score": "high"}]}]},
            {"testCases": [], "metricsScores": [{"metric": "m", "scores": 1}]},
            {"testCases": [], "metricsScores": [{"scores": []}]},
        ),
    ),
    "judgments": Reader(
        judgments, judgment_rows, "judged.jsonl",
        (b"", b'{"standard": "s", "judge_model": "j", "builder_model": "b", "passed": '),
        (
            [], 3, "row", {}, {"standard": "s"},
            {"standard": ["s"], "judge_model": "j", "builder_model": "b", "passed": True,
             "sample_id": "a"},
            {"standard": "s", "judge_model": {}, "builder_model": "b", "passed": True,
             "sample_id": "a"},
            {"standard": "s", "judge_model": "j", "builder_model": "b", "passed": "true",
             "sample_id": "a"},
            {"standard": "s", "judge_model": "j", "builder_model": "b", "passed": True,
             "sample_id": 1.5},
            {"standard": "s", "judge_model": "j", "builder_model": "b", "passed": True,
             "sample_id": "a", "score": [1]},
            {"standard": "s", "judge_model": "j", "builder_model": "b", "passed": True,
             "sample_id": "a", "evidence": 3},
        ),
    ),
    # Parquet is not JSON: its wrongly shaped tables are in tests/hostile/test_fuzz.py.
    "parquet": Reader(parquet, parquet_rows, "rows.parquet", (b"", b"PAR1"), ()),
}  # fmt: skip

DAMAGED = [(name, label) for name, r in READERS.items() for label, _ in damaged(r.good())]
WRONG = [(name, i) for name, r in READERS.items() for i in range(len(r.wrong))]


@pytest.mark.parametrize(("reader", "label"), DAMAGED)
def test_a_damaged_output_is_refused_naming_the_file(
    tmp_path: Path, reader: str, label: str
) -> None:
    """Empty, cut short, noise, not UTF-8: one OutputError line naming the file, for each reader."""
    r = READERS[reader]
    data = dict(damaged(r.good()))[label]
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


OWN = [(name, label) for name, label in DAMAGED if name in ("judgments", "parquet")]


@pytest.mark.parametrize(("reader", "label"), OWN)
def test_a_damaged_judgments_or_parquet_file_is_exit_4_in_one_line(
    tmp_path: Path, reader: str, label: str
) -> None:
    """Through the CLI, read as its format: one line naming the file, exit 4, no traceback."""
    r = READERS[reader]
    (tmp_path / r.name).write_bytes(dict(damaged(r.good()))[label])
    records = str(EXAMPLE_RECORDS)
    result = cli("score", r.name, "--input-format", reader, "--records", records, cwd=tmp_path)
    assert one_line_error(result).startswith(f"evalglass: {r.name}")
