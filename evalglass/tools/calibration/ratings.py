"""Matches the judge's labels to the humans' by sample id, and reads each label on its scale: the
table every statistic is computed from, with what could not be matched counted, never dropped
silently. Pure: it takes rows already read (inputs.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs

from evalglass.calibration_evidence import LabelScale
from evalglass.errors import CalibrationError
from evalglass.tools.calibration.inputs import LabelFile, RawLabel, Row


@attrs.frozen(kw_only=True)
class Coverage:
    """How the two files' items met: matched items are the only ones any statistic uses."""

    matched: int
    judged_only: int  # judged, no human label
    labelled_only: int  # labelled, no judge label
    judge_blank: int  # rows of the judge's file whose label was empty
    human_blank: int  # rows of the labels file whose label was empty


@attrs.frozen(kw_only=True)
class Ratings:
    """Matched items, sorted by sample id. Categorical labels are codes (indices into
    `categories`, which are ordered: by value on the ordinal scale); interval labels are numbers.
    `humans[i][r]` is rater r's label for item i, None where that rater gave none."""

    scale: LabelScale
    categories: tuple[str, ...]
    raters: tuple[str, ...]
    items: tuple[str, ...]
    judge: tuple[float, ...]
    humans: tuple[tuple[float | None, ...], ...]
    coverage: Coverage


def match(judgments: LabelFile, labels: LabelFile, scale: LabelScale | None = None) -> Ratings:
    """The ratings table of two files. `scale` None reads labels as categories: binary when
    there are at most two, nominal otherwise. Raises CalibrationError when no item matches or
    a label does not fit the scale."""
    judged = {row.sample_id: row for row in judgments.rows if row.label is not None}
    labelled: dict[str, Row | dict[str, Row]] = {}
    for row in labels.rows:
        if row.label is None:
            continue
        if not labels.has_rater:
            # One label per item: the row itself, not a dict of one (200 bytes an item).
            labelled[row.sample_id] = row
            continue
        by_rater = labelled.setdefault(row.sample_id, {})
        assert isinstance(by_rater, dict)
        by_rater[row.rater] = row
    items = tuple(sorted(judged.keys() & labelled.keys()))
    if not items:
        raise CalibrationError(
            judgments.path,
            f"no sample_id is in both this file ({len(judged)} labelled ids) and {labels.path} "
            f"({len(labelled)} labelled ids)",
        )
    raters = tuple(sorted({rater for item in items for rater in _by_rater(labelled[item])}))
    used = [judged[item] for item in items]
    used_labels = [row for item in items for row in _by_rater(labelled[item]).values()]
    coverage = Coverage(
        matched=len(items),
        judged_only=len(judged.keys() - labelled.keys()),
        labelled_only=len(labelled.keys() - judged.keys()),
        judge_blank=sum(row.label is None for row in judgments.rows),
        human_blank=sum(row.label is None for row in labels.rows),
    )
    sources = [(judgments.path, used), (labels.path, used_labels)]
    if scale is None or scale.categorical:
        scale, categories, code = _categories(sources, scale)
    else:
        categories, code = (), {}
    read = _reader(scale, code)
    del used_labels, judged
    # Rows of humans' labels alike are one tuple: on a categorical scale there are few kinds.
    alike: dict[tuple[float | None, ...], tuple[float | None, ...]] = {}
    humans = []
    for item in items:
        given = _by_rater(labelled[item])
        ratings = tuple(
            None if (one := given.get(rater)) is None else read(one, labels.path)
            for rater in raters
        )
        humans.append(alike.setdefault(ratings, ratings))
    return Ratings(
        scale=scale,
        categories=categories,
        raters=raters,
        items=items,
        judge=tuple(read(row, judgments.path) for row in used),
        humans=tuple(humans),
        coverage=coverage,
    )


def _by_rater(labelled: Row | dict[str, Row]) -> dict[str, Row]:
    """An item's labels by rater ("" when the file names none)."""
    return labelled if isinstance(labelled, dict) else {labelled.rater: labelled}


def _reader(scale: LabelScale, code: dict[str, int]) -> Callable[[Row, str], float]:
    # One float object per category, shared by every label of it (a million labels would
    # otherwise be a million floats).
    codes = {key: float(index) for key, index in code.items()}

    def read(row: Row, path: str) -> float:
        if scale is LabelScale.INTERVAL:
            return _number(row, path)
        return codes[_category_key(row, path, scale)]

    return read


def _categories(
    sources: list[tuple[str, list[Row]]], scale: LabelScale | None
) -> tuple[LabelScale, tuple[str, ...], dict[str, int]]:
    """The categories in use, in order, and each one's code. Binary refuses a third label,
    naming where it first appears."""
    seen: dict[str, tuple[str, Row]] = {}
    for path, rows in sources:
        for row in rows:
            seen.setdefault(_category_key(row, path, scale), (path, row))
    if scale is None:
        scale = LabelScale.BINARY if len(seen) <= 2 else LabelScale.NOMINAL
    if scale is LabelScale.ORDINAL:
        ordered = sorted(seen, key=float)
    else:
        ordered = sorted(seen, key=_natural)
    if scale is LabelScale.BINARY and len(ordered) > 2:
        third = list(seen)[2]  # in reading order: the judge's file, then the labels
        path, row = seen[third]
        raise CalibrationError(
            path,
            f"label: the binary scale has two labels, and {third!r} would be a third "
            f"(labels found: {', '.join(repr(k) for k in ordered)})",
            row.line,
        )
    return scale, tuple(ordered), {key: index for index, key in enumerate(ordered)}


def _category_key(row: Row, path: str, scale: LabelScale | None) -> str:
    """A label as category text: numbers compare by value (1, 1.0 and "1" are one category)."""
    if scale is LabelScale.ORDINAL:
        return _number_text(_number(row, path))
    label = row.label
    if isinstance(label, bool):
        return "true" if label else "false"
    if isinstance(label, (int, float)):
        value = _float(label)
        return _number_text(value) if math.isfinite(value) else str(label)
    assert label is not None
    try:
        value = float(label)
    except ValueError:
        return label
    return _number_text(value) if math.isfinite(value) else label


def _number(row: Row, path: str) -> float:
    label: RawLabel = row.label
    value: float | None = None
    if isinstance(label, (int, float)) and not isinstance(label, bool):
        value = _float(label)
    elif isinstance(label, str):
        try:
            value = float(label)
        except ValueError:
            value = None
    if value is None or not math.isfinite(value):
        raise CalibrationError(
            path, f"label: expected a finite number on this scale, got {label!r}", row.line
        )
    return value


def _float(number: float) -> float:
    """A label's number as a float; an integer too large for one is infinite (refused where a
    number is needed, a category of its own where not), never an OverflowError."""
    try:
        return float(number)
    except OverflowError:
        return math.inf


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _natural(key: str) -> tuple[int, float, str]:
    """Numbers first, by value; then text."""
    try:
        return (0, float(key), key)
    except ValueError:
        return (1, 0.0, key)
