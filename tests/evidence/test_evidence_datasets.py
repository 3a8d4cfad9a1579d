"""Which dataset an output measured: names, versions and fingerprints, checked against the
dataset record, on outputs written by the real tools (tests/fixtures)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from evalglass.evidence.fingerprint import fingerprint
from evalglass.evidence.read import read_outputs
from tests.cli_runner import Result, cli
from tests.evidence_files import FIXTURES

ROOT = Path(__file__).parents[2]
ALPHA = next((FIXTURES / "inspect/eval-set/logs/json").glob("*_alpha_*.json"))
BETA = next((FIXTURES / "inspect/eval-set/logs/json").glob("*_beta_*.json"))
LMEVAL = next((FIXTURES / "lm-eval/results").rglob("results_*.json"))
PREDICT_ONLY = next((FIXTURES / "lm-eval/predict-only/results").rglob("results_*.json"))
SAME_SECOND = FIXTURES / "deepeval/same-second/results/same-second"
SQLITE = FIXTURES / "deepeval/same-second/results/sqlite"


def by_rule(keys: list[str]) -> str:
    """docs/formats.md's fingerprint, computed here apart from the adapters' code."""
    text = json.dumps(sorted(set(keys)), ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def sample_ids(log: Path) -> list[str]:
    return [str(i) for i in json.loads(log.read_text())["eval"]["dataset"]["sample_ids"]]


def doc_hashes(samples: Path) -> list[str]:
    return [json.loads(line)["doc_hash"] for line in samples.read_text().splitlines() if line]


GATE = """\
metrics:
  alpha/match/accuracy:
    status: gating
    dataset: {dataset}
    min_samples: 8
thresholds:
  alpha/match/accuracy:
    op: '>='
    value: 0.1
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '3'
{pinned}"""


def records(
    tmp_path: Path, dataset: str, names: tuple[str, ...] = (), pin: str | None = None
) -> Path:
    """A gate on Inspect's alpha task, measured on `dataset` at version '3', which the tools call
    `names`, pinned to fingerprint `pin`."""
    folder = tmp_path / "records"
    folder.mkdir()
    text = GATE.format(dataset=dataset, pinned=f"      fingerprint: {pin}\n" if pin else "")
    metrics, thresholds = text.split("thresholds:\n")
    (folder / "metrics.yaml").write_text(metrics)
    (folder / "thresholds.yaml").write_text("thresholds:\n" + thresholds)
    listed = "".join(f"      - {n}\n" for n in names)
    (folder / "datasets.yaml").write_text(
        f"datasets:\n  {dataset}:\n    status: validated\n    version: '3'\n"
        + (f"    fingerprint: {pin}\n" if pin else "")
        + (f"    names:\n{listed}" if names else "")
    )
    (folder / "policies.yaml").write_text(f"policies:\n  {dataset}:\n    policy: permitted\n")
    return folder


def score(output: Path, folder: Path, tmp_path: Path, *extra: str) -> Result:
    return cli("score", str(output), "--records", str(folder), *extra, cwd=tmp_path)


def metric(result: Result, metric_id: str) -> dict:
    return next(m for m in json.loads(result.stdout)["metrics"] if m["id"] == metric_id)


@given(st.lists(st.text()))
def test_a_fingerprint_is_of_the_set_of_keys(keys: list[str]) -> None:
    """Order and repeats do not change a fingerprint; no key gives none."""
    got = fingerprint(keys)
    assert got == fingerprint(reversed(keys + keys))
    if keys:
        assert got is not None and got.startswith("sha256:") and len(got) == 7 + 64
    else:
        assert got is None


def test_an_output_naming_another_dataset_is_blocked(tmp_path: Path) -> None:
    """The bundled qa/exact_match gate (qa-gold at 2026-10) on an output naming qa-silver at
    1999: dataset_mismatch, naming both, never a pass."""
    run = json.loads((ROOT / "examples/run.json").read_text())
    run["dataset"] = {"name": "qa-silver", "version": "1999"}
    output = tmp_path / "run.json"
    output.write_text(json.dumps(run))
    result = score(output, ROOT / "host_records", tmp_path, "--format", "json")
    got = metric(result, "qa/exact_match")
    assert got["authority"]["outcome"] == "blocked"
    assert got["authority"]["reasons"] == [
        {
            "code": "dataset_mismatch",
            "message": "the output names dataset 'qa-silver', not the record's 'qa-gold'",
        }
    ]
    assert got["dataset"] == {
        "record": "qa-gold",
        "name": "qa-silver",
        "version": "1999",
        "fingerprint": None,
        "name_verified": False,
        "version_verified": False,
        "fingerprint_verified": False,
    }
    assert result.returncode == 3


def test_a_name_the_record_declares_is_the_records_dataset(tmp_path: Path) -> None:
    """Inspect names its dataset after the task (alpha): a record that declares the name gates
    on it, its fingerprint verified; Inspect names no version, and the pinned fingerprint that
    matched verifies the data, so no card says it was not verified."""
    pin = by_rule(sample_ids(ALPHA))
    folder = records(tmp_path, "arith-alpha", names=("alpha",), pin=pin)
    result = score(ALPHA, folder, tmp_path, "--format", "json")
    got = metric(result, "alpha/match/accuracy")
    assert got["authority"] == {"outcome": "can_gate", "reasons": [], "notes": []}
    assert got["dataset"] == {
        "record": "arith-alpha",
        "name": "alpha",
        "version": None,
        "fingerprint": pin,
        "name_verified": True,
        "version_verified": False,
        "fingerprint_verified": True,
    }
    assert result.returncode == 0
    assert "not verified" not in score(ALPHA, folder, tmp_path).stdout
    assert "not verified" not in score(ALPHA, folder, tmp_path, "--format", "markdown").stdout


def test_without_a_pinned_fingerprint_no_version_is_not_verified(tmp_path: Path) -> None:
    """The same record without a fingerprint: nothing the log shows verifies the data, and
    every card says so (Inspect names no version)."""
    folder = records(tmp_path, "arith-alpha", names=("alpha",))
    said = "dataset 'arith-alpha' not verified: the output names no version"
    assert said in score(ALPHA, folder, tmp_path).stdout
    markdown = score(ALPHA, folder, tmp_path, "--format", "markdown").stdout
    assert f"\n  - {said}\n" in markdown  # under the gate's evidence line


def test_the_same_name_undeclared_is_another_dataset(tmp_path: Path) -> None:
    """Without `names`, the record arith-alpha is not what the log names (alpha): blocked."""
    folder = records(tmp_path, "arith-alpha")
    got = metric(score(ALPHA, folder, tmp_path, "--format", "json"), "alpha/match/accuracy")
    assert [r["code"] for r in got["authority"]["reasons"]] == ["dataset_mismatch"]
    assert got["authority"]["reasons"][0]["message"] == (
        "the output names dataset 'alpha', not the record's 'arith-alpha'"
    )


def test_another_fingerprint_blocks(tmp_path: Path) -> None:
    """A record pinned to beta's samples does not vouch for alpha's: dataset_mismatch."""
    pin = by_rule(sample_ids(BETA))
    folder = records(tmp_path, "alpha", pin=pin)
    got = metric(score(ALPHA, folder, tmp_path, "--format", "json"), "alpha/match/accuracy")
    assert got["authority"]["reasons"] == [
        {
            "code": "dataset_mismatch",
            "message": (
                f"measured on dataset fingerprint '{by_rule(sample_ids(ALPHA))}', record has "
                f"'{pin}'"
            ),
        }
    ]


def test_an_output_yielding_no_fingerprint_is_unverifiable(tmp_path: Path) -> None:
    """lm-eval's results without their samples file (no --log_samples) yield no fingerprint: a
    record that pins one is blocked, dataset_unverifiable, never passed."""
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(LMEVAL, alone / LMEVAL.name)
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "metrics.yaml").write_text(
        "metrics:\n  arith_mc/acc:\n    status: gating\n    dataset: arith\n"
    )
    (folder / "thresholds.yaml").write_text(
        "thresholds:\n  arith_mc/acc:\n    op: '>='\n    value: 0.1\n    approval: approved\n"
        "    approved_by: '@alice'\n    approved_on: 2026-11-01\n    approved_for:\n"
        "      dataset_version: '1'\n      fingerprint: sha256:pinned\n"
    )
    (folder / "datasets.yaml").write_text(
        "datasets:\n  arith:\n    status: validated\n    version: '1'\n"
        "    fingerprint: sha256:pinned\n    names:\n      - tasks/arith_mc.jsonl\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  arith:\n    policy: permitted\n")
    result = score(alone, folder, tmp_path, "--format", "json")
    got = metric(result, "arith_mc/acc")
    assert got["authority"]["reasons"] == [
        {
            "code": "dataset_unverifiable",
            "message": (
                "dataset 'arith' pins fingerprint 'sha256:pinned', and the output yields none "
                "to check it against"
            ),
        }
    ]
    assert result.returncode == 3


def test_each_format_fingerprints_its_samples_by_the_one_rule() -> None:
    """Inspect over eval.dataset.sample_ids, lm-eval over the samples file's doc_hash: what
    docs/formats.md says, from the tools' own fields."""
    inspect = read_outputs([ALPHA]).measurements["alpha/match/accuracy"].run.dataset
    assert inspect is not None and inspect.fingerprint == by_rule(sample_ids(ALPHA))
    lmeval = read_outputs([LMEVAL]).measurements["arith_mc/acc"].run.dataset
    samples = next(LMEVAL.parent.glob("samples_arith_mc_*.jsonl"))
    assert lmeval is not None and lmeval.fingerprint == by_rule(doc_hashes(samples))
    assert (lmeval.name, lmeval.version) == ("tasks/arith_mc.jsonl", None)


def test_repeats_do_not_change_a_fingerprint() -> None:
    """A run repeating its cases measured the same data: DeepEval -r 3 and promptfoo --repeat 3
    give the fingerprint of their plain runs."""
    for folder, metric_id in (
        (FIXTURES / "deepeval/repeat/results", "Exact Match"),
        (FIXTURES / "promptfoo/repeat/results", "mock-calculator/sum/correct"),
    ):
        prints = {}
        for run in ("plain", "repeat3"):
            given_ = folder / run
            target = given_ / "results.json" if (given_ / "results.json").exists() else given_
            dataset = read_outputs([target]).measurements[metric_id].run.dataset
            assert dataset is not None
            prints[run] = dataset.fingerprint
        assert prints["plain"] is not None and prints["plain"] == prints["repeat3"]


def test_metrics_prints_the_fingerprint_each_output_yields(tmp_path: Path) -> None:
    """`evalglass metrics` lists the dataset, version and fingerprint, as a host pins them."""
    result = cli("metrics", str(ALPHA), "--format", "json", cwd=tmp_path)
    assert json.loads(result.stdout)["datasets"] == [
        {
            "name": "alpha",
            "version": None,
            "fingerprint": by_rule(sample_ids(ALPHA)),
            "source": str(ALPHA),
        }
    ]
    table = cli("metrics", str(ALPHA), cwd=tmp_path).stdout
    assert f"alpha    —        {by_rule(sample_ids(ALPHA))}  {ALPHA}" in table


def test_a_predict_only_run_measures_nothing(tmp_path: Path) -> None:
    """lm-eval --predict_only writes "bypass,<filter>": 999: no metric, an input error naming
    the file, and no skeleton proposing it."""
    for args in (
        ("metrics",),
        ("metrics", "--skeleton"),
        ("score", "--records", str(ROOT / "host_records")),
    ):
        result = cli(*args[:1], str(PREDICT_ONLY), *args[1:], cwd=tmp_path)
        assert result.returncode == 4, args
        assert result.stdout == ""
        assert result.stderr.startswith(f"evalglass: {PREDICT_ONLY}: a predict-only run")
        assert "bypass" not in result.stdout


def test_a_predict_only_run_has_the_datasets_fingerprint() -> None:
    """The predict-only run read the same 20 documents as the scored run: lm-eval's own
    task_hashes agree, and so does the fingerprint of their doc_hashes."""
    samples = next(PREDICT_ONLY.parent.glob("samples_arith_gen_*.jsonl"))
    scored = next(LMEVAL.parent.glob("samples_arith_gen_*.jsonl"))
    hashes = [json.loads(p.read_text())["task_hashes"]["arith_gen"] for p in (PREDICT_ONLY, LMEVAL)]
    assert hashes[0] == hashes[1]
    assert by_rule(doc_hashes(samples)) == by_rule(doc_hashes(scored))
    full = read_outputs([LMEVAL]).measurements["arith_gen/exact_match,strict-match"].run.dataset
    assert full is not None and full.fingerprint == by_rule(doc_hashes(samples))


def test_deepevals_second_run_in_a_second_comes_after_the_first(tmp_path: Path) -> None:
    """test_run_<ts>_2.json is the later run: it decides (7 of 11 passes, from its own
    metricsScores), and the first (9 of 11) is its earlier run."""
    first, second = sorted(SAME_SECOND.glob("test_run_*.json"), key=lambda p: len(p.name))
    assert second.name.endswith("_2.json")
    scores = {p: json.loads(p.read_text())["metricsScores"][0]["scores"] for p in (first, second)}
    got = read_outputs([SAME_SECOND]).measurements["Exact Match"]
    assert got.run.source == str(second)
    assert (got.value, got.n) == (sum(scores[second]) / len(scores[second]), 11)
    (earlier,) = got.earlier
    assert (earlier.source, earlier.value) == (str(first), sum(scores[first]) / len(scores[first]))
    # Given in either order, the same run decides.
    assert read_outputs([second, first]).measurements["Exact Match"].run.source == str(second)


def test_deepevals_sqlite_store_is_refused_with_why(tmp_path: Path) -> None:
    """deepeval.db (DEEPEVAL_LOCAL_STORE=sqlite) holds no run evalglass reads: an input error
    that says what it is and what to run instead; beside JSON runs, it is skipped."""
    result = cli("metrics", str(SQLITE), cwd=tmp_path)
    assert result.returncode == 4
    assert "DeepEval's SQLite store (DEEPEVAL_LOCAL_STORE=sqlite)" in result.stderr
    assert "DEEPEVAL_LOCAL_STORE=json" in result.stderr
    both = read_outputs([SAME_SECOND.parent])
    assert [s.source for s in both.skipped] == [str(SQLITE / "deepeval.db")]
