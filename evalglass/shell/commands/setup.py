"""`init`: a new records folder of starter files that grant nothing, and the next commands.

The one command that creates records, and only a folder that does not exist yet: it never
changes an existing one, so it can take no decision a person has made."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from evalglass.errors import RecordError
from evalglass.shell.commands.app import echo_out, input_errors_exit
from evalglass.shell.commands.options import (
    InputFormat,
    NewRecords,
    Outputs,
    note_skipped,
    reading,
)


@input_errors_exit
def init(
    outputs: Outputs = None,
    records: NewRecords = Path("host_records"),
    input_format: InputFormat = None,
) -> None:
    """Create a records folder with commented starter files, for the metrics the eval outputs
    yield (or empty ones): every metric informational, every threshold proposed, nothing gates.
    Refuses a folder that exists."""
    from evalglass.tools.starter import starter

    if records.exists() or records.is_symlink():
        raise RecordError(
            str(records),
            "already exists: evalglass init never changes a records folder; edit its files, "
            "or give --records a new folder",
        )
    evidence = None
    if outputs:
        from evalglass.evidence.read import read_outputs

        with reading():
            evidence = read_outputs(outputs, input_format)
        note_skipped(evidence.skipped)
    made = starter(evidence)
    _create(records, made.files)
    summary = _summary(records, [name for name, _ in made.files], made.metrics, outputs or [])
    echo_out("\n".join([summary, *(f"left out: {why}" for why in made.left_out)]))


def _create(folder: Path, files: tuple[tuple[str, str], ...]) -> None:
    """The folder and its files, each created new: an existing one is an error, never replaced."""
    try:
        folder.mkdir(parents=True)
        for name, text in files:
            with open(folder / name, "x", encoding="utf-8", newline="\n") as out:
                out.write(text)
    except FileExistsError:
        raise RecordError(str(folder), "already exists: evalglass init never changes it") from None
    except OSError as exc:
        raise RecordError(str(folder), f"cannot be created: {exc.strerror or exc}") from None


def _summary(folder: Path, names: list[str], metrics: tuple[str, ...], outputs: list[Path]) -> str:
    """What was created, and the next three commands, runnable as printed."""
    where = [] if folder == Path("host_records") else ["--records", str(folder)]
    given = [os.fspath(p) for p in outputs]
    count = f"{len(metrics)} metric{'' if len(metrics) == 1 else 's'}, all informational"
    what = count if metrics else "no metrics yet"
    made = f"created {folder}{os.sep}: {', '.join(names)} ({what}; nothing gates until a person "
    lines = [made + "promotes it)", "next:"]
    if metrics:
        steps = [["validate", *where], ["score", *given, *where],
                 ["explain", metrics[0], *given, *where]]  # fmt: skip
    else:
        steps = [["validate", *where], ["metrics", "OUTPUTS"], ["score", "OUTPUTS", *where]]
    lines += ["  evalglass " + shlex.join(step) for step in steps]
    return "\n".join(lines)
