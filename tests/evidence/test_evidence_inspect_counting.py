"""What n counts in real Inspect logs (inspect_ai 0.3.285): eval-set folders, unscored samples
and grouped() metrics. Every expected number is read from the log itself, never from evalglass."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from evalglass.evidence.adapters import _inspect_files as files
from evalglass.evidence.adapters import inspect_log
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES, eval_member

INSPECT = FIXTURES / "inspect"
EVAL_SET = INSPECT / "eval-set/logs"
KINDS = ("eval", "json")


def log(folder: str, kind: str) -> Path:
    return next((INSPECT / folder / "logs" / kind).glob(f"*.{kind}"))


def header(path: Path) -> dict[str, Any]:
    """The log's own header: header.json of a .eval, the log object of a .json."""
    doc = (
        eval_member(path, "header.json") if path.suffix == ".eval" else json.loads(path.read_text())
    )
    assert isinstance(doc, dict)
    return doc


def samples(path: Path) -> list[dict[str, Any]]:
    """One entry per sample and epoch, with its metadata, as the log itself lists them."""
    found = (
        eval_member(path, "summaries.json") if path.suffix == ".eval" else header(path)["samples"]
    )
    assert isinstance(found, list)
    return found


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in inspect_log.read(path, str(path))}


@pytest.mark.parametrize("kind", KINDS)
def test_an_eval_set_folder_reads_each_log_once_and_skips_inspects_own_files(kind: str) -> None:
    """Each log's numbers are the ones Inspect's index (logs.json) lists for it; logs.json,
    eval-set.json and .eval-set-id are skipped, each with what it is, and never counted."""
    folder = EVAL_SET / kind
    index = json.loads((folder / "logs.json").read_text())
    evidence = read_outputs([folder])
    expected = {}
    for name, head in index.items():
        for entry in head["results"]["scores"]:
            for metric, body in entry["metrics"].items():
                if metric != "stderr":
                    metric_id = f"{head['eval']['task']}/{entry['name']}/{metric}"
                    expected[metric_id] = (body["value"], entry["scored_samples"], name)
    got = {m.id: (m.value, m.n, Path(m.run.source).name) for m in evidence.measurements.values()}
    assert got == expected
    assert sorted(Path(s).name for s in evidence.sources) == sorted(index)
    assert [Path(s.source).name for s in evidence.skipped] == [
        ".eval-set-id",
        "eval-set.json",
        "logs.json",
    ]
    assert all(s.reason.startswith("Inspect's") for s in evidence.skipped)


@pytest.mark.parametrize("kind", KINDS)
def test_unscored_samples_are_missing_and_the_value_is_over_the_scored(kind: str) -> None:
    """Score.unscored() (a bare NaN in the log): checked accuracy is Inspect's 0.857 over its
    14 scored samples, the 4 unscored are missing, and nothing disagrees."""
    path = log("unscored", kind)
    m = read(path)
    results = header(path)["results"]
    for entry in results["scores"]:
        metric, body = next((k, v) for k, v in entry["metrics"].items() if k != "stderr")
        got = m[f"unscored/{entry['name']}/{metric}"]
        assert (got.value, got.n) == (body["value"], entry["scored_samples"])
        assert got.missing == entry["unscored_samples"] == results["total_samples"] - got.n
        assert got.findings == ()
        assert got.samples is not None and len(got.samples) == got.n
        assert got.interval is not None and got.interval.low < got.value < got.interval.high
    checked = m["unscored/checked/accuracy"]
    assert (round(checked.value or 0, 3), checked.n, checked.missing) == (0.857, 14, 4)


def group_sizes(path: Path, key: str) -> Counter[str]:
    """Samples per group, counted from the samples' own metadata."""
    return Counter(str(s["metadata"][key]) for s in samples(path))


@pytest.mark.parametrize("kind", KINDS)
def test_a_grouped_metric_has_its_groups_own_n(kind: str) -> None:
    """grouped(accuracy(), "op"): each group's n is the samples in it (6 of 18), never the
    scorer's scored_samples; "all" is over every sample."""
    path = log("grouped", kind)
    m = read(path)
    for entry in header(path)["results"]["scores"]:
        for label, body in entry["metrics"].items():
            if "group" not in body:
                continue
            key = body["params"]["group_key"]
            template = body["params"].get("name_template", "{group_name}")
            sizes = {
                template.replace("{group_name}", g): n for g, n in group_sizes(path, key).items()
            }
            got = m[f"grouped_ops/{entry['name']}/{label}"]
            expected_n = entry["scored_samples"] if label == "all" else sizes[label]
            assert (got.value, got.n, got.missing, got.findings) == (
                body["value"],
                expected_n,
                0,
                (),
            )
            assert got.samples is not None and len(got.samples) == expected_n
    assert m["grouped_ops/exact/mul"].n == 6 and m["grouped_ops/exact/all"].n == 18


def test_a_group_the_log_cannot_place_has_no_n(tmp_path: Path) -> None:
    """Without the samples' metadata, which samples a group holds is unknown: n is unknown,
    not the scorer's 18, and there is no interval."""
    doc = header(log("grouped", "json"))
    for sample in doc["samples"]:
        sample["metadata"] = {}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    m = read(path)
    group = m["grouped_ops/exact/mul"]
    assert (group.value, group.n, group.interval, group.samples) == (0.5, None, None, None)
    assert m["grouped_ops/exact/all"].n == 18


def test_a_log_without_samples_cannot_place_its_groups(tmp_path: Path) -> None:
    """A header alone (no samples, no reductions) gives group values with n unknown."""
    doc = header(log("grouped", "json"))
    doc.pop("samples"), doc.pop("reductions")
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    assert {m.n for i, m in read(path).items() if i != "grouped_ops/exact/all"} == {None}


def test_a_log_converted_beside_its_eval_is_read_once() -> None:
    """`inspect log convert` keeps the run's eval id and start: the .json copy of arith-errors
    is skipped as the same run, while the separate arith runs are both read (one a retry)."""
    evidence = read_outputs([INSPECT / "logs"])
    copies = [s for s in evidence.skipped if "arith-errors" in s.source]
    assert [Path(s.source).suffix for s in copies] == [".json"]
    assert copies[0].reason.startswith("the same run as") and copies[0].reason.endswith(".eval")
    converted = header(Path(copies[0].source))
    original = header(next((INSPECT / "logs/eval").glob("*arith-errors*.eval")))
    assert converted["eval"]["eval_id"] == original["eval"]["eval_id"]
    arith = evidence.measurements["arith/match/accuracy"]
    assert len(arith.earlier) == 1 and arith.earlier[0].source.endswith(".eval")


SCORES_BY_ENTRY: list[tuple[dict[str, object] | None, float | None]] = [
    # (a summary's scores, as cut down to each score's value; what entry "a" of scorer "s" reads)
    ({"a": "C", "s": {"a": "I"}}, 1.0),
    ({"s": {"a": "I"}}, 0.0),
    ({"s": {"b": 1.0}}, None),
    ({"s": 0.25}, 0.25),
    ({"a": float("nan")}, None),
    ({"a": None, "s": 1.0}, None),
    ({"a": [1, 2]}, None),
    ({"a": "yes"}, 1.0),
    ({"a": 2}, 2.0),
    ({"a": True}, 1.0),
    ({}, None),
    (None, None),
]


def test_an_entry_reads_the_score_under_its_name_else_its_scorers() -> None:
    """A results entry reads each summary's score under its own name, else under its scorer's
    (a scorer of several values: the key the entry names); NaN, a list or no score is none."""
    summaries = [files.Summary("x", 1, scores, {}) for scores, _ in SCORES_BY_ENTRY]
    assert files.score_values(summaries, "a", "s") == [want for _, want in SCORES_BY_ENTRY]


def test_a_score_under_the_entrys_name_that_is_no_object_is_no_score(tmp_path: Path) -> None:
    """A score written under the entry's own name that is not an object has no value: the
    scorer's score is not read in its place."""
    doc = {
        "version": 2,
        "status": "success",
        "eval": {"task": "t"},
        "samples": [{"id": 1, "scores": {"a": "C", "s": {"value": {"a": "C"}}}}],
    }
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    (summary,) = files.load(path, "log.json").samples or []
    assert files.score_values([summary], "a", "s") == [None]
