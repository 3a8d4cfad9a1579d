"""The starter host records `evalglass init` writes: commented files that load as they are, for
the metrics the eval outputs given yield (or none).

It grants nothing. Every metric starts `informational` and every threshold `proposed`; a
dataset the outputs measured starts `proposed`, pinned by the version and fingerprint they
show; no data policy is written, so none is permitted.
Promoting any of them is a person's edit in a reviewed change (docs/promoting-a-gate.md). It
returns text and writes nothing (the shell creates the folder).
"""

from __future__ import annotations

import math
import re

import attrs

from evalglass.evidence.fingerprint import PREFIX
from evalglass.evidence.model import Evidence, Measurement
from evalglass.metric_ids import CHECK_PREFIX
from evalglass.records._scalars import quote
from evalglass.tools.edits import scalar_text

# The files written, in the order a newcomer reads them.
FILES = ("metrics.yaml", "thresholds.yaml", "datasets.yaml", "policies.yaml")


@attrs.frozen
class Starter:
    """The starter files (name -> text), the metric ids they describe, sorted, and one line for
    each thing left out because the records cannot hold it (`validate` would refuse it)."""

    files: tuple[tuple[str, str], ...]
    metrics: tuple[str, ...]
    left_out: tuple[str, ...] = ()


def starter(evidence: Evidence | None) -> Starter:
    """The starter records for the metrics in `evidence` (host checks excluded: checks.yaml
    defines those), or empty ones for None or no metrics. A metric whose id is empty has no
    record, and a value that is not a finite number is no threshold's bar: both are left out
    and said, so the folder written always validates."""
    found = [] if evidence is None else sorted(
        (m for m in evidence.measurements.values() if not m.id.startswith(CHECK_PREFIX)),
        key=lambda m: m.id,
    )  # fmt: skip
    measured = [m for m in found if m.id]
    left_out = [
        f"a metric with an empty id (in {quote(m.run.source)}): a record needs an id"
        for m in found
        if not m.id
    ]
    left_out += [
        f"the threshold of {quote(m.id)}: its value {m.value!r} is not a finite number to start "
        "a bar from; write one by hand"
        for m in measured
        if m.value is not None and not math.isfinite(m.value)
    ]
    datasets = {m.id: _dataset(m) for m in measured}
    pins: dict[str, set[_Pin]] = {}
    for m in measured:
        identity = m.run.dataset
        pin = (identity.version, identity.fingerprint) if identity else (None, None)
        pins.setdefault(datasets[m.id], set()).add(pin)
    files = (
        ("metrics.yaml", _metrics(measured, datasets)),
        ("thresholds.yaml", _thresholds(measured)),
        ("datasets.yaml", _datasets(pins)),
        ("policies.yaml", _policies(sorted(pins))),
    )
    return Starter(files=files, metrics=tuple(m.id for m in measured), left_out=tuple(left_out))


# (version, fingerprint) an output shows of its dataset; either may be None.
_Pin = tuple[str | None, str | None]


def _dataset(m: Measurement) -> str:
    """The dataset id a metric starts with: the name its output gives the data, else where the
    data was read from, else one made of the fingerprint (promptfoo names no dataset: its
    providers are models, never the data), else the task (the id's first part). A person renames
    a made-up id in every file if it is not the data's name."""
    identity = m.run.dataset
    if identity is not None:
        if identity.name:
            return identity.name
        if identity.location:
            return identity.location
        if identity.fingerprint:
            return "data-" + identity.fingerprint.removeprefix(PREFIX)[:8]
    return re.split(r"[/:]", m.id, maxsplit=1)[0] or m.id


_HEAD = "# Written by `evalglass init`. Nothing here gates: "


def _metrics(measured: list[Measurement], datasets: dict[str, str]) -> str:
    lines = [
        _HEAD + "every metric is informational (shown, never",
        "# enforced). To make one a gate, set `status: gating` in a reviewed change, with an",
        "# approved threshold and a validated dataset (docs/promoting-a-gate.md).",
    ]
    if not measured:
        return "\n".join([*lines, "#", "# metrics:", "#   qa/exact_match:",
                          "#     status: informational", "#     dataset: qa-gold", ""])  # fmt: skip
    lines.append("metrics:")
    for m in measured:
        lines += [
            f"  {quote(m.id)}:",
            "    status: informational",
            f"    dataset: {quote(datasets[m.id])}",
        ]
    return "\n".join(lines) + "\n"


def _thresholds(measured: list[Measurement]) -> str:
    lines = [
        _HEAD + "every threshold is proposed. Each bar below is",
        "# the value measured today: choose the bar and its direction ('>=' when higher is",
        "# better, '<=' when lower is), then a person approves it (approval: approved,",
        "# approved_by, approved_on, approved_for) in a reviewed change.",
    ]
    bars = [m for m in measured if m.value is not None and math.isfinite(m.value)]
    if not bars:
        return "\n".join([*lines, "#", "# thresholds:", "#   qa/exact_match:", "#     op: '>='",
                          "#     value: 0.85", "#     approval: proposed", ""])  # fmt: skip
    lines.append("thresholds:")
    for m in bars:
        assert m.value is not None
        n = "n unknown" if m.n is None else f"n {m.n}"
        lines += [
            # Quoted: a file name holding a line break cannot end the comment.
            f"  # measured {scalar_text(m.value)} ({n}) in {quote(m.run.source)}",
            f"  {quote(m.id)}:",
            "    op: '>='",
            f"    value: {scalar_text(m.value)}",
            "    approval: proposed",
        ]
    return "\n".join(lines) + "\n"


def _datasets(pins: dict[str, set[_Pin]]) -> str:
    lines = [
        _HEAD + "a dataset starts proposed, pinned by what its",
        "# outputs show: the version, and the fingerprint of its samples (`evalglass metrics`).",
        "# Once the data is reviewed, set `status: validated`; an output that shows another",
        "# version or fingerprint then blocks its gates.",
    ]
    known: dict[str, _Pin] = {}
    for name, shown in sorted(pins.items()):
        versions = {version for version, _ in shown}
        fingerprints = {fingerprint for _, fingerprint in shown}
        # Only what every output of the dataset agrees on: a pin one of them breaks would block.
        version = versions.pop() if len(versions) == 1 else None
        fingerprint = fingerprints.pop() if len(fingerprints) == 1 else None
        known[name] = (version, fingerprint)
    if not known:
        return "\n".join([*lines, "#", "# datasets:", "#   qa-gold:", "#     status: proposed",
                          "#     version: '2026-10'", ""])  # fmt: skip
    lines.append("datasets:")
    for name, (version, fingerprint) in known.items():
        if version is None and fingerprint is None:
            lines += ["  # Its outputs show no one version or fingerprint: add the version you",
                      "  # measured on before you validate it."]  # fmt: skip
        lines += [f"  {quote(name)}:", "    status: proposed"]
        if version is not None:
            lines.append(f"    version: {quote(version)}")
        if fingerprint is not None:
            lines.append(f"    fingerprint: {quote(fingerprint)}")
    return "\n".join(lines) + "\n"


def _policies(names: list[str]) -> str:
    lines = [
        _HEAD + "no data policy is set, and a metric on data",
        "# without one cannot gate. Write one per dataset once its owners have decided:",
        "# permitted, redacted, restricted or forbidden.",
        "#",
        "# policies:",
    ]
    for name in names or ["qa-gold"]:
        lines += [f"#   {quote(name)}:", "#     policy: permitted"]
    return "\n".join(lines) + "\n"
