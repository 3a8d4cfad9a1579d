"""The Python API the CLI itself uses: score outputs against host records, get a Scorecard."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from evalglass.evidence.read import read_outputs
from evalglass.records.load import load_records
from evalglass.scorecard import Scorecard, assemble

__all__ = ["Scorecard", "example_paths", "score"]


def score(
    outputs: Sequence[str | os.PathLike[str]],
    records: str | os.PathLike[str] = "host_records",
    *,
    input_format: str | None = None,
    require_gate: bool = False,
) -> Scorecard:
    """Read the host records and the eval outputs, and assemble the scorecard.

    Raises `RecordError` or `OutputError` (both `EvalglassError`) for input it cannot use.
    """
    host = load_records(records)
    evidence = read_outputs(outputs, input_format)
    return assemble(host, evidence, require_gate=require_gate)


def example_paths() -> tuple[Path, Path]:
    """The bundled example: (records folder, eval output), from the installed package or a checkout."""
    installed = resources.files("evalglass") / "example"
    if installed.is_dir():
        base = Path(str(installed))
        return base / "host_records", base / "outputs" / "run.json"
    root = Path(__file__).resolve().parents[1]
    return root / "host_records", root / "examples" / "run.json"
