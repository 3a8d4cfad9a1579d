"""The DuckDB query that pairs the current rows (view `evalglass_now`) with a baseline's (view
`evalglass_then`) by sample id, per metric, and reduces the pairs to `PairedSums`; and the
reading of its result rows.

Builds SQL text and reads result rows; the connection is the caller's. Each side's sample is
its value on the summing grid, q = trunc(score · 2^64) (as aggregate.moments_of), or with epochs
trunc(Σq / k) over its k scored rows, as every other path reduces epochs; it is carried as four
signed 26-bit limbs (q = Σ L_k · 2^(26k)), from the score's double as the moments query splits
it, or from the exact HUGEINT mean of a sample's epochs. A pair's difference is then the limbs'
differences e_k (|e_k| < 2^27): Σd and Σd² are sums of e_k and of their products (below 2^56,
BIGINT), summed into HUGEINT, so nothing rounds and no row needs 128-bit arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _parquet_sums as q
from evalglass.evidence.adapters._parquet_columns import Columns, quoted
from evalglass.evidence.model import PairedSums

_SCALE = aggregate.SCALE
_LIMIT = int(aggregate.LIMIT)
_OK = f"isfinite(score) AND abs(score) < {_LIMIT}"
_BITS = 26
_LIMBS = ("L0", "L1", "L2", "L3")
# d² = Σ_m 2^(26m) Σ_{i+j=m} e_i·e_j: the seven sums, as the moments query squares its limbs.
_PRODUCTS = tuple(e.replace("l", "e") for e in q.SQUARES)


def side(view: str, c: Columns) -> str:
    """One row per scored sample of `view` that names a sample id: metric, id (as text), the
    signed limbs L0..L3 of q, whether its scores are all 0 or all 1 (`two`) and whether q lies
    in [0, 1] (`inside`). A sample with a score that is not finite or beyond ±2^40 is left out:
    it has no value to pair."""
    rows = (
        f"SELECT {c.metric} AS metric, NULLIF(CAST(sample_id AS VARCHAR), '') AS id, "
        f"{c.score} AS score FROM {view} WHERE score IS NOT NULL"
    )
    if not c.has("epoch"):
        # A sample is one row (the readers refuse a sample id repeated without epochs).
        signed = ", ".join(f"s * l{k} AS L{k}" for k in range(4))
        return f"""SELECT metric, id, {signed}, score = 0 OR score = 1 AS two,
  score >= 0 AND score <= 1 AS inside
FROM ({q.split(f"SELECT * FROM ({rows}) WHERE id IS NOT NULL AND {_OK}")})"""
    value = f"CASE WHEN {_OK} THEN CAST(trunc(score * {float(_SCALE)!r}) AS HUGEINT) END"
    # DuckDB divides HUGEINT in software (over a microsecond each): limbs by shifts and masks,
    # and only a sample of several scored rows divided.
    mask = f"CAST({(1 << _BITS) - 1} AS HUGEINT)"
    limbs = ", ".join(
        f"CAST(sign(v) * ((abs(v) >> {_BITS * k}) & {mask}) AS BIGINT) AS L{k}" for k in range(4)
    )
    return f"""SELECT metric, id, {limbs}, two, v >= 0 AND v <= {_SCALE} AS inside
FROM (
  SELECT metric, id, CASE WHEN k = 1 THEN t WHEN t < 0 THEN -((-t) // k) ELSE t // k END AS v,
    zeros = k OR ones = k AS two
  FROM (
    SELECT metric, id, sum({value}) AS t, count(*) AS k, count_if(score = 0) AS zeros,
      count_if(score = 1) AS ones, count_if(NOT ({_OK})) AS bad
    FROM ({rows}) WHERE id IS NOT NULL GROUP BY metric, id)
  WHERE bad = 0)"""


def pairs_query(now: Columns, then: Columns, metrics: Sequence[str]) -> str:
    """Per metric among `metrics`: the pairs, how many are 0/1 on both sides, the four counts
    (a side scores 1 where its top limbs are not all 0), the sums of each e_k and of the limb
    products, and how many pairs have a value outside [0, 1]."""
    listed = ", ".join(map(quoted, metrics))
    differences = ", ".join(f"c.{name} - b.{name} AS e{k}" for k, name in enumerate(_LIMBS))
    sums = ",\n  ".join(f"sum(e{k}) AS t{k}" for k in range(4))
    squares = ",\n  ".join(f"sum({e}) AS c{k}" for k, e in enumerate(_PRODUCTS))
    one_now, one_then = "c.L0 + c.L1 + c.L2 + c.L3 <> 0", "b.L0 + b.L1 + b.L2 + b.L3 <> 0"
    return f"""WITH current_side AS ({side("evalglass_now", now)}),
baseline_side AS ({side("evalglass_then", then)}),
pairs AS (
  SELECT c.metric, c.two AND b.two AS two, {one_now} AS a, {one_then} AS b,
    c.inside AND b.inside AS inside, {differences}
  FROM current_side AS c JOIN baseline_side AS b ON c.metric = b.metric AND c.id = b.id
  WHERE c.metric IN ({listed}))
SELECT metric, count(*) AS n, count_if(two) AS two,
  count_if(two AND a AND b) AS both,
  count_if(two AND a AND NOT b) AS current_only,
  count_if(two AND NOT a AND b) AS baseline_only,
  count_if(two AND NOT a AND NOT b) AS neither,
  count_if(NOT inside) AS outside,
  {sums},
  {squares}
FROM pairs GROUP BY metric"""


def assemble(rows: Sequence[tuple[Any, ...]]) -> Mapping[str, PairedSums]:
    """`PairedSums` per metric from the rows of `pairs_query`."""
    found = {}
    for row in rows:
        metric, n, two, both, current_only, baseline_only, neither, outside = row[:8]
        binary = two == n
        found[metric] = PairedSums(
            n=n,
            binary=binary,
            both=both if binary else 0,
            current_only=current_only if binary else 0,
            baseline_only=baseline_only if binary else 0,
            neither=neither if binary else 0,
            total=sum((t or 0) << (_BITS * k) for k, t in enumerate(row[8:12])),
            squares=sum((c or 0) << (_BITS * k) for k, c in enumerate(row[12:])),
            bounded=outside == 0,
        )
    return found
