"""A metric's number is about one model and one complete run: outputs written by Inspect AI
0.3.285 and lm-eval 0.4.13 themselves (tests/fixtures/inspect/runs, lm-eval/two-models).
Expected values are the tools' own summary fields (each fixture's README.txt and
summaries.txt)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.read import read_outputs
from evalglass.reasons import ValidityCode
from evalglass.records.source import RecordsSource
from evalglass.shell.mcp_tools import Bounds, call
from tests.cli_runner import cli
from tests.evidence_files import FIXTURES

RUNS = FIXTURES / "inspect/runs/logs"
TWO_INSPECT = RUNS / "two-models"
TWO_LMEVAL = FIXTURES / "lm-eval/two-models/results"
CANCELLED = RUNS / "cancelled"
RETRY = RUNS / "retry"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("folder", "models"),
    [
        (TWO_INSPECT, ("mockllm/strong", "mockllm/weak")),
        (TWO_LMEVAL, ("offline/model-a", "offline/model-b")),
    ],
)
def test_one_metric_of_two_models_is_an_input_error_naming_both(
    folder: Path, models: tuple[str, str]
) -> None:
    """Two models' runs of one metric are never merged as attempts (Inspect's `--model a,b`
    writes one run_id and one start second for both; lm-eval's later run would decide): the
    error names every model found and `--model`."""
    with pytest.raises(OutputError) as raised:
        read_outputs([folder])
    message = str(raised.value)
    assert "--model" in message
    assert all(model in message for model in models)


@pytest.mark.parametrize(
    ("folder", "model", "metric", "value", "n", "other"),
    [
        (
            TWO_INSPECT,
            "mockllm/weak",
            "arith/exact/accuracy",
            0.6666666666666666,
            24,
            "mockllm/strong",
        ),
        (TWO_INSPECT, "mockllm/strong", "arith/exact/accuracy", 1.0, 24, "mockllm/weak"),
        (TWO_LMEVAL, "offline/model-b", "arith_mc/acc", 0.35, 20, "offline/model-a"),
        (TWO_LMEVAL, "offline/model-a", "arith_mc/acc", 0.4, 20, "offline/model-b"),
    ],
)
def test_model_picks_one_and_skips_the_others_saying_why(
    folder: Path, model: str, metric: str, value: float, n: int, other: str
) -> None:
    """`--model NAME` reads that model's runs only, whatever the file order; the other model's
    files are listed as skipped, naming their model, and are not among the sources."""
    evidence = read_outputs([folder], model=model)
    measured = evidence.measurements[metric]
    assert (measured.value, measured.n, measured.run.model) == (value, n, model)
    assert measured.earlier == ()
    assert [s.reason for s in evidence.skipped] == [f"measures model {other}, not --model {model}"]
    assert evidence.skipped[0].source not in evidence.sources


def test_a_model_no_output_measured_is_an_input_error_listing_the_models() -> None:
    """A mistyped `--model` never reads as "nothing to gate": it names the models there are."""
    with pytest.raises(OutputError, match=r"mockllm/strong, mockllm/weak"):
        read_outputs([TWO_INSPECT], model="mockllm/other")


def test_the_cli_refuses_two_models_and_scores_the_one_chosen(tmp_path: Path) -> None:
    """`evalglass score` on both models exits 4 with one line; with `--model` it scores one, and
    the JSON names that model for the metric and the file it came from."""
    refused = cli("score", str(TWO_INSPECT), "--records", str(ROOT / "host_records"), cwd=ROOT)
    assert refused.returncode == 4 and refused.stdout == ""
    assert "--model" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    chosen = cli(
        "score",
        str(TWO_INSPECT),
        "--records",
        str(ROOT / "host_records"),
        "--format",
        "json",
        "--model",
        "mockllm/weak",
        cwd=ROOT,
    )
    assert chosen.returncode != 4, chosen.stderr
    card = json.loads(chosen.stdout)
    entry = next(m for m in card["metrics"] if m["id"] == "arith/exact/accuracy")
    assert (entry["value"], entry["model"]) == (0.6666666666666666, "mockllm/weak")
    assert "NqrxFarK7GotXkQ2VPQebv" in entry["source"]
    assert card["model"] == "mockllm/weak"
    assert [s["reason"] for s in card["skipped"]] == [
        "measures model mockllm/strong, not --model mockllm/weak"
    ]


def test_the_mcp_tools_take_the_model_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    """The MCP `metrics` tool reads one model with `model`, as `--model` does."""
    monkeypatch.chdir(ROOT)
    bounds = Bounds(root=str(ROOT), source=RecordsSource("host_records"))
    outputs = [os.path.relpath(TWO_INSPECT, ROOT)]
    listed = json.loads(call("metrics", {"outputs": outputs, "model": "mockllm/strong"}, bounds))
    assert {m["source"] for m in listed["metrics"]} == {
        os.path.join(outputs[0], "2026-12-01T21-54-34-00-00_arith_B5ujDnfxYZRDmjZwQYrCzp.eval")
    }
    assert [s["reason"] for s in listed["skipped"]] == [
        "measures model mockllm/weak, not --model mockllm/strong"
    ]


def test_a_cancelled_run_is_unsound_and_counts_the_samples_never_run() -> None:
    """Ctrl-C after 10 of 24 samples: Inspect still writes results (accuracy 0.7, scored 10),
    but the run did not complete (`run_incomplete`), and missing is 24 - 10. A group's missing
    counts every sample never run too (which group each was in is unknown), never 0."""
    evidence = read_outputs([CANCELLED])
    accuracy = evidence.measurements["arith_cancel/exact/accuracy"]
    assert (accuracy.value, accuracy.n, accuracy.missing) == (0.7, 10, 14)
    assert [f.code for f in accuracy.findings] == [ValidityCode.RUN_INCOMPLETE]
    assert "cancelled" in accuracy.findings[0].message
    never_run = 24 - 11  # 10 samples completed, the 11th was started and cancelled
    for group in ("add", "mul", "sub"):
        measured = evidence.measurements[f"arith_cancel/exact/by_op/{group}"]
        assert measured.n is not None and measured.missing >= never_run
        assert ValidityCode.RUN_INCOMPLETE in [f.code for f in measured.findings]


def test_a_cancelled_run_cannot_pass_a_gate(tmp_path: Path) -> None:
    """Even `max_missing_fraction: 1` cannot let a cancelled run's 0.7 pass a 0.5 bar."""
    records = tmp_path / "host_records"
    records.mkdir()
    (records / "metrics.yaml").write_text(
        "metrics:\n  arith_cancel/exact/accuracy:\n    status: gating\n    dataset: ops\n"
        "    min_samples: 1\n    decision: point\n    max_missing_fraction: 1\n"
    )
    (records / "thresholds.yaml").write_text(
        "thresholds:\n  arith_cancel/exact/accuracy:\n    op: '>='\n    value: 0.5\n"
        "    approval: approved\n    approved_by: '@alice'\n    approved_on: 2026-11-01\n"
        "    approved_for:\n      dataset_version: '1'\n"
    )
    (records / "datasets.yaml").write_text(
        "datasets:\n  ops:\n    status: validated\n    version: '1'\n"
    )
    (records / "policies.yaml").write_text("policies:\n  ops:\n    policy: permitted\n")
    done = cli("score", str(CANCELLED), "--records", str(records), "--format", "json", cwd=ROOT)
    assert done.returncode == 3, done.stderr
    entry = next(m for m in json.loads(done.stdout)["metrics"] if m["id"].endswith("accuracy"))
    assert entry["gate"]["result"] == "unsound"
    assert [r["code"] for r in entry["gate"]["reasons"]] == ["run_incomplete"]


def test_an_errored_run_says_it_did_not_complete() -> None:
    """The errored run (no results) is value_missing and run_incomplete; `inspect eval-retry`'s
    completed run of the same task decides (accuracy 1.0 over 24)."""
    errored = next(RETRY.glob("*21-56-24*.eval"))
    measured = read_outputs([errored]).measurements["arith_flaky/exact/accuracy"]
    assert measured.value is None
    assert [f.code for f in measured.findings] == [
        ValidityCode.VALUE_MISSING,
        ValidityCode.RUN_INCOMPLETE,
    ]
    retried = read_outputs([RETRY]).measurements["arith_flaky/exact/accuracy"]
    assert (retried.value, retried.n, retried.missing, retried.findings) == (1.0, 24, 0, ())


RESCORED = RUNS / "rescored"
ORIGINAL = RESCORED / "2026-12-01T21-58-06-00-00_arith_2xgUtViB6K9HcNbAHLYAwW.eval"
APPENDED = RESCORED / "2026-12-01T21-58-06-00-00_arith_2xgUtViB6K9HcNbAHLYAwW-appended.eval"
OVERWRITTEN = RESCORED / "2026-12-01T21-58-06-00-00_arith_2xgUtViB6K9HcNbAHLYAwW-overwritten.eval"


def test_a_rescored_log_is_no_copy_and_its_new_scorers_are_read_from_it() -> None:
    """`inspect score --output-file` keeps the run's eval_id and start time. The original given
    first, the re-scored logs after it: the scorers only they hold are read, each from its own
    file (closeness from the appended log, strict from the overwritten one), never lost as a
    second copy of the run; the scorer both hold with the same numbers is read once."""
    evidence = read_outputs([ORIGINAL, APPENDED, OVERWRITTEN])
    got = {
        metric: (m.value, m.n, os.path.basename(m.run.source))
        for metric, m in evidence.measurements.items()
        if not metric.split("/")[2].startswith("by_op")
    }
    assert got == {
        "arith/exact/accuracy": (0.6666666666666666, 24, ORIGINAL.name),
        "arith/closeness/mean": (0.9618958333333333, 24, APPENDED.name),
        "arith/strict/accuracy": (0.0, 24, OVERWRITTEN.name),
    }
    assert evidence.skipped == ()
    assert all(m.earlier == () for m in evidence.measurements.values())


IN_PLACE = RUNS / "rescored-in-place" / f"{ORIGINAL.stem}-rescored.eval"


@pytest.mark.parametrize("order", ["original first", "re-scored first"])
def test_one_metric_with_other_numbers_in_two_files_of_one_run_is_exit_4_naming_both(
    tmp_path: Path, order: str
) -> None:
    """`inspect score --action overwrite` of the same scorer (exact, with a corrected rule)
    writes a second file of the run: the same eval_id and start time, and arith/exact/accuracy
    1.0 where the original has 0.667 (Inspect's own values). Neither file dates the scoring, so
    which is current cannot be told: an output error naming both files, in either order, with
    nothing on stdout, never the file order deciding."""
    given = [ORIGINAL, IN_PLACE] if order == "original first" else [IN_PLACE, ORIGINAL]
    done = cli("score", *map(str, given), "--records", str(ROOT / "host_records"), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (4, "")
    (line,) = done.stderr.splitlines()
    assert str(ORIGINAL) in line and str(IN_PLACE) in line
    assert "metric 'arith/exact/accuracy' reads " in line
    assert "0.6666666666666666 (n 24)" in line and "1.0 (n 24)" in line
    assert "which scoring is current cannot be told" in line


def test_a_run_completing_a_stopped_one_is_one_evaluation_not_a_second_attempt() -> None:
    """`inspect eval-retry` keeps the errored run's task_id: its completed result decides, and
    the errored run is not listed as an earlier attempt. Independent runs (new task_ids) are
    attempts: the newest decides and the two before it stay listed with their values."""
    retried = read_outputs([RETRY]).measurements["arith_flaky/exact/accuracy"]
    assert (retried.value, retried.earlier) == (1.0, ())
    attempts = read_outputs([RUNS / "attempts"]).measurements["arith/exact/accuracy"]
    assert attempts.value == 1.0
    assert [(a.value, a.n) for a in attempts.earlier] == [
        (0.6666666666666666, 24),
        (0.6666666666666666, 24),
    ]


def _attempt_records(tmp_path: Path, success: str = "") -> Path:
    records = tmp_path / "host_records"
    records.mkdir(exist_ok=True)
    (records / "metrics.yaml").write_text(
        "metrics:\n  arith/exact/accuracy:\n    status: gating\n    dataset: ops\n"
        "    min_samples: 10\n    decision: point\n"
    )
    (records / "thresholds.yaml").write_text(
        "thresholds:\n  arith/exact/accuracy:\n    op: '>='\n    value: 0.9\n"
        "    approval: approved\n    approved_by: '@alice'\n    approved_on: 2026-11-01\n"
        "    approved_for:\n      dataset_version: '1'\n"
    )
    (records / "datasets.yaml").write_text(
        "datasets:\n  ops:\n    status: validated\n    version: '1'\n"
    )
    (records / "policies.yaml").write_text("policies:\n  ops:\n    policy: permitted\n")
    if success:
        (records / "success.yaml").write_text(success)
    return records


def _score(outputs: list[Path], records: Path, fmt: str) -> tuple[int, str]:
    done = cli("score", *map(str, outputs), "--records", str(records), "--format", fmt, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout


ATTEMPT_LOGS = sorted((RUNS / "attempts").glob("*.eval"))  # attempts 1, 2, 3 by start time


def test_a_pass_on_attempt_3_fails_by_default_and_warns_when_the_policy_allows_3(
    tmp_path: Path,
) -> None:
    """Three independent runs of one evaluation (accuracy 0.667, 0.667, then 1.0, Inspect's own
    values). Without success.yaml a gate may pass on its second attempt at the latest, as a
    host check may: passing on attempt 3 fails (exit 1, `too_many_attempts`), and the verdict
    line says so. With `max_attempts: 3` it passes with the warning `passed_on_retry`, named in
    the verdict line too; the earlier runs stay listed with their values."""
    code, out = _score([RUNS / "attempts"], _attempt_records(tmp_path), "json")
    entry = json.loads(out)["metrics"][0]
    assert (code, entry["gate"]["result"]) == (1, "fail")
    said = "passed on attempt 3; 2 earlier attempts failed"
    assert entry["gate"]["reasons"] == [
        {
            "code": "too_many_attempts",
            "message": f"{said}; at most 2 attempts allowed (max_attempts)",
        }
    ]
    _, terminal = _score([RUNS / "attempts"], _attempt_records(tmp_path), "terminal")
    assert terminal.splitlines()[0].endswith(
        f"arith/exact/accuracy {said}; at most 2 attempts allowed (max_attempts)"
    )
    bounded = _attempt_records(tmp_path, "success:\n  max_attempts: 3\n")
    code, out = _score([RUNS / "attempts"], bounded, "json")
    entry = json.loads(out)["metrics"][0]
    assert (code, entry["gate"]["result"]) == (0, "warn")
    assert entry["gate"]["reasons"] == [{"code": "passed_on_retry", "message": said}]
    assert [r["value"] for r in entry["earlier_runs"]] == [0.6666666666666666] * 2
    _, markdown = _score([RUNS / "attempts"], bounded, "markdown")
    assert f"; arith/exact/accuracy {said}**" in markdown.splitlines()[1]


def test_a_pass_on_the_second_attempt_warns_and_every_attempt_must_pass_fails_it(
    tmp_path: Path,
) -> None:
    """Attempts 1 (0.667) and 3 (1.0) given: the default allows the one retry with a warning;
    `max_attempts: 1`, every attempt must pass, fails it."""
    given = [ATTEMPT_LOGS[0], ATTEMPT_LOGS[2]]
    code, out = _score(given, _attempt_records(tmp_path), "json")
    assert code == 0
    said = "passed on attempt 2; 1 earlier attempt failed"
    assert json.loads(out)["metrics"][0]["gate"]["reasons"] == [
        {"code": "passed_on_retry", "message": said}
    ]
    strict = _attempt_records(tmp_path, "success:\n  max_attempts: 1\n")
    code, out = _score(given, strict, "json")
    doc = json.loads(out)
    assert (code, doc["policy"]["max_attempts"]) == (1, 1)
    assert [r["code"] for r in doc["metrics"][0]["gate"]["reasons"]] == ["too_many_attempts"]
