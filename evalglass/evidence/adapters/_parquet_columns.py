"""The columns of a table of generic rows as the DuckDB queries use them: each column as an
expression of the type the statistics need, a metric as its place among the metrics, and the
checks on the metrics and models the rows name.

Builds SQL text only; the connection is the caller's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import attrs

from evalglass.errors import OutputError

INTEGERS = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                      "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"})  # fmt: skip
# A bit a metric below bit 58 of one 64-bit word, whose top bits count the rows: more metrics than
# this are grouped this many at a time, and looked up in an ENUM rather than a list.
MASK = 58


def quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@attrs.frozen
class Columns:
    """The table's columns and their DuckDB types, and each used column as an expression of
    the type the statistics need (the column itself when it already is)."""

    types: Mapping[str, str]
    # Whether metric, cluster and model hold JSON texts (JSON lines as DuckDB wrote each value
    # back, one text for one value), named by decoding them once grouped, not a row at a time.
    json: bool = False

    def has(self, column: str) -> bool:
        return column in self.types

    def _as(self, column: str, kind: str) -> str:
        return column if self.types[column] == kind else f"CAST({column} AS {kind})"

    @property
    def metric(self) -> str:
        return self._as("metric", "VARCHAR")

    @property
    def score(self) -> str:
        return self._as("score", "DOUBLE")

    @property
    def cluster(self) -> str:
        """The cluster as text, where '' (like null) names none."""
        return self._as("cluster", "VARCHAR")

    @property
    def sample(self) -> str:
        """The sample id as grouped: an integer as itself, anything else as its text, as the
        rows reader compares them ('' and null name none)."""
        return (
            "sample_id" if self.types["sample_id"] in INTEGERS else self._as("sample_id", "VARCHAR")
        )

    def name(self, key: str) -> str:
        """The name a metric, cluster or model key stands for."""
        if not self.json:
            return key
        return key[1:-1] if "\\" not in key else str(json.loads(key))

    @property
    def epoch(self) -> str:
        """An epoch as grouped: '' for none (null, 0, false, empty), as the rows reader reads it."""
        kind = self.types.get("epoch")
        if kind is None:
            return "''"
        if kind == "BOOLEAN":
            return "CASE WHEN epoch THEN 'true' ELSE '' END"
        if kind == "VARCHAR":
            return "coalesce(epoch, '')"
        return "CASE WHEN epoch IS NULL OR epoch = 0 THEN '' ELSE CAST(epoch AS VARCHAR) END"


def refuse_blank(metrics: Sequence[str | None], shown: str, c: Columns) -> list[str]:
    """The metrics' keys, sorted; a row without a metric is an input error, and so, in JSON
    lines, is a metric that is not a string."""
    if any(m is None or m == "" for m in metrics):
        raise OutputError(shown, "metric: expected a non-empty string (a row has none)")
    if c.json and any(m == '""' or not m.startswith('"') for m in metrics if m):
        raise OutputError(shown, "metric: expected a non-empty string")
    return sorted(m for m in metrics if m)


def named_sample(c: Columns) -> str:
    """Whether a row names a sample (null and '' name none)."""
    if c.types["sample_id"] in INTEGERS:
        return "sample_id IS NOT NULL"
    return f"{c.sample} <> ''"


def metric_number(c: Columns, metrics: Sequence[str]) -> str:
    """A row's metric as its place (from 0) in `metrics`, the sorted metrics (null for a metric
    not among them): an integer groups faster than the text. Looked up in a list among few
    metrics, in an ENUM among many."""
    listed = ", ".join(map(quoted, metrics))
    if len(metrics) <= MASK:
        return f"list_position([{listed}], {c.metric}) - 1"
    return f"enum_code(TRY_CAST({c.metric} AS ENUM({listed})))"


def metric_named(number: str, metrics: Sequence[str]) -> str:
    """The metric's key back from its place (`metric_number`), on a result row."""
    return f"[{', '.join(map(quoted, metrics))}][{number} + 1]"


def models_query(c: Columns, every: bool = False) -> str:
    """Distinct models: a few (as stored, which DuckDB answers from the file's dictionaries),
    or `every` one as text, for the message naming them."""
    if every:
        return ("SELECT DISTINCT CAST(model AS VARCHAR) AS m FROM scores "
                "WHERE m IS NOT NULL AND m <> '' ORDER BY m")  # fmt: skip
    # Null and '' name no model: four values hold two that do, if any two do.
    return "SELECT DISTINCT model FROM scores LIMIT 4"
