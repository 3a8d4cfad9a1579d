"""What an output says of its dataset, checked against the dataset record: which parts (name,
version, fingerprint) the record verified. Authority blocks on what contradicts the record; the
scorecard says what could not be verified, never assuming it.
"""

from __future__ import annotations

import attrs

from evalglass.evidence.model import DatasetIdentity
from evalglass.records.model import DatasetRecord


@attrs.frozen(kw_only=True)
class DatasetCheck:
    """A metric's dataset as its output names it, and whether the record verified each part.

    `record` is the dataset id the metric's record names (None: it names none). A part is
    verified when the output gives it and it equals what the record holds: the name is the
    record's id or one of its `names`; the version is the record's; the fingerprint is the one
    the record pins. `contradicted`: the output names another dataset, or this one at another
    version than the record's (`dataset_mismatch`)."""

    record: str | None
    name: str | None
    version: str | None
    fingerprint: str | None
    name_verified: bool
    version_verified: bool
    fingerprint_verified: bool
    contradicted: bool = False

    @property
    def verified(self) -> bool:
        """Whether the output showed the record's data, contradicting nothing it holds: the
        fingerprint the record pins, or the record's dataset at the record's version. (A record
        that pins a fingerprint blocks every output that does not show it.)"""
        shown = self.fingerprint_verified or (self.name_verified and self.version_verified)
        return shown and not self.contradicted


def names_other(dataset_id: str, record: DatasetRecord, seen: DatasetIdentity | None) -> bool:
    """Whether the output names a dataset that is neither the record's id nor one of its names."""
    return (
        seen is not None
        and seen.name is not None
        and seen.name != dataset_id
        and seen.name not in record.names
    )


def check_dataset(
    dataset_id: str | None, record: DatasetRecord | None, seen: DatasetIdentity | None
) -> DatasetCheck:
    """What the output says of its dataset, part by part verified against the record (nothing
    is verified without one)."""
    name = seen.name if seen is not None else None
    version = seen.version if seen is not None else None
    printed = seen.fingerprint if seen is not None else None
    if dataset_id is None or record is None:
        return DatasetCheck(
            record=dataset_id,
            name=name,
            version=version,
            fingerprint=printed,
            name_verified=False,
            version_verified=False,
            fingerprint_verified=False,
        )
    same = name is not None and not names_other(dataset_id, record, seen)
    other_version = version is not None and record.version is not None and version != record.version
    return DatasetCheck(
        record=dataset_id,
        name=name,
        version=version,
        fingerprint=printed,
        name_verified=same,
        version_verified=same and version is not None and version == record.version,
        fingerprint_verified=record.fingerprint is not None and printed == record.fingerprint,
        contradicted=names_other(dataset_id, record, seen) or (same and other_version),
    )
