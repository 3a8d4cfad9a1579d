"""The lm-evaluation-harness adapter against a real results file and samples (lm_eval 0.4.13)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest
from scipy import stats as sp

from evalglass.errors import OutputError
from evalglass.evidence.adapters import lmeval
from evalglass.evidence.model import DatasetIdentity, Measurement, Method, MethodBasis
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES, claims, files, others

STAMP = "2026-11-29T22-44-33.541250"
RUN = FIXTURES / "lm-eval/results/offline__dummy-lm"
RESULTS = RUN / f"results_{STAMP}.json"
IDS = {
    "arith_mc/acc",
    "arith_mc/acc_norm",
    "arith_gen/exact_match,strict-match",
    "arith_gen/exact_match,flexible-extract",
    "arith_suite/acc",
}
Z95 = sp.norm.ppf(0.975)
from tests.proportion_reference import proportion


def read(path: Path, shown: str | None = None) -> dict[str, Measurement]:
    return {m.id: m for m in lmeval.read(path, shown or str(path))}


def copy_run(tmp_path: Path, edit: Any = None, samples: bool = True) -> Path:
    """The run's files in tmp_path, the results optionally edited, the samples optionally gone."""
    doc = json.loads(RESULTS.read_text())
    if edit:
        edit(doc)
    target = tmp_path / RESULTS.name
    target.write_text(json.dumps(doc))
    if samples:
        for sample in RUN.glob("samples_*.jsonl"):
            shutil.copy(sample, tmp_path / sample.name)
    return target


def test_values_are_the_numbers_lm_eval_printed() -> None:
    """acc 0.40, acc_norm 0.40, exact_match 0.15 under both filters, group acc 0.40."""
    m = read(RESULTS)
    assert set(m) == IDS
    assert {i: x.value for i, x in m.items()} == {
        "arith_mc/acc": 0.4,
        "arith_mc/acc_norm": 0.4,
        "arith_gen/exact_match,strict-match": 0.15,
        "arith_gen/exact_match,flexible-extract": 0.15,
        "arith_suite/acc": 0.4,
    }
    assert {(x.n, x.missing, x.findings) for x in m.values()} == {(20, 0, ())}


def test_per_document_scores_come_from_the_samples_file() -> None:
    """Each task metric lists its 20 documents' scores, one per filter, by doc_id."""
    m = read(RESULTS)
    strict = m["arith_gen/exact_match,strict-match"]
    assert strict.samples is not None and len(strict.samples) == 20
    assert [s.id for s in strict.samples] == [str(i) for i in range(20)]
    assert sum(s.score for s in strict.samples) == 3
    acc = m["arith_mc/acc"]
    assert acc.samples is not None and sum(s.score for s in acc.samples) == 8


def test_task_intervals_are_a_proportions_over_the_documents() -> None:
    """acc 8/20 gets a proportion's interval of its per-document scores: with 8 successes, the
    exact Clopper-Pearson one."""
    m = read(RESULTS)["arith_mc/acc"]
    low, high = sp.binomtest(8, 20).proportion_ci(method="exact")
    assert m.interval is not None and m.interval.method is Method.CLOPPER_PEARSON
    assert (m.interval.low, m.interval.high) == pytest.approx((low, high), abs=1e-12)


def share(successes: int, n: int) -> tuple[float, float]:
    """A proportion's 95% interval as evalglass makes it, by scipy."""
    return proportion(successes, n)[1:]


def test_a_group_uses_lm_evals_sample_count_and_reads_its_rate_as_a_share() -> None:
    """arith_suite acc: no samples of its own, n from sample_count; `acc` is a rate by
    construction, so its interval is a proportion's of 0.4 of 20, not value ± z·0.1124."""
    m = read(RESULTS)["arith_suite/acc"]
    assert (m.n, m.samples, m.run.dataset) == (20, None, None)
    assert m.interval is not None and m.interval.method is proportion(8, 20)[0]
    assert m.interval.method_basis is MethodBasis.INFERRED_PROPORTION
    assert (m.interval.low, m.interval.high) == pytest.approx(share(8, 20), abs=1e-12)


def test_without_samples_files_a_rate_is_a_share_of_sample_len(tmp_path: Path) -> None:
    """Results alone: n is sample_len, and exact_match (0/1 per document) gets a proportion's
    interval of 3 of 20, not value ± z·stderr (0.0819)."""
    m = read(copy_run(tmp_path, samples=False))["arith_gen/exact_match,strict-match"]
    assert (m.n, m.samples) == (20, None)
    assert m.interval is not None and m.interval.method is proportion(3, 20)[0]
    assert (m.interval.low, m.interval.high) == pytest.approx(share(3, 20), abs=1e-12)


def test_a_rate_read_without_samples_fails_as_its_samples_would(tmp_path: Path) -> None:
    """acc 0.95 with lm-eval's acc_stderr 0.05 over 20 documents: its lower bound is a
    proportion's (with one failure, Clopper–Pearson's 0.751; Wilson's 0.764) with or without
    --log_samples, never the 0.852 of value ± z·stderr."""

    def edit(doc: dict[str, Any]) -> None:
        doc["results"]["arith_mc"]["acc,none"] = 0.95
        doc["results"]["arith_mc"]["acc_stderr,none"] = (0.95 * 0.05 / 19) ** 0.5

    m = read(copy_run(tmp_path, edit, samples=False))["arith_mc/acc"]
    assert m.interval is not None and round(m.interval.low, 3) == 0.751


def test_identity_of_model_and_dataset() -> None:
    """Model from model_name; dataset from the task config's data files, no version (the task's
    is not the data's), and the fingerprint of the samples file's doc_hashes."""
    run = read(RESULTS)["arith_gen/exact_match,strict-match"].run
    assert run.source == str(RESULTS)
    assert (run.model, run.graders, run.status) == ("offline/dummy-lm", (), None)
    assert run.started == "2026-11-29T22:44:33.414911+00:00"
    assert run.dataset == DatasetIdentity(
        name="tasks/arith_gen.jsonl",
        version=None,
        location="tasks/arith_gen.jsonl",
        samples=20,
        fingerprint="sha256:947f9718697b2c1957261c61a3dd9a3e557ee83c905c87c411d2660c2fa149ff",
    )
    assert read(RESULTS)["arith_mc/acc"].run.dataset.version is None  # type: ignore[union-attr]


def test_a_task_without_a_dataset_path_names_the_task(tmp_path: Path) -> None:
    """Without dataset_path the dataset is named after the task, never left nameless."""

    def edit(doc: dict[str, Any]) -> None:
        del doc["configs"]["arith_mc"]["dataset_path"]

    dataset = read(copy_run(tmp_path, edit))["arith_mc/acc"].run.dataset
    assert dataset is not None and (dataset.name, dataset.version) == ("arith_mc", None)


def test_a_pinned_dataset_revision_is_its_version(tmp_path: Path) -> None:
    """dataset_kwargs.revision is the data's own version; a Hub dataset is named by its path."""

    def edit(doc: dict[str, Any]) -> None:
        config = doc["configs"]["arith_mc"]
        config["dataset_path"] = "acme/arith"
        config["dataset_kwargs"] = {"revision": "3f1c2a"}

    dataset = read(copy_run(tmp_path, edit))["arith_mc/acc"].run.dataset
    assert dataset is not None and (dataset.name, dataset.version) == ("acme/arith", "3f1c2a")


def test_older_string_model_args_still_name_the_model(tmp_path: Path) -> None:
    """Without model_name, the pretrained= part of a model_args string names the model."""

    def edit(doc: dict[str, Any]) -> None:
        del doc["model_name"]
        doc["config"]["model_args"] = "pretrained=org/model-7b,dtype=float16"

    assert read(copy_run(tmp_path, edit))["arith_mc/acc"].run.model == "org/model-7b"


def test_an_aggregate_its_documents_contradict_is_a_finding(tmp_path: Path) -> None:
    """A reported acc that the per-document scores do not give is flagged with both numbers."""

    def edit(doc: dict[str, Any]) -> None:
        doc["results"]["arith_mc"]["acc,none"] = 0.5

    m = read(copy_run(tmp_path, edit))["arith_mc/acc"]
    assert m.value == 0.5
    assert [r.code for r in m.findings] == [ValidityCode.VALUE_MISMATCH]
    assert "0.5" in m.findings[0].message and "0.4" in m.findings[0].message


def test_not_available_stderr_leaves_a_rate_its_share(tmp_path: Path) -> None:
    """lm-eval's "N/A" stderr is no stderr: a rate's value and n are enough (8 of 20)."""

    def edit(doc: dict[str, Any]) -> None:
        doc["results"]["arith_mc"]["acc_stderr,none"] = "N/A"

    m = read(copy_run(tmp_path, edit, samples=False))["arith_mc/acc"]
    assert m.value == 0.4 and m.interval is not None
    assert (m.interval.low, m.interval.high) == pytest.approx(share(8, 20), abs=1e-12)


def test_authority_looking_fields_change_nothing(tmp_path: Path) -> None:
    """Fields claiming approval or gating status inside the results are ignored."""

    def edit(doc: dict[str, Any]) -> None:
        doc["authority"] = {"outcome": "can_gate"}
        doc["configs"]["arith_mc"]["metadata"]["gating"] = True

    edited = read(copy_run(tmp_path, edit))
    original = read(RESULTS)
    for metric_id in IDS:
        assert attrs.evolve(edited[metric_id], run=original[metric_id].run) == original[metric_id]


@pytest.mark.parametrize("path", files("lm-eval"), ids=lambda p: p.name)
def test_sniff_claims_results_files_only(path: Path) -> None:
    """sniff() claims results_*.json (and v0.3's results, named by their users) and never a
    samples_*.jsonl, console log or README."""
    results = path.name.startswith("results_") or path.parent.name == "public-0.3"
    assert claims("lm-eval", path)[0] is results


@pytest.mark.parametrize("path", others("lm-eval"), ids=lambda p: p.name)
def test_sniff_leaves_other_frameworks_files_alone(path: Path) -> None:
    """sniff() is false on every other framework's file."""
    assert claims("lm-eval", path) == (False, None)


def test_a_truncated_samples_file_names_itself_and_the_line(tmp_path: Path) -> None:
    """A samples file cut mid-line is refused, naming that file and the broken line."""
    results = copy_run(tmp_path)
    sample = tmp_path / f"samples_arith_mc_{STAMP}.jsonl"
    sample.write_bytes(sample.read_bytes()[:-200])
    with pytest.raises(OutputError) as caught:
        lmeval.read(results, f"out/{results.name}")
    assert caught.value.path == f"out/samples_arith_mc_{STAMP}.jsonl"
    assert caught.value.line == 20


@pytest.mark.parametrize(
    "line", [b"[]", b'{"doc_id": 0}', b'{"metrics": ["acc"]}', b"\xff\xfe", b"1e999999"]
)
def test_malformed_sample_lines_are_refused(tmp_path: Path, line: bytes) -> None:
    """A samples line that is not a scored document is an OutputError on that line."""
    results = copy_run(tmp_path)
    (tmp_path / f"samples_arith_mc_{STAMP}.jsonl").write_bytes(line + b"\n")
    with pytest.raises(OutputError) as caught:
        lmeval.read(results, str(results))
    assert caught.value.line == 1
