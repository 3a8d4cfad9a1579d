"""A block's rows sent to their metrics: where each metric's rows lie in the block (a slice
when the metrics repeat in one order, else the rows' positions), each metric's part of a column,
converted once where metrics share their values, and whether a block's scores are all numbers
the block path sums. Pure: no I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from evalglass.evidence import aggregate
from evalglass.evidence.adapters._row_stats import drain, list_append

_LIMIT = aggregate.LIMIT


def take(column: list[Any], where: slice | list[int]) -> list[Any]:
    """The column's values at a route's rows."""
    return column[where] if type(where) is slice else list(map(column.__getitem__, where))


def integers(values: list[Any]) -> bool:
    """Whether every value is an integer (not a boolean, not a float)."""
    return set(map(type, values)) == {int}


def each(
    column: list[Any],
    routes: list[tuple[str, slice | list[int]]],
    convert: Callable[[list[Any]], list[Any] | None],
    alike: Callable[[list[Any]], bool] | None = None,
) -> list[list[Any]] | None:
    """The column's values of each route, converted (None when one cannot be). Values equal
    to another route's are converted once: where every row of a sample names its id and
    cluster, each metric's are the same. Equal is not alike where `convert` takes numbers
    (`1 == 1.0 == True`): then values are taken as converted ones only if `alike` too."""
    if routes and type(routes[0][1]) is not slice:
        # Rows in no fixed order: the metrics' values differ, and the column converted at once
        # costs one call, not one a metric.
        whole = convert(column)
        return None if whole is None else [take(whole, where) for _, where in routes]
    done: list[tuple[list[Any], list[Any]]] = []
    out = []
    for _, where in routes:
        part = take(column, where)
        for raw, converted in done:
            if part == raw and (alike is None or alike(part)):
                break
        else:
            got = convert(part)
            if got is None:
                return None
            done.append((part, got))
            converted = got
        out.append(converted)
    return out


def routes_of(metrics: list[Any]) -> list[tuple[Any, slice | list[int]]]:
    """Each metric of a block and where its rows are: a slice when the metrics repeat in one
    order (each sample scored on the same metrics, or one metric throughout), else the rows'
    positions."""
    if not metrics:
        return []
    first, period = metrics[0], len(metrics)
    try:
        period = metrics.index(first, 1)
    except ValueError:
        pass
    head = metrics[:period]
    if metrics[period:] == metrics[:-period] and len(set(head)) == period:
        return [(metric, slice(j, None, period)) for j, metric in enumerate(head)]
    at: defaultdict[Any, list[int]] = defaultdict(list)
    drain(map(list_append, map(at.__getitem__, metrics), range(len(metrics))))
    return list(at.items())


def within_or_none(scores: list[Any]) -> bool:
    """Whether every score given is a number, finite and below ±2^40; some are None."""
    given = [score for score in scores if score is not None]
    return not given or within(given)


def within(scores: list[Any]) -> bool:
    """Whether every score is a number below ±2^40 (else the block is read row by row, where a
    score of another kind or beyond is named). orjson reads no NaN or infinity; one kept here
    would be kept by the row path too."""
    try:
        return bool(-_LIMIT < min(scores) and max(scores) < _LIMIT)
    except TypeError:  # text or a list (compared with a number), None
        return False
