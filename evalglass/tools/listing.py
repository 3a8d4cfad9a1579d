"""What `evalglass metrics` shows: every metric id an output yields, ready to copy into records.

It lists what was measured; it never says whether a metric may gate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from evalglass.evidence.model import DatasetIdentity, Evidence
from evalglass.numbers import fmt
from evalglass.records._scalars import quote


def table(evidence: Evidence, show: Callable[[str], str] = str) -> str:
    """One line per metric id: id, value, n, missing samples, and the file it came from. `show`
    makes the ids and sources (untrusted text from the outputs) safe to print."""
    rows = [("id", "value", "n", "missing", "source")]
    for m in evidence.measurements.values():
        rows.append(
            (
                show(m.id),
                "—" if m.value is None else fmt(m.value),
                "—" if m.n is None else str(m.n),
                str(m.missing),
                show(m.run.source),
            )
        )
    found = datasets(evidence)
    text = _columns(rows)
    if found:
        shown = [("dataset", "version", "fingerprint", "source")]
        shown += [
            (show(d.name or "—"), show(d.version or "—"), d.fingerprint or "—", show(source))
            for source, d in found
        ]
        text += "\n" + _columns(shown)
    return text


def _columns(rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1] + "\n"
        for row in rows
    )


def datasets(evidence: Evidence) -> list[tuple[str, DatasetIdentity]]:
    """Each distinct dataset an output names or fingerprints, with the file it came from, in
    the metrics' order: what a host pins in datasets.yaml (`names`, `version`, `fingerprint`)."""
    seen: dict[tuple[str, DatasetIdentity], None] = {}
    for m in evidence.measurements.values():
        d = m.run.dataset
        if d is not None and (d.name or d.version or d.fingerprint):
            seen.setdefault((m.run.source, d), None)
    return list(seen)


def skeleton(evidence: Evidence) -> str:
    """A metrics.yaml draft: every id as `draft`, for a person to fill in and get reviewed."""
    lines = [
        "# Drafted by `evalglass metrics --skeleton`: every metric starts as a draft.",
        "# Set each dataset, and promote a metric only in a reviewed change.",
        "metrics:",
    ]
    for metric_id in evidence.measurements:
        # Quoted as the records reader reads it back, escapes and all: an id from an output can
        # never end its line and write a field of its own into the draft.
        # A placeholder the records loader refuses: the draft cannot load until a person names
        # the dataset.
        lines += [f"  {quote(metric_id)}:", "    status: draft", "    dataset: '<dataset id>'"]
    return "\n".join(lines) + "\n"
