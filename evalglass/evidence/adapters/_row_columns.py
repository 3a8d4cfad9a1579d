"""The columns of a generic row, each declared once: the rule the rows reader reads its value by
(`_row_values`), and the SQL with which DuckDB types the same value from a JSON line or a CSV
cell, with the condition that the rows reader would read it so. The DuckDB path (`_rows_engine`)
builds its queries from this table; tests/evidence/test_evidence_row_columns.py holds each
column's two halves to one reading, value by value. Builds SQL text only.

The reduction of the rows cannot be one text for both engines: the rows reader reduces in Python
(`_row_stats`), DuckDB in SQL (`_parquet_reduce`). What both read from one place is
`aggregate`: the exact range `LIMIT`, the scale of the sums `SCALE` and the result,
`MetricStats`; the rules written twice (a sample's epochs reduced to trunc(Σq / k) over its
scored rows, a score not finite making its sample's, one cluster a sample, a sample and epoch
named once) are held equal by the tests that compare the two engines' sums and scorecards
(tests/evidence/test_evidence_rows_engine.py).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from evalglass.evidence.adapters import _row_values as values

# The non-finite literals Python's json module accepts; DuckDB accepts more spellings (`nan`).
_NONFINITE = "('NaN', 'Infinity', '-Infinity')"
# A CSV score Python's float() and DuckDB's cast read to the same double: plain decimal
# notation, no spaces, no underscores (both round correctly). Python's NaN and infinity
# spellings, in any case, are handled beside it.
_DECIMAL = r"'^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$'"
_CSV_NONFINITE = (
    "('nan', '+nan', '-nan', 'inf', '+inf', '-inf', 'infinity', '+infinity', '-infinity')"
)


@attrs.frozen
class Sql:
    """A column's SQL over `t`, the raw text of its value (a JSON value as DuckDB writes it
    back, or a CSV cell; null where absent): `value(t)`, the value typed, and `vouched(t, v)`,
    the condition that the rows reader reads the raw value as `v` (the typed value's column);
    None: every value is read so."""

    value: Callable[[str], str]
    vouched: Callable[[str, str], str] | None = None


@attrs.frozen
class RowColumn:
    """One column of a generic row: its name, the rows reader's rule for its value (OutputError
    where the rows reader refuses it), its SQL from a JSON line and from a CSV cell, and what
    the DuckDB path takes in words (docs/scale.md's table is written from it).

    From JSON, a text value (metric, sample_id, cluster, model, epoch) is typed as the JSON text
    of the string the rows reader makes of it: DuckDB writes each JSON string back with only the
    escapes JSON needs, one text for one string, so the texts group as the strings do and are
    decoded once grouped (`Columns.name`), not a row at a time."""

    name: str
    read: Callable[[object, str, int], object]
    json: Sql
    csv: Sql
    takes: str


def _whole(t: str) -> str:
    """Whether the JSON number `t` is an integer: digits, no point, no exponent (DuckDB's cast
    to an integer would round `1.5` and take `1e5`)."""
    return (f"(TRY_CAST({t} AS HUGEINT) IS NOT NULL AND NOT contains({t}, '.') "
            f"AND NOT contains({t}, 'e') AND NOT contains({t}, 'E'))")  # fmt: skip


def _key(t: str, none: str = "") -> str:
    """A sample id, cluster or epoch as the rows reader keys it: a string, or an integer's
    digits as that string; `none`, '' and null name none."""
    return (f"CASE WHEN starts_with({t}, '\"') THEN NULLIF({t}, '\"\"') {none}"
            f"ELSE '\"' || {t} || '\"' END")  # fmt: skip


def _keyed(t: str, v: str) -> str:
    """Whether `_key` reads the value as the rows reader does: null, a string, an integer."""
    return f"({t} IS NULL OR starts_with({t}, '\"') OR {_whole(t)})"


def _json_score(t: str) -> str:
    # true is a pass, false a failure, as Python's float() reads them.
    number = f"TRY_CAST({t} AS DOUBLE)"
    return f"CASE WHEN {t} = 'true' THEN 1.0 WHEN {t} = 'false' THEN 0.0 ELSE {number} END"


def _json_scored(t: str, v: str) -> str:
    # A number as Python's json reads it (the non-finite ones as it spells them), a boolean,
    # null or an empty string (a missing sample). A finite score beyond the exact range is
    # vouched for here and refused by the reduction (its `out_of_range` count), as an error.
    return (f"({v} IS NOT NULL AND (isfinite({v}) OR {t} IN {_NONFINITE}) "
            f"OR {t} IS NULL OR {t} = '\"\"')")  # fmt: skip


def _csv_score(t: str) -> str:
    return (f"CASE WHEN regexp_full_match({t}, {_DECIMAL}) THEN CAST({t} AS DOUBLE) "
            f"WHEN lower({t}) IN {_CSV_NONFINITE} THEN CAST(lower(ltrim({t}, '+')) AS DOUBLE) END")  # fmt: skip


def _none_if_empty(t: str) -> str:
    # DuckDB reads an empty CSV cell as null; '' too names none.
    return f"NULLIF({t}, '')"


COLUMNS: tuple[RowColumn, ...] = (
    RowColumn(
        name="metric",
        read=values.metric,
        json=Sql(
            value=lambda t: t,
            vouched=lambda t, v: f"(starts_with({t}, '\"') AND {t} <> '\"\"')",
        ),
        csv=Sql(value=lambda t: t, vouched=lambda t, v: f"{t} IS NOT NULL"),
        takes="a non-empty string (CSV: a non-empty cell)",
    ),
    RowColumn(
        name="score",
        read=values.score,
        json=Sql(value=_json_score, vouched=_json_scored),
        csv=Sql(value=_csv_score, vouched=lambda t, v: f"({t} IS NULL OR {v} IS NOT NULL)"),
        takes="a number below ±2^40; `NaN`, `Infinity`, `-Infinity` as Python's json spells "
        'them; `true`/`false`; null or `""` (missing). In CSV: plain decimal notation (no '
        "spaces, no underscores, no hex), Python's spellings of NaN and infinity in any case, or "
        "an empty cell",
    ),
    RowColumn(
        name="sample_id",
        read=values.sample_key,
        json=Sql(value=_key, vouched=_keyed),
        csv=Sql(value=_none_if_empty),
        takes="a string, or an integer (keyed by its digits, as `str()` of Python's integer); "
        'null or `""` for none (CSV: any cell; an empty one names none)',
    ),
    RowColumn(
        name="cluster",
        read=values.cluster,
        json=Sql(value=_key, vouched=_keyed),
        csv=Sql(value=_none_if_empty),
        takes='a string, or an integer (read as its digits, `7` and `"7"` one cluster); null '
        'or `""` for none (CSV: any cell; an empty one names none)',
    ),
    RowColumn(
        name="model",
        read=values.model,
        json=Sql(
            value=lambda t: f"CASE WHEN starts_with({t}, '\"') AND {t} <> '\"\"' THEN {t} END"
        ),
        csv=Sql(value=_none_if_empty),
        takes="anything: only a non-empty string names a model, as in the rows reader",
    ),
    RowColumn(
        name="epoch",
        read=values.epoch,
        # An epoch names one when it is truthy in Python: a non-empty string, a nonzero integer.
        json=Sql(
            value=lambda t: _key(t, f"WHEN {t} IN ('0', 'false') THEN NULL "),
            vouched=lambda t, v: f"({_keyed(t, v)} OR {t} = 'false')",
        ),
        csv=Sql(value=_none_if_empty),
        takes='a string, an integer, null or `false` (0, null, false and `""` name no '
        "epoch; CSV: any cell, an empty one names none and `0` names an epoch)",
    ),
)
NAMES = tuple(column.name for column in COLUMNS)


def typed(texts: str, *, json: bool) -> tuple[str, str]:
    """The rows of `texts` (a query giving each column's raw text as `t_<name>`) with each
    column typed by its declaration, and the condition that every value of a row is vouched
    for. Within a column's condition the terms that cost a function call a row come last: in
    the filter that loads the table DuckDB tests a disjunction's terms only on the rows still
    undecided (in a computed column it would test every term on every row)."""
    typed_columns = ", ".join(
        f"{(column.json if json else column.csv).value(f't_{column.name}')} AS {column.name}"
        for column in COLUMNS
    )
    raw = ", ".join(f"t_{name}" for name in NAMES)
    rows = f"SELECT {raw}, {typed_columns}\nFROM ({texts})"
    vouched = [
        sql.vouched(f"t_{column.name}", column.name)
        for column in COLUMNS
        if (sql := column.json if json else column.csv).vouched is not None
    ]
    return rows, " AND ".join(vouched)
