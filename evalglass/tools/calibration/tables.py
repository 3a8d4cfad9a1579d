"""Turns a ratings table into per-item shares of every statistic's table, and the estimators
that read a statistic off the summed shares. Who is compared with whom is decided here:

- the judge against the humans' consensus per item (the one human's label when there is one;
  with several, the strict majority on a nominal scale, the median on an ordinal one, the mean
  on an interval one; an item without a consensus is left out of these and counted);
- Krippendorff's alpha over every rater, the judge included, and over the humans alone;
- the humans pairwise: each pair of human raters on the items both labelled, averaged.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import attrs
import numpy as np
import numpy.typing as npt

from evalglass.calibration_evidence import LabelScale
from evalglass.tools.calibration import statistics as st
from evalglass.tools.calibration.names import HUMAN_STATISTICS, JUDGE_STATISTICS, Statistic
from evalglass.tools.calibration.ratings import Ratings
from evalglass.tools.calibration.statistics import Array


@attrs.frozen(eq=False)
class Batch:
    """A batch of resamples: how often each distinct item row is drawn (B, U), the rows (U, d),
    and their weighted column sums (B, d)."""

    counts: Array
    rows: Array
    sums: Array


Value = Callable[["Batch"], Array]


@attrs.frozen(eq=False)
class Estimator:
    """A statistic, the items (units) it is computed on, and how to read it off a batch. `bind`
    sees the distinct item rows once, before any batch, for work that does not change between
    resamples."""

    statistic: Statistic
    n: int
    value: Value | None = None
    bind: Callable[[Array], Value] | None = None

    def bound(self, rows: Array) -> Value:
        """The function that reads the statistic off a batch, bound to the distinct rows when it
        needs them."""
        if self.bind is not None:
            return self.bind(rows)
        assert self.value is not None
        return self.value


@attrs.frozen(eq=False)
class ResamplePlan:
    """Every item's shares (n, d), the estimators that read them, the confusion table's columns
    (categorical scales) and how many items had no human consensus."""

    features: Array
    estimators: tuple[Estimator, ...]
    confusion: slice | None
    no_consensus: int


class _Columns:
    """Collects feature blocks side by side; each block remembers its columns."""

    def __init__(self, n: int) -> None:
        self.blocks: list[Array] = []
        self.width = 0
        self.n = n

    def add(self, block: Array) -> slice:
        block = block.reshape(self.n, -1)
        self.blocks.append(block)
        self.width += block.shape[1]
        return slice(self.width - block.shape[1], self.width)

    def matrix(self) -> Array:
        return np.hstack(self.blocks) if self.blocks else np.zeros((self.n, 0))


def plan(ratings: Ratings) -> ResamplePlan:
    """The plan for a ratings table on its scale: every item's shares and the estimators of every
    statistic the scale has."""
    judge = np.asarray(ratings.judge, dtype=np.float64)
    humans = np.array(
        [[np.nan if v is None else v for v in row] for row in ratings.humans], dtype=np.float64
    ).reshape(len(ratings.items), len(ratings.raters))
    if ratings.scale.categorical:
        return _categorical(ratings.scale, len(ratings.categories), judge, humans)
    return _interval(judge, humans)


def _human_pairs(humans: Array) -> list[tuple[int, int, npt.NDArray[np.bool_]]]:
    """Each pair of human raters who share an item, and which items both labelled."""
    present = ~np.isnan(humans)
    pairs = []
    for r, s in itertools.combinations(range(humans.shape[1]), 2):
        both = present[:, r] & present[:, s]
        if both.any():
            pairs.append((r, s, both))
    return pairs


def _categorical(scale: LabelScale, k: int, judge: Array, humans: Array) -> ResamplePlan:
    n = judge.shape[0]
    cols = _Columns(n)
    ordinal = scale is LabelScale.ORDINAL
    consensus = _median(humans) if ordinal else _majority(humans, k)
    agreed = consensus >= 0
    confusion = cols.add(_pair_cells(judge, consensus, agreed, k))
    everyone = cols.add(_coincidences(np.column_stack([judge, humans]), k))
    weights = st.quadratic_weights(k) if ordinal else None

    def table(block: slice) -> Value:
        return lambda b: b.sums[:, block].reshape(-1, k, k)

    conf, all_o = table(confusion), table(everyone)
    judge_stats: dict[Statistic, Value] = {
        Statistic.KAPPA: lambda b: st.kappa(conf(b)),
        Statistic.WEIGHTED_KAPPA: lambda b: st.kappa(conf(b), weights),
        Statistic.AC1: lambda b: st.ac1(conf(b)),
        Statistic.PERCENT_AGREEMENT: lambda b: st.percent_agreement(conf(b)),
        Statistic.ALPHA: lambda b: st.alpha_categorical(all_o(b), ordinal=ordinal),
    }
    paired = int(agreed.sum())
    estimators = [
        Estimator(s, n if s is Statistic.ALPHA else paired, judge_stats[s])
        for s in JUDGE_STATISTICS[scale]
    ]
    several = int(((~np.isnan(humans)).sum(axis=1) >= 2).sum())
    if several:
        human_o = table(cols.add(_coincidences(humans, k)))
        pair_tables = [
            table(cols.add(_pair_cells(humans[:, r], humans[:, s], both, k)))
            for r, s, both in _human_pairs(humans)
        ]

        def pairwise(b: Batch) -> Array:
            return st.mean_defined(np.column_stack([st.kappa(t(b), weights) for t in pair_tables]))

        human_stats = {
            Statistic.ALPHA_HUMANS: lambda b: st.alpha_categorical(human_o(b), ordinal=ordinal),
            Statistic.KAPPA_HUMANS: pairwise,
            Statistic.WEIGHTED_KAPPA_HUMANS: pairwise,
        }
        estimators += [Estimator(s, several, human_stats[s]) for s in HUMAN_STATISTICS[scale]]
    return ResamplePlan(
        features=cols.matrix(),
        estimators=tuple(estimators),
        confusion=confusion,
        no_consensus=n - paired,
    )


def _majority(humans: Array, k: int) -> Array:
    """The label most humans gave each item; -1 where two or more labels tie for most."""
    votes = (humans[:, :, None] == np.arange(k)).sum(axis=1)
    top = votes.max(axis=1)
    unique = (votes == top[:, None]).sum(axis=1) == 1
    return np.where(unique, votes.argmax(axis=1), -1).astype(np.float64)


def _median(humans: Array) -> Array:
    """The median human label of each item; -1 where an even count's two middle labels differ."""
    ordered = np.sort(humans, axis=1)  # missing (NaN) sorts last
    m = (~np.isnan(humans)).sum(axis=1)
    rows = np.arange(humans.shape[0])
    low, high = ordered[rows, (m - 1) // 2], ordered[rows, m // 2]
    return np.where(low == high, low, -1.0)


def _pair_cells(a: Array, b: Array, valid: npt.NDArray[np.bool_], k: int) -> Array:
    """One-hot confusion cell (a, b) per item; zeros where the pair is not compared."""
    cells = np.zeros((a.shape[0], k * k))
    rows = np.flatnonzero(valid)
    cells[rows, (a[rows] * k + b[rows]).astype(np.intp)] = 1.0
    return cells


def _coincidences(values: Array, k: int) -> Array:
    """Each unit's coincidence table (Krippendorff): (nc·nk − [c = k]·nc)/(m − 1) over its m
    values; zero for a unit with fewer than two (not pairable)."""
    counts = (values[:, :, None] == np.arange(k)).sum(axis=1).astype(np.float64)
    m = counts.sum(axis=1)
    pairable = m >= 2
    table = counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(k)
    scale = np.where(pairable, 1.0 / np.where(pairable, m - 1, 1.0), 0.0)
    shares: Array = table * scale[:, None, None]
    return shares


def _interval(judge: Array, humans: Array) -> ResamplePlan:
    n = judge.shape[0]
    everyone = np.column_stack([judge, humans])
    # Ranks come from the values as given: centring could split or merge a tie.
    ties = np.column_stack([_groups(judge), _groups(np.nanmean(humans, axis=1))])
    # Every other statistic here is unchanged by a shift; centring keeps sums of squares exact.
    centre = float(np.nanmean(everyone))
    judge, humans, everyone = judge - centre, humans - centre, everyone - centre
    consensus = np.nanmean(humans, axis=1)
    cols = _Columns(n)
    all_sums = cols.add(_alpha_shares(everyone))
    icc = cols.add(_icc_shares(np.column_stack([judge, consensus])))
    groups = cols.add(ties)

    def rho(rows: Array) -> Value:
        tie = rows[:, groups].astype(np.intp)
        spearman = st.Spearman(tie[:, 0], tie[:, 1])
        return lambda b: spearman(b.counts)

    estimators = [
        Estimator(Statistic.ALPHA, n, lambda b: st.alpha_interval(b.sums[:, all_sums])),
        Estimator(Statistic.SPEARMAN, n, bind=rho),
        Estimator(Statistic.ICC, n, lambda b: st.icc_2_1(b.sums[:, icc], 2)),
    ]
    several = int(((~np.isnan(humans)).sum(axis=1) >= 2).sum())
    if several:
        human_sums = cols.add(_alpha_shares(humans))
        pair_blocks = [
            cols.add(_icc_shares(np.column_stack([humans[:, r], humans[:, s]]), both))
            for r, s, both in _human_pairs(humans)
        ]

        def pairwise(b: Batch) -> Array:
            return st.mean_defined(
                np.column_stack([st.icc_2_1(b.sums[:, block], 2) for block in pair_blocks])
            )

        human_stats = {
            Statistic.ALPHA_HUMANS: lambda b: st.alpha_interval(b.sums[:, human_sums]),
            Statistic.ICC_HUMANS: pairwise,
        }
        estimators += [
            Estimator(s, several, human_stats[s]) for s in HUMAN_STATISTICS[LabelScale.INTERVAL]
        ]
    return ResamplePlan(
        features=cols.matrix(), estimators=tuple(estimators), confusion=None, no_consensus=0
    )


def _alpha_shares(values: Array) -> Array:
    """Per unit: pairable values m, Σx, Σx², and Σ_{i≠j}(xi − xj)²/(m − 1) = 2m·Σ(x − x̄)²/(m − 1);
    zeros for a unit with fewer than two values."""
    present = ~np.isnan(values)
    m = present.sum(axis=1).astype(np.float64)
    x = np.where(present, values, 0.0)
    s1, s2 = x.sum(axis=1), (x * x).sum(axis=1)
    pairable = m >= 2
    safe_m = np.where(pairable, m, 2.0)
    spread = np.where(present, values - (s1 / np.where(m > 0, m, 1.0))[:, None], 0.0)
    within = 2 * safe_m * (spread * spread).sum(axis=1) / (safe_m - 1)
    shares = np.column_stack([m, s1, s2, within])
    return np.where(pairable[:, None], shares, 0.0)


def _icc_shares(values: Array, valid: npt.NDArray[np.bool_] | None = None) -> Array:
    """Per item with all k ratings: 1, each rating, Σx², (Σx)²; zeros for other items."""
    if valid is None:
        valid = np.asarray(~np.isnan(values).any(axis=1))
    x = np.where(valid[:, None], values, 0.0)
    total = x.sum(axis=1)
    shares = np.column_stack([np.ones(x.shape[0]), x, (x * x).sum(axis=1), total * total])
    return np.where(valid[:, None], shares, 0.0)


def _groups(values: Array) -> Array:
    """Each value's tie group, numbered in value order."""
    return np.unique(values, return_inverse=True)[1].astype(np.float64)
