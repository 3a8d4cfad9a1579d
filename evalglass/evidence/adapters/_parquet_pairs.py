"""The DuckDB query that pairs the current rows (view `evalglass_now`) with a baseline's (view
`evalglass_then`) by sample id, per metric, and reduces the pairs to `PairedSums`; and the
reading of its result rows.

Builds SQL text and reads result rows; the connection is the caller's. Each side's sample is
its value on the summing grid, q = trunc(score · 2^64) (aggregate.quantum), or with epochs
trunc(Σq / k) over its k scored rows, as every other path reduces epochs. The difference of a
pair is exact (HUGEINT) and is summed, and squared, from four 27-bit limbs of |d| (|d| < 2^105),
each product small enough for BIGINT, summed into HUGEINT: no rounding, whatever the order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _parquet_sums as q
from evalglass.evidence.model import PairedSums

_SCALE = aggregate.SCALE
_LIMIT = int(aggregate.LIMIT)
_RADIX = 27


def side(view: str, c: q.Columns) -> str:
    """One row per scored sample of `view` that names a sample id: metric, id (as text), q, and
    whether its scores are all 0 or all 1 (`two`). A sample with a score that is not finite or
    is beyond the exact range is left out: it has no value to pair."""
    ok = f"isfinite(score) AND abs(score) < {_LIMIT}"
    value = f"CASE WHEN {ok} THEN CAST(trunc(score * {float(_SCALE)!r}) AS HUGEINT) END"
    rows = (
        f"SELECT {c.metric} AS metric, NULLIF(CAST(sample_id AS VARCHAR), '') AS id, "
        f"{c.score} AS score FROM {view} WHERE score IS NOT NULL"
    )
    if not c.has("epoch"):
        # A sample is one row (the readers refuse a sample id repeated without epochs).
        return f"""SELECT metric, id, {value} AS q, score = 0 OR score = 1 AS two
FROM ({rows}) WHERE id IS NOT NULL AND {ok}"""
    return f"""SELECT metric, id,
  CASE WHEN t < 0 THEN -((-t) // k) ELSE t // k END AS q,
  zeros = k OR ones = k AS two
FROM (
  SELECT metric, id, sum({value}) AS t, count(*) AS k, count_if(score = 0) AS zeros,
    count_if(score = 1) AS ones, count_if(NOT ({ok})) AS bad
  FROM ({rows}) WHERE id IS NOT NULL GROUP BY metric, id)
WHERE bad = 0"""


def pairs_query(now: q.Columns, then: q.Columns, metrics: Sequence[str]) -> str:
    """Per metric among `metrics`: the pairs, how many are 0/1 on both sides, the four counts,
    the limb sums of d and d², the range of d, and whether every paired value is in [0, 1]."""
    listed = ", ".join(map(q.quoted, metrics))
    radix = 1 << _RADIX
    # Σd² is the sum of seven limb products, C_k at 2^(27k).
    squares = ",\n  ".join(f"sum({e}) AS c{k}" for k, e in enumerate(q.SQUARES))
    return f"""WITH current_side AS ({side("evalglass_now", now)}),
baseline_side AS ({side("evalglass_then", then)}),
pairs AS (
  SELECT c.metric, c.q AS a, b.q AS b, c.two AND b.two AS two, c.q - b.q AS d
  FROM current_side AS c JOIN baseline_side AS b ON c.metric = b.metric AND c.id = b.id
  WHERE c.metric IN ({listed})),
limbs AS (
  SELECT *, CAST(sign(d) AS BIGINT) AS s,
    CAST(abs(d) % {radix} AS BIGINT) AS l0,
    CAST((abs(d) // {radix}) % {radix} AS BIGINT) AS l1,
    CAST((abs(d) // {radix**2}) % {radix} AS BIGINT) AS l2,
    CAST(abs(d) // {radix**3} AS BIGINT) AS l3
  FROM pairs)
SELECT metric, count(*) AS n, count_if(two) AS two,
  count_if(two AND a <> 0 AND b <> 0) AS both,
  count_if(two AND a <> 0 AND b = 0) AS current_only,
  count_if(two AND a = 0 AND b <> 0) AS baseline_only,
  count_if(two AND a = 0 AND b = 0) AS neither,
  count_if(a < 0 OR a > {_SCALE} OR b < 0 OR b > {_SCALE}) AS unbounded,
  min(d) AS low, max(d) AS high,
  sum(s * (l3 * {radix} + l2)) AS total_high, sum(s * (l1 * {radix} + l0)) AS total_low,
  {squares}
FROM limbs GROUP BY metric"""


def assemble(rows: Sequence[tuple[Any, ...]]) -> Mapping[str, PairedSums]:
    """`PairedSums` per metric from the rows of `pairs_query`."""
    found = {}
    for row in rows:
        metric, n, two, both, current_only, baseline_only, neither, unbounded, low, high = row[:10]
        high_sum, low_sum = row[10] or 0, row[11] or 0
        binary = two == n
        found[metric] = PairedSums(
            n=n,
            binary=binary,
            both=both if binary else 0,
            current_only=current_only if binary else 0,
            baseline_only=baseline_only if binary else 0,
            neither=neither if binary else 0,
            total=(high_sum << (2 * _RADIX)) + low_sum,
            squares=sum((c or 0) << (_RADIX * k) for k, c in enumerate(row[12:])),
            low=int(low),
            high=int(high),
            bounded=unbounded == 0,
        )
    return found
