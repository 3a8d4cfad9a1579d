"""The paired regression interval from summed pairs (rows paired where they are stored) against
the interval from the pairs themselves, on every branch: Newcombe, paired t, no spread."""

from __future__ import annotations

import math

from hypothesis import event, given, settings
from hypothesis import strategies as st

from evalglass.core.regression import Difference, difference
from evalglass.evidence import aggregate, stats
from evalglass.evidence.model import Measurement, Method, PairedSums, Run, Sample
from evalglass.records.model import BaselineRecord

RUN = Run(source="now.parquet")
Pairs = list[tuple[float, float]]


def paired_sums(pairs: Pairs) -> PairedSums:
    """The sufficient statistics of (current, baseline) pairs of finite scores below ±2^40, as
    a DuckDB join sums them: what `paired_from_sums` needs."""
    binary = all(a in (0, 1) and b in (0, 1) for a, b in pairs)
    # Each score on the summing grid: trunc(score · 2^64), exact (a power of two scales exactly).
    q = [(int(a * 2.0**64), int(b * 2.0**64)) for a, b in pairs]
    d = [a - b for a, b in q]
    return PairedSums(
        n=len(pairs),
        binary=binary,
        both=sum(1 for a, b in pairs if a == 1 and b == 1) if binary else 0,
        current_only=sum(1 for a, b in pairs if a == 1 and b == 0) if binary else 0,
        baseline_only=sum(1 for a, b in pairs if a == 0 and b == 1) if binary else 0,
        neither=sum(1 for a, b in pairs if a == 0 and b == 0) if binary else 0,
        total=sum(d),
        squares=sum(x * x for x in d),
        bounded=all(0 <= a <= aggregate.SCALE and 0 <= b <= aggregate.SCALE for a, b in q),
    )


def _on_grid(low: int, high: int) -> st.SearchStrategy[float]:
    """k / 2^j: scores whose sums and differences floats hold exactly, so both paths see the
    same numbers and differ only in where they round."""
    return st.integers(0, 20).flatmap(
        lambda j: st.integers(low << j, high << j).map(lambda k: k / 2**j)
    )


_binary = st.lists(st.tuples(st.sampled_from([0.0, 1.0]), st.sampled_from([0.0, 1.0])), min_size=2)
_graded = st.lists(st.tuples(_on_grid(0, 1), _on_grid(0, 1)), min_size=2)
_wide = st.lists(st.tuples(_on_grid(-5000, 5000), _on_grid(-5000, 5000)), min_size=2)


@st.composite
def _no_spread(draw: st.DrawFn) -> Pairs:
    """Pairs whose differences are all equal: in [0, 1] (a range-based bound) or beyond it."""
    if draw(st.booleans()):  # both sides in [0, 1]
        shift = draw(_on_grid(0, 1)) / 2
        return [(b / 2 + shift, b / 2) for b in draw(st.lists(_on_grid(0, 1), min_size=2))]
    shift = draw(_on_grid(-1, 1))
    return [(b + shift, b) for b in draw(st.lists(_on_grid(-2, 2), min_size=2))]


def _both(pairs: Pairs, level: float) -> tuple[Difference | None, Difference | None]:
    """The difference from the pairs (samples and baseline scores) and from their sums."""
    scores = [a for a, _ in pairs]
    value = stats.mean(scores)
    then = [b for _, b in pairs]
    baseline = BaselineRecord(
        dataset_version="1",
        value=stats.mean(then),
        n=len(then),
        sample_scores={str(i): b for i, b in enumerate(then)},
    )
    now = Measurement(
        id="m",
        run=RUN,
        value=value,
        n=len(scores),
        samples=tuple(Sample(id=str(i), score=a) for i, a in enumerate(scores)),
    )
    summed = Measurement(id="m", run=RUN, value=value, n=len(scores), paired=paired_sums(pairs))
    return difference(now, baseline, level), difference(summed, baseline, level)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.one_of(_binary, _graded, _wide, _no_spread()),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_summed_pairs_give_the_interval_the_pairs_give(pairs: Pairs, level: float) -> None:
    """From pairs or from their exact sums, the paired interval agrees within 1e-12."""
    from_pairs, from_sums = _both(pairs, level)
    assert from_pairs is not None and from_sums is not None
    assert from_sums.paired == from_pairs.paired == len(pairs)
    assert from_sums.value == from_pairs.value
    if from_pairs.interval is None:
        event("no interval")
        assert from_sums.interval is None
        return
    assert from_sums.interval is not None
    event(from_pairs.interval.method.value)
    assert from_sums.interval.method is from_pairs.interval.method
    assert _close(from_sums.interval.low, from_pairs.interval.low)
    assert _close(from_sums.interval.high, from_pairs.interval.high)


def test_every_branch_of_the_summed_path_is_taken() -> None:
    """Newcombe for 0/1 pairs, paired t with spread, a range bound without spread in [0, 1],
    and no interval without spread beyond it."""
    cases = {
        Method.NEWCOMBE: [(1.0, 0.0), (1.0, 1.0), (0.0, 0.0), (0.0, 1.0), (1.0, 0.0)],
        Method.PAIRED_T: [(0.5, 0.25), (0.75, 0.5), (0.125, 0.5)],
        Method.HOEFFDING: [(0.75, 0.5), (0.5, 0.25), (1.0, 0.75)],
    }
    for method, pairs in cases.items():
        from_pairs, from_sums = _both(pairs, 0.95)
        assert from_sums is not None and from_sums.interval is not None
        assert from_pairs is not None and from_pairs.interval is not None
        assert from_sums.interval.method is from_pairs.interval.method is method
        assert _close(from_sums.interval.low, from_pairs.interval.low)
    beyond = [(3.0, 1.0), (4.0, 2.0)]
    from_pairs, from_sums = _both(beyond, 0.95)
    assert from_sums is not None and from_sums.interval is None
    assert from_pairs is not None and from_pairs.interval is None


def test_one_pair_is_unpaired() -> None:
    """A single matched sample is no paired comparison, from sums as from pairs."""
    from_pairs, from_sums = _both([(1.0, 0.0)], 0.95)
    assert from_sums is not None and from_pairs is not None
    assert from_sums.paired is None and from_pairs.paired is None
