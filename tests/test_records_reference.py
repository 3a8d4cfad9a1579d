"""The fast host-records loader against its reference: strictyaml with the schema table's schema."""

from __future__ import annotations

import enum
from typing import Any

import attrs
import pytest
import strictyaml  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings

from evalglass.errors import RecordError
from evalglass.records.load import records_from_text
from evalglass.records.model import DatasetRecord, DatasetStatus
from evalglass.records.schema import KINDS, strictyaml_schema
from tests.strategies import RecordDocument, record_documents

_REJECTED = object()


def _reference(doc: RecordDocument) -> Any:
    """What strictyaml plus the approval rule accepts: {id: {field: value}}, or _REJECTED."""
    try:
        data = strictyaml.load(doc.text, strictyaml_schema(doc.kind)).data
    except strictyaml.YAMLError:
        return _REJECTED
    records = {} if data is None else data[doc.kind]
    for fields in records.values():
        if (
            fields.get("approval") == "approved"
            and not {"approved_by", "approved_on"} <= fields.keys()
        ):
            return _REJECTED
        if doc.kind == "thresholds" and not {"value", "max_drop", "max_relative_drop"} & fields.keys():
            return _REJECTED
        if doc.kind == "baselines":
            has_file, has_numbers = "scorecard" in fields, {"value", "n"} & fields.keys()
            if (has_file and has_numbers) or (not has_file and has_numbers != {"value", "n"}):
                return _REJECTED
    return records


def _ours(doc: RecordDocument) -> Any:
    try:
        return records_from_text(doc.kind, doc.text, "doc.yaml")
    except RecordError:
        return _REJECTED


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=record_documents())
def test_fast_loader_accepts_exactly_what_strictyaml_accepts(doc: RecordDocument) -> None:
    """A document loads iff strictyaml with the reference schema and the approval rule takes it."""
    reference, ours = _reference(doc), _ours(doc)
    expected = reference is not _REJECTED and not doc.needs_quoting
    assert (ours is not _REJECTED) == expected, doc.text
    if not expected:
        return
    assert list(ours) == list(reference)
    for record_id, fields in reference.items():
        record = ours[record_id]
        for field in KINDS[doc.kind].fields:
            ours_value, reference_value = getattr(record, field.name), fields.get(field.name)
            if field.name not in fields:  # strictyaml leaves optional fields out; we default them
                reference_value = field.default
            assert _plain(ours_value) == _plain(reference_value), (record_id, field.name)


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


# Record fields code fills in and no host writes: they have no row in the field table.
_SET_BY_CODE = {"origin", "saved", "sample_scores"}


def test_every_record_field_a_host_writes_is_in_the_table() -> None:
    """Each model field, but those code fills in, has a row in the field table, and no more."""
    for spec in KINDS.values():
        model = {attribute.name for attribute in attrs.fields(spec.record)} - _SET_BY_CODE
        table = {field.name for field in spec.fields}
        assert table == model, (
            f"{spec.kind}: add {sorted(model - table)} to schema.KINDS (or to _SET_BY_CODE "
            f"here when code fills them in); drop {sorted(table - model)} from schema.KINDS"
        )


H = "datasets:\n  qa:\n    status: validated\n"


@pytest.mark.parametrize(
    "text",
    [
        H + "    version: x  \n", H + "    version: 'x'#c\n", H + '    version: "x"#c\n',
        H + "    version  : x\n", H + "    'version': x\n", H + '    "version" : x\n',
        H + "    version: x:y\n", H + "    version: x :y\n", H + "    version: x : y\n",
        H + "    version: -\n", H + "    version: --\n", H + "    version: -- x\n",
        H + "    version: ?\n", H + "    version: ??\n",
        H + "    version: :\n", H + "    version: ::\n",
        H + "    version: x#\n", H + "    version: x #\n", H + "    version: '#'\n",
        H + '    version: "\\x41\\u00e9\\U0001F600"\n', H + '    version: "\\N\\_\\e\\a\\0\\/"\n',
        H + '    version: "a\\""\n', H + "    version: 'a\\'\n", H + "    version: ''''\n",
        H + "    version: ''\n", H + '    version: ""\n',
        H + "    version:\n", H + "    version: ~\n",
        H + "    version: x\ty\n", H + "    version: 'x\ty'\n", H + "    version: x # c\tc\n",
        H + "    version: 'x' \t# c\n", H + "    version: x\n  # c\n        # deep comment\n",
        "\ufeff" + H + "    version: x\n", (H + "    version: x\n").replace("\n", "\r\n"),
        "--- # c\n" + H + "    version: x\n", H + "    version: x\n---\n",
        H + "    version: x\n  qb:\n   status: validated\n   version: y\n",
        H + "    version: x\n qb:\n    status: validated\n    version: y\n",
        "datasets:   # c\n  qa:   # c\n    status: validated\n    version: x\n",
        "datasets:\n  qa : \n    status: validated\n    version: x\n",
        "datasets:\n  'q''a' :\n    status: validated\n    version: x\n",
        'datasets:\n  "q\\ta":\n    status: validated\n    version: x\n',
        "datasets:\n  1:\n    status: validated\n    version: 2026-10\n    fingerprint: sha:ab\n",
        H + "    version: x\n    fingerprint: sha256: abc\n",
        H + "    version: x\n  qa:\n    status: validated\n    version: x\n",
        "datasets:\n# only a comment\n", "datasets:\n  qa:\n", "datasets:\n  qa:\n  qb:\n",
    ],
)  # fmt: skip
def test_tricky_spellings_agree_with_strictyaml(text: str) -> None:
    """Hand-picked edge cases of YAML syntax load, or fail, exactly as they do in strictyaml."""
    doc = RecordDocument(kind="datasets", text=text, needs_quoting=False)
    reference, ours = _reference(doc), _ours(doc)
    assert (ours is _REJECTED) == (reference is _REJECTED)
    if ours is not _REJECTED:
        assert ours == {
            key: DatasetRecord(status=DatasetStatus(fields["status"]), version=fields["version"],
                               fingerprint=fields.get("fingerprint"))
            for key, fields in reference.items()
        }  # fmt: skip


@pytest.mark.parametrize(
    ("text", "strictyaml_accepts"),
    [
        # The subset is stricter where YAML would surprise a reader or a reviewer:
        ("thresholds:\n  x:\n    op: <=\n    value: 1\n    approval: proposed\n", True),
        ("thresholds:\n  x:\n    op: '>='\n    value: 1\n    approval: proposed\n...\n", True),
        ("thresholds: ''\n", True),
        ("  thresholds:\n", True),
        ("thresholds:\n  x:\n    op: '>='\n    value:\n      1\n    approval: proposed\n", True),
        ("thresholds:\n  x:\n    op: '>='\n    value: 1\n    approval: |-\n      proposed\n", True),
        # and looser in one place the brief asks for: a file of only comments is no records.
        ("# thresholds come later\n", False),
    ],
)
def test_deliberate_differences_from_strictyaml(text: str, strictyaml_accepts: bool) -> None:
    """Where the subset differs from strictyaml, it does so on purpose, and only here."""
    doc = RecordDocument(kind="thresholds", text=text, needs_quoting=False)
    assert (_reference(doc) is not _REJECTED) is strictyaml_accepts
    assert (_ours(doc) is not _REJECTED) is not strictyaml_accepts
