"""The rows reader's reductions (`_row_stats`) give exactly what their definitions give, computed
here one row at a time in rationals: q = trunc(score · 2^64) per row, per sample q = trunc(Σq / k)
over its scored epochs, and the counts, range and per-cluster sums of docs/scale.md. Scores are
chosen to be hard: -0.0, subnormals, values a hair below 2^40, NaN and infinities, 0 and 1 as
integers, booleans."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _row_stats as rs

_SCALE = aggregate.SCALE
_HARD = st.sampled_from([
    0.0, -0.0, 1.0, 0, 1, True, False, 0.5, -0.5, 5e-324, -5e-324, 2.0**-1022, 2.0**-70,
    2.0**-12, 2.0**40 - 2.0**-12, -(2.0**40) + 1, 1e9 + 0.001, 0.1, 1 / 3, math.nan, math.inf,
    -math.inf,
])  # fmt: skip
_SCORE = st.one_of(_HARD, st.floats(min_value=-(2.0**39), max_value=2.0**39))
_NAMES = {1: "x", 2: "y", 3: "z"}


def q(score: float) -> int:
    return math.trunc(Fraction(score) * _SCALE)


def want_plain(scores: Sequence[float], numbers: Sequence[int], missing: int) -> object:
    finite = [s for s in scores if math.isfinite(s)]
    clusters: dict[str, tuple[int, int]] = {}
    for s, n in zip(scores, numbers, strict=True):
        if n:
            count, total = clusters.get(_NAMES[n], (0, 0))
            clusters[_NAMES[n]] = (count + 1, total + (q(s) if math.isfinite(s) else 0))
    return (
        len(scores), missing, len(scores) - len(finite),
        sum(1 for s in finite if s not in (0, 1)),
        min(finite) if finite else None, max(finite) if finite else None,
        sum(map(q, finite)), sum(q(s) ** 2 for s in finite),
        clusters,
        sum(q(s) ** 2 for s, n in zip(scores, numbers, strict=True) if n and math.isfinite(s)),
    )  # fmt: skip


def got_of(stats: aggregate.MetricStats) -> object:
    m = stats.moments
    return (
        m.n, m.missing, m.nonfinite, m.nonbinary, m.low, m.high, m.total, m.squares,
        dict(stats.clusters), stats.clustered_squares,
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@example(([0.0, 1.0, 1.0], [1, 1, 2]), 0)  # 0 and 1 only: sums are counts
@example(([0, True, -0.0, 1], [1, 0, 1, 2]), 2)
@example(([math.nan, 1.0, 0.0], [1, 1, 0]), 0)  # 0 and 1 beside a NaN
@example(([5e-324, 2.0**40 - 2.0**-12, -0.5], [3, 3, 3]), 1)
@given(
    st.lists(st.tuples(_SCORE, st.sampled_from([0, 1, 2, 3])), max_size=30).map(
        lambda rows: ([s for s, _ in rows], [n for _, n in rows])
    ),
    st.integers(0, 3),
)
def test_rows_each_a_sample_sum_as_defined(
    columns: tuple[list[float], list[int]], missing: int
) -> None:
    """Scores with cluster numbers (0: none): the counts, the range, Σq, Σq², each cluster's
    (n, Σq) and Σq² over the clustered rows, exactly."""
    scores, numbers = columns
    assert got_of(rs.plain(scores, numbers, missing, rs.Clusters(_NAMES))) == want_plain(
        scores, numbers, missing
    )


def test_metrics_on_the_same_clusters_share_their_sizes() -> None:
    """A second metric on the same cluster numbers reuses the sizes counted for the first, and
    a metric on other numbers counts its own."""
    clusters = rs.Clusters(_NAMES)
    first = rs.plain([1.0, 0.0, 0.5], [1, 1, 2], 0, clusters)
    sizes = clusters.sizes
    second = rs.plain([0.25, 0.25, 1.0], [1, 1, 2], 0, clusters)
    assert clusters.sizes is sizes
    assert (first.clusters, second.clusters) == (
        {"x": (2, _SCALE), "y": (1, _SCALE // 2)},
        {"x": (2, _SCALE // 2), "y": (1, _SCALE)},
    )
    third = rs.plain([1.0, 1.0], [3, 0], 0, clusters)
    assert (third.clusters, third.moments.n) == ({"z": (1, _SCALE)}, 2)


_SAMPLE = st.lists(
    st.tuples(st.one_of(st.none(), _SCORE), st.sampled_from(["1", "2", "3", None])),
    min_size=2, max_size=6, unique_by=lambda row: row[1],
)  # fmt: skip


def want_samples(samples: list[tuple[list[tuple[float | None, str | None]], int]]) -> object:
    """Each sample a row of its mean: trunc(Σq / k) over its scored epochs; missing when none
    is scored, not finite when one is not."""
    quanta: list[tuple[int, int]] = []
    bad: list[int] = []
    missing = nonbinary = 0
    finite = [s for rows, _ in samples for s, _ in rows if s is not None and math.isfinite(s)]
    for rows, number in samples:
        scored = [s for s, _ in rows if s is not None]
        if not scored:
            missing += 1
        elif not all(map(math.isfinite, scored)):
            bad.append(number)
        else:
            quanta.append((math.trunc(Fraction(sum(map(q, scored)), len(scored))), number))
            nonbinary += not (all(s == 0 for s in scored) or all(s == 1 for s in scored))
    clusters: dict[str, tuple[int, int]] = {}
    for value, number in [*quanta, *((0, n) for n in bad)]:
        if number:
            count, total = clusters.get(_NAMES[number], (0, 0))
            clusters[_NAMES[number]] = (count + 1, total + value)
    return (
        len(quanta) + len(bad), missing, len(bad), nonbinary,
        min(finite) if finite else None, max(finite) if finite else None,
        sum(v for v, _ in quanta), sum(v * v for v, _ in quanta), clusters,
        sum(v * v for v, n in quanta if n),
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@example([([(1.0, "1"), (0.0, "2")], 1), ([(1.0, "1"), (1.0, "2")], 0)])
@example([([(-0.5, "1"), (-0.25, None), (5e-324, "3")], 2)] * 3)  # a negative Σq
@example([([(True, "1"), (0, "2")], 1), ([(None, "1"), (None, "2")], 2)])
@given(st.lists(st.tuples(_SAMPLE, st.sampled_from([0, 1, 2, 3])), min_size=1, max_size=8))
def test_samples_of_several_rows_reduce_as_defined(
    samples: list[tuple[list[tuple[float | None, str | None]], int]],
) -> None:
    """Samples of two to six epochs each (sizes mixed or alike, rows interleaved): the counts,
    range and sums of their means, exactly, whether a size's rows are reduced a column at a
    time or sample by sample."""
    scores: list[float | None] = []
    numbers: list[int] = []
    epochs: list[str | None] = []
    keys: list[str] = []
    for index, (rows, number) in enumerate(samples):
        for score, epoch in rows:
            scores.append(score)
            numbers.append(number)
            epochs.append(epoch)
            keys.append(f"s{index}")
    order = sorted(range(len(keys)), key=lambda i: (i % 3, i))  # a sample's rows apart
    scores, numbers, epochs, keys = (
        [column[i] for i in order] for column in (scores, numbers, epochs, keys)
    )
    got = rs.reduced(rs.Repeats(keys), scores, numbers, epochs, rs.Clusters(_NAMES))
    assert got_of(got) == want_samples(samples)


@pytest.mark.parametrize(
    ("epochs", "numbers"),
    [(["1", "1"], [1, 1]), ([None, None], [0, 0]), (["1", "2"], [1, 2]), (["1", "2"], [0, 1])],
)
@pytest.mark.parametrize("scores", [[1.0, 0.0], [None, 0.5]])
def test_a_sample_naming_an_epoch_twice_or_two_clusters_conflicts(
    epochs: list[str | None], numbers: list[int], scores: list[float | None]
) -> None:
    """One epoch named twice, or a sample's rows in two clusters (or in one and in none):
    Conflict, whichever way its size's rows are reduced."""
    keys = ["s", "s", "t", "t"]
    with pytest.raises(rs.Conflict):
        rs.reduced(
            rs.Repeats(keys),
            [*scores, 1.0, 1.0],
            [*numbers, 3, 3],
            [*epochs, "1", "2"],
            rs.Clusters(_NAMES),
        )


def test_a_sample_id_twice_without_epochs_conflicts() -> None:
    with pytest.raises(rs.Conflict):
        rs.reduced(rs.Repeats(["s", "s"]), [1.0, 1.0], [0, 0], None, rs.Clusters(_NAMES))
