"""The success policy, walked exhaustively over small runs against a reference written from its
statement: every mix of up to four gate results, each mode, every must_pass subset, min_gates
0 to 2, with and without --require-gate."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.exits import Verdict, exit_code
from evalglass.core.scorecard import assemble
from evalglass.core.status import Status
from evalglass.core.success import Rule, Source, decide_run
from evalglass.evidence.model import Evidence, Interval, Method
from evalglass.records.model import Approval, HostRecords, SuccessMode, SuccessPolicy
from evalglass.render import Format, render
from tests import states as s
from tests.render_cases import WHEN

RESULTS = ("pass", "warn", "fail", "unsound", "blocked", "informational")
# Rates written as a host writes them; 0.75 and 0.25 fall exactly on 3 of 4 and 1 of 4.
RATES = ("0.25", "0.5", "0.75", "0.9", "1")
ABSENT = "gone/metric"
_KINDS = (
    "metrics",
    "thresholds",
    "datasets",
    "judges",
    "policies",
    "baselines",
)  # a must_pass id no record and no output names
EXIT = {"pass": 0, "fail": 1, "blocked": 3}


def reference(
    results: dict[str, str],
    rate: str | None,
    must_pass: tuple[str, ...],
    min_gates: int,
    require_gate: bool,
) -> tuple[str, int]:
    """(verdict, exit code), read off the statement of the policy:

    - a gate is a metric the records authorize: it passed (a warning passes), failed, was
      unsound or was blocked; an informational metric is no gate;
    - mode all (rate None): every gate must pass, fail > blocked; percentage: the share of gates
      that passed must reach the rate, blocked and unsound counting as not passing;
    - in percentage mode a must_pass gate that fails makes it fail, one blocked or unsound makes
      it blocked, before any rate is looked at; in any mode a must_pass id that is not can_gate
      (informational or absent) makes it blocked;
    - fewer gates than min_gates is never a pass: the informational verdict, exit 5; zero gates
      never satisfy a percentage; --require-gate asks for at least one gate;
    - nothing else turns a pass into anything but a pass.
    """
    gates = [r for r in results.values() if r != "informational"]
    passed = sum(r in ("pass", "warn") for r in gates)
    named = [results.get(m, "absent") for m in must_pass]
    if rate is None:
        if "fail" in gates:
            verdict = "fail"
        elif {"blocked", "unsound"} & set(gates) or {"informational", "absent"} & set(named):
            verdict = "blocked"
        else:
            verdict = "pass"
    elif "fail" in named:
        verdict = "fail"
    elif any(r not in ("pass", "warn") for r in named):
        verdict = "blocked"
    elif gates and Fraction(passed, len(gates)) < Fraction(rate):
        verdict = "fail"
    else:
        verdict = "pass"
    wanted = max(min_gates, 1 if rate is not None else 0)
    if verdict == "pass" and (not gates or len(gates) < wanted):
        verdict = "informational"
    if verdict == "informational":
        code = 5 if require_gate or wanted > 0 else 0
    else:
        code = EXIT[verdict]
    return verdict, code


def runs() -> list[dict[str, str]]:
    """Every multiset of up to four gate results, as metrics m0, m1, ..."""
    return [
        {f"m{i}": r for i, r in enumerate(combo)}
        for size in range(5)
        for combo in itertools.combinations_with_replacement(RESULTS, size)
    ]


def subsets(ids: list[str]) -> list[tuple[str, ...]]:
    return [c for size in range(len(ids) + 1) for c in itertools.combinations(ids, size)]


def test_whole_success_policy_table() -> None:
    """Every run, mode, must_pass subset, min_gates and --require-gate: the verdict and exit code
    of the reference."""
    wrong, walked = [], 0
    for results in runs():
        statuses = {i: Status(r) for i, r in results.items()}
        for must_pass in subsets([*results, ABSENT]):
            for rate, min_gates in itertools.product((None, *RATES), range(3)):
                policy = SuccessPolicy(
                    min_gates=min_gates,
                    mode=SuccessMode.ALL if rate is None else SuccessMode.PERCENTAGE,
                    min_pass_rate=None if rate is None else float(rate),
                    must_pass=must_pass,
                )
                got = decide_run(statuses, policy)
                for require_gate in (False, True):
                    have = (got.verdict.value, exit_code(got.verdict, require_gate, got.required))
                    want = reference(results, rate, must_pass, min_gates, require_gate)
                    if have != want:
                        wrong.append(
                            (results, rate, must_pass, min_gates, require_gate, have, want)
                        )
                    walked += 1
    assert walked > 100_000
    assert not wrong, f"{len(wrong)} cases disagree, first: {wrong[0]}"


def test_without_a_policy_the_verdict_is_the_precedence_table() -> None:
    """No success.yaml: exactly the default policy, every gate must pass, zero gates allowed."""
    for results in runs():
        statuses = {i: Status(r) for i, r in results.items()}
        got = decide_run(statuses, None)
        assert got.source is Source.DEFAULT
        assert got.verdict == decide_run(statuses, SuccessPolicy()).verdict
        for require_gate in (False, True):
            want = reference(results, None, (), 0, require_gate)
            assert (got.verdict.value, exit_code(got.verdict, require_gate, got.required)) == want


def test_the_numbers_count_every_gate_and_list_what_a_pass_tolerated() -> None:
    """enforced counts blocked and unsound gates, passed counts warnings, and a percentage pass
    lists every gate it let through, by id and status."""
    statuses = {
        "a": Status.PASS,
        "b": Status.WARN,
        "c": Status.FAIL,
        "d": Status.BLOCKED,
        "e": Status.UNSOUND,
        "f": Status.INFORMATIONAL,
    }
    policy = SuccessPolicy(mode=SuccessMode.PERCENTAGE, min_pass_rate=0.4)
    got = decide_run(statuses, policy)
    assert (got.verdict, got.rule, got.enforced, got.passed, got.pass_rate) == (
        Verdict.PASS,
        Rule.PASS_RATE,
        5,
        2,
        0.4,
    )
    assert got.tolerated == (("c", Status.FAIL), ("d", Status.BLOCKED), ("e", Status.UNSOUND))
    below = decide_run(statuses, SuccessPolicy(mode=SuccessMode.PERCENTAGE, min_pass_rate=0.5))
    assert (below.verdict, below.rule, below.tolerated) == (Verdict.FAIL, Rule.PASS_RATE, ())


def test_a_must_pass_id_not_met_is_named() -> None:
    """Each must_pass id that did not pass is listed with its status, absent ones too."""
    got = decide_run(
        {"a": Status.PASS, "b": Status.INFORMATIONAL, "d": Status.BLOCKED},
        SuccessPolicy(must_pass=("a", "b", "c", "d")),
        not_run={"d"},
    )
    assert (got.verdict, got.rule) == (Verdict.BLOCKED, Rule.GATES)
    assert [(u.id, u.status, u.not_run) for u in got.unmet] == [
        ("b", Status.INFORMATIONAL, False),
        ("c", None, False),
        ("d", Status.BLOCKED, True),
    ]


def test_each_unmet_must_pass_id_says_why() -> None:
    """The policy's lines, in the JSON and on the terminal, name each must_pass id not met with
    why: a failed gate's numbers, the reason codes of one that could not gate, and an id no
    record or output names."""
    failed = s.records(s.State(), "m/failed")
    proposed = s.records(s.State(threshold=Approval.PROPOSED), "m/proposed")
    records = HostRecords(
        **{kind: {**getattr(failed, kind), **getattr(proposed, kind)} for kind in _KINDS},
        success=SuccessPolicy(must_pass=("m/failed", "m/proposed", "m/gone")),
    )
    measurements = {
        "m/failed": attrs.evolve(
            s.measurement(s.State(), 0.1, 500, "m/failed"),
            interval=Interval(0.07, 0.13, 0.95, Method.WILSON),
        ),
        "m/proposed": s.measurement(s.State(), 0.9, 500, "m/proposed"),
    }
    card = assemble(records, Evidence(measurements=measurements), evaluated_at=WHEN)
    expected = [
        (
            "must-pass gate 'm/failed' failed its gate (lower bound 0.07 is not >= 0.8 (value 0.1, "
            "n 500, 95% Wilson))"
        ),
        (
            "must-pass gate 'm/proposed' is informational: the records do not let it gate "
            "(threshold_proposed)"
        ),
        "must-pass gate 'm/gone' is not in this run: no record and no output names it",
    ]
    doc = json.loads(render(card, Format.JSON))
    assert [u["message"] for u in doc["policy"]["unmet"]] == expected
    shown = render(card, Format.TERMINAL).splitlines()
    assert [f"  {line}" for line in expected] == shown[4:7]


@pytest.mark.parametrize(
    ("min_gates", "require_gate", "code"),
    [(0, False, 0), (0, True, 5), (1, False, 5), (2, False, 5), (2, True, 5)],
)
def test_an_informational_run_exits_5_whenever_gates_were_asked_for(
    min_gates: int, require_gate: bool, code: int
) -> None:
    """min_gates is the host's own --require-gate: either one asking for gates makes an
    informational run exit 5; the other verdicts keep their codes."""
    assert exit_code(Verdict.INFORMATIONAL, require_gate, min_gates) == code
    for verdict, kept in ((Verdict.PASS, 0), (Verdict.FAIL, 1), (Verdict.BLOCKED, 3)):
        assert exit_code(verdict, require_gate, min_gates) == kept


def test_too_few_gates_never_hides_a_failure() -> None:
    """min_gates turns only a would-be pass into informational: a failure or a block with too
    few gates is still reported as itself."""
    policy = SuccessPolicy(min_gates=3)
    assert decide_run({"a": Status.FAIL}, policy).verdict is Verdict.FAIL
    assert decide_run({"a": Status.BLOCKED}, policy).verdict is Verdict.BLOCKED
    too_few = decide_run({"a": Status.PASS, "b": Status.PASS}, policy)
    assert (too_few.verdict, too_few.rule, too_few.required) == (
        Verdict.INFORMATIONAL,
        Rule.MIN_GATES,
        3,
    )


def test_zero_gates_never_satisfy_a_percentage() -> None:
    """Nothing enforced, whatever the rate: informational, and it asks for a gate (exit 5)."""
    got = decide_run(
        {"a": Status.INFORMATIONAL}, SuccessPolicy(mode=SuccessMode.PERCENTAGE, min_pass_rate=0.01)
    )
    assert (got.verdict, got.rule, got.pass_rate, got.required) == (
        Verdict.INFORMATIONAL,
        Rule.MIN_GATES,
        None,
        1,
    )
    assert exit_code(got.verdict, False, got.required) == 5


_WORDS = {
    "pass": ("PASS",),
    "fail": ("FAIL",),
    "blocked": ("BLOCKED",),
    "informational": ("NO ACTIVE GATE", "TOO FEW GATES"),
}


@given(
    st.lists(st.tuples(s.states(), st.floats(min_value=0, max_value=1)), max_size=5),
    st.none()
    | st.builds(
        SuccessPolicy,
        min_gates=st.integers(0, 3),
        mode=st.just(SuccessMode.ALL),
        must_pass=st.lists(st.sampled_from(["m0", "m1", "m2", "gone"]), unique=True).map(tuple),
    )
    | st.builds(
        SuccessPolicy,
        min_gates=st.integers(0, 3),
        mode=st.just(SuccessMode.PERCENTAGE),
        min_pass_rate=st.floats(min_value=0.01, max_value=1),
        must_pass=st.lists(st.sampled_from(["m0", "m1", "m2", "gone"]), unique=True).map(tuple),
    ),
    st.booleans(),
)
def test_assembled_scorecards_agree_with_their_policy_in_every_format(
    metrics: list[tuple[s.State, float]], policy: SuccessPolicy | None, require_gate: bool
) -> None:
    """Real records under any policy: the scorecard's verdict is the policy's over its cards'
    statuses, its exit code is the verdict's, and the JSON and the first line of each format
    say the same."""
    parts = [s.records(state, f"m{i}") for i, (state, _) in enumerate(metrics)]
    records = HostRecords(
        **{
            kind: {k: v for r in parts for k, v in getattr(r, kind).items()}
            for kind in ("metrics", "thresholds", "datasets", "judges", "policies", "baselines")
        },
        success=policy,
    )
    measurements = {
        f"m{i}": s.measurement(state, value, 500, f"m{i}")
        for i, (state, value) in enumerate(metrics)
    }
    card = assemble(records, Evidence(measurements=measurements), require_gate, evaluated_at=WHEN)
    expected = decide_run({c.id: c.status for c in card.metrics}, policy)
    assert (card.verdict, card.policy.rule) == (expected.verdict, expected.rule)
    assert card.exit_code == exit_code(card.verdict, require_gate, expected.required)
    doc = json.loads(render(card, Format.JSON))
    assert (doc["verdict"], doc["exit_code"]) == (card.verdict.value, card.exit_code)
    assert doc["policy"]["source"] == ("default" if policy is None else "success.yaml")
    assert (doc["policy"]["enforced"], doc["policy"]["passed"]) == (
        expected.enforced,
        expected.passed,
    )
    for fmt in (Format.TERMINAL, Format.MARKDOWN):
        first = render(card, fmt).splitlines()[0 if fmt is Format.TERMINAL else 1].strip("*")
        assert first.startswith(_WORDS[card.verdict.value])
        if policy is not None:
            assert "success.yaml" in first
