"""Judges that name calibration evidence: read the file beside the records into the judge record,
the document or why it could not be used.

Like a baseline's saved scorecard, the file is a reviewed artifact beside the records, read
through a callable so the same code serves the working tree and a git ref, and a path that
leaves the records folder is refused in both. A file that is missing or is not calibration
evidence is not a load error: it is recorded, and the judge's metrics block on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from evalglass.errors import EvalglassError, RecordError
from evalglass.records.baseline_files import TextReader, inside_records
from evalglass.records.model import JudgeRecord, UnreadableEvidence

if TYPE_CHECKING:
    from evalglass.calibration_evidence import CalibrationEvidence


def attach_evidence(judges: Mapping[str, JudgeRecord], read: TextReader) -> dict[str, JudgeRecord]:
    """Every judge, with those naming an evidence file holding what was read from it."""
    return {
        judge_id: _filled(judge_id, judge, read) if judge.evidence else judge
        for judge_id, judge in judges.items()
    }


def _filled(judge_id: str, judge: JudgeRecord, read: TextReader) -> JudgeRecord:
    # The document's reader loads only for records that name evidence.
    from evalglass.calibration_evidence import evidence_from_text

    assert judge.evidence is not None
    name = inside_records(judge.evidence)
    if name is None:
        raise RecordError(
            judge.origin.path,
            f"judge '{judge_id}': evidence '{judge.evidence}' is outside the records folder; a "
            "calibration evidence file lives beside the records",
            judge.origin.line,
        )
    found: CalibrationEvidence | UnreadableEvidence
    try:
        text = read(name)
    except EvalglassError as exc:
        found = UnreadableEvidence(f"cannot be read: {exc.message}")
        return attrs.evolve(judge, evidence_read=found)
    if text is None:
        found = UnreadableEvidence("is not there: no such file next to the records")
    else:
        try:
            found = evidence_from_text(text, name)
        except EvalglassError as exc:
            line = f" (line {exc.line})" if exc.line is not None else ""
            found = UnreadableEvidence(f"is not calibration evidence: {exc.message}{line}")
    return attrs.evolve(judge, evidence_read=found)
