"""The calibration evidence document: JSON round trip, the loader's refusals, the agreement
check authority will call, and drift against recorded evidence."""

from __future__ import annotations

import json
import math

import attrs
import hypothesis.strategies as hs
import pytest
from hypothesis import given, settings

from evalglass.calibration_evidence import (
    CalibrationEvidence,
    Estimate,
    InputFile,
    Items,
    LabelScale,
    evidence_from_text,
    to_document,
    to_json,
)
from evalglass.core.agreement import check_agreement
from evalglass.errors import CalibrationError
from evalglass.tools.calibration.drift import DriftFinding, compare


def evidence(**statistics: Estimate) -> CalibrationEvidence:
    return CalibrationEvidence(
        judge="grader-v2",
        judge_model="openai/gpt-4.1",
        scale=LabelScale.BINARY,
        categories=("fail", "pass"),
        raters=("ann",),
        statistics=statistics or {"kappa": Estimate(0.7, 0.62, 0.78, 300)},
        confusion=((90, 10), (20, 180)),
        items=Items(
            matched=300,
            judged_only=1,
            labelled_only=0,
            judge_blank=0,
            human_blank=2,
            no_consensus=0,
        ),
        level=0.95,
        resamples=2000,
        seed=1,
        judgments=InputFile("j.jsonl", "a" * 64),
        labels=InputFile("l.csv", "b" * 64),
        evalglass_version="0.1.0",
        date="2026-11-30",
    )


finite = hs.floats(-1, 1, allow_nan=False)


@hs.composite
def estimates(draw: hs.DrawFn) -> Estimate:
    value = draw(hs.one_of(hs.none(), finite))
    bounds = draw(hs.one_of(hs.none(), hs.tuples(finite, finite).map(sorted)))
    low, high = (None, None) if bounds is None else bounds
    return Estimate(value, low, high, draw(hs.integers(0, 10**6)), draw(hs.integers(0, 50)))


@settings(max_examples=100, deadline=None)
@given(
    stats=hs.dictionaries(hs.sampled_from(["kappa", "ac1", "alpha", "alpha_humans"]), estimates()),
    model=hs.one_of(hs.none(), hs.text(min_size=1)),
    scale=hs.sampled_from(LabelScale),
)
def test_evidence_round_trips_through_json(
    stats: dict[str, Estimate], model: str | None, scale: LabelScale
) -> None:
    """Whatever calibrate writes, the loader reads back as the same value."""
    written = attrs.evolve(evidence(), statistics=stats, judge_model=model, scale=scale)
    assert evidence_from_text(to_json(written), "e.json") == written


def test_json_bytes_are_stable() -> None:
    """Keys come in a fixed order: the same evidence gives the same bytes."""
    doc = json.loads(to_json(evidence()))
    assert list(doc) == [
        "schema_version",
        "kind",
        "judge",
        "judge_model",
        "scale",
        "categories",
        "raters",
        "level",
        "interval_method",
        "resamples",
        "seed",
        "items",
        "statistics",
        "confusion",
        "inputs",
        "evalglass_version",
        "date",
    ]
    assert doc["statistics"]["kappa"] == {
        "value": 0.7,
        "interval": [0.62, 0.78],
        "n": 300,
        "undefined_resamples": 0,
    }
    assert to_json(evidence()) == to_json(evidence())


def broken(path: list[str], value: object) -> str:
    doc = to_document(evidence())
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["schema_version"], 2, "not an evalglass calibration evidence file"),
        (["judge"], "", "judge: expected a non-empty string"),
        (["scale"], "ratio", "scale: expected one of binary, nominal, ordinal, interval"),
        (
            ["statistics", "kappa", "interval"],
            [0.9, 0.1],
            ("statistics.kappa.interval: expected [low, high] with low <= high"),
        ),
        (["statistics", "kappa", "value"], "high", "statistics.kappa.value: expected a finite"),
        (["statistics", "kappa", "n"], KeyError, "statistics.kappa.n: expected a whole number"),
        (["items", "matched"], -1, "items.matched: expected a whole number"),
        (["inputs", "labels", "sha256"], None, "inputs.labels.sha256: expected a non-empty string"),
        (["confusion"], [[1, 2]], "confusion: expected a square table"),
        (["level"], 95, "level: expected a number between 0 and 1"),
        (["grants"], "authority", "grants: not a field of calibration evidence"),
    ],
)
def test_malformed_evidence_names_the_field(path: list[str], value: object, message: str) -> None:
    """Every malformed field is refused by name; nothing is guessed."""
    with pytest.raises(CalibrationError) as caught:
        evidence_from_text(broken(path, value), "calibration/g.json")
    assert str(caught.value).startswith("calibration/g.json: ")
    assert message in str(caught.value)


def test_evidence_that_is_not_json_names_the_line() -> None:
    """Invalid JSON is refused with its line."""
    with pytest.raises(CalibrationError, match=r"^ref:e\.json:2: not valid JSON"):
        evidence_from_text('{\n"judge": oops}', "ref:e.json")


def test_a_report_with_drift_still_reads_as_evidence() -> None:
    """The JSON report of a run with --against is the evidence plus a drift key."""
    text = to_json(evidence(), {"drift": {"suspected": []}})
    assert evidence_from_text(text, "r.json") == evidence()


# statistic, bar, met, message — the whole table of outcomes.
AGREEMENT_CASES = [
    ("kappa", 0.6, True, "kappa lower bound 0.62 >= 0.6 (value 0.7, n 300, 95% bootstrap)"),
    ("kappa", 0.62, True, "kappa lower bound 0.62 >= 0.62 (value 0.7, n 300, 95% bootstrap)"),
    ("kappa", 0.65, False, "kappa lower bound 0.62 < 0.65 (value 0.7, n 300, 95% bootstrap)"),
    ("ac1", 0.5, False, "the calibration evidence has no ac1 (it has: alpha, kappa)"),
    (
        "alpha",
        0.1,
        False,
        (
            "alpha has no 95% bootstrap interval (value 0.5, n 40): it cannot "
            "show agreement of at least 0.1"
        ),
    ),
]


@pytest.mark.parametrize(("statistic", "bar", "met", "message"), AGREEMENT_CASES)
def test_agreement_check(statistic: str, bar: float, met: bool, message: str) -> None:
    """Met only by the lower interval bound; a missing statistic or interval never meets."""
    ev = evidence(kappa=Estimate(0.7, 0.62, 0.78, 300), alpha=Estimate(0.5, None, None, 40))
    check = check_agreement(ev, statistic, bar)
    assert (check.met, check.message) == (met, message)


def test_agreement_check_never_rounds_a_miss_into_a_pass() -> None:
    """A bound just below the bar prints enough digits to show it is below."""
    ev = evidence(kappa=Estimate(0.7, 0.59999, 0.78, 300))
    check = check_agreement(ev, "kappa", 0.6)
    assert not check.met
    assert check.message.startswith("kappa lower bound 0.59999 < 0.6")


@pytest.mark.parametrize(
    ("recorded", "current", "finding"),
    [
        (Estimate(0.8, 0.75, 0.85, 300), Estimate(0.6, 0.52, 0.68, 300), DriftFinding.SUSPECTED),
        (Estimate(0.6, 0.52, 0.68, 300), Estimate(0.8, 0.75, 0.85, 300), DriftFinding.IMPROVED),
        (Estimate(0.8, 0.70, 0.90, 300), Estimate(0.75, 0.65, 0.85, 300), DriftFinding.NONE),
        (Estimate(0.8, None, None, 300), Estimate(0.6, 0.52, 0.68, 300), DriftFinding.UNKNOWN),
    ],
)
def test_drift_findings(recorded: Estimate, current: Estimate, finding: DriftFinding) -> None:
    """Suspected drift only when the whole interval of the difference is below zero."""
    result = compare(evidence(kappa=current), evidence(kappa=recorded), "g.json")
    (change,) = result.changes
    assert change.finding is finding
    assert result.suspected == (("kappa",) if finding is DriftFinding.SUSPECTED else ())


def test_drift_interval_is_mover() -> None:
    """The difference's bounds combine each side's distance to its bound in quadrature
    (Zou & Donner 2008), keeping asymmetric intervals asymmetric."""
    recorded, current = Estimate(0.8, 0.7, 0.85, 300), Estimate(0.6, 0.45, 0.7, 300)
    (change,) = compare(evidence(kappa=current), evidence(kappa=recorded), "g.json").changes
    assert change.difference == pytest.approx(-0.2)
    assert change.low == pytest.approx(-0.2 - math.hypot(0.15, 0.05))
    assert change.high == pytest.approx(-0.2 + math.hypot(0.1, 0.1))


def test_drift_leaves_out_the_humans_and_notes_another_model() -> None:
    """The humans' own agreement is not the judge's drift; a changed judge model is noted."""
    est = Estimate(0.8, 0.75, 0.85, 300)
    recorded = attrs.evolve(evidence(kappa=est, alpha_humans=est), judge_model="old/model")
    result = compare(evidence(kappa=est, alpha_humans=est), recorded, "g.json")
    assert [c.statistic for c in result.changes] == ["kappa"]
    assert result.notes == (
        ("recorded with judge model old/model, this sample with openai/gpt-4.1"),
    )


def test_drift_refuses_another_scale() -> None:
    """Statistics on different scales are not comparable: an input error."""
    with pytest.raises(CalibrationError, match="recorded on the ordinal scale"):
        compare(evidence(), attrs.evolve(evidence(), scale=LabelScale.ORDINAL), "g.json")
