"""promptfoo runs repeated (`--repeat 3`) and written every way (`-o` .json, .yaml, .xml,
.jsonl, .junit.xml) by promptfoo 0.121.20. Expected numbers come from promptfoo's own summary in
results.json (stats, prompts[].metrics, runtimeOptions, config), never from evalglass."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence.adapters import promptfoo
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES, damaged

RUNS = {
    "repeat3": FIXTURES / "promptfoo/repeat/results/repeat3",
    "plain": FIXTURES / "promptfoo/repeat/results/plain",
    "graders": FIXTURES / "promptfoo/graders/results",
}
WAYS = ("results.yaml", "results.xml", "results.jsonl")


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in promptfoo.read(path, str(path))}


def export(run: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((RUNS[run] / "results.json").read_text())
    return doc


@pytest.mark.parametrize("run", sorted(RUNS))
def test_n_counts_tests_not_repeats_and_values_are_promptfoos(run: str) -> None:
    """Per column: the pass rate and every named metric's mean are promptfoo's own
    (testPassCount / graded rows, namedScores / namedScoreWeights), and n is the number of
    tests, not of rows: promptfoo's rows are tests x runtimeOptions.repeat."""
    doc = export(run)
    tests = len(doc["config"]["tests"])
    repeat = doc["runtimeOptions"]["repeat"]
    m = read(RUNS[run] / "results.json")
    for column in doc["results"]["prompts"]:
        prefix = f"{column['provider']}/{column['label']}"
        metrics = column["metrics"]
        graded = metrics["testPassCount"] + metrics["testFailCount"]
        assert graded + metrics["testErrorCount"] == tests * repeat
        rate = m[f"{prefix}/pass_rate"]
        assert (rate.value, rate.n, rate.missing) == (metrics["testPassCount"] / graded, tests, 0)
        assert rate.run.dataset is not None and rate.run.dataset.samples == tests
        for name, total in metrics["namedScores"].items():
            named = m[f"{prefix}/{name}"]
            assert named.value == pytest.approx(total / metrics["namedScoreWeights"][name], 1e-12)
            assert (named.n, named.findings) == (tests, ())
            assert metrics["namedScoresCount"][name] == tests * repeat


def test_repeats_are_reduced_per_test_and_the_reducer_is_stated() -> None:
    """--repeat 3: each test's three rows are one case (its mean), which the samples keep as
    epochs 1-3 of one id; the interval is over the 11 means, so it is wider than over 33 rows."""
    repeated = read(RUNS["repeat3"] / "results.json")["mock-calculator/sum/pass_rate"]
    plain = read(RUNS["plain"] / "results.json")["mock-calculator/sum/pass_rate"]
    assert repeated.reduction is not None
    assert (repeated.reduction.reducer, repeated.reduction.least, repeated.reduction.most) == (
        "mean",
        3,
        3,
    )
    assert plain.reduction is None
    assert repeated.samples is not None and plain.samples is not None
    assert {s.id for s in repeated.samples} == {s.id for s in plain.samples}
    assert sorted({s.epoch for s in repeated.samples}) == [1, 2, 3]
    rows = export("repeat3")["results"]["results"]
    assert len(repeated.samples) == len(rows)
    assert repeated.interval is not None and plain.interval is not None
    assert repeated.interval.high - repeated.interval.low > 0.3


@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("way", WAYS)
def test_one_run_written_every_way_reads_the_same(run: str, way: str) -> None:
    """The YAML, promptfoo's XML and the JSONL rows of one run give the ids, values, n,
    samples and intervals of its results.json; only the JSONL, which has no timestamp, lacks
    the start time."""
    canonical = read(RUNS[run] / "results.json")
    other = read(RUNS[run] / way)
    assert set(other) == set(canonical)
    for metric_id, m in canonical.items():
        got = other[metric_id]
        started = None if way == "results.jsonl" else m.run.started
        assert got.run.started == started
        same_run = attrs.evolve(m.run, source=got.run.source, started=started)
        if way == "results.jsonl":
            # No config in the rows: the tests' file cannot be named.
            same_run = attrs.evolve(same_run, dataset=got.run.dataset)
        assert attrs.evolve(got, run=same_run) == attrs.evolve(m, run=same_run)


def test_a_folder_holding_one_run_written_every_way_reads_it_once() -> None:
    """results.json is read; the .jsonl, .xml and .yaml copies are skipped as the same run and
    the JUnit report as too thin to read, each with a note."""
    folder = RUNS["repeat3"]
    evidence = read_outputs([folder])
    assert [Path(s).name for s in evidence.sources] == ["results.json"]
    notes = {Path(s.source).name: s.reason for s in evidence.skipped}
    assert set(notes) == {"results.jsonl", "results.junit.xml", "results.xml", "results.yaml"}
    assert all(notes[n].startswith("the same run as") for n in WAYS)
    assert notes["results.junit.xml"].startswith("promptfoo's JUnit report")
    assert {m.n for m in evidence.measurements.values()} == {
        len(export("repeat3")["config"]["tests"])
    }


def test_rows_without_the_json_export_are_read_and_have_no_start_time() -> None:
    """The JSONL rows alone name their columns; without a timestamp they cannot be ordered
    against another run, so two JSONL files measuring one metric are refused."""
    evidence = read_outputs([RUNS["graders"] / "results.jsonl"])
    assert {m.run.started for m in evidence.measurements.values()} == {None}
    with pytest.raises(OutputError, match="cannot be ordered"):
        read_outputs([RUNS["repeat3"] / "results.jsonl", RUNS["plain"] / "results.jsonl"])


def test_unequal_repeats_count_each_test_once(tmp_path: Path) -> None:
    """A test repeated more often than the others (its own options.repeat) weighs as one case:
    the value is the mean of the per-test means, not promptfoo's row-weighted rate."""
    doc = export("plain")
    rows = doc["results"]["results"]
    extra = [dict(row, id=f"{row['id']}-again", testIdx=100 + i) for i, row in enumerate(rows[:2])]
    doc["results"]["results"] = rows + extra
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    m = read(path)["mock-calculator/sum/pass_rate"]
    per_test = [1.0 if row["success"] else 0.0 for row in rows]
    assert (m.n, m.value) == (len(rows), pytest.approx(sum(per_test) / len(per_test)))
    assert m.reduction is not None and (m.reduction.least, m.reduction.most) == (1, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("evalId: e\nresults:\n\t- x\n", "not valid YAML"),
        ("evalId: e\nresults: &r {results: [*r]}\n", "results"),
        ("evalId: e\nresults: [1, 2\n", "not valid YAML"),
    ],
)
def test_broken_yaml_is_an_input_error(tmp_path: Path, text: str, message: str) -> None:
    """A YAML export that does not parse is one OutputError naming the file."""
    path = tmp_path / "results.yaml"
    path.write_text(text)
    with pytest.raises(OutputError, match=message) as caught:
        promptfoo.read(path, str(path))
    assert caught.value.path == str(path)


def test_yaml_aliases_that_expand_without_bound_are_refused(tmp_path: Path) -> None:
    """Nine levels of nine aliases stand for 387 million nodes: refused before they are built."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    path = tmp_path / "results.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(OutputError, match="too many nodes"):
        promptfoo.read(path, str(path))


def test_xml_with_a_document_type_is_refused(tmp_path: Path) -> None:
    """promptfoo declares no DOCTYPE; one that does could define expanding entities."""
    path = tmp_path / "results.xml"
    path.write_text('<?xml version="1.0"?><!DOCTYPE p [<!ENTITY e "x">]><promptfoo>&e;</promptfoo>')
    with pytest.raises(OutputError, match="document type"):
        promptfoo.read(path, str(path))


def test_the_yaml_reader_keeps_yaml_1_2_scalars_as_promptfoo_wrote_them(tmp_path: Path) -> None:
    """`yes`, `on`, `1:20` and a date read as text, as promptfoo (YAML 1.2) meant them."""
    doc = export("plain")
    rows = doc["results"]["results"]
    text = (RUNS["plain"] / "results.yaml").read_text()
    marked = text.replace("description: t01\n", "description: yes\n", 1)
    assert marked != text
    path = tmp_path / "results.yaml"
    path.write_text(marked)
    from evalglass.evidence.adapters import _promptfoo_files

    loaded = _promptfoo_files.load(path, str(path))
    descriptions = {r["testCase"].get("description") for r in loaded["results"]["results"]}
    assert "yes" in descriptions and True not in descriptions
    assert len(loaded["results"]["results"]) == len(rows)


@pytest.mark.parametrize("way", WAYS)
def test_damaged_exports_of_every_way_raise_output_error(tmp_path: Path, way: str) -> None:
    """Empty, truncated and random-byte YAML, XML and JSONL exports either still read (a cut at a
    line end can leave whole rows) or raise one OutputError naming the file, nothing else."""
    for label, data in damaged((RUNS["repeat3"] / way).read_bytes()):
        path = tmp_path / way
        path.write_bytes(data)
        shown = f"out/{label}"
        try:
            promptfoo.read(path, shown)
        except OutputError as error:
            assert error.path == shown and "\n" not in str(error)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from(WAYS))
def test_no_bytes_in_any_way_raise_anything_but_output_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, way: str
) -> None:
    """Whatever the bytes of a .yaml, .xml or .jsonl export, read() returns or raises OutputError."""
    head = (RUNS["plain"] / way).read_bytes()[:300]
    path = tmp_path_factory.mktemp("fuzz") / way
    path.write_bytes(head + data)
    with contextlib.suppress(OutputError):
        promptfoo.read(path, way)
