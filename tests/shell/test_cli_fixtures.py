"""Real framework outputs, end to end through the CLI (in this process: tests/cli_runner.py),
against host records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import Result, cli
from tests.evidence_files import FIXTURES, NOT_RUNS, outputs, read_through_another

INSPECT_ERRORS = next((FIXTURES / "inspect/logs/eval").glob("*arith-errors*.eval"))
LMEVAL = FIXTURES / "lm-eval/results"
PROMPTFOO = FIXTURES / "promptfoo/results/results.json"
DEEPEVAL = FIXTURES / "deepeval/results/main"

GATE = """\
metrics:
  {metric}:
    status: gating
    dataset: arith
    min_samples: 10
{extra}thresholds:
  {metric}:
    op: '>='
    value: {value}
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '1'
"""


# The fixtures' arithmetic data, as each tool names it: Inspect after each task's dataset
# (arith, alpha, beta, ops), lm-eval after its data files, DeepEval as the hyperparameters the
# test file logs.
ARITH = """\
datasets:
  arith:
    status: validated
    version: '1'
    names:
      - tasks/arith_mc.jsonl
      - tasks/arith_gen.jsonl
      - arith.jsonl
      - alpha
      - beta
      - ops
"""


def score_json(output: Path, folder: Path, cwd: Path) -> Result:
    """`evalglass score OUTPUT --records FOLDER --format json`, run in `cwd`."""
    return cli("score", str(output), "--records", str(folder), "--format", "json", cwd=cwd)


def records(tmp_path: Path, metric: str, value: float, extra: str = "", **files: str) -> Path:
    folder = tmp_path / "host_records"
    folder.mkdir()
    text = GATE.format(metric=f"'{metric}'", value=value, extra=extra)
    metrics, thresholds = text.split("thresholds:\n")
    (folder / "metrics.yaml").write_text(metrics)
    (folder / "thresholds.yaml").write_text("thresholds:\n" + thresholds)
    (folder / "datasets.yaml").write_text(ARITH)
    (folder / "policies.yaml").write_text("policies:\n  arith:\n    policy: permitted\n")
    for name, content in files.items():
        (folder / f"{name}.yaml").write_text(content)
    return folder


def name_judge(folder: Path, judge: str, model: str) -> None:
    """The gate's metric names `judge`, and its approval the judge's `model`."""
    metrics = (folder / "metrics.yaml").read_text()
    (folder / "metrics.yaml").write_text(
        metrics.replace("dataset: arith", f"dataset: arith\n    judge: {judge}")
    )
    thresholds = (folder / "thresholds.yaml").read_text()
    (folder / "thresholds.yaml").write_text(
        thresholds.replace(
            "      dataset_version: '1'\n",
            f"      dataset_version: '1'\n      judge_model: {model}\n",
        )
    )


def card(result, metric: str) -> dict:
    doc = json.loads(result.stdout)
    return next(m for m in doc["metrics"] if m["id"] == metric)


@pytest.mark.parametrize(
    ("path", "metric", "value", "n"),
    [
        (FIXTURES / "inspect/logs/eval", "arith/match/accuracy", 0.45, 20),
        (FIXTURES / "inspect/logs/eval", "arith/numeric_closeness/mean", 0.996375, 20),
        (LMEVAL, "arith_mc/acc", 0.4, 20),
        (LMEVAL, "arith_gen/exact_match,strict-match", 0.15, 20),
        (PROMPTFOO, "echo/terse/pass_rate", 0.8, 10),
        (DEEPEVAL, "Exact Match", 0.45, 20),
    ],
)
def test_each_framework_scores_end_to_end(
    tmp_path: Path, path: Path, metric: str, value: float, n: int
) -> None:
    """Each framework's own file, detected and read by the CLI, with the numbers it stored."""
    folder = records(tmp_path, metric, 0.01)
    result = score_json(path, folder, tmp_path)
    got = card(result, metric)
    assert got["value"] == pytest.approx(value, abs=1e-9) and got["n"] == n
    assert got["authority"]["outcome"] == "can_gate"
    assert got["gate"]["result"] == "pass"
    assert result.returncode == 0


def test_errored_samples_make_the_gate_unsound(tmp_path: Path) -> None:
    """Inspect leaves 5 errored samples out of its metric; evalglass counts them and blocks."""
    metric = "arith_errors/match/accuracy"
    folder = records(tmp_path, metric, 0.01)
    result = score_json(INSPECT_ERRORS, folder, tmp_path)
    got = card(result, metric)
    assert (got["n"], got["missing"]) == (15, 5)
    assert got["gate"]["result"] == "unsound"
    assert [r["code"] for r in got["gate"]["reasons"]] == ["too_many_missing"]
    assert result.returncode == 3


def test_missing_samples_within_the_allowance_gate(tmp_path: Path) -> None:
    """With max_missing_fraction 0.25, 5 of 20 missing is allowed and the gate is compared."""
    metric = "arith_errors/match/accuracy"
    folder = records(tmp_path, metric, 0.01, extra="    max_missing_fraction: 0.25\n")
    result = score_json(INSPECT_ERRORS, folder, tmp_path)
    assert card(result, metric)["gate"]["result"] == "pass"
    assert result.returncode == 0


def test_judge_grading_its_own_model_is_blocked(tmp_path: Path) -> None:
    """The model under evaluation comes from the log: a judge on that same model is blocked."""
    metric = "arith/model_graded_fact/accuracy"
    judges = "judges:\n  self:\n    model: mockllm/model\n    calibration: calibrated\n"
    folder = records(tmp_path, metric, 0.01, judges=judges)
    name_judge(folder, "self", "mockllm/model")
    path = FIXTURES / "inspect/logs/eval"
    result = score_json(path, folder, tmp_path)
    got = card(result, metric)
    assert got["authority"]["outcome"] == "blocked"
    # The log also says mockllm/judge graded it, which is not the judge the records name.
    assert [r["code"] for r in got["authority"]["reasons"]] == [
        "judge_not_independent",
        "judge_model_mismatch",
    ]
    assert result.returncode == 3


INSPECT_JSON = next((FIXTURES / "inspect/logs/json").glob("*_arith_*.json"))
GRADED = "arith/model_graded_fact/accuracy"
JUDGE = "judges:\n  grader:\n    model: mockllm/judge\n    calibration: calibrated\n"


def judged_records(tmp_path: Path, metric: str, judge: str | None = "grader") -> Path:
    folder = records(tmp_path, metric, 0.01, judges=JUDGE)
    if judge is not None:
        name_judge(folder, judge, "mockllm/judge")
    return folder


def test_a_model_graded_inspect_scorer_with_its_judge_gates(tmp_path: Path) -> None:
    """The log's grader is the calibrated judge the records name, not the model: it gates."""
    result = score_json(INSPECT_JSON, judged_records(tmp_path, GRADED), tmp_path)
    assert card(result, GRADED)["authority"] == {"outcome": "can_gate", "reasons": [], "notes": []}
    assert result.returncode == 0, result.stderr


def test_a_self_graded_inspect_scorer_is_blocked(tmp_path: Path) -> None:
    """A model_graded scorer naming no grader graded with the model under evaluation: however
    independent the judge the records name, the run is blocked, and it was not that judge."""
    doc = json.loads(INSPECT_JSON.read_text())
    for entry in (*doc["results"]["scores"], *doc["eval"]["scorers"]):
        entry.get("params", {}).pop("model", None)
        entry.get("options", {}).pop("model", None)
    log = tmp_path / "self-graded.json"
    log.write_text(json.dumps(doc))
    result = score_json(log, judged_records(tmp_path, GRADED), tmp_path)
    got = card(result, GRADED)
    assert got["authority"]["outcome"] == "blocked"
    assert [r["code"] for r in got["authority"]["reasons"]] == [
        "judge_not_independent",
        "judge_model_mismatch",
    ]
    assert (
        "'mockllm/model', the model under evaluation" in got["authority"]["reasons"][0]["message"]
    )
    assert result.returncode == 3


def test_a_model_graded_metric_without_a_judge_is_blocked(tmp_path: Path) -> None:
    """The log says a model graded the metric and metrics.yaml names no judge: blocked."""
    folder = judged_records(tmp_path, GRADED, judge=None)
    result = score_json(INSPECT_JSON, folder, tmp_path)
    got = card(result, GRADED)
    assert [r["code"] for r in got["authority"]["reasons"]] == ["judge_model_mismatch"]
    assert "must name its judge" in got["authority"]["reasons"][0]["message"]
    assert result.returncode == 3


def test_a_promptfoo_column_graded_by_two_models_is_blocked(tmp_path: Path) -> None:
    """Rows of one column graded by the judge and by another provider: the other is named, and
    the run blocks even though the first row's grader is the judge."""
    doc = json.loads(PROMPTFOO.read_text())
    rows = [r for r in doc["results"]["results"] if r["promptIdx"] == 0]
    for i, row in enumerate(rows):
        for comp in (row["gradingResult"] or {}).get("componentResults", []):
            if comp["assertion"].get("metric") == "closeness":
                comp["assertion"]["type"] = "llm-rubric"
                comp["assertion"]["provider"] = "mockllm/judge" if i else "openai:gpt-4.1"
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    metric = "echo/terse/closeness"
    folder = records(tmp_path, metric, 0.01, judges=JUDGE)
    name_judge(folder, "grader", "mockllm/judge")
    result = score_json(path, folder, tmp_path)
    got = card(result, metric)
    assert [r["code"] for r in got["authority"]["reasons"]] == ["judge_model_mismatch"]
    assert "'openai:gpt-4.1'" in got["authority"]["reasons"][0]["message"]
    assert result.returncode == 3


SELF_GRADED = FIXTURES / "inspect/self-graded/logs"


@pytest.mark.parametrize("form", ["eval", "json"])
def test_real_inspect_grading_is_checked_against_the_judge(tmp_path: Path, form: str) -> None:
    """Three real model_graded_qa runs against a judge on mockllm/grader: the run graded by its
    own model is blocked as not independent (and not graded by the judge), the one graded by
    the grader role gates, the one graded by another named model is blocked as a mismatch."""
    folder = tmp_path / "host_records"
    folder.mkdir()
    ids = ("self_graded", "role_graded", "named_graded")
    (folder / "metrics.yaml").write_text(
        "metrics:\n"
        + "".join(
            f"  {t}/model_graded_qa/accuracy:\n    status: gating\n    dataset: arith\n"
            "    judge: grader\n    min_samples: 10\n"
            for t in ids
        )
    )
    (folder / "thresholds.yaml").write_text(
        "thresholds:\n"
        + "".join(
            f"  {t}/model_graded_qa/accuracy:\n    op: '>='\n    value: 0.01\n"
            "    approval: approved\n    approved_by: '@alice'\n    approved_on: 2026-11-01\n"
            "    approved_for:\n      dataset_version: '1'\n      judge_model: mockllm/grader\n"
            for t in ids
        )
    )
    (folder / "datasets.yaml").write_text(ARITH)
    (folder / "policies.yaml").write_text("policies:\n  arith:\n    policy: permitted\n")
    (folder / "judges.yaml").write_text(
        "judges:\n  grader:\n    model: mockllm/grader\n    calibration: calibrated\n"
    )
    result = score_json(SELF_GRADED / form, folder, tmp_path)
    codes = {
        t: [
            r["code"] for r in card(result, f"{t}/model_graded_qa/accuracy")["authority"]["reasons"]
        ]
        for t in ids
    }
    assert codes == {
        "self_graded": ["judge_not_independent", "judge_model_mismatch"],
        "role_graded": [],
        "named_graded": ["judge_model_mismatch"],
    }
    assert result.returncode == 3


def test_a_real_promptfoo_column_graded_by_its_own_provider_is_blocked(tmp_path: Path) -> None:
    """The real export whose row t7 was graded by model-a, the provider under test: model-a's
    rubric is blocked as self-graded, and both columns as not all graded by the judge."""
    folder = tmp_path / "host_records"
    folder.mkdir()
    ids = ("model-a/sum/rubric", "model-b/sum/rubric")
    (folder / "metrics.yaml").write_text(
        "metrics:\n"
        + "".join(
            f"  {m}:\n    status: gating\n    dataset: arith\n    judge: x\n    min_samples: 5\n"
            for m in ids
        )
    )
    (folder / "thresholds.yaml").write_text(
        "thresholds:\n"
        + "".join(
            f"  {m}:\n    op: '>='\n    value: 0.01\n    approval: approved\n"
            "    approved_by: '@alice'\n    approved_on: 2026-11-01\n    approved_for:\n"
            "      dataset_version: '1'\n      judge_model: file://grader_x.js\n"
            for m in ids
        )
    )
    (folder / "datasets.yaml").write_text(
        "datasets:\n  arith:\n    status: validated\n    version: '1'\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  arith:\n    policy: permitted\n")
    (folder / "judges.yaml").write_text(
        "judges:\n  x:\n    model: file://grader_x.js\n    calibration: calibrated\n"
    )
    graders = FIXTURES / "promptfoo/graders/results/results.json"
    result = score_json(graders, folder, tmp_path)
    got = {m: card(result, m)["authority"]["reasons"] for m in ids}
    assert [r["code"] for r in got["model-a/sum/rubric"]] == [
        "judge_not_independent",
        "judge_model_mismatch",
    ]
    assert [r["code"] for r in got["model-b/sum/rubric"]] == ["judge_model_mismatch"]
    assert "'file://model_a.js'" in got["model-b/sum/rubric"][0]["message"]
    assert result.returncode == 3


DEFAULT_GRADED = FIXTURES / "promptfoo-default-grader/results/default/results.json"


@pytest.mark.parametrize("judge", [None, "grader"])
def test_a_promptfoo_rubric_graded_by_the_default_grader_is_blocked(
    tmp_path: Path, judge: str | None
) -> None:
    """A real llm-rubric graded by promptfoo's default grader, which the export does not name:
    with or without a judge in the records, its rubric and pass rate cannot gate (the grader is
    neither shown independent nor shown to be the judge); the contains metric is unaffected."""
    for metric in ("mock-calculator/sum/rubric", "mock-calculator/sum/pass_rate"):
        (place := tmp_path / metric.replace("/", "_")).mkdir()
        folder = records(place, metric, 0.01, judges=JUDGE)
        if judge is not None:
            name_judge(folder, judge, "mockllm/judge")
        result = score_json(DEFAULT_GRADED, folder, tmp_path)
        got = card(result, metric)
        assert [r["code"] for r in got["authority"]["reasons"]] == [
            "judge_not_independent",
            "judge_model_mismatch",
        ]
        assert "without naming which" in got["authority"]["reasons"][0]["message"]
        assert result.returncode == 3
    (tmp_path / "correct").mkdir()
    folder = records(tmp_path / "correct", "mock-calculator/sum/correct", 0.01)
    result = score_json(DEFAULT_GRADED, folder, tmp_path)
    assert card(result, "mock-calculator/sum/correct")["authority"]["outcome"] == "can_gate"


def test_other_dataset_content_is_blocked(tmp_path: Path) -> None:
    """lm-eval records the task's content hash; a different validated fingerprint blocks."""
    metric = "arith_mc/acc"
    folder = records(tmp_path, metric, 0.01)
    (folder / "datasets.yaml").write_text(
        "datasets:\n  arith:\n    status: validated\n    version: '1'\n    fingerprint: sha256-other\n"
    )
    thresholds = (folder / "thresholds.yaml").read_text()
    (folder / "thresholds.yaml").write_text(thresholds + "      fingerprint: sha256-other\n")
    result = score_json(LMEVAL, folder, tmp_path)
    got = card(result, metric)
    assert [r["code"] for r in got["authority"]["reasons"]] == ["dataset_mismatch"]
    assert result.returncode == 3


def test_retries_cannot_launder_a_failure(tmp_path: Path) -> None:
    """Two runs of one task: the newest decides, and the earlier one is shown with its value."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for found in (FIXTURES / "inspect/logs").rglob("*_arith_*"):
        shutil.copy(found, logs / found.name)
    metric = "arith/match/accuracy"
    folder = records(tmp_path, metric, 0.01)
    result = score_json(logs, folder, tmp_path)
    got = card(result, metric)
    assert got["source"].endswith(".json")  # the JSON-log run started last (22:43:39)
    assert [Path(a["source"]).suffix for a in got["earlier_runs"]] == [".eval"]
    assert got["earlier_runs"][0]["value"] == pytest.approx(0.45)
    terminal = cli("score", str(logs), "--records", str(folder), cwd=tmp_path).stdout
    assert "earlier run:" in terminal


# Real outputs refused on purpose, with what the refusal says.
REFUSED = {
    FIXTURES / "promptfoo-interrupted/results/two-providers/resumed/results.json": (
        "results.prompts[2] and results.prompts[3] are both column calc-b/sum"
    ),
    **{
        path: "a promptfoo export version 2 (results.version"
        for path in (FIXTURES / "promptfoo-v2/results").rglob("results.*")
    },
}


@pytest.mark.parametrize(
    "fixture",
    [p for p in outputs() if not read_through_another(p) and p.suffix != ".csv"],
    ids=lambda p: str(p.relative_to(FIXTURES)),
)
def test_every_fixture_is_recognised(tmp_path: Path, fixture: Path) -> None:
    """`evalglass metrics` reads every real output file by itself, and refuses a framework's own
    file that holds no run (an index, a cache, a JUnit report) saying what it is."""
    result = cli("metrics", str(fixture), cwd=tmp_path)
    if fixture.name in NOT_RUNS:
        assert (result.returncode, result.stdout) == (4, "")
        assert "holds no run to read" in result.stderr
    elif fixture in REFUSED:
        # A file promptfoo wrote that cannot be read as it stands: refused, saying why.
        assert (result.returncode, result.stdout) == (4, "")
        assert REFUSED[fixture] in result.stderr
    elif "predict-only" in fixture.parts:
        # lm-eval --predict_only computes no metric: recognised, and refused as measuring nothing.
        assert (result.returncode, result.stdout) == (4, "")
        assert "a predict-only run" in result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert len(result.stdout.splitlines()) >= 2


def test_an_eval_set_folder_scores_with_a_note_per_skipped_file(tmp_path: Path) -> None:
    """Inspect's logs.json, eval-set.json and .eval-set-id: one stderr line each and a
    `skipped` entry in the JSON, and the logs' numbers as Inspect's own index lists them."""
    folder = FIXTURES / "inspect/eval-set/logs/json"
    index = json.loads((folder / "logs.json").read_text())
    metric = "alpha/match/accuracy"
    head = next(h for h in index.values() if h["eval"]["task"] == "alpha")
    score = head["results"]["scores"][0]
    host = records(tmp_path, metric, 0.01)
    text = (host / "metrics.yaml").read_text().replace("min_samples: 10", "min_samples: 5")
    (host / "metrics.yaml").write_text(text)
    result = score_json(folder, host, tmp_path)
    got = card(result, metric)
    assert (got["value"], got["n"]) == (
        score["metrics"]["accuracy"]["value"],
        score["scored_samples"],
    )
    notes = [line for line in result.stderr.splitlines() if line.startswith("evalglass: skipped")]
    assert len(notes) == 3 and all("Inspect's" in line for line in notes)
    skipped = json.loads(result.stdout)["skipped"]
    assert sorted(Path(s["source"]).name for s in skipped) == [
        ".eval-set-id",
        "eval-set.json",
        "logs.json",
    ]
    assert result.returncode == 0


def test_unscored_samples_count_against_the_missing_allowance(tmp_path: Path) -> None:
    """checked: 14 scored of 18; the 4 unscored are missing, so the gate needs an allowance."""
    log = next((FIXTURES / "inspect/unscored/logs/json").glob("*.json"))
    entry = next(
        e for e in json.loads(log.read_text())["results"]["scores"] if e["name"] == "checked"
    )
    metric = "unscored/checked/accuracy"
    strict = score_json(log, records(tmp_path, metric, 0.01), tmp_path)
    got = card(strict, metric)
    assert (got["value"], got["n"], got["missing"]) == (
        entry["metrics"]["accuracy"]["value"],
        entry["scored_samples"],
        entry["unscored_samples"],
    )
    assert [r["code"] for r in got["gate"]["reasons"]] == ["too_many_missing"]
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    folder = records(allowed, metric, 0.01, extra="    max_missing_fraction: 0.25\n")
    result = score_json(log, folder, tmp_path)
    assert card(result, metric)["gate"]["result"] == "pass"
    assert result.returncode == 0


def test_a_small_group_cannot_clear_min_samples(tmp_path: Path) -> None:
    """grouped(): `mul` holds 6 of the 18 samples, so min_samples 10 makes its gate unsound."""
    log = next((FIXTURES / "inspect/grouped/logs/json").glob("*.json"))
    metric = "grouped_ops/exact/mul"
    result = score_json(log, records(tmp_path, metric, 0.01), tmp_path)
    got = card(result, metric)
    ops = [s["metadata"]["op"] for s in json.loads(log.read_text())["samples"]]
    assert got["n"] == ops.count("mul")
    assert [r["code"] for r in got["gate"]["reasons"]] == ["too_few_samples"]
    assert result.returncode == 3


def test_repeats_cannot_clear_min_samples(tmp_path: Path) -> None:
    """promptfoo --repeat 3 of 11 tests: n is 11, so min_samples 20 is not met by 33 rows; the
    evidence says how the repeats were reduced."""
    path = FIXTURES / "promptfoo/repeat/results/repeat3/results.json"
    doc = json.loads(path.read_text())
    metric = "mock-calculator/sum/pass_rate"
    folder = records(tmp_path, metric, 0.01)
    text = (folder / "metrics.yaml").read_text().replace("min_samples: 10", "min_samples: 20")
    (folder / "metrics.yaml").write_text(text)
    result = score_json(path, folder, tmp_path)
    got = card(result, metric)
    assert got["n"] == len(doc["config"]["tests"])
    assert [r["code"] for r in got["gate"]["reasons"]] == ["too_few_samples"]
    assert (
        f"with {doc['runtimeOptions']['repeat']} scores each reduced by mean"
        in (got["gate"]["evidence"])
    )


def test_a_recognised_file_with_no_metric_is_an_input_error(tmp_path: Path) -> None:
    """`metrics` and `score` alike refuse it (exit 4), never print an empty table."""
    path = tmp_path / "run.json"
    path.write_text('{"metrics": {}}')
    for command in (["metrics", str(path)], ["score", str(path), "--records", str(tmp_path)]):
        result = cli(*command, cwd=tmp_path)
        assert (result.returncode, result.stdout) == (4, "")
        assert "holds no metric" in result.stderr


def test_a_file_no_format_claims_says_what_each_looked_for(tmp_path: Path) -> None:
    """One line: what the file looks like, and each format tried with what it wants."""
    path = tmp_path / "scores.jsonl"
    path.write_text('{"name": "q1", "value": 1}\n')
    result = cli("metrics", str(path), cwd=tmp_path)
    assert result.returncode == 4 and len(result.stderr.splitlines()) == 1
    assert "a JSON object with keys name, value" in result.stderr
    for name in ("inspect", "lm-eval", "promptfoo", "deepeval", "rows", "generic"):
        assert f"{name} wants " in result.stderr


def test_every_command_that_reads_outputs_notes_the_skipped_files(tmp_path: Path) -> None:
    """metrics, doctor, explain and diff name each file they passed over, on stderr."""
    folder = FIXTURES / "deepeval/default-results/results/.deepeval"
    host = records(tmp_path, "Exact Match", 0.01)
    commands = (
        ["metrics", str(folder)],
        ["doctor", str(folder), "--records", str(host)],
        ["explain", "Exact Match", str(folder), "--records", str(host)],
    )
    for command in commands:
        result = cli(*command, cwd=tmp_path)
        notes = [
            line for line in result.stderr.splitlines() if line.startswith("evalglass: skipped")
        ]
        assert len(notes) == 2, (command, result.stderr)
        assert any(".deepeval-cache.json: DeepEval's metric cache" in line for line in notes)


def test_the_metrics_json_lists_the_skipped_files(tmp_path: Path) -> None:
    """`metrics --format json` (what the MCP metrics tool answers) names each skipped file."""
    folder = FIXTURES / "inspect/eval-set/logs/eval"
    result = cli("metrics", str(folder), "--format", "json", cwd=tmp_path)
    doc = json.loads(result.stdout)
    assert sorted(Path(s["source"]).name for s in doc["skipped"]) == [
        ".eval-set-id",
        "eval-set.json",
        "logs.json",
    ]
    assert result.returncode == 0
