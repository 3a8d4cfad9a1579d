"""Fuzzing every reader: real framework outputs (tests/fixtures) with keys deleted, values of
the wrong type, nesting added, text cut short, and whole documents generated from nothing;
judgment rows mutated; a real Parquet file damaged, and Parquet tables of any column types. The
property: a reader returns measurements or raises its own input error (OutputError, RecordError,
ContractError), never anything else, which would be a bug in evalglass. Runs briefly in CI;
EVALGLASS_FUZZ_EXAMPLES=5000 runs longer."""

from __future__ import annotations

import copy
import io
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass import contract
from evalglass.calibration_evidence import evidence_from_text
from evalglass.errors import (
    CalibrationError,
    ContractError,
    EvalglassError,
    OutputError,
    RecordError,
)
from evalglass.evidence.adapters import (
    aggregates,
    deepeval,
    eee,
    generic,
    inspect_log,
    judgments,
    lmeval,
    parquet,
    promptfoo,
    rows,
)
from evalglass.records.load import records_from_text
from evalglass.records.schema import KINDS
from evalglass.tools.calibration.inputs import read_label_file
from tests.evidence.test_evidence_damaged import judgment_rows, parquet_rows
from tests.evidence_files import FIXTURES, outputs
from tests.hostile.harness import FUZZ

ROOT = Path(__file__).resolve().parents[2]
# Inspect's JSON logs that hold samples and reductions (not an eval-set's index files).
INSPECT_JSON = sorted(
    p
    for p in (FIXTURES / "inspect").rglob("*.json")
    if {"samples", "reductions"} <= set(json.loads(p.read_text()))
)
INSPECT_EVAL = sorted((FIXTURES / "inspect").rglob("*.eval"))
LMEVAL = next((FIXTURES / "lm-eval").rglob("results_*.json"))
PROMPTFOO = FIXTURES / "promptfoo" / "results" / "results.json"
DEEPEVAL = next((FIXTURES / "deepeval").rglob("test_run_*.json"))
GENERIC = ROOT / "examples" / "run.json"
EEE = next((FIXTURES / "eee" / "converted" / "lm-eval" / "arith_mc").rglob("*-*.json"))

# Values that break a reader that trusts a shape: every JSON type, numbers at the edges of a
# float and of Python's int parsing, lone surrogates, nesting.
ODD = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        -1,
        1.5,
        -0.0,
        2**64,
        10**400,
        -(10**400),
        1e308,
        -1e308,
        math.nan,
        math.inf,
        -math.inf,
        "",
        "x",
        "N/A",
        "\ud800",
        "1e400",
        "C",
        [],
        {},
        [[[]]],
        {"value": {}},
        [None],
        [1e308, -1e308],
    ]
)
JSON = st.recursive(
    ODD | st.text(max_size=8) | st.integers() | st.floats(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(doc: Any) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as the keys and indices leading to it."""
    found: list[tuple[Any, ...]] = [()]
    pending: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while pending:
        path, node = pending.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, child in items:
            found.append((*path, key))
            pending.append(((*path, key), child))
    return found


@st.composite
def mutated(draw: st.DrawFn, doc: Any, paths: list[tuple[Any, ...]]) -> Any:
    """`doc` with one to three places deleted, replaced, wrapped or nested."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent, key = _parent(doc, path)
        if parent is None:
            continue
        how = draw(st.sampled_from(["delete", "replace", "wrap", "nest", "generate"]))
        if how == "delete":
            del parent[key]
        elif how == "replace":
            parent[key] = draw(ODD)
        elif how == "wrap":
            parent[key] = [parent[key]]
        elif how == "nest":
            parent[key] = {"value": parent[key], "name": parent[key]}
        else:
            parent[key] = draw(JSON)
    return doc


def _parent(doc: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    node = doc
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None, None
    if not path or not isinstance(node, dict | list):
        return None, None
    try:
        node[path[-1]]
    except (KeyError, IndexError, TypeError):
        return None, None
    return node, path[-1]


def _reads_or_refuses(adapter: Any, path: Path) -> None:
    """The property every reader keeps: measurements, or an OutputError naming the file (the
    CLI prints it on one line, escaped); any other exception fails the test."""
    try:
        adapter.read(path, path.name)
    except OutputError as exc:
        assert exc.path == path.name


def _json_fuzz(adapter: Any, fixture: Path, name: str | None = None) -> Any:
    doc = json.loads(fixture.read_text())
    paths = _paths(doc)

    @FUZZ
    @given(data=st.data(), cut=st.none() | st.integers(0, 400))
    def fuzz(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, cut: int | None
    ) -> None:
        folder = tmp_path_factory.mktemp("fuzz")
        for sibling in fixture.parent.iterdir():  # lm-eval's samples files sit beside it
            if sibling != fixture and sibling.suffix == ".jsonl":
                (folder / sibling.name).write_bytes(sibling.read_bytes())
        text = json.dumps(data.draw(mutated(doc, paths)))
        if cut is not None:
            text = text[: len(text) * cut // 400]
        path = folder / (name or fixture.name)
        path.write_text(text, errors="surrogatepass")
        _reads_or_refuses(adapter, path)

    return fuzz


test_generic_survives_mutation = _json_fuzz(generic, GENERIC)
test_lmeval_survives_mutation = _json_fuzz(lmeval, LMEVAL)
test_promptfoo_survives_mutation = _json_fuzz(promptfoo, PROMPTFOO)
test_deepeval_survives_mutation = _json_fuzz(deepeval, DEEPEVAL)
test_inspect_json_survives_mutation = _json_fuzz(inspect_log, INSPECT_JSON[0])
test_eee_survives_mutation = _json_fuzz(eee, EEE)


def _eval_members() -> dict[str, Any]:
    """A real Inspect log's parts as its .eval archive holds them."""
    doc = json.loads(INSPECT_JSON[0].read_text())
    header = {k: v for k, v in doc.items() if k not in ("samples", "reductions")}
    return {
        "header.json": header,
        "summaries.json": doc["samples"],
        "reductions.json": doc["reductions"],
        "_journal/start.json": {"eval": doc["eval"]},
    }


@FUZZ
@given(
    data=st.data(),
    member=st.sampled_from(
        ["header.json", "summaries.json", "reductions.json", "_journal/start.json"]
    ),
)
def test_inspect_eval_survives_mutation(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, member: str
) -> None:
    """One member of a real log's .eval archive mutated, the rest as Inspect wrote them."""
    members = _eval_members()
    members[member] = data.draw(mutated(members[member], _paths(members[member])))
    path = tmp_path_factory.mktemp("fuzz") / "log.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in members.items():
            archive.writestr(name, json.dumps(body).encode("utf-8", "surrogatepass"))
    _reads_or_refuses(inspect_log, path)


@FUZZ
@given(
    cut=st.integers(0, 1000), flip=st.none() | st.tuples(st.integers(0, 10**9), st.integers(1, 255))
)
def test_inspect_eval_survives_damage(
    tmp_path_factory: pytest.TempPathFactory, cut: int, flip: tuple[int, int] | None
) -> None:
    """A real .eval archive cut short or with a byte changed anywhere."""
    data = bytearray(INSPECT_EVAL[-1].read_bytes())
    if flip is not None:
        data[flip[0] % len(data)] ^= flip[1]
    data = data[: max(4, len(data) * cut // 1000)]
    path = tmp_path_factory.mktemp("fuzz") / "log.eval"
    path.write_bytes(bytes(data))
    _reads_or_refuses(inspect_log, path)


ROW = st.fixed_dictionaries(
    {"metric": st.sampled_from(["a", "b"]) | JSON, "score": st.floats() | ODD | JSON},
    optional={"sample_id": JSON, "cluster": JSON, "model": JSON, "epoch": JSON},
)


@FUZZ
@given(lines=st.lists(ROW, min_size=1, max_size=12), csv=st.booleans())
def test_rows_survive_generated_rows(
    tmp_path_factory: pytest.TempPathFactory, lines: list[dict[str, Any]], csv: bool
) -> None:
    """Generated JSONL rows (and the same as CSV) of any shape."""
    folder = tmp_path_factory.mktemp("fuzz")
    if csv:
        out = io.StringIO()
        out.write("metric,score,sample_id,cluster\n")
        for row in lines:
            out.write(
                ",".join(
                    json.dumps(row.get(k)) for k in ("metric", "score", "sample_id", "cluster")
                )
                + "\n"
            )
        path = folder / "rows.csv"
        path.write_text(out.getvalue(), errors="surrogatepass")
    else:
        path = folder / "rows.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in lines), errors="surrogatepass")
    _reads_or_refuses(rows, path)


@FUZZ
@given(
    doc=st.fixed_dictionaries(
        {"metrics": st.dictionaries(st.text(max_size=5), JSON)},
        optional={"model": JSON, "dataset": JSON},
    )
)
def test_generic_survives_generated_documents(
    tmp_path_factory: pytest.TempPathFactory, doc: dict[str, Any]
) -> None:
    """Generic documents generated from nothing but their top-level keys."""
    path = tmp_path_factory.mktemp("fuzz") / "run.json"
    path.write_text(json.dumps(doc), errors="surrogatepass")
    _reads_or_refuses(generic, path)


RECORD_LINES = st.lists(
    st.sampled_from(
        [
            "metrics:",
            "  m:",
            "    status: gating",
            "    dataset: d",
            "    min_samples: " + "9" * 30,
            "    value: 1e999",
            "  - x",
            '    judge: "\\ud800"',
            "\t",
            "---",
            "    a: {b: c}",
            "    op: >=",
            "    approved_on: 2026-13-45",
        ]
    )
    | st.text(max_size=30),
    max_size=10,
).map("\n".join)


@FUZZ
@given(text=RECORD_LINES, kind=st.sampled_from(sorted(KINDS)))
def test_the_records_loader_survives_anything(text: str, kind: str) -> None:
    """Any text as any records file: records, or a one-line RecordError."""
    try:
        records_from_text(kind, text, f"{kind}.yaml")
    except RecordError as exc:
        assert exc.path == f"{kind}.yaml"


@FUZZ
@given(data=st.data())
def test_the_contract_loader_survives_mutated_scorecards(data: st.DataObject) -> None:
    """A saved scorecard JSON, mutated: a Scorecard or a one-line ContractError."""
    doc = json.loads(_saved_scorecard())
    text = json.dumps(data.draw(mutated(doc, _paths(doc))), ensure_ascii=False)
    try:
        contract.loads(text.encode("utf-8", "surrogatepass"), "base.json")
    except EvalglassError as exc:
        assert isinstance(exc, ContractError) and exc.path == "base.json"


def _saved_scorecard() -> str:
    from evalglass.render import Format, render
    from evalglass.shell import api

    if not hasattr(_saved_scorecard, "text"):
        card = api.score([GENERIC], ROOT / "host_records")
        _saved_scorecard.text = render(card, Format.JSON, keep_samples=True)  # type: ignore[attr-defined]
    return _saved_scorecard.text  # type: ignore[attr-defined,no-any-return]


AGGREGATES = {
    "evalglass_aggregates": 1,
    "model": "m",
    "dataset": {"name": "d", "version": "1"},
    "metrics": {
        "a": {
            "n": 4,
            "missing": 1,
            "nonfinite": 0,
            "out_of_range": 0,
            "nonbinary": 0,
            "low": 0.0,
            "high": 1.0,
            "sum": 3 << 20,
            "sum_squares": 3 << 40,
            "clustered_sum_squares": 3 << 40,
            "clusters": {"c1": [2, 1 << 20], "c2": [2, 2 << 20]},
        }
    },
}


@FUZZ
@given(data=st.data(), suffix=st.sampled_from([".json", ".jsonl"]))
def test_aggregates_survive_mutation(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, suffix: str
) -> None:
    """A partial's aggregates document (or a row of them) mutated."""
    doc = data.draw(mutated(AGGREGATES, _paths(AGGREGATES)))
    path = tmp_path_factory.mktemp("fuzz") / f"part{suffix}"
    path.write_text(json.dumps(doc) + "\n", errors="surrogatepass")
    _reads_or_refuses(aggregates, path)


PROMPTFOO_JSONL = FIXTURES / "promptfoo" / "repeat" / "results" / "plain" / "results.jsonl"


@FUZZ
@given(data=st.data(), as_yaml=st.booleans())
def test_promptfoo_other_exports_survive_mutation(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, as_yaml: bool
) -> None:
    """promptfoo's `-o results.jsonl` rows mutated, and its JSON export mutated and written as
    the YAML export (YAML holds JSON)."""
    folder = tmp_path_factory.mktemp("fuzz")
    if as_yaml:
        doc = json.loads(PROMPTFOO.read_text())
        path = folder / "results.yaml"
        path.write_text(json.dumps(data.draw(mutated(doc, _paths(doc)))), errors="surrogatepass")
    else:
        rows = [json.loads(line) for line in PROMPTFOO_JSONL.read_text().splitlines() if line]
        path = folder / "results.jsonl"
        text = "".join(json.dumps(data.draw(mutated(row, _paths(row)))) + "\n" for row in rows)
        path.write_text(text, errors="surrogatepass")
    _reads_or_refuses(promptfoo, path)


JUDGMENT_ROWS = [json.loads(line) for line in judgment_rows().splitlines()[:6]]


@FUZZ
@given(data=st.data(), extra=st.lists(JSON, max_size=2), cut=st.none() | st.integers(0, 400))
def test_judgments_survive_mutation(
    tmp_path_factory: pytest.TempPathFactory,
    data: st.DataObject,
    extra: list[Any],
    cut: int | None,
) -> None:
    """Judgment rows mutated one by one, lines of any JSON added, the text cut short."""
    lines = [json.dumps(data.draw(mutated(row, _paths(row)))) for row in JUDGMENT_ROWS]
    text = "\n".join([*lines, *map(json.dumps, extra)]) + "\n"
    if cut is not None:
        text = text[: len(text) * cut // 400]
    path = tmp_path_factory.mktemp("fuzz") / "judged.jsonl"
    path.write_text(text, errors="surrogatepass")
    _reads_or_refuses(judgments, path)


@FUZZ
@given(
    cut=st.integers(0, 1000),
    flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 255)), max_size=3),
)
def test_parquet_survives_damage(
    tmp_path_factory: pytest.TempPathFactory, cut: int, flips: list[tuple[int, int]]
) -> None:
    """A real Parquet file of rows (DuckDB's) cut short, or with bytes changed anywhere: its
    footer, its page headers, its compressed pages."""
    data = bytearray(parquet_rows())
    for where, bits in flips:
        data[where % len(data)] ^= bits
    if cut < 1000:
        data = data[: len(data) * cut // 1000]
    path = tmp_path_factory.mktemp("fuzz") / "rows.parquet"
    path.write_bytes(bytes(data))
    _reads_or_refuses(parquet, path)


# Columns of every type a Parquet file can carry, as DuckDB expressions over a row number i:
# the types the reader expects, others it must cast or refuse, nulls, and edge values.
PARQUET_VALUES = st.sampled_from(
    [
        "'qa/' || (i % 2)", "''", "NULL", "i", "i % 2 = 0", "i * 0.25", "CAST(i AS VARCHAR)",
        "'1e400'", "'nan'", "CAST('nan' AS DOUBLE)", "CAST('inf' AS DOUBLE)", "1e300",
        "-(2 ** 40)", "9223372036854775807 - i", "CAST(i AS UTINYINT)",
        "CAST(i AS HUGEINT) * CAST('17014118346046923173168730371588410572' AS HUGEINT)",
        "CAST(18446744073709551615 AS UBIGINT) - CAST(i AS UBIGINT)",
        "CAST(i AS DECIMAL(38, 10))", "[i, i]", "{'v': i}", "CAST('x' AS BLOB)",
        "DATE '2026-11-30' + CAST(i AS INTEGER)", "to_days(CAST(i AS INTEGER))",
        "CASE WHEN i % 2 = 0 THEN NULL ELSE i END", "chr(0)", "chr(65533)",
        "CAST(i AS VARCHAR) || chr(10)",
    ]
)  # fmt: skip
PARQUET_COLUMNS = st.fixed_dictionaries(
    {},
    optional={
        name: PARQUET_VALUES
        for name in ("metric", "score", "sample_id", "epoch", "cluster", "model")
    },
)


@FUZZ
@given(columns=PARQUET_COLUMNS, count=st.integers(0, 6))
def test_parquet_survives_tables_of_any_shape(
    tmp_path_factory: pytest.TempPathFactory, columns: dict[str, str], count: int
) -> None:
    """Parquet tables with any of the rows' columns, each of any type, null or at an edge."""
    import duckdb

    path = tmp_path_factory.mktemp("fuzz") / "rows.parquet"
    listed = ", ".join(f"{value} AS {name}" for name, value in columns.items()) or "i AS other"
    with duckdb.connect() as con:
        con.execute(f"COPY (SELECT {listed} FROM range({count}) t(i)) TO '{path}' (FORMAT parquet)")
    _reads_or_refuses(parquet, path)


CALIBRATION = ROOT / "examples" / "calibration"


@FUZZ
@given(data=st.data(), cut=st.none() | st.integers(0, 400))
def test_calibration_evidence_survives_mutation(data: st.DataObject, cut: int | None) -> None:
    """The bundled calibration evidence file (a judge's record may name one) mutated or cut
    short: evidence, or a one-line CalibrationError naming the file."""
    doc = json.loads((CALIBRATION / "grader-v2.json").read_text())
    text = json.dumps(data.draw(mutated(doc, _paths(doc))))
    if cut is not None:
        text = text[: len(text) * cut // 400]
    try:
        evidence_from_text(text, "grader-v2.json")
    except EvalglassError as exc:
        assert isinstance(exc, CalibrationError) and exc.path == "grader-v2.json"


LABELS = [
    dict(zip(("sample_id", "rater", "label"), line.split(","), strict=True))
    for line in (CALIBRATION / "labels.csv").read_text().splitlines()[1:7]
]


@FUZZ
@given(data=st.data(), csv=st.booleans(), raters=st.booleans())
def test_calibration_labels_survive_mutation(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, csv: bool, raters: bool
) -> None:
    """`evalglass calibrate`'s label files (JSONL and CSV) with their rows mutated."""
    rows = [data.draw(mutated(row, _paths(row))) for row in LABELS]
    folder = tmp_path_factory.mktemp("fuzz")
    if csv:
        path = folder / "labels.csv"
        lines = ["sample_id,rater,label", *(",".join(map(json.dumps, r.values())) for r in rows)]
        path.write_text("\n".join(lines) + "\n", errors="surrogatepass")
    else:
        path = folder / "labels.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), errors="surrogatepass")
    try:
        read_label_file(path, raters_allowed=raters)
    except EvalglassError as exc:
        assert isinstance(exc, CalibrationError) and exc.path == str(path)


# Each format's reader and the fuzz targets that read through it.
FUZZED = {
    "inspect": (
        test_inspect_json_survives_mutation, test_inspect_eval_survives_mutation,
        test_inspect_eval_survives_damage,
    ),
    "lm-eval": (test_lmeval_survives_mutation,),
    "promptfoo": (test_promptfoo_survives_mutation, test_promptfoo_other_exports_survive_mutation),
    "deepeval": (test_deepeval_survives_mutation,),
    "eee": (test_eee_survives_mutation,),
    "aggregates": (test_aggregates_survive_mutation,),
    "judgments": (test_judgments_survive_mutation,),
    "parquet": (test_parquet_survives_damage, test_parquet_survives_tables_of_any_shape),
    "rows": (test_rows_survive_generated_rows,),
    "generic": (test_generic_survives_mutation, test_generic_survives_generated_documents),
}  # fmt: skip


def _fixture_fuzz() -> dict[str, Any]:
    """A framework format with no target above is fuzzed on its own first JSON fixture (its
    folder under tests/fixtures is named as the format), so a new format is fuzzed without an
    edit here."""
    from evalglass.evidence import registry

    targets = {}
    for name, _ in registry.FRAMEWORKS:
        if name in FUZZED:
            continue
        adapter = registry.by_name(name)
        found = [p for p in outputs(FIXTURES / name) if p.suffix == ".json"]
        if adapter is not None and found:
            targets[name] = _json_fuzz(adapter, found[0])
    return targets


FIXTURE_FUZZED = _fixture_fuzz()
for _name, _target in FIXTURE_FUZZED.items():
    globals()[f"test_{_name.replace('-', '_')}_fixture_survives_mutation"] = _target


def test_every_reader_is_fuzzed() -> None:
    """Every format evalglass reads has a fuzz target here (docs/security.md says so)."""
    from evalglass.evidence import registry

    assert sorted({**FUZZED, **FIXTURE_FUZZED}) == sorted(name for name, _ in registry.FORMATS)
