"""What one run reads, resolved once where it starts: the host records (the folder, or the folder
at the commit a ref named), the eval outputs as given and how to read them, and the evaluation
time. The command line, the Python API and the MCP server each build one and pass it on, so no
later step reads the clock, pins a ref or normalises `--as-of` again.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from evalglass.core.evaluation_time import evaluation_time
from evalglass.records.source import RecordsSource

if TYPE_CHECKING:
    from evalglass.evidence.model import Evidence


@attrs.frozen(kw_only=True)
class RunInputs:
    """A run's inputs. `evaluated_at` is the one instant the run is evaluated at (aware UTC, to
    the second); `records` names where every record, and every file read beside them, comes
    from."""

    records: RecordsSource
    outputs: tuple[str, ...] = ()
    input_format: str | None = None
    model: str | None = None
    evaluated_at: dt.datetime

    @classmethod
    def of(
        cls,
        outputs: Sequence[str | os.PathLike[str]] = (),
        records: str | os.PathLike[str] | RecordsSource = "host_records",
        *,
        records_ref: str | None = None,
        input_format: str | None = None,
        model: str | None = None,
        as_of: dt.date | dt.datetime | None = None,
    ) -> RunInputs:
        """The inputs, resolved: `records` pinned at `records_ref` (RecordError when the ref
        names no commit; a source already pinned is taken as it is), and `as_of` as the
        evaluation time (a date is its midnight UTC, a naive time is UTC; None: the clock,
        read here and nowhere else)."""
        if isinstance(records, RecordsSource):
            if records_ref is not None:
                raise ValueError("a records source already pinned carries its own ref")
            source = records
        else:
            source = RecordsSource.pin(records, records_ref)
        moment = dt.datetime.now(dt.UTC) if as_of is None else as_of
        return cls(
            records=source,
            outputs=tuple(os.fspath(path) for path in outputs),
            input_format=input_format,
            model=model,
            evaluated_at=evaluation_time(moment),
        )

    @property
    def evaluated_on(self) -> dt.date:
        """The evaluation date, which dated records (approvals, expiries) are compared with."""
        return self.evaluated_at.date()

    def evidence(self) -> Evidence:
        """The outputs read into one Evidence (an empty one when none were given)."""
        from evalglass.evidence.read import read_outputs

        return read_outputs(self.outputs, self.input_format, self.model)
