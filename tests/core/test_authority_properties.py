"""Properties of the resolver and the scorecard that must hold for any records (hypothesis)."""

from __future__ import annotations

import json

import attrs
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.authority import Outcome, resolve
from evalglass.core.exits import Verdict, exit_code
from evalglass.core.scorecard import assemble
from evalglass.evidence.model import EarlierAttempt, Evidence, Interval, Method, Sample
from evalglass.reasons import Reason, ValidityCode
from evalglass.records.model import HostRecords
from evalglass.render import Format, render
from tests import states as s
from tests.render_cases import WHEN


def codes(authority) -> set:
    return {r.code for r in authority.reasons + authority.notes}


@given(s.states(), st.data())
def test_worse_records_never_improve_authority(state: s.State, data: st.DataObject) -> None:
    """Making any record state worse never makes a metric can_gate, nor clears a reason."""
    field = data.draw(st.sampled_from(sorted(s.WORSE)))
    options = s.WORSE[field](state)
    if not options:
        return
    worse = attrs.evolve(state, **{field: data.draw(st.sampled_from(options))})
    before = resolve(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    after = resolve(s.METRIC, s.records(worse), s.measurement(worse), evaluated_on=s.TODAY)
    if after.outcome is Outcome.CAN_GATE:
        assert before.outcome is Outcome.CAN_GATE
    # Deleting a record replaces a specific complaint (proposed, retired) with "missing", so the
    # reasons only accumulate for moves between states of records that exist.
    removed = getattr(worse, field) in (None, "dangling")
    if not removed:
        assert codes(before) <= codes(after)


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)


@given(
    s.states(),
    st.one_of(st.none(), st.floats()),
    st.one_of(st.none(), st.integers(min_value=0, max_value=10**6)),
    st.one_of(st.none(), st.tuples(finite, finite)),
    st.integers(min_value=0, max_value=1000),
    st.text(max_size=20),
)
def test_nothing_but_records_and_run_identity_changes_authority(
    state: s.State, value, n, bounds, missing: int, source: str
) -> None:
    """Values, counts, intervals, samples, findings, sources and earlier runs never move authority."""
    base = s.measurement(state)
    changed = attrs.evolve(
        base,
        value=value,
        n=n,
        interval=None if bounds is None else Interval(*sorted(bounds), 0.95, Method.NORMAL),
        samples=(Sample(id="1", score=1.0),),
        missing=missing,
        findings=(Reason(ValidityCode.VALUE_MISMATCH, "x"),),
        earlier=(EarlierAttempt(source="old.json", started=None, value=0.1, n=3),),
        run=attrs.evolve(base.run, source=source),
    )
    records = s.records(state)
    before = resolve(s.METRIC, records, base, evaluated_on=s.TODAY)
    assert resolve(s.METRIC, records, changed, evaluated_on=s.TODAY) == before


@given(
    st.lists(
        st.tuples(s.states(), st.floats(min_value=0, max_value=1), st.integers(0, 2000)),
        max_size=6,
    ),
    st.booleans(),
)
def test_verdict_and_exit_code_agree(metrics, require_gate: bool) -> None:
    """The scorecard's exit code is the verdict's, and every format reports the same verdict."""
    parts = {}
    measurements = {}
    for i, (state, value, n) in enumerate(metrics):
        metric_id = f"m{i}"
        parts[metric_id] = s.records(state, metric_id)
        measurements[metric_id] = s.measurement(state, value, n, metric_id)
    records = HostRecords(
        **{
            kind: {k: v for r in parts.values() for k, v in getattr(r, kind).items()}
            for kind in ("metrics", "thresholds", "datasets", "judges", "policies", "baselines")
        }
    )
    card = assemble(records, Evidence(measurements=measurements), require_gate, evaluated_at=WHEN)
    assert card.exit_code == exit_code(card.verdict, require_gate)
    results = {c.gate.result.value for c in card.metrics}
    assert (card.verdict is Verdict.FAIL) == ("fail" in results)
    if card.verdict is Verdict.PASS:
        assert results <= {"pass", "not_enforced"} and "pass" in results
        assert all(c.authority.outcome is not Outcome.BLOCKED for c in card.metrics)
    doc = json.loads(render(card, Format.JSON))
    assert (doc["verdict"], doc["exit_code"]) == (card.verdict.value, card.exit_code)
    first = render(card, Format.TERMINAL).splitlines()[0]
    assert first.startswith(
        {"pass": "PASS", "fail": "FAIL", "blocked": "BLOCKED", "informational": "NO ACTIVE GATE"}[
            card.verdict.value
        ]
    )
