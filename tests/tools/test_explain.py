"""explain: one metric in plain words, its checklist, and the hypothetical gate (in memory)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import attrs
import pytest

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.errors import EvalglassError
from evalglass.evidence.model import DatasetIdentity, Evidence, Measurement, Run
from evalglass.evidence.read import read_outputs
from evalglass.reasons import AuthorityCode, GateCode, ValidityCode
from evalglass.records.load import load_records
from evalglass.records.model import HostRecords
from evalglass.render import Format
from evalglass.render.evidence_line import evidence_line
from evalglass.render.explanation import render
from evalglass.tools import explanation
from evalglass.tools.explanation import Explanation
from evalglass.tools.glossary import PLAIN, plain
from tests.render_cases import WHEN

ROOT = Path(__file__).resolve().parents[2]


def explain(metric_id: str, records: HostRecords, evidence: Evidence) -> Explanation:
    """The explanation at the tests' fixed evaluation time."""
    return explanation.explain(metric_id, records, evidence, evaluated_at=WHEN)


@pytest.fixture(scope="module")
def records() -> HostRecords:
    return load_records(ROOT / "host_records")


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    return read_outputs([ROOT / "examples" / "run.json"])


@pytest.fixture(scope="module")
def elsewhere(evidence: Evidence) -> Evidence:
    """The example run with safety/toxicity measured on qa-gold, as one file naming one dataset
    for every metric says, where its record is toxic-prompts."""
    tox = evidence.measurements["safety/toxicity"]
    qa = DatasetIdentity(name="qa-gold", version="2026-10")
    moved = attrs.evolve(tox, run=attrs.evolve(tox.run, dataset=qa))
    return attrs.evolve(evidence, measurements={**evidence.measurements, tox.id: moved})


def test_every_reason_code_has_a_plain_explanation() -> None:
    """Each authority, validity and gate code has its own plain-language sentence."""
    codes = [*AuthorityCode, *ValidityCode, *GateCode]
    assert set(PLAIN) == set(codes)
    assert all(plain(code) != code.value and plain(code).endswith(".") for code in codes)
    assert len({plain(code) for code in codes}) == len(codes)


def test_unknown_metric_is_an_input_error_with_a_suggestion(
    records: HostRecords, evidence: Evidence
) -> None:
    """A metric neither recorded nor measured: EvalglassError, naming the closest id."""
    with pytest.raises(EvalglassError) as caught:
        explain("qa/exact-match", records, evidence)
    assert str(caught.value) == (
        "qa/exact-match: no such metric in metrics.yaml or the outputs given "
        "(did you mean 'qa/exact_match'?)"
    )
    with pytest.raises(EvalglassError, match=r"^zzz: no such metric in metrics.yaml$"):
        explain("zzz", records, Evidence())


def test_hypothetical_gate_for_a_calibrating_judge(
    records: HostRecords, evidence: Evidence
) -> None:
    """Today informational; with the judge calibrated it would gate, and pass on today's run."""
    x = explain("qa/helpfulness", records, evidence)
    assert x.card.authority.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in x.card.authority.reasons] == [AuthorityCode.JUDGE_UNCALIBRATED]
    assert x.hypothetical is not None and x.hypothetical_gate_known
    assert x.hypothetical.authority.outcome is Outcome.CAN_GATE
    assert x.hypothetical.gate.result is Result.PASS
    assert evidence_line(x.hypothetical) == (
        "lower bound 0.7688 >= 0.75 (value 0.81, n 200, 95% normal)"
    )


def test_hypothetical_gate_can_fail(records: HostRecords, evidence: Evidence) -> None:
    """Approving the proposed refusal-rate bar would make today's run fail it: explain says so."""
    x = explain("qa/refusal_rate", records, evidence)
    assert [e.key for e in x.checklist.edits] == [
        "qa/refusal_rate.approval",
        "qa/refusal_rate.approved_by",
        "qa/refusal_rate.approved_on",
        "qa/refusal_rate.approved_for",
    ]
    assert x.hypothetical is not None and x.hypothetical_gate_known
    assert x.hypothetical.gate.result is Result.FAIL


def test_hypothetical_gate_is_unknown_until_the_bar_is_chosen(
    records: HostRecords, evidence: Evidence
) -> None:
    """With no threshold, the authority is hypothetical but the comparison is not made up."""
    x = explain("latency/p95_seconds", records, evidence)
    assert x.hypothetical is not None
    assert x.hypothetical.authority.outcome is Outcome.CAN_GATE
    assert not x.hypothetical_gate_known
    text = render(x, Format.TERMINAL)
    assert "  gate: cannot say until the values in <angle brackets> are chosen\n" in text


def test_a_run_on_another_dataset_is_left_to_the_run(
    records: HostRecords, elsewhere: Evidence
) -> None:
    """A run naming qa-gold for safety/toxicity, whose record is toxic-prompts: no records edit
    can vouch that they are the same data, so the checklist leaves it to the run."""
    x = explain("safety/toxicity", records, elsewhere)
    assert x.hypothetical is not None
    assert x.hypothetical.authority.outcome is Outcome.BLOCKED
    assert [r.code.value for r in x.checklist.outside] == ["dataset_mismatch"]


def test_json_keeps_the_checklist_and_says_when_the_gate_is_unknown(
    records: HostRecords, elsewhere: Evidence
) -> None:
    """explain --format json: every edit in order, a value to choose shown as its placeholder, the
    hypothetical under its own key with gate_known false, and the record's place."""
    x = explain("safety/toxicity", records, elsewhere)
    doc = json.loads(render(x, Format.JSON))
    assert [
        (e["file"], e["record"], e["field"], e["action"], e["text"], e["choose"])
        for e in doc["edits"]
    ] == [(e.file, e.record, e.field, e.action.value, e.text, e.choose) for e in x.checklist.edits]
    chosen = [e for e in doc["edits"] if e["choose"] is not None]
    assert chosen and all(e["text"] == f"<{e['choose']}>" for e in chosen)
    assert doc["hypothetical"]["gate_known"] is False
    assert doc["hypothetical"]["card"]["authority"]["outcome"] == "blocked"
    assert doc["card"]["gate"]["result"] == "not_enforced"
    assert doc["record"]["file"].endswith("metrics.yaml") and doc["record"]["line"] > 0
    authority = doc["card"]["authority"]
    assert set(doc["glossary"]) == {r["code"] for r in authority["reasons"] + authority["notes"]}


def test_no_outputs_no_hypothetical(records: HostRecords) -> None:
    """Without outputs there is no run to decide on: the hypothetical says to give one."""
    x = explain("qa/helpfulness", records, Evidence())
    assert x.hypothetical is None and not x.outputs_given
    assert "  give eval outputs to see what the gate would decide today\n" in render(
        x, Format.TERMINAL
    )


def test_terminal_explanation_of_the_example(records: HostRecords, evidence: Evidence) -> None:
    """The whole terminal explanation of the example's judged metric, line by line."""
    text = render(explain("qa/helpfulness", records, evidence), Format.TERMINAL)
    assert text.splitlines() == [
        "qa/helpfulness: informational: shown, never enforced",
        (
            "  record: status gating, dataset qa-gold, judge grader-v2, decision bound, "
            "min_samples 100"
        ),
        "",
        "Value",
        "  value 0.81  n 200  interval [0.7688, 0.8512] (95% normal)",
        "  threshold >= 0.75",
        "  validity: sound enough to compare",
        "",
        "Why it does not gate",
        "  judge_uncalibrated: judge 'grader-v2' is calibrating",
        "      " + plain(AuthorityCode.JUDGE_UNCALIBRATED),
        "",
        "Success policy (success.yaml)",
        (
            "  success.yaml asks that every gate pass. Once it gates, its failure fails the run, "
            "and a block or an unsound number of it blocks the run. The run needs at least 1 "
            "gate to pass. A pass after a failed attempt is a warning up to attempt 2, and a "
            "fail on any later one."
        ),
        "",
        "To make it gate",
        "  Edit by hand, in this order, in a reviewed change (evalglass never makes these edits):",
        "  1. judges.yaml: grader-v2.calibration: calibrated",
        (
            "       asserts: you have checked this judge's grades against human labels, and they "
            "agree well enough to fail builds on"
        ),
        "",
        "Hypothetical: if every edit above were made (in memory only; nothing was written)",
        "  authority: can_gate",
        "  gate: pass: lower bound 0.7688 >= 0.75 (value 0.81, n 200, 95% normal)",
        (
            "  would pass: a value of at least 0.7912 at n 200, or n 100 at value 0.81 (the "
            "standard error scaled as 1/√n (standard deviation 0.297 held))"
        ),
    ]


def test_markdown_escapes_untrusted_text(records: HostRecords) -> None:
    """A metric id from an output cannot start a link, a table cell or a mention in Markdown."""
    metric_id = "x|[y](http://e.vil) @here"
    measurement = Measurement(id=metric_id, run=Run(source="o.json", models=["m"]), value=0.5, n=40)
    x = explain(
        metric_id, records, Evidence(measurements={metric_id: measurement}, sources=("o.json",))
    )
    text = render(x, Format.MARKDOWN)
    assert "**`x\\|[y](http://e.vil) @here`: informational: shown, never enforced**" in text
    assert "| `x\\|[y](http://e.vil) @here.status` | `gating` |" in text
    # In prose (a reason's message) it is escaped: no link, no autolink, no mention.
    assert "no record for 'x\\|\\[y\\](http:\u200b//e.vil) &#64;here' in metrics.yaml" in text


def test_markdown_labels_the_hypothetical(records: HostRecords, evidence: Evidence) -> None:
    """The Markdown explanation has the ordered edit table and a labelled hypothetical."""
    text = render(explain("qa/helpfulness", records, evidence), Format.MARKDOWN)
    assert (
        "| 1 | `judges.yaml` | `grader-v2.calibration` | `calibrated` | you have checked this "
        "judge's grades against human labels, and they agree well enough to fail builds on |"
    ) in text
    assert (
        "### Hypothetical: if every edit above were made\n\n_Computed in memory only; "
        "nothing was written._\n" in text
    )


def test_a_baseline_to_choose_hides_only_a_regression_gate(tmp_path: Path) -> None:
    """A baseline still to be chosen leaves the gate unknown only when the bar is a drop from it."""
    folder = tmp_path / "host_records"
    shutil.copytree(ROOT / "host_records", folder)
    metrics = folder / "metrics.yaml"
    metrics.write_text(
        metrics.read_text().replace(
            "    min_samples: 100\n\n  # Judged",
            "    min_samples: 100\n    requires_baseline: yes\n\n  # Judged",
        )
    )
    evidence = read_outputs([ROOT / "examples" / "run.json"])
    x = explain("qa/exact_match", load_records(folder), evidence)
    assert [e.key for e in x.checklist.edits if e.choose] == [
        "qa/exact_match.value",
        "qa/exact_match.n",
    ]
    assert x.hypothetical_gate_known and x.hypothetical is not None
    assert x.hypothetical.gate.result is Result.PASS
    thresholds = folder / "thresholds.yaml"
    thresholds.write_text(
        thresholds.read_text().replace(
            "    value: 0.85\n", "    value: 0.85\n    max_drop: 0.02\n", 1
        )
    )
    assert not explain("qa/exact_match", load_records(folder), evidence).hypothetical_gate_known


def test_explain_knows_a_check(tmp_path: Path) -> None:
    """A check's metric: its definition shown, no threshold or dataset asked for; a gating one
    with no definition lists the check to write, and an informational one only its status."""
    (tmp_path / "checks.yaml").write_text(
        "checks:\n  unit:\n    run: pytest -q\n    timeout: 600\n    tier: fast\n"
    )
    (tmp_path / "metrics.yaml").write_text(
        "metrics:\n  check/unit:\n    status: informational\n  check/docs:\n    status: gating\n"
    )
    records = load_records(tmp_path)
    unit = explain("check/unit", records, Evidence())
    assert [(e.file, e.key, e.text) for e in unit.checklist.edits] == [
        ("metrics.yaml", "check/unit.status", "gating")
    ]
    text = render(unit, Format.TERMINAL)
    assert "  check: run 'pytest -q', timeout 600 s, fast tier" in text.splitlines()
    docs = explain("check/docs", records, Evidence())
    assert docs.card.authority.outcome is Outcome.BLOCKED
    assert [(e.file, e.key, e.text) for e in docs.checklist.edits] == [
        ("checks.yaml", "docs.run", "<the command it runs>"),
        ("checks.yaml", "docs.timeout", "<seconds>"),
    ]
    assert json.loads(render(docs, Format.JSON))["check"] is None
    defined = explain("check/unit", load_records(tmp_path), Evidence())
    assert json.loads(render(defined, Format.JSON))["check"] == (
        "run 'pytest -q', timeout 600 s, fast tier"
    )


def test_explain_says_what_the_success_policy_asks_of_the_metric(records: HostRecords) -> None:
    """A must_pass metric, another gate under `all`, one under a percentage, and the defaults:
    each says what the run's policy requires of it, and how many gates a pass needs."""
    from evalglass.records.model import SuccessMode, SuccessPolicy
    from evalglass.tools.explanation import policy_requirement

    named = policy_requirement("qa/exact_match", records.success)
    assert (named.source, named.must_pass) == ("success.yaml", True)
    assert named.text.startswith("success.yaml names it in must_pass: every run must gate on it")
    assert "The run needs at least 1 gate to pass." in named.text
    other = policy_requirement("qa/helpfulness", records.success)
    assert not other.must_pass
    assert other.text.startswith(
        "success.yaml asks that every gate pass. Once it gates, its failure fails the run"
    )
    share = policy_requirement(
        "qa/helpfulness", SuccessPolicy(mode=SuccessMode.PERCENTAGE, min_pass_rate=0.9)
    )
    assert share.text.startswith("success.yaml asks that at least 90% of the gates pass.")
    assert "tolerated" in share.text and "at least 1 gate to pass." in share.text
    default = policy_requirement("qa/helpfulness", None)
    assert (default.source, default.must_pass) == ("default", False)
    assert default.text == (
        "There is no success.yaml: the default policy asks that every gate pass. Once it gates, "
        "its failure fails the run, and a block or an unsound number of it blocks the run. "
        "A pass after a failed attempt is a warning up to attempt 2, and a fail on any later one."
    )
    strict = policy_requirement("qa/helpfulness", SuccessPolicy(max_attempts=1))
    assert strict.text.endswith(
        "Every attempt must pass: a pass after a failed attempt fails the gate."
    )


def test_explain_json_carries_the_policy_requirement(
    records: HostRecords, evidence: Evidence
) -> None:
    """--format json: `policy` with its source, whether it names the metric, and the words."""
    doc = json.loads(render(explain("qa/exact_match", records, evidence), Format.JSON))
    assert doc["policy"]["source"] == "success.yaml"
    assert doc["policy"]["must_pass"] is True
    assert doc["policy"]["requires"].startswith("success.yaml names it in must_pass")


def test_a_metric_that_can_gate_says_what_would_pass(
    records: HostRecords, evidence: Evidence
) -> None:
    """A metric that can gate already is told what would pass it, not "nothing": the least
    share of its 200 samples, and the least n at its value (min_samples 100 floors it)."""
    text = render(explain("qa/exact_match", records, evidence), Format.TERMINAL)
    assert "nothing: it can gate already" not in text
    assert (
        "  it can gate already; it would pass: a value of at least 0.9 (180 of 200) at n 200, "
        "or n 100 at value 0.93 (0/1 scores: a value is k successes of n; n at the same share)\n"
    ) in text
