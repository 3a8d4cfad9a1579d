"""`calibrate()`: two files in, calibration evidence out; the one entry point the command and
Python callers share. It reads files (and, for the judge's model, the judges record) but never
writes anything; writing the evidence is the caller's choice.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from pathlib import Path

from evalglass._inputs import AGREEMENT_CELLS
from evalglass._version import __version__
from evalglass.calibration_evidence import (
    CalibrationEvidence,
    Estimate,
    InputFile,
    Items,
    LabelScale,
)
from evalglass.errors import CalibrationError, install_hint
from evalglass.tools.calibration.inputs import read_label_file
from evalglass.tools.calibration.names import DEFAULT_RESAMPLES, DEFAULT_SEED, LEVEL
from evalglass.tools.calibration.ratings import Ratings, match


def calibrate(
    judgments: Path,
    labels: Path,
    *,
    judge: str,
    judge_model: str | None = None,
    scale: LabelScale | None = None,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    records: Path | None = None,
) -> CalibrationEvidence:
    """Measure how the judge's labels agree with the humans'. The judge's model is
    `judge_model`, else the `model` of the judge's record in `records`/judges.yaml, else
    unknown. Raises CalibrationError (or RecordError for unreadable records) on bad input."""
    measure = _measurer()
    judged = read_label_file(judgments, raters_allowed=False)
    labelled = read_label_file(labels, raters_allowed=True)
    ratings = match(judged, labelled, scale)
    files = InputFile(judged.path, judged.sha256), InputFile(labelled.path, labelled.sha256)
    # The rows are in `ratings` now: a million of each file's need not outlive the match.
    del judged, labelled
    _refuse_too_many_cells(ratings, str(labels))
    statistics, confusion, no_consensus = measure(ratings, resamples, seed)
    coverage = ratings.coverage
    return CalibrationEvidence(
        judge=judge,
        judge_model=judge_model or (None if records is None else model_on_record(records, judge)),
        scale=ratings.scale,
        categories=ratings.categories,
        raters=ratings.raters,
        statistics=statistics,
        confusion=confusion,
        items=Items(
            matched=coverage.matched,
            judged_only=coverage.judged_only,
            labelled_only=coverage.labelled_only,
            judge_blank=coverage.judge_blank,
            human_blank=coverage.human_blank,
            no_consensus=no_consensus,
        ),
        level=LEVEL,
        resamples=resamples,
        seed=seed,
        judgments=files[0],
        labels=files[1],
        evalglass_version=__version__,
        date=_today(),
    )


Measured = tuple[dict[str, Estimate], tuple[tuple[int, ...], ...] | None, int]


def _refuse_too_many_cells(ratings: Ratings, shown: str) -> None:
    """Refuse, before any table is built, a label set whose agreement tables would not fit: one
    row per item, distinct labels squared cells per table (the judge's confusion table, the
    coincidences of everyone, of the humans, and of each pair of humans)."""
    if not ratings.scale.categorical:
        return
    k, n, raters = len(ratings.categories), len(ratings.items), len(ratings.raters)
    tables = 2 + (1 + raters * (raters - 1) // 2 if raters > 1 else 0)
    cells = n * k * k * tables
    limit = AGREEMENT_CELLS.limit()
    if cells > limit:
        raise CalibrationError(
            shown,
            f"{k:,} distinct labels on the {ratings.scale.value} scale over {n:,} items need "
            f"{cells:,} cells of agreement tables, past the {limit:,} cap; too many labels for "
            f"these statistics (set {AGREEMENT_CELLS.variable} to raise it)",
        )


def _measurer() -> Callable[[Ratings, int, int], Measured]:
    """The numeric part, which needs numpy (the `calibrate` extra): checked before any work."""
    try:
        from evalglass.tools.calibration import bootstrap, tables
    except ModuleNotFoundError as exc:
        if exc.name != "numpy":
            raise
        raise CalibrationError(
            "numpy", f"not installed; evalglass calibrate needs it: {install_hint('calibrate')}"
        ) from None

    def measure(ratings: Ratings, resamples: int, seed: int) -> Measured:
        plan = tables.plan(ratings)
        result = bootstrap.run(plan, resamples=resamples, seed=seed, level=LEVEL)
        by_statistic = {e.statistic: e.n for e in plan.estimators}
        statistics = {
            s.value: Estimate(b.value, b.low, b.high, by_statistic[s], b.undefined)
            for s, b in result.statistics.items()
        }
        confusion = None
        if plan.confusion is not None:
            k = len(ratings.categories)
            cells = [round(c) for c in result.point_sums[plan.confusion]]
            confusion = tuple(tuple(cells[r * k : (r + 1) * k]) for r in range(k))
        return statistics, confusion, plan.no_consensus

    return measure


def model_on_record(records: Path, judge: str) -> str | None:
    """The model of the judge's record in `records`/judges.yaml, read only; None when there is
    no such file or record."""
    from evalglass.records.load import records_from_text
    from evalglass.records.model import JudgeRecord

    path = records / "judges.yaml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(str(path), f"cannot be read: {exc}") from None
    record = records_from_text("judges", text, str(path)).get(judge)
    return record.model if isinstance(record, JudgeRecord) else None


def _today() -> str:
    """Today's UTC date, or SOURCE_DATE_EPOCH's for reproducible output."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        if epoch
        else datetime.datetime.now(datetime.UTC)
    )
    return moment.date().isoformat()
