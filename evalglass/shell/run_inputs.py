"""What one run reads, resolved once where it starts: the host records (the folder, or the folder
at the commit a ref named), the eval outputs as given and how to read them, the evaluation time,
and any earlier scorecard to show it beside. Each verb of the Python API builds one (the command
line and the MCP server call those verbs), so no later step reads the clock, pins a ref or
normalises `--as-of` again, and everything the scorecard names travels into `assemble`.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from evalglass.core.evaluation_time import evaluation_time
from evalglass.core.scorecard import RecordsAt
from evalglass.records.source import RecordsSource

if TYPE_CHECKING:
    from evalglass.core.comparison import Earlier
    from evalglass.evidence.model import Evidence


@attrs.frozen(kw_only=True)
class RunInputs:
    """A run's inputs. `evaluated_at` is the one instant the run is evaluated at (aware UTC, to
    the second); `records` names where every record, and every file read beside them, comes
    from; `compare` an earlier scorecard JSON, and `base_committed_at` when the commit the
    records were pinned to was made (the base that scorecard should describe)."""

    records: RecordsSource
    outputs: tuple[str, ...] = ()
    input_format: str | None = None
    model: str | None = None
    evaluated_at: dt.datetime
    compare: str | None = None
    base_committed_at: dt.datetime | None = None

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
        compare: str | os.PathLike[str] | None = None,
    ) -> RunInputs:
        """The inputs, resolved: `records` pinned at `records_ref` (RecordError when the ref
        names no commit; a source already pinned is taken as it is), and `as_of` as the
        evaluation time (a date is its midnight UTC, a naive time is UTC; None: the clock,
        read here and nowhere else). With `compare` and pinned records, the time their commit
        was made (EvalglassError when git cannot say)."""
        if isinstance(records, RecordsSource):
            if records_ref is not None:
                raise ValueError("a records source already pinned carries its own ref")
            source = records
        else:
            source = RecordsSource.pin(records, records_ref)
        moment = dt.datetime.now(dt.UTC) if as_of is None else as_of
        committed = None
        if compare is not None and source.ref is not None and source.commit is not None:
            committed = _committed_at(source.ref, source.commit)
        return cls(
            records=source,
            outputs=tuple(os.fspath(path) for path in outputs),
            input_format=input_format,
            model=model,
            evaluated_at=evaluation_time(moment),
            compare=None if compare is None else os.fspath(compare),
            base_committed_at=committed,
        )

    @property
    def evaluated_on(self) -> dt.date:
        """The evaluation date, which dated records (approvals, expiries) are compared with."""
        return self.evaluated_at.date()

    @property
    def records_at(self) -> RecordsAt | None:
        """The ref the records were read at and the commit it named; None for the working tree."""
        if self.records.ref is None or self.records.commit is None:
            return None
        return RecordsAt(self.records.ref, self.records.commit)

    def evidence(self) -> Evidence:
        """The outputs read into one Evidence (an empty one when none were given)."""
        from evalglass.evidence.read import read_outputs

        return read_outputs(self.outputs, self.input_format, self.model)

    def earlier(self) -> Earlier | None:
        """The earlier scorecard to compare with, read (ContractError, exit 4, for a file that
        is not a scorecard); None when none was given."""
        if self.compare is None:
            return None
        from evalglass.contract import load_scorecard
        from evalglass.core.comparison import Earlier

        return Earlier(
            scorecard=load_scorecard(self.compare),
            source=self.compare,
            base_committed_at=self.base_committed_at,
        )


def _committed_at(ref: str, commit: str) -> dt.datetime:
    """When `commit` (the one `ref` named) was made, its committer time, from the repository
    around the current directory; EvalglassError naming the ref when git cannot say."""
    from evalglass.errors import EvalglassError
    from evalglass.records import git_process

    try:
        out = git_process.run(
            ["show", "-s", "--format=%ct", f"{commit}^{{commit}}", "--"], timeout=30
        )
        return dt.datetime.fromtimestamp(int(out.decode().split()[0]), dt.UTC)
    except (git_process.GitFailed, ValueError, IndexError) as exc:
        raise EvalglassError(ref, f"cannot read the commit's time: {exc}") from None
