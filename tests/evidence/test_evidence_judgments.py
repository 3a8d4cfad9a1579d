"""Judgments as evidence: a judge's per-sample verdicts on a standard, read as pass rate and score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalglass.errors import OutputError
from evalglass.evidence import stats
from evalglass.evidence.read import read_outputs
from evalglass.evidence.registry import detect


def row(sample: object, passed: object = True, **fields: object) -> dict[str, object]:
    base = {"standard": "helpfulness", "judge_model": "openai/gpt-4.1",
            "builder_model": "acme/model-x", "passed": passed, "sample_id": sample,
            "evidence": "why"}  # fmt: skip
    return {**base, **fields}


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_pass_rate_is_a_wilson_proportion_over_samples(tmp_path: Path) -> None:
    """judge/STANDARD/pass_rate: passes over samples, its Wilson interval, one sample per row."""
    rows = [row(f"q{i}", passed=i % 4 != 0) for i in range(40)]
    path = write(tmp_path / "help.jsonl", rows)
    m = read_outputs([path]).measurements["judge/helpfulness/pass_rate"]
    assert (m.value, m.n) == (30 / 40, 40)
    assert m.interval == stats.proportion(30, 40)
    assert m.samples is not None and len(m.samples) == 40
    assert "judge/helpfulness/score" not in read_outputs([path]).measurements


def test_score_where_rows_carry_one(tmp_path: Path) -> None:
    """judge/STANDARD/score: the mean of the scores given; a row without one is missing."""
    rows = [row("a", score=0.9), row("b", False, score=0.3), row("c", score=None), row(4)]
    measured = read_outputs([write(tmp_path / "help.jsonl", rows)]).measurements
    score = measured["judge/helpfulness/score"]
    assert (score.value, score.n, score.missing) == (pytest.approx(0.6), 2, 2)
    assert score.interval == stats.interval_for_scores([0.9, 0.3])
    assert measured["judge/helpfulness/pass_rate"].n == 4


def test_each_standard_is_its_own_metric(tmp_path: Path) -> None:
    """Rows of several standards in one file give each standard its metrics."""
    rows = [row("a"), row("a", standard="safety"), row("b", False, standard="safety")]
    measured = read_outputs([write(tmp_path / "j.jsonl", rows)]).measurements
    assert sorted(measured) == ["judge/helpfulness/pass_rate", "judge/safety/pass_rate"]
    assert measured["judge/safety/pass_rate"].value == 0.5


def test_the_run_names_the_model_under_test_and_its_graders(tmp_path: Path) -> None:
    """The builder is the model under evaluation; every judge model that graded is named."""
    rows = [row("a"), row("b", judge_model="anthropic/claude-x")]
    m = read_outputs([write(tmp_path / "j.jsonl", rows)]).measurements[
        "judge/helpfulness/pass_rate"
    ]
    assert m.run.models == ("acme/model-x",)
    assert m.run.graders == ("anthropic/claude-x", "openai/gpt-4.1")


def test_the_format_is_recognised_and_the_generic_rows_reader_does_not_claim_it(
    tmp_path: Path,
) -> None:
    """A .jsonl of judgment rows is `judgments`, even though its rows hold a score."""
    path = write(tmp_path / "j.jsonl", [row("a", score=1.0)])
    adapter = detect(path, path.read_bytes())
    assert adapter is not None and adapter.name == "judgments"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([row("a", passed="yes")], "passed: expected true or false"),
        ([row("a", passed=1)], "passed: expected true or false"),
        ([row("a"), row("a")], "sample_id 'a' is graded twice for standard 'helpfulness'"),
        ([row("a", score="high")], "score: expected a finite number or null"),
        ([row("a", judge_model="")], "judge_model: expected a non-empty string"),
        ([row(None)], "sample_id: expected a non-empty string or an integer"),
        ([row("a"), row("b", builder_model="acme/model-y")],
         ("standard 'helpfulness' grades several builder models (acme/model-x, acme/model-y): give "
         "one file per model under test")),
    ],
)  # fmt: skip
def test_rows_that_cannot_be_judgments_are_input_errors(
    tmp_path: Path, rows: list[dict[str, object]], message: str
) -> None:
    """Each malformed row is an OutputError naming the file (and line), never a guess."""
    path = write(tmp_path / "j.jsonl", rows)
    with pytest.raises(OutputError) as caught:
        read_outputs([path], input_format="judgments")
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def _records(folder: Path) -> Path:
    records = folder / "host_records"
    records.mkdir()
    files = {
        "metrics.yaml": "metrics:\n  judge/helpfulness/pass_rate:\n    status: gating\n"
                        "    dataset: qa-gold\n    judge: grader\n",
        "thresholds.yaml": "thresholds:\n  judge/helpfulness/pass_rate:\n    op: '>='\n"
                           "    value: 0.5\n    approval: approved\n    approved_by: '@a'\n"
                           "    approved_on: 2026-01-01\n    approved_for:\n"
                           "      dataset_version: '1'\n      judge_model: openai/gpt-4.1\n",
        "datasets.yaml": "datasets:\n  qa-gold:\n    status: validated\n    version: '1'\n",
        "policies.yaml": "policies:\n  qa-gold:\n    policy: permitted\n",
        "judges.yaml": "judges:\n  grader:\n    model: openai/gpt-4.1\n    calibration: calibrated\n",
    }  # fmt: skip
    for name, text in files.items():
        (records / name).write_text(text)
    return records


@pytest.mark.parametrize(
    ("odd_one", "codes"),
    [
        ({}, []),
        ({"judge_model": "acme/model-x"}, ["judge_not_independent", "judge_model_mismatch"]),
        (
            {"judge_model": "ACME/model-x-2025-01-01"},
            ["judge_not_independent", "judge_model_mismatch"],
        ),
        ({"judge_model": "anthropic/claude-x"}, ["judge_model_mismatch"]),
    ],
)
def test_one_row_graded_by_the_builder_or_another_judge_blocks_the_metric(
    tmp_path: Path, odd_one: dict[str, object], codes: list[str]
) -> None:
    """Thirty rows graded by the recorded judge and one more: graded by the model under test
    itself (under any spelling), the whole metric is blocked (judge_not_independent, a refusal,
    not an average, and that grader is not the recorded judge either); by another model than the
    recorded judge, blocked too (judge_model_mismatch)."""
    from evalglass.shell import api

    rows = [row(f"q{i}") for i in range(30)] + [row("q-last", **odd_one)]
    card = api.score([write(tmp_path / "help.jsonl", rows)], _records(tmp_path))
    (metric,) = [m for m in card.metrics if m.id == "judge/helpfulness/pass_rate"]
    assert sorted(r.code.value for r in metric.authority.reasons) == sorted(codes)
    assert card.exit_code == (3 if codes else 0)
