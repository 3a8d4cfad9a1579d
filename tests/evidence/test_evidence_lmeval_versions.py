"""lm-eval results as the releases before 0.4.12 wrote them, from public repositories
(tests/fixtures/lm-eval/public-0.4 and public-0.3, README.md there): n where the file holds it,
unknown where it does not, and lm-eval's own values either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalglass.evidence.adapters import lmeval
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES

PUBLIC = FIXTURES / "lm-eval"
# lm-eval between 0.4.7 and 0.4.8: a full run, no samples file.
GOOSE = PUBLIC / "public-0.4/rwkv7-goose/results_2025-02-25T02-50-33.665339.json"
# lm-eval between 0.4.3 and 0.4.4: `--limit 50` of asdiv's 2305 documents, with --log_samples
# (its lines name no metrics and no filter, as before 0.4.7).
ASDIV = PUBLIC / "public-0.4/asdiv-limit/results_2024-08-21T03-44-09.494230.json"
V03 = PUBLIC / "public-0.3"
from tests.proportion_reference import PROPORTION_METHODS


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in lmeval.read(path, str(path))}


def test_n_is_the_effective_count_of_n_samples() -> None:
    """Without sample_len, every metric of a task has n = n-samples.<task>.effective."""
    doc = json.loads(GOOSE.read_text())
    effective = doc["n-samples"]["lambada_openai"]["effective"]
    got = read(GOOSE)
    assert {i: (m.value, m.n) for i, m in got.items()} == {
        "lambada_openai/acc": (doc["results"]["lambada_openai"]["acc,none"], effective),
        "lambada_openai/perplexity": (
            doc["results"]["lambada_openai"]["perplexity,none"],
            effective,
        ),
    }


def test_a_limited_run_counts_the_documents_it_ran() -> None:
    """`--limit`: n is the 50 documents run (effective, and the samples file's lines), never
    the 2305 of the dataset, which stays the dataset's size."""
    doc = json.loads(ASDIV.read_text())
    counts = doc["n-samples"]["asdiv"]
    lines = (ASDIV.parent / "samples_asdiv_2024-08-21T03-44-09.494230.jsonl").read_text()
    acc = read(ASDIV)["asdiv/acc"]
    assert (acc.value, acc.n, acc.findings) == (doc["results"]["asdiv"]["acc,none"], 50, ())
    assert counts == {"original": 2305, "effective": 50} and len(lines.splitlines()) == 50
    assert acc.run.dataset is not None and acc.run.dataset.samples == counts["original"]


def test_samples_lines_without_metrics_give_the_per_document_scores() -> None:
    """Before 0.4.7 a samples line holds its metric as a key of its own: read as the task's one
    filter's scores, so the interval is a proportion's over the 50 documents."""
    lines = (ASDIV.parent / "samples_asdiv_2024-08-21T03-44-09.494230.jsonl").read_text()
    scores = [json.loads(line)["acc"] for line in lines.splitlines()]
    acc = read(ASDIV)["asdiv/acc"]
    assert acc.samples is not None
    assert [s.score for s in sorted(acc.samples, key=lambda s: int(s.id))] == scores
    assert acc.interval is not None and acc.interval.method in PROPORTION_METHODS


@pytest.mark.parametrize("path", sorted(V03.glob("*.json")), ids=lambda p: p.name)
def test_v03_results_read_lm_evals_values_with_n_unknown(path: Path) -> None:
    """v0.3: every `results.<task>.<metric>` is a metric with lm-eval's value and its
    `<metric>_stderr` interval, and n unknown (the file records no count)."""
    doc = json.loads(path.read_text())
    want = {
        f"{task}/{metric}": value
        for task, row in doc["results"].items()
        for metric, value in row.items()
        if not metric.endswith("_stderr")
    }
    got = read(path)
    assert {i: m.value for i, m in got.items()} == want
    assert all(m.n is None for m in got.values())
    for metric_id, m in got.items():
        task, metric = metric_id.split("/")
        has_stderr = f"{metric}_stderr" in doc["results"][task]
        assert (m.interval is not None) is has_stderr
    assert {m.run.models for m in got.values()} == {("bigscience/bloom-1b1",)}


def test_v03_files_of_one_model_read_together() -> None:
    """A folder of v0.3 files: each task read once, from its file."""
    evidence = read_outputs([V03])
    assert "gsm8k/acc" in evidence.measurements and "hellaswag/acc_norm" in evidence.measurements
    assert len(evidence.sources) == 2


def test_a_results_object_without_lm_evals_marks_is_not_claimed() -> None:
    """`{"results": {task: {metric: number}}}` alone is no lm-eval file: v0.3's shape is claimed
    only with a `_stderr` key or the tasks' `versions` beside it."""
    bare = b'{"results": {"qa": {"score": 0.9}}, "metrics": {"qa": 0.9}}'
    legacy = b'{"results": {"qa": {"acc": 0.9, "acc_stderr": 0.01}}}'
    assert (lmeval.sniff(Path("x.json"), bare), lmeval.sniff(Path("x.json"), legacy)) == (
        False,
        True,
    )
