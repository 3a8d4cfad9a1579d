"""Where a run's host records come from, resolved once: a folder in the working tree, or that
folder as committed at a git ref, pinned to the commit the ref named when the run started. A
file read beside the records later (a baseline's rows) comes from the same place, even if the
ref has moved since."""

from __future__ import annotations

import os

import attrs

from evalglass.records.model import HostRecords


@attrs.frozen
class RecordsSource:
    """The records folder (as given or found), and with a ref, the ref as given and the full
    id of the commit it named."""

    folder: str
    ref: str | None = None
    commit: str | None = None

    @classmethod
    def pin(cls, folder: str | os.PathLike[str], ref: str | None = None) -> RecordsSource:
        """The folder, at the commit `ref` names now (RecordError when it names none); the
        working tree's folder when `ref` is None. An empty ref is refused, never taken for
        the working tree."""
        if ref is None:
            return cls(os.fspath(folder))
        from evalglass.records.gitref import commit_of

        return cls(os.fspath(folder), ref, commit_of(ref, folder))

    def load(self) -> HostRecords:
        """The host records, from the working tree or the pinned commit. RecordError when they
        do not load."""
        if self.ref is None:
            from evalglass.records.load import load_records

            return load_records(self.folder)
        from evalglass.records.gitref import load_records_at

        return load_records_at(self.ref, self.folder, at=self.commit)
