"""What a format's numbers mean, declared by its adapter in the words docs/formats.md's tables
give them: n, missing, repeats and groups; what a run, its model and its completeness are; the
dataset identity; the graders; the versions read. scripts/docs.py writes the tables from these
declarations, so a format added or changed shows in the docs or fails `docs.py --check`.

Text only, and nothing here reads a file: an adapter's declaration costs nothing to import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs


@attrs.frozen(kw_only=True)
class Counting:
    """A row of "How each format counts"."""

    n: str
    missing: str
    repeats: str
    groups: str


@attrs.frozen(kw_only=True)
class Runs:
    """A row of "Run, model, statuses, attempts", less the model (FormatDocs.model)."""

    run: str
    complete: str
    # When a second run is a retry completing the first, rather than an attempt of its own.
    evaluation: str
    attempts: str


@attrs.frozen(kw_only=True)
class Identity:
    """A row of "Datasets and fingerprints"."""

    name: str
    version: str
    sample_key: str
    no_fingerprint: str


@attrs.frozen(kw_only=True)
class FormatDocs:
    """Everything docs/formats.md's tables say of one format."""

    # The format as the docs name it ("Inspect", "generic JSON").
    label: str
    # What the README's list says it reads, for a framework's own format; None for the generic
    # formats, which the README names together.
    reads: str | None = None
    versions: str
    model: str
    graders: str
    counting: Counting
    runs: Runs
    identity: Identity


# A format that records no run, no status and no start time: each file is one run, complete.
ONE_FILE_RUNS = Runs(
    run="one file (a dataset read together is one)",
    complete="always (no status is recorded)",
    evaluation="none",
    attempts="none: with no start time, two files measuring one metric are an input error",
)

# A format whose rows name no dataset at all.
NO_DATASET = Identity(name="none", version="none", sample_key="none", no_fingerprint="always")

# A fingerprint the writer put in the file, compared as written.
WRITERS_FINGERPRINT = (
    "none: `dataset.fingerprint` is the writer's own, compared as written (compute it by the "
    "rule above to make it mean the same)"
)

# Generic rows, in JSONL, CSV or Parquet: one set of rules.
ROWS_COUNTING = Counting(
    n="samples scored (a row without a `sample_id` is a sample of its own)",
    missing="samples with no scored row",
    repeats="a sample's rows (its epochs) averaged",
    groups="none",
)


def _cells(*path: str) -> Callable[[FormatDocs], str]:
    def cell(docs: FormatDocs) -> str:
        value: object = docs
        for name in path:
            value = getattr(value, name)
        return str(value)

    return cell


# Each table of docs/formats.md: its header cells after "format", and the field each reads.
TABLES: dict[str, tuple[tuple[str, Callable[[FormatDocs], str]], ...]] = {
    "counting": (
        ("n", _cells("counting", "n")),
        ("missing", _cells("counting", "missing")),
        ("repeats", _cells("counting", "repeats")),
        ("groups", _cells("counting", "groups")),
    ),
    "versions": (
        ("versions read", _cells("versions")),
        ("graders", _cells("graders")),
    ),
    "runs": (
        ("a run is", _cells("runs", "run")),
        ("the model", _cells("model")),
        ("complete when", _cells("runs", "complete")),
        ("one evaluation (a retry completing it)", _cells("runs", "evaluation")),
        ("attempts", _cells("runs", "attempts")),
    ),
    "datasets": (
        ("dataset name", _cells("identity", "name")),
        ("version", _cells("identity", "version")),
        ("sample key (the fingerprint's input)", _cells("identity", "sample_key")),
        ("no fingerprint when", _cells("identity", "no_fingerprint")),
    ),
}


def table(name: str, formats: Sequence[FormatDocs]) -> str:
    """One of TABLES as Markdown, a row per format in the order given; formats whose cells are
    all the same share one row, where the first of them stands, so the table says "these read
    alike" only when their declarations do."""
    columns = TABLES[name]
    rows: dict[tuple[str, ...], list[str]] = {}
    for docs in formats:
        rows.setdefault(tuple(cell(docs) for _, cell in columns), []).append(docs.label)
    lines = [
        "| format | " + " | ".join(header for header, _ in columns) + " |",
        "|---" * (len(columns) + 1) + "|",
    ]
    lines += [
        f"| {', '.join(labels)} | " + " | ".join(cells) + " |" for cells, labels in rows.items()
    ]
    return "\n".join(lines) + "\n"
