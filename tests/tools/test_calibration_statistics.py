"""Calibration statistics against independent implementations, published examples and
properties, and the bootstrap interval's coverage by simulation."""

from __future__ import annotations

import itertools

import hypothesis.strategies as hs
import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from evalglass.calibration_evidence import LabelScale
from evalglass.tools.calibration import bootstrap, tables
from evalglass.tools.calibration import statistics as st
from evalglass.tools.calibration.names import Statistic
from evalglass.tools.calibration.ratings import Coverage, Ratings

TOLERANCE = 1e-9
_COVERAGE = Coverage(matched=0, judged_only=0, labelled_only=0, judge_blank=0, human_blank=0)


def ratings(scale: LabelScale, judge: np.ndarray, humans: np.ndarray, k: int = 0) -> Ratings:
    """A ratings table from arrays: humans (items, raters), NaN where a rater gave nothing."""
    return Ratings(
        scale=scale,
        categories=tuple(str(c) for c in range(k)),
        raters=tuple(f"r{r}" for r in range(humans.shape[1])),
        items=tuple(f"i{i}" for i in range(judge.shape[0])),
        judge=tuple(float(v) for v in judge),
        humans=tuple(tuple(None if np.isnan(v) else float(v) for v in row) for row in humans),
        coverage=_COVERAGE,
    )


def point(r: Ratings) -> dict[Statistic, float | None]:
    result = bootstrap.run(tables.plan(r), resamples=0)
    return {s: b.value for s, b in result.statistics.items()}


@hs.composite
def categorical(draw: hs.DrawFn, raters: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Judge and human codes for 20-80 items: correlated with a hidden truth, some human labels
    missing (never all of an item's)."""
    seed = draw(hs.integers(0, 2**32 - 1))
    n = draw(hs.integers(20, 80))
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    judge = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n)).astype(float)
    humans = np.where(
        rng.random((n, raters)) < 0.7, truth[:, None], rng.integers(0, k, (n, raters))
    ).astype(float)
    missing = rng.random((n, raters)) < draw(hs.sampled_from([0.0, 0.2]))
    missing[:, 0] = False
    return judge, np.where(missing, np.nan, humans)


@hs.composite
def interval_data(draw: hs.DrawFn, raters: int) -> tuple[np.ndarray, np.ndarray]:
    seed = draw(hs.integers(0, 2**32 - 1))
    n = draw(hs.integers(10, 80))
    rng = np.random.default_rng(seed)
    truth = rng.normal(3, 1, n)
    # Rounding makes ties, which Spearman's average ranks must handle.
    digits = draw(hs.sampled_from([0, 1, 6]))
    judge = np.round(truth + rng.normal(0.3, 0.7, n), digits)
    humans = np.round(truth[:, None] + rng.normal(0, 0.7, (n, raters)), digits)
    missing = rng.random((n, raters)) < draw(hs.sampled_from([0.0, 0.2]))
    missing[:, 0] = False
    return judge, np.where(missing, np.nan, humans)


@settings(max_examples=40, deadline=None)
@given(data=categorical(raters=1, k=4), weighted=hs.booleans())
def test_kappa_equals_scikit_learn(data: tuple[np.ndarray, np.ndarray], weighted: bool) -> None:
    """Cohen's kappa (and the quadratic-weighted one) of judge vs one human equals sklearn's."""
    judge, humans = data
    scale = LabelScale.ORDINAL if weighted else LabelScale.NOMINAL
    statistic = Statistic.WEIGHTED_KAPPA if weighted else Statistic.KAPPA
    ours = point(ratings(scale, judge, humans, 4))[statistic]
    theirs = cohen_kappa_score(
        judge, humans[:, 0], labels=[0, 1, 2, 3], weights="quadratic" if weighted else None
    )
    assert ours == pytest.approx(theirs, abs=TOLERANCE)


@settings(max_examples=40, deadline=None)
@given(data=categorical(raters=3, k=4), ordinal=hs.booleans())
def test_alpha_equals_krippendorff_package(
    data: tuple[np.ndarray, np.ndarray], ordinal: bool
) -> None:
    """Alpha over every rater, and over the humans alone, with missing labels, equals the
    krippendorff package's (nominal and ordinal)."""
    judge, humans = data
    scale = LabelScale.ORDINAL if ordinal else LabelScale.NOMINAL
    level = "ordinal" if ordinal else "nominal"
    ours = point(ratings(scale, judge, humans, 4))
    everyone = np.column_stack([judge, humans]).T
    domain = [0.0, 1.0, 2.0, 3.0]
    assert ours[Statistic.ALPHA] == pytest.approx(
        krippendorff.alpha(
            reliability_data=everyone, level_of_measurement=level, value_domain=domain
        ),
        abs=TOLERANCE,
    )
    assert ours[Statistic.ALPHA_HUMANS] == pytest.approx(
        krippendorff.alpha(
            reliability_data=humans.T, level_of_measurement=level, value_domain=domain
        ),
        abs=TOLERANCE,
    )


@settings(max_examples=40, deadline=None)
@given(data=interval_data(raters=3))
def test_interval_alpha_and_spearman_equal_references(data: tuple[np.ndarray, np.ndarray]) -> None:
    """Interval alpha (with missing labels) equals the krippendorff package's; Spearman of the
    judge vs the mean human label equals scipy's, ties included."""
    judge, humans = data
    ours = point(ratings(LabelScale.INTERVAL, judge, humans))
    everyone = np.column_stack([judge, humans]).T
    assert ours[Statistic.ALPHA] == pytest.approx(
        krippendorff.alpha(reliability_data=everyone, level_of_measurement="interval"),
        abs=TOLERANCE,
    )
    assert ours[Statistic.ALPHA_HUMANS] == pytest.approx(
        krippendorff.alpha(reliability_data=humans.T, level_of_measurement="interval"),
        abs=TOLERANCE,
    )
    expected = spearmanr(judge, np.nanmean(humans, axis=1)).statistic
    assert ours[Statistic.SPEARMAN] == pytest.approx(expected, abs=TOLERANCE)


def icc_by_anova(x: np.ndarray) -> float:
    """ICC(2,1) by the two-way ANOVA table of Shrout & Fleiss (1979), Table 1, written out
    directly from the mean squares (BMS, JMS, EMS) of an items x raters matrix."""
    n, k = x.shape
    grand = x.mean()
    bms = k * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    jms = n * ((x.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    residual = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + grand
    ems = (residual**2).sum() / ((n - 1) * (k - 1))
    return float((bms - ems) / (bms + (k - 1) * ems + k * (jms - ems) / n))


def test_icc_reproduces_shrout_fleiss_table_2() -> None:
    """Shrout & Fleiss (1979), "Intraclass correlations: uses in assessing rater reliability",
    Psychol Bull 86:420, Table 2 (6 targets, 4 judges) reports ICC(2,1) = .29."""
    x = np.array(
        [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]],
        dtype=float,
    )
    shares = tables._icc_shares(x)  # the same shares the calibration sums
    ours = st.icc_2_1(shares.sum(axis=0)[None, :], 4)[0]
    assert round(float(ours), 2) == 0.29
    assert ours == pytest.approx(icc_by_anova(x), abs=TOLERANCE)


@settings(max_examples=40, deadline=None)
@given(data=interval_data(raters=3))
def test_icc_equals_the_anova_formula(data: tuple[np.ndarray, np.ndarray]) -> None:
    """ICC(2,1) of judge vs mean human label, and the humans' mean pairwise ICC(2,1), equal
    the ANOVA formula on the same columns."""
    judge, humans = data
    ours = point(ratings(LabelScale.INTERVAL, judge, humans))
    assert ours[Statistic.ICC] == pytest.approx(
        icc_by_anova(np.column_stack([judge, np.nanmean(humans, axis=1)])), abs=TOLERANCE
    )
    pairs = []
    for r, s in itertools.combinations(range(3), 2):
        both = ~np.isnan(humans[:, r]) & ~np.isnan(humans[:, s])
        pairs.append(icc_by_anova(humans[both][:, [r, s]]))
    assert ours[Statistic.ICC_HUMANS] == pytest.approx(np.mean(pairs), abs=TOLERANCE)


@settings(max_examples=30, deadline=None)
@given(data=categorical(raters=3, k=3))
def test_judge_kappa_uses_the_majority_and_humans_the_pairwise_mean(
    data: tuple[np.ndarray, np.ndarray],
) -> None:
    """kappa compares the judge with each item's strict human majority (ties left out);
    kappa_humans is the mean of sklearn's kappa over each pair of humans."""
    judge, humans = data
    ours = point(ratings(LabelScale.NOMINAL, judge, humans, 3))
    majority = []
    for row in humans:
        votes = np.bincount(row[~np.isnan(row)].astype(int), minlength=3)
        majority.append(votes.argmax() if (votes == votes.max()).sum() == 1 else -1)
    agreed = np.array(majority) >= 0
    expected = cohen_kappa_score(judge[agreed], np.array(majority)[agreed], labels=[0, 1, 2])
    assert ours[Statistic.KAPPA] == pytest.approx(expected, abs=TOLERANCE)
    pairwise = []
    for r, s in itertools.combinations(range(3), 2):
        both = ~np.isnan(humans[:, r]) & ~np.isnan(humans[:, s])
        pairwise.append(cohen_kappa_score(humans[both, r], humans[both, s], labels=[0, 1, 2]))
    assert ours[Statistic.KAPPA_HUMANS] == pytest.approx(np.mean(pairwise), abs=TOLERANCE)


def test_ordinal_consensus_is_the_median_and_an_even_split_is_left_out() -> None:
    """Ordinal: three humans' median is the consensus; two who differ give none."""
    humans = np.array([[0, 2, 3], [1, 3, np.nan], [2, 2, np.nan], [3, np.nan, np.nan]])
    plan = tables.plan(ratings(LabelScale.ORDINAL, np.array([2.0, 1, 2, 3]), humans, 4))
    confusion = bootstrap.run(plan, resamples=0).point_sums[plan.confusion].reshape(4, 4)
    assert plan.no_consensus == 1
    assert confusion[2, 2] == 2 and confusion[3, 3] == 1 and confusion.sum() == 3


def test_ac1_reproduces_gwet_published_example() -> None:
    """Gwet, Handbook of Inter-Rater Reliability (4th ed., 2014), the `cont3x3abstractors` table
    of his irrCAC package: 100 abstracts, two abstractors, AC1 = 0.8493305, percent agreement
    0.89, chance agreement 0.26992; Cohen's kappa 0.7964094."""
    table = np.array([[[13, 0, 0], [0, 20, 7], [0, 4, 56]]], dtype=float)
    assert st.ac1(table)[0] == pytest.approx(0.8493305, abs=5e-8)
    assert st.percent_agreement(table)[0] == pytest.approx(0.89, abs=TOLERANCE)
    assert st.kappa(table)[0] == pytest.approx(0.7964094, abs=5e-8)


@settings(max_examples=40, deadline=None)
@given(data=categorical(raters=1, k=2))
def test_ac1_properties(data: tuple[np.ndarray, np.ndarray]) -> None:
    """AC1 is symmetric in the two raters, at most 1, and exactly 1 under perfect agreement."""
    judge, humans = data
    forward = point(ratings(LabelScale.BINARY, judge, humans, 2))[Statistic.AC1]
    backward = point(ratings(LabelScale.BINARY, humans[:, 0], judge[:, None], 2))[Statistic.AC1]
    perfect = point(ratings(LabelScale.BINARY, judge, judge[:, None], 2))[Statistic.AC1]
    assert forward is not None and backward is not None
    assert forward == pytest.approx(backward, abs=TOLERANCE)
    assert forward <= 1
    assert perfect == pytest.approx(1.0)


def test_ac1_stays_high_where_kappa_collapses() -> None:
    """With one class dominating, high raw agreement gives kappa near 0 but AC1 near the
    agreement: why AC1 is reported beside kappa."""
    table = np.array([[[118, 5], [2, 0]]], dtype=float)
    assert st.kappa(table)[0] < 0.05
    assert st.ac1(table)[0] > 0.9


def test_undefined_statistics_are_nan_not_errors() -> None:
    """A table with one label used throughout has no chance-corrected agreement: NaN."""
    table = np.array([[[5.0, 0.0], [0.0, 0.0]]])
    assert np.isnan(st.kappa(table)[0])
    assert np.isnan(st.alpha_categorical(table, ordinal=False)[0])


def test_bootstrap_is_seeded() -> None:
    """The same seed gives the same interval; another seed another one."""
    rng = np.random.default_rng(3)
    judge = rng.integers(0, 2, 200).astype(float)
    humans = np.where(rng.random((200, 1)) < 0.8, judge[:, None], 1 - judge[:, None])
    plan = tables.plan(ratings(LabelScale.BINARY, judge, humans, 2))
    first = bootstrap.run(plan, resamples=300, seed=1).statistics[Statistic.KAPPA]
    again = bootstrap.run(plan, resamples=300, seed=1).statistics[Statistic.KAPPA]
    other = bootstrap.run(plan, resamples=300, seed=2).statistics[Statistic.KAPPA]
    assert first == again
    assert (first.low, first.high) != (other.low, other.high)
    assert first.low is not None and first.high is not None
    assert first.low < (first.value or 0) < first.high


def test_an_often_undefined_statistic_gets_no_interval() -> None:
    """When many resamples leave a statistic undefined, the interval is withheld and the
    undefined resamples are counted."""
    judge = np.array([0.0] * 19 + [1.0])
    humans = np.array([[0.0]] * 19 + [[1.0]])
    plan = tables.plan(ratings(LabelScale.BINARY, judge, humans, 2))
    kappa = bootstrap.run(plan, resamples=400, seed=1).statistics[Statistic.KAPPA]
    assert kappa.value == 1.0
    assert kappa.undefined > 4 and kappa.low is None and kappa.high is None


def test_kappa_interval_covers_the_population_value() -> None:
    """Seeded simulation: judge vs one human drawn from a known 2x2 distribution, n = 150,
    500 resamples each; the 95% percentile interval covers the true kappa 92.5-97.5% of
    800 samples. (bench/bench_calibrate.py runs more, and the other statistics.)"""
    cells = np.array([0.25, 0.07, 0.05, 0.63])
    table = cells.reshape(2, 2)
    pe = (table.sum(axis=1) * table.sum(axis=0)).sum()
    truth = (np.trace(table) - pe) / (1 - pe)
    rng = np.random.default_rng(2024)
    covered, samples, n = 0, 800, 150
    for sample in range(samples):
        drawn = rng.choice(4, size=n, p=cells)
        r = ratings(
            LabelScale.BINARY, (drawn // 2).astype(float), (drawn % 2).astype(float)[:, None], 2
        )
        kappa = bootstrap.run(tables.plan(r), resamples=500, seed=sample).statistics[
            Statistic.KAPPA
        ]
        assert kappa.low is not None and kappa.high is not None
        covered += kappa.low <= truth <= kappa.high
    assert 0.925 <= covered / samples <= 0.975
