"""`evalglass metrics` for a terminal or a machine: the metric ids an output yields. Reads
Evidence; never says whether a metric may gate."""

from __future__ import annotations

import math

from evalglass.contract import json_text
from evalglass.evidence.model import Evidence
from evalglass.render import Format
from evalglass.render.safe_text import escape
from evalglass.tools import listing


def render(evidence: Evidence, fmt: Format) -> str:
    """What the outputs measured, as a terminal table or JSON; nothing here says whether a metric
    may gate. ValueError for any other format."""
    if fmt is Format.TERMINAL:
        return listing.table(evidence, escape)
    if fmt is not Format.JSON:
        raise ValueError(f"metrics has no {fmt.value} format")
    doc: dict[str, object] = {
        "schema_version": 1,
        "metrics": [
            {
                "id": m.id,
                # JSON has no NaN: a value that is missing or not finite is null, as in a scorecard.
                "value": m.value if m.value is not None and math.isfinite(m.value) else None,
                "n": m.n,
                "missing": m.missing,
                "source": m.run.source,
            }
            for m in evidence.measurements.values()
        ],
    }
    found = listing.datasets(evidence)
    if found:
        doc["datasets"] = [
            {"name": d.name, "version": d.version, "fingerprint": d.fingerprint, "source": source}
            for source, d in found
        ]
    if evidence.skipped:
        # As in the scorecard: present only when a file held no run to read.
        doc["skipped"] = [{"source": s.source, "reason": s.reason} for s in evidence.skipped]
    return json_text(doc) + "\n"
