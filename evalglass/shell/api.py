"""The Python API the CLI itself uses: score outputs against host records, get a Scorecard."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evalglass._collector import paused
from evalglass.core.scorecard import Scorecard, assemble
from evalglass.evidence.read import read_outputs
from evalglass.records.load import load_records

if TYPE_CHECKING:
    from evalglass.evidence.model import Evidence, Skipped
    from evalglass.records.model import HostRecords
    from evalglass.tools.diagnosis import Diagnosis
    from evalglass.tools.explanation import Explanation
    from evalglass.tools.records_diff import RecordsDiff

__all__ = [
    "Scorecard", "diff_records", "doctor", "example_paths", "explain", "explain_patch", "score",
    "validate",
]


def score(
    outputs: Sequence[str | os.PathLike[str]],
    records: str | os.PathLike[str] = "host_records",
    *,
    input_format: str | None = None,
    require_gate: bool = False,
    records_ref: str | None = None,
) -> Scorecard:
    """Read the host records and the eval outputs, and assemble the scorecard.

    With `records_ref`, the records folder is read as committed at that git ref, not from the
    working tree. Raises `RecordError` or `OutputError` (both `EvalglassError`) for input it
    cannot use.
    """
    host = _host(records, records_ref)
    # Reading a large output and assembling its scorecard build many small acyclic objects.
    with paused():
        evidence = read_outputs(outputs, input_format)
        return assemble(host, evidence, require_gate=require_gate)


def _host(records: str | os.PathLike[str], records_ref: str | None) -> HostRecords:
    if records_ref:
        from evalglass.records.gitref import load_records_at

        return load_records_at(records_ref, records)
    return load_records(records)


def example_paths() -> tuple[Path, Path]:
    """The bundled example: (records folder, eval output), from the installed package or a checkout."""
    from importlib import resources

    installed = resources.files("evalglass") / "example"
    if installed.is_dir():
        base = Path(str(installed))
        return base / "host_records", base / "outputs" / "run.json"
    root = Path(__file__).resolve().parents[2]
    return root / "host_records", root / "examples" / "run.json"


def diff_records(
    base_ref: str,
    records: str | os.PathLike[str] = "host_records",
    outputs: Sequence[str | os.PathLike[str]] = (),
    *,
    head_ref: str | None = None,
    input_format: str | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
) -> RecordsDiff:
    """Compare the records at `base_ref` with `head_ref` (default: the working tree), and the
    authority each side resolves for the given outputs."""
    from evalglass.records.gitref import load_records_at
    from evalglass.tools.records_diff import diff

    base = load_records_at(base_ref, records)
    head = load_records_at(head_ref, records) if head_ref else load_records(records)
    evidence = _read(outputs, input_format, on_skipped) if outputs else None
    return diff(base, head, evidence, base_name=base_ref, head_name=head_ref or "working tree")


def explain(
    metric_id: str,
    outputs: Sequence[str | os.PathLike[str]] = (),
    records: str | os.PathLike[str] = "host_records",
    *,
    input_format: str | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
    records_ref: str | None = None,
) -> Explanation:
    """One metric's value, validity and authority, and the edits that would let it gate, with
    (given outputs) the hypothetical result. Reads only; raises EvalglassError for an unknown id.
    With `records_ref`, the records are read as committed at that git ref."""
    from evalglass.evidence.model import Evidence
    from evalglass.tools.explanation import explain as explain_metric

    host = _host(records, records_ref)
    evidence = _read(outputs, input_format, on_skipped) if outputs else Evidence()
    return explain_metric(metric_id, host, evidence)


def explain_patch(explanation: Explanation, records: str | os.PathLike[str] = "host_records") -> str:
    """The explanation's edits as a unified diff of the records folder, for a person to review,
    fill in and `git apply`. Reads the records files; writes nothing. Empty when no edit is left."""
    from evalglass.records.load import read_text
    from evalglass.records.schema import KINDS
    from evalglass.tools.records_patch import patch

    edits = explanation.checklist.edits
    files = {
        kind: read_text(os.path.join(os.fspath(records), KINDS[kind].filename))
        for kind in {edit.kind for edit in edits}
    }
    return patch(files, os.fspath(records), edits)


def doctor(
    outputs: Sequence[str | os.PathLike[str]] = (),
    records: str | os.PathLike[str] = "host_records",
    *,
    input_format: str | None = None,
    today: dt.date | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
    records_ref: str | None = None,
) -> Diagnosis:
    """Every problem in the records (and, given outputs, between them and the run). Reads only.
    With `records_ref`, the records are read as committed at that git ref."""
    from evalglass.tools.diagnosis import diagnose

    host = _host(records, records_ref)
    evidence = _read(outputs, input_format, on_skipped) if outputs else None
    return diagnose(host, evidence, today or dt.date.today())


def _read(
    outputs: Sequence[str | os.PathLike[str]],
    input_format: str | None,
    on_skipped: Callable[[Skipped], None] | None,
) -> Evidence:
    """The outputs' evidence; each file skipped (it held no run) is passed to `on_skipped`,
    since these results do not list their sources."""
    evidence = read_outputs(outputs, input_format)
    if on_skipped is not None:
        for item in evidence.skipped:
            on_skipped(item)
    return evidence


def validate(records: str | os.PathLike[str] = "host_records") -> int:
    """Load the records folder against its schema and nothing else; the number of records."""
    host = load_records(records)
    kinds = (host.metrics, host.thresholds, host.datasets, host.judges, host.policies,
             host.baselines, host.checks)
    return sum(len(kind) for kind in kinds) + (host.success is not None)
