"""Agreement statistics as pure, vectorised functions of summed tables: each takes a batch of
tables (leading axis: one per bootstrap resample, or one for the data as given) and returns one
value per table, NaN where the statistic is undefined. No I/O, no resampling.

The tables are sums over items (tables.py builds each item's share), which is what lets one
matrix product give every resample's table at once. Formulas and references: docs/calibration.md.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


def _ratio(numerator: Array, denominator: Array) -> Array:
    """numerator / denominator, NaN where the denominator is zero (an undefined statistic)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / denominator
    return np.where(denominator == 0, np.nan, out)


def percent_agreement(confusion: Array) -> Array:
    """Share of items on the diagonal of a (B, K, K) confusion table."""
    return _ratio(np.trace(confusion, axis1=1, axis2=2), confusion.sum(axis=(1, 2)))


def kappa(confusion: Array, weights: Array | None = None) -> Array:
    """Cohen's kappa, 1 − Σw·O / Σw·E with E the product of the margins; unweighted when
    `weights` is None (w = 1 off the diagonal), otherwise the given (K, K) disagreement weights."""
    k = confusion.shape[-1]
    w = 1.0 - np.eye(k) if weights is None else weights
    total = confusion.sum(axis=(1, 2))
    rows, cols = confusion.sum(axis=2), confusion.sum(axis=1)
    observed = np.einsum("bij,ij->b", confusion, w)
    expected = _ratio(np.einsum("bi,bj,ij->b", rows, cols, w), total)
    return 1.0 - _ratio(observed, expected)


def quadratic_weights(k: int) -> Array:
    """(i − j)² / (K − 1)², by position in the ordered categories."""
    index = np.arange(k, dtype=np.float64)
    return (index[:, None] - index[None, :]) ** 2 / max(k - 1, 1) ** 2


def ac1(confusion: Array) -> Array:
    """Gwet's AC1: (pa − pe)/(1 − pe), pe = Σ πk(1 − πk)/(K − 1), πk the mean of the two raters'
    shares of category k. K is every category in use; undefined with fewer than two."""
    k = confusion.shape[-1]
    total = confusion.sum(axis=(1, 2))
    pa = percent_agreement(confusion)
    share = _ratio(confusion.sum(axis=2) + confusion.sum(axis=1), 2 * total[:, None])
    pe = (share * (1 - share)).sum(axis=1) / (k - 1) if k > 1 else np.full_like(pa, np.nan)
    return _ratio(pa - pe, 1 - pe)


def alpha_categorical(coincidence: Array, *, ordinal: bool) -> Array:
    """Krippendorff's alpha from a (B, K, K) coincidence table: 1 − (n − 1)·Σo·δ / Σnc·nk·δ, with
    the nominal metric (δ = 1 off the diagonal) or the ordinal one (δ between categories c ≤ k is
    (Σ_{g=c..k} ng − (nc + nk)/2)², from the pairable marginals)."""
    marginals = coincidence.sum(axis=2)
    n = marginals.sum(axis=1)
    k = coincidence.shape[-1]
    if ordinal:
        # δ_ck = (A_k − A_c)², A the cumulative count below a category plus half its own.
        position = np.cumsum(marginals, axis=1) - marginals / 2
        delta = (position[:, :, None] - position[:, None, :]) ** 2
    else:
        delta = np.broadcast_to(1.0 - np.eye(k), coincidence.shape)
    observed = (coincidence * delta).sum(axis=(1, 2))
    expected = (marginals[:, :, None] * marginals[:, None, :] * delta).sum(axis=(1, 2))
    alpha: Array = 1.0 - (n - 1) * _ratio(observed, expected)
    return alpha


def alpha_interval(sums: Array) -> Array:
    """Krippendorff's alpha, interval metric, from (B, 4) sums over units with two or more
    values: pairable values m, Σx, Σx², and Σ_u Σ_{i≠j}(x_i − x_j)²/(m_u − 1)."""
    m, s1, s2, observed = sums[:, 0], sums[:, 1], sums[:, 2], sums[:, 3]
    expected = 2 * m * s2 - 2 * s1 * s1
    return 1.0 - (m - 1) * _ratio(observed, expected)


def icc_2_1(sums: Array, k: int) -> Array:
    """ICC(2,1), Shrout & Fleiss (1979): two-way random effects, absolute agreement, one rater,
    from (B, k + 3) sums over items with all k ratings: count, each rater's Σx, Σx², and Σ of
    each item's squared row total."""
    n, cols = sums[:, 0], sums[:, 1 : 1 + k]
    squares, row_squares = sums[:, 1 + k], sums[:, 2 + k]
    total = cols.sum(axis=1)
    correction = _ratio(total * total, n * k)
    ss_total = squares - correction
    ss_rows = row_squares / k - correction
    ss_cols = _ratio((cols * cols).sum(axis=1), n) - correction
    ss_error = ss_total - ss_rows - ss_cols
    ms_rows = _ratio(ss_rows, n - 1)
    ms_cols = ss_cols / (k - 1)
    ms_error = _ratio(ss_error, (n - 1) * (k - 1))
    return _ratio(
        ms_rows - ms_error, ms_rows + (k - 1) * ms_error + k * _ratio(ms_cols - ms_error, n)
    )


class Spearman:
    """Spearman's rho of rows weighted by counts: the Pearson correlation of average ranks,
    where a row counted w times is w tied observations. Built once per set of rows (U of them,
    row u in tie group x_group[u] of the first variable and y_group[u] of the second, groups
    numbered in value order); called per batch of counts (B, U)."""

    def __init__(self, x_group: npt.NDArray[np.intp], y_group: npt.NDArray[np.intp]) -> None:
        """Order the rows once; `x_group` and `y_group` are each row's tie group in the two
        variables, numbered in value order."""
        self._x = _RankOrder(x_group)
        self._y = _RankOrder(y_group)
        # Where each row, in the first variable's order, sits in the second's.
        self._y_to_x = self._y.position[self._x.order]

    def __call__(self, counts: Array) -> Array:
        """rho for each of the B resamples in `counts` (B, U); NaN where a variable has no
        spread."""
        # Rows on the first axis: cumulative sums and row gathers run across the whole batch
        # at once, several times faster than along a C-ordered row.
        by_row = np.ascontiguousarray(counts.T)
        weights = by_row[self._x.order]
        rank_x = self._x.ranks(weights)
        rank_y = self._y.ranks(by_row[self._y.order])[self._y_to_x]
        n = counts.sum(axis=1)
        mean = (n + 1) / 2  # average ranks of n observations always sum to n(n + 1)/2
        weighted_x = weights * rank_x
        cov = np.einsum("ub,ub->b", weighted_x, rank_y) - n * mean * mean
        var_x = np.einsum("ub,ub->b", weighted_x, rank_x) - n * mean * mean
        var_y = np.einsum("ub,ub,ub->b", weights, rank_y, rank_y) - n * mean * mean
        return _ratio(cov, np.sqrt(np.maximum(var_x, 0) * np.maximum(var_y, 0)))


class _RankOrder:
    """Rows sorted by tie group, and where each row's group starts and ends in that order: what
    average ranks need."""

    def __init__(self, group: npt.NDArray[np.intp]) -> None:
        self.order = np.argsort(group, kind="stable")
        self.position = np.empty_like(self.order)
        self.position[self.order] = np.arange(self.order.size)
        sorted_group = group[self.order]
        starts = np.flatnonzero(np.r_[True, np.diff(sorted_group) != 0])
        ends = np.r_[starts[1:], sorted_group.size]
        sizes = ends - starts
        self.ties = bool(starts.size < sorted_group.size)
        self.start = np.repeat(starts, sizes)
        self.end = np.repeat(ends, sizes)

    def ranks(self, sorted_counts: Array) -> Array:
        """Each row's average rank, for counts (U, B) with rows in this order: the
        observations in lower tie groups, plus the middle of its own group."""
        if not self.ties:
            rank = np.cumsum(sorted_counts, axis=0)
            rank -= (sorted_counts - 1) / 2
            return rank
        # below[i] = observations before row i; a group's ranks run from below[start] + 1 to
        # below[end], so their mean is (below[start] + below[end] + 1) / 2.
        below = np.empty((sorted_counts.shape[0] + 1, sorted_counts.shape[1]))
        below[0] = 0
        np.cumsum(sorted_counts, axis=0, out=below[1:])
        rank = below[self.start]
        rank += below[self.end]
        rank += 1
        rank /= 2
        return rank


def mean_defined(values: Array) -> Array:
    """Row means over the defined (finite) values of a (B, P) array; NaN where none is."""
    finite = np.isfinite(values)
    count = finite.sum(axis=1)
    return _ratio(np.where(finite, values, 0.0).sum(axis=1), count.astype(np.float64))
