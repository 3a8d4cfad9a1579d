"""What each format declares of its numbers (its docs rows), and the tables made of them."""

from __future__ import annotations

import attrs

from evalglass.evidence import format_docs, registry
from evalglass.evidence.format_docs import Counting, FormatDocs


def test_every_built_in_format_declares_its_docs_rows() -> None:
    """Each format of the registry declares its docs, under a label no other format has, and a
    framework's own format says what the README lists it as (the generic ones are named
    together there)."""
    adapters = registry.builtin()
    declared = [a.docs for a in adapters]
    assert all(isinstance(d, FormatDocs) for d in declared)
    labels = [d.label for d in declared if d is not None]
    assert len(set(labels)) == len(labels) == len(registry.FORMATS)
    frameworks = {name for name, _ in registry.FRAMEWORKS}
    assert {a.name for a in adapters if a.docs is not None and a.docs.reads} == frameworks


def _docs(label: str, n: str) -> FormatDocs:
    rows = registry.by_name("rows")
    assert rows is not None and rows.docs is not None
    return attrs.evolve(rows.docs, label=label, counting=attrs.evolve(rows.docs.counting, n=n))


def test_formats_that_read_alike_share_a_row_where_the_first_stands() -> None:
    """The counting table: one row per format in the order given, header first; two formats
    whose every cell is equal share the first one's row, labels joined; one differing cell
    parts them."""
    table = format_docs.table("counting", [_docs("A", "one"), _docs("B", "two"), _docs("C", "one")])
    rest = "samples with no scored row | a sample's rows (its epochs) averaged | none |"
    assert table.splitlines() == [
        "| format | n | missing | repeats | groups |",
        "|---|---|---|---|---|",
        f"| A, C | one | {rest}",
        f"| B | two | {rest}",
    ]


def test_every_table_has_a_cell_for_each_field_a_format_declares() -> None:
    """The tables together show every text field of a declaration, so nothing declared goes
    unprinted (the README's `reads` aside, which the README's list shows)."""
    probe = FormatDocs(
        label="probe",
        versions="f-versions",
        model="f-model",
        graders="f-graders",
        counting=Counting(n="f-n", missing="f-missing", repeats="f-repeats", groups="f-groups"),
        runs=format_docs.Runs(
            run="f-run", complete="f-complete", evaluation="f-evaluation", attempts="f-attempts"
        ),
        identity=format_docs.Identity(
            name="f-name", version="f-version", sample_key="f-key", no_fingerprint="f-nofp"
        ),
    )
    shown = "".join(format_docs.table(name, [probe]) for name in format_docs.TABLES)
    fields = [probe.versions, probe.model, probe.graders]
    fields += [str(v) for part in (probe.counting, probe.runs, probe.identity)
               for v in attrs.astuple(part)]  # fmt: skip
    assert [f for f in fields if f"| {f} |" not in shown] == []
