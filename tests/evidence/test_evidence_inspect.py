"""The Inspect AI adapter against real logs written by inspect_ai 0.3.285 and 0.3.150."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path
from typing import Any

import attrs
import pytest
from scipy import stats as sp

from evalglass.evidence import stats
from evalglass.evidence.adapters import inspect_log
from evalglass.evidence.model import DatasetIdentity, Measurement, Method, MethodBasis
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES, NOT_RUNS, claims, files, others, refuse

LOGS = FIXTURES / "inspect"
ARITH_EVAL = LOGS / "logs/eval/2026-11-29T22-43-36-00-00_arith_KCmg8Bm4Msnz8Zkf4n9mxT.eval"
ARITH_JSON = LOGS / "logs/json/2026-11-29T22-43-39-00-00_arith_PNFUh8XpCC6Egr7QHei4ig.json"
ERRORS_EVAL = LOGS / "logs/eval/2026-11-29T22-43-42-00-00_arith-errors_dmLPCb9HDuF43ZxkuVPRty.eval"
ERRORS_JSON = LOGS / "logs/json/2026-11-29T22-43-42-00-00_arith-errors_dmLPCb9HDuF43ZxkuVPRty.json"
LEGACY_EVAL = LOGS / "logs-0.3.150/eval/2026-11-29T22-45-44+00-00_arith_SLbM4tZ2pkv2Q3urMTJD5P.eval"
LEGACY_JSON = LOGS / "logs-0.3.150/json/2026-11-29T22-45-46+00-00_arith_7S6fUyD2cBy55T5jeCyWvH.json"
ARITH_IDS = {
    "arith/match/accuracy",
    "arith/includes/accuracy",
    "arith/numeric_closeness/mean",
    "arith/model_graded_fact/accuracy",
}
Z95 = sp.norm.ppf(0.975)
from tests.proportion_reference import proportion


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in inspect_log.read(path, str(path))}


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


def write_json(tmp_path: Path, doc: object, name: str = "log.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def write_eval(tmp_path: Path, members: dict[str, object], name: str = "log.eval") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in members.items():
            archive.writestr(member, json.dumps(content))
    return path


def without_run_source(measurements: dict[str, Measurement]) -> dict[str, Measurement]:
    return {k: attrs.evolve(m, run=attrs.evolve(m.run, source="")) for k, m in measurements.items()}


@pytest.mark.parametrize("path", [ARITH_EVAL, ARITH_JSON, LEGACY_EVAL, LEGACY_JSON])
def test_arith_values_are_the_numbers_inspect_reported(path: Path) -> None:
    """Every arith log gives Inspect's headline numbers under TASK/SCORER/METRIC ids."""
    m = read(path)
    assert set(m) == ARITH_IDS
    assert m["arith/match/accuracy"].value == 0.45
    assert m["arith/includes/accuracy"].value == 0.8
    assert m["arith/numeric_closeness/mean"].value == pytest.approx(0.996375, abs=1e-15)
    assert m["arith/model_graded_fact/accuracy"].value == 0.8
    assert all((x.n, x.missing, x.findings) == (20, 0, ()) for x in m.values())


def test_stderr_metrics_are_not_metrics_of_their_own() -> None:
    """stderr feeds the interval: no id ends in /stderr."""
    assert not [i for i in read(ARITH_EVAL) if i.endswith(("/stderr", "/std"))]


def test_binary_scores_give_a_wilson_interval_from_the_samples() -> None:
    """match accuracy 9/20 gets the Wilson interval of its 20 per-sample scores."""
    m = read(ARITH_EVAL)["arith/match/accuracy"]
    low, high = sp.binomtest(9, 20).proportion_ci(method="wilson")
    assert m.interval is not None and m.interval.method is Method.WILSON
    assert (m.interval.low, m.interval.high) == pytest.approx((low, high), abs=1e-12)


def test_float_scores_give_the_effective_n_interval_from_the_samples() -> None:
    """numeric_closeness (float scores in [0, 1]) gets a proportion's interval of its 20 scores'
    mean at the Korn-Graubard effective n, p(1 − p)/(s²/n)·(z/t₁₉)², at most n·(1 + 10·D) with
    D = n·min(p, 1 − p) (a mean of 0.996 all but touches the edge), recomputed with scipy."""
    m = read(ARITH_EVAL)["arith/numeric_closeness/mean"]
    assert m.samples is not None
    scores = [s.score for s in m.samples]
    p = sum(scores) / 20
    z, t = sp.norm.ppf(0.975), sp.t.ppf(0.975, 19)
    size = min(p * (1 - p) / sp.sem(scores) ** 2 * (z / t) ** 2, 20 * (1 + 10 * 20 * (1 - p)))
    # A mean of 0.996 leaves few effective failures: the exact bounds at that n (scipy's Beta).
    k = p * size
    want = (sp.beta.ppf(0.025, k, size - k + 1), sp.beta.ppf(0.975, k + 1, size - k))
    assert m.interval is not None and m.interval.method is Method.EFFECTIVE_N
    assert (m.interval.low, m.interval.high) == pytest.approx(want, abs=1e-9)


def test_without_samples_the_interval_comes_from_inspects_stderr(tmp_path: Path) -> None:
    """A log without samples: a mean of continuous scores uses value ± z·stderr with Inspect's
    own stderr; an accuracy whose stderr is the binomial one (and match's, a C/I scorer's, by
    construction) is a share of n, with Wilson's interval of value·n successes."""
    doc = load(ARITH_JSON)
    del doc["samples"], doc["reductions"]
    m = read(write_json(tmp_path, doc))
    got = m["arith/numeric_closeness/mean"]
    value, stderr = 0.9963750000000001, 0.0019573595936739304
    assert got.samples is None and got.n == 20
    assert got.interval is not None and got.interval.method is Method.NORMAL
    assert got.interval.method_basis is MethodBasis.REPORTED_STDERR
    assert got.interval.low == pytest.approx(value - Z95 * stderr, abs=1e-12)
    assert got.interval.high == pytest.approx(value + Z95 * stderr, abs=1e-12)
    rates = {
        "arith/match/accuracy": 9,
        "arith/includes/accuracy": 16,
        "arith/model_graded_fact/accuracy": 16,
    }
    for metric_id, successes in rates.items():
        got = m[metric_id]
        assert got.samples is None and got.n == 20
        method, low, high = proportion(successes, 20)
        assert got.interval is not None and got.interval.method is method
        assert got.interval.method_basis is MethodBasis.INFERRED_PROPORTION
        assert (got.interval.low, got.interval.high) == pytest.approx((low, high), abs=1e-12)


def test_letter_grades_become_numbers_as_inspect_converts_them() -> None:
    """C/I grades are 1/0 per sample, with the sample id and epoch from the log."""
    m = read(ARITH_EVAL)["arith/match/accuracy"]
    assert m.samples is not None and len(m.samples) == 20
    assert m.samples[0].id == "arith-01" and m.samples[0].epoch == 1
    assert sum(s.score for s in m.samples) == 9
    assert {s.score for s in m.samples} == {0.0, 1.0}


def test_partial_and_unanswered_grades(tmp_path: Path) -> None:
    """ "P" counts 0.5 and "N" counts 0, as Inspect's value_to_float does."""
    doc = load(ARITH_JSON)
    del doc["reductions"]
    for sample, grade in zip(doc["samples"][:2], ("P", "N"), strict=True):
        sample["scores"]["match"]["value"] = grade
    m = read(write_json(tmp_path, doc))["arith/match/accuracy"]
    assert m.samples is not None
    assert [s.score for s in m.samples[:2]] == [0.5, 0.0]


def test_identity_of_model_judge_and_dataset() -> None:
    """Model and dataset come from the log; only the model-graded scorer names a judge."""
    m = read(ARITH_EVAL)
    run = m["arith/match/accuracy"].run
    assert run.source == str(ARITH_EVAL)
    assert run.model == "mockllm/model"
    assert run.graders == ()
    assert run.status == "success"
    assert run.started == "2026-11-29T22:43:36+00:00"
    assert run.dataset == DatasetIdentity(
        name="arith",
        location="arith.jsonl",
        samples=20,
        # Of eval.dataset.sample_ids, by docs/formats.md's rule.
        fingerprint="sha256:1ba6ed46087e767613bbf26f2c39f6a8a9cd555a94adb5e2d02adbe99bec1b3a",
    )
    assert m["arith/model_graded_fact/accuracy"].run.graders == ("mockllm/judge",)


def test_a_model_graded_scorer_without_a_model_is_judged_by_the_model_itself(
    tmp_path: Path,
) -> None:
    """With no grader named, Inspect grades with the model under evaluation: say so."""
    doc = load(ARITH_JSON)
    del (
        doc["results"]["scores"][3]["params"]["model"],
        doc["eval"]["scorers"][3]["options"]["model"],
    )
    assert read(write_json(tmp_path, doc))["arith/model_graded_fact/accuracy"].run.graders == (
        "mockllm/model",
    )


@pytest.mark.parametrize(
    ("roles", "scorer_model", "name", "graders"),
    [
        (
            {"grader": {"model": "anthropic/claude"}},
            None,
            "model_graded_fact",
            ("anthropic/claude",),
        ),
        ({}, None, "inspect_ai/model_graded_fact", ("mockllm/model",)),
        (
            {},
            ["openai/gpt-4.1", "anthropic/claude"],
            "model_graded_fact",
            ("anthropic/claude", "openai/gpt-4.1"),
        ),
        ({}, None, "custom_scorer", ()),
    ],
)
def test_the_graders_a_log_names(
    tmp_path: Path, roles: dict[str, Any], scorer_model: Any, name: str, graders: tuple[str, ...]
) -> None:
    """The grader role, the model under evaluation for a model-graded scorer that names none
    (its registry prefix aside), every model of a majority vote; a plain scorer has none."""
    doc = load(ARITH_JSON)
    entry, spec = doc["results"]["scores"][3], doc["eval"]["scorers"][3]
    del entry["params"]["model"], spec["options"]["model"]
    if scorer_model is not None:
        entry["params"]["model"] = scorer_model
    entry["scorer"] = spec["name"] = name
    doc["eval"]["model_roles"] = roles
    found = [
        m
        for m in read(write_json(tmp_path, doc)).values()
        if m.id.startswith("arith/model_graded_fact/")
    ]
    assert found and {m.run.graders for m in found} == {graders}


SELF_GRADED = LOGS / "self-graded/logs"


@pytest.mark.parametrize("form", ["eval", "json"])
def test_who_graded_inspect_s_model_graded_qa(form: str) -> None:
    """Real logs of model_graded_qa: with no grader it graded with the model under test; with
    the grader role bound, that model; with a model named, that one."""
    found = {m.id: m.run for m in inspect_log_measurements(SELF_GRADED / form)}
    assert {k: (r.models, r.graders) for k, r in found.items()} == {
        "self_graded/model_graded_qa/accuracy": (("mockllm/model",), ("mockllm/model",)),
        "role_graded/model_graded_qa/accuracy": (("mockllm/model",), ("mockllm/grader",)),
        "named_graded/model_graded_qa/accuracy": (("mockllm/model",), ("mockllm/judge",)),
    }


def inspect_log_measurements(folder: Path) -> list[Measurement]:
    return [m for path in sorted(folder.iterdir()) for m in read(path).values()]


def test_errored_samples_are_missing_not_failures() -> None:
    """arith-errors: 15 scored, 5 errored samples missing, match 0.2667 over the 15."""
    m = read(ERRORS_EVAL)
    assert set(m) == {"arith_errors/match/accuracy", "arith_errors/numeric_closeness/mean"}
    match = m["arith_errors/match/accuracy"]
    assert match.value == pytest.approx(4 / 15, abs=1e-15)
    assert (match.n, match.missing) == (15, 5)
    assert match.samples is not None and len(match.samples) == 15
    assert "arith-02" not in {s.id for s in match.samples}
    closeness = m["arith_errors/numeric_closeness/mean"]
    assert closeness.value == pytest.approx(0.9951666666666666, abs=1e-15)
    assert (closeness.n, closeness.missing) == (15, 5)


def test_eval_and_json_of_the_same_run_read_the_same() -> None:
    """The .eval log and its JSON twin (same eval_id) give identical measurements."""
    assert without_run_source(read(ERRORS_EVAL)) == without_run_source(read(ERRORS_JSON))


def test_separate_eval_and_json_runs_agree_on_every_number() -> None:
    """The deterministic arith task gives the same numbers as .eval and as .json."""
    a, b = read(ARITH_EVAL), read(ARITH_JSON)
    for metric_id in ARITH_IDS:
        assert (a[metric_id].value, a[metric_id].n, a[metric_id].interval) == (
            b[metric_id].value,
            b[metric_id].n,
            b[metric_id].interval,
        )
        assert a[metric_id].samples == b[metric_id].samples


def test_legacy_deflate_eval_reads_like_the_zstd_one() -> None:
    """inspect_ai 0.3.150 wrote deflate members; they read like 0.3.285's zstd members."""
    with zipfile.ZipFile(LEGACY_EVAL) as legacy, zipfile.ZipFile(ARITH_EVAL) as current:
        assert legacy.getinfo("header.json").compress_type == zipfile.ZIP_DEFLATED
        assert current.getinfo("header.json").compress_type == 93
    legacy_m, current_m = read(LEGACY_EVAL), read(ARITH_EVAL)
    for metric_id in ARITH_IDS:
        assert legacy_m[metric_id].samples == current_m[metric_id].samples
        assert legacy_m[metric_id].interval == current_m[metric_id].interval
    assert legacy_m["arith/match/accuracy"].run.started == "2026-11-29T22:45:44+00:00"
    legacy_json = read(LEGACY_JSON)
    for metric_id in ARITH_IDS:
        assert legacy_json[metric_id].samples == legacy_m[metric_id].samples


def errored_run() -> tuple[dict[str, Any], list[Any]]:
    """arith-errors as if fail_on_error had aborted it: status error, no results."""
    doc = load(ERRORS_JSON)
    samples = doc.pop("samples")[:8]
    del doc["results"], doc["reductions"]
    doc["status"] = "error"
    doc["error"] = {"message": "RuntimeError('mock provider failure')\n", "traceback": "..."}
    return doc, samples


@pytest.mark.parametrize("kind", ["json", "eval"])
def test_a_run_that_ended_in_error_measured_nothing(tmp_path: Path, kind: str) -> None:
    """Status error: the declared metrics, each with no value and no n, never invented."""
    header, samples = errored_run()
    if kind == "json":
        path = write_json(tmp_path, {**header, "samples": samples})
    else:
        start = {k: header[k] for k in ("version", "eval", "plan")}
        members = {"_journal/start.json": start, "_journal/summaries/1.json": samples}
        path = write_eval(tmp_path, {**members, "header.json": header})
    m = read(path)
    assert set(m) == {"arith_errors/match/accuracy", "arith_errors/numeric_closeness/mean"}
    for got in m.values():
        assert (got.value, got.n, got.interval, got.samples) == (None, None, None, None)
        assert got.missing == 20
        assert got.run.status == "error"
        assert [r.code for r in got.findings] == [
            ValidityCode.VALUE_MISSING,
            ValidityCode.RUN_INCOMPLETE,
        ]
        assert "mock provider failure" in got.findings[0].message


def test_a_run_cut_off_before_its_header_measured_nothing(tmp_path: Path) -> None:
    """Only _journal/start.json: status 'started', declared metrics without values."""
    header, samples = errored_run()
    start = {k: header[k] for k in ("version", "eval", "plan")}
    m = read(
        write_eval(tmp_path, {"_journal/start.json": start, "_journal/summaries/1.json": samples})
    )
    assert {(x.value, x.n, x.run.status) for x in m.values()} == {(None, None, "started")}


def with_epochs(reducer: str | None) -> tuple[dict[str, Any], list[float]]:
    """arith as a two-epoch run whose epochs disagree on every third sample's match grade."""
    doc = load(ARITH_JSON)
    del doc["reductions"]
    doc["eval"]["config"]["epochs"] = 2
    second = copy.deepcopy(doc["samples"])
    reduced = []
    for i, (one, two) in enumerate(zip(doc["samples"], second, strict=True)):
        two["epoch"] = 2
        if i % 3 == 0:
            two["scores"]["match"]["value"] = "I" if one["scores"]["match"]["value"] == "C" else "C"
        pair = [1.0 if s["scores"]["match"]["value"] == "C" else 0.0 for s in (one, two)]
        reduced.append(max(pair) if reducer == "max" else sum(pair) / 2)
    doc["samples"] += second
    match = doc["results"]["scores"][0]
    match["metrics"]["accuracy"]["value"] = sum(reduced) / len(reduced)
    if reducer:
        match["reducer"] = reducer
    return doc, reduced


@pytest.mark.parametrize("reducer", [None, "max"])
def test_epochs_are_reduced_per_sample_before_the_interval(
    tmp_path: Path, reducer: str | None
) -> None:
    """Two epochs: n counts samples not epochs; the interval is over the reduced scores."""
    doc, reduced = with_epochs(reducer)
    m = read(write_json(tmp_path, doc))["arith/match/accuracy"]
    assert m.n == 20 and m.missing == 0 and m.findings == ()
    assert m.samples is not None and len(m.samples) == 40
    assert {s.epoch for s in m.samples} == {1, 2}
    assert m.interval == stats.interval_for_scores(reduced)


def test_recorded_reductions_are_what_the_interval_uses() -> None:
    """reductions.json holds the values Inspect fed its metrics; they give the interval."""
    m = read(ERRORS_JSON)["arith_errors/numeric_closeness/mean"]
    doc = load(ERRORS_JSON)
    values = [s["value"] for s in doc["reductions"][1]["samples"]]
    assert m.interval == stats.interval_for_scores(values)


def test_an_aggregate_its_samples_contradict_is_a_finding(tmp_path: Path) -> None:
    """A reported accuracy its own samples do not give is flagged with both numbers."""
    doc = load(ARITH_JSON)
    doc["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.55
    m = read(write_json(tmp_path, doc))["arith/match/accuracy"]
    assert m.value == 0.55
    assert [r.code for r in m.findings] == [ValidityCode.VALUE_MISMATCH]
    assert "0.55" in m.findings[0].message and "0.45" in m.findings[0].message


def test_authority_looking_fields_change_nothing(tmp_path: Path) -> None:
    """Fields claiming approval or gating status inside a log are ignored."""
    doc = load(ARITH_JSON)
    doc["authority"] = {"outcome": "can_gate", "approved_by": "@mallory"}
    doc["eval"]["metadata"] = {
        "evalglass": {"status": "gating", "threshold": {"approval": "approved"}}
    }
    doc["results"]["scores"][0]["metrics"]["accuracy"]["params"] = {"gating": True}
    assert without_run_source(read(write_json(tmp_path, doc))) == without_run_source(
        read(ARITH_JSON)
    )


@pytest.mark.parametrize("path", files("inspect"), ids=lambda p: p.name)
def test_sniff_claims_every_inspect_log(path: Path) -> None:
    """Each real Inspect log is recognised from its first 4096 bytes; the files Inspect writes
    beside them in an eval-set folder are named as not logs."""
    sniffed, note = claims("inspect", path)
    if path.name in NOT_RUNS:
        assert note is not None and note.startswith("Inspect's")
    else:
        assert (sniffed, note) == (True, None)


@pytest.mark.parametrize("path", others("inspect"), ids=lambda p: p.name)
def test_sniff_leaves_other_frameworks_files_alone(path: Path) -> None:
    """sniff() is false on every other framework's file, and none is taken for Inspect's."""
    assert claims("inspect", path) == (False, None)


def test_a_corrupt_zstd_member_raises_output_error(tmp_path: Path) -> None:
    """A flipped byte inside a zstd member fails decompression or its CRC, as an OutputError."""
    data = bytearray(ARITH_EVAL.read_bytes())
    with zipfile.ZipFile(ARITH_EVAL) as archive:
        info = archive.getinfo("header.json")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    path = tmp_path / "corrupt.eval"
    path.write_bytes(bytes(data))
    assert "header.json" in str(refuse(inspect_log, path, "corrupt.eval"))


def test_an_archive_without_a_header_is_refused(tmp_path: Path) -> None:
    """A zip with neither header.json nor a journal is not an Inspect log."""
    refuse(inspect_log, write_eval(tmp_path, {"other.json": {}}), "logs/other.eval")


CLUSTERED = FIXTURES / "inspect" / "clustered" / "logs"
# Inspect's own numbers (README.txt beside the logs): value and stderr(cluster="op").
CLUSTERED_NUMBERS = {
    "clustered_ops/exact/accuracy": (0.6666666666666666, 0.0962250448649376),
    "clustered_ops/closeness/mean": (0.8786499999999999, 0.10621069774186974),
}


@pytest.mark.parametrize("log", sorted(CLUSTERED.glob("*/*.*")), ids=lambda p: p.parent.name)
def test_a_clustered_stderr_takes_t_on_clusters_minus_one(log: Path) -> None:
    """stderr(cluster="op") over 3 clusters (counted from each sample's metadata): value ±
    t₍.975, 2₎·stderr with Inspect's own stderr, never the normal quantile, so closeness/mean
    0.879 has the lower bound 0.422, not 0.671, and a bar of 0.6 is not cleared."""
    m = read(log)
    for metric_id, (value, stderr) in CLUSTERED_NUMBERS.items():
        got = m[metric_id]
        assert (got.value, got.n) == (value, 18)
        interval = got.interval
        assert interval is not None and interval.method is Method.CLUSTERED
        assert (interval.clusters, interval.method_basis) == (3, MethodBasis.REPORTED_STDERR)
        half = sp.t.ppf(0.975, 2) * stderr
        assert (interval.low, interval.high) == pytest.approx((value - half, value + half))
    closeness = m["clustered_ops/closeness/mean"].interval
    assert closeness is not None and round(closeness.low, 3) == 0.422
    value, stderr = CLUSTERED_NUMBERS["clustered_ops/closeness/mean"]
    assert closeness.low < 0.6 < value - Z95 * stderr


def test_a_clustered_stderr_without_samples_has_no_interval(tmp_path: Path) -> None:
    """Without samples the clusters cannot be counted, so there is no honest quantile: no
    interval (a bound gate is unsound), never the normal one."""
    (log,) = CLUSTERED.glob("json/*.json")
    doc = load(log)
    del doc["samples"], doc["reductions"]
    m = read(write_json(tmp_path, doc))
    assert m["clustered_ops/closeness/mean"].interval is None
