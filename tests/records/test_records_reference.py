"""The fast host-records loader against its reference: strictyaml with the schema table's schema."""

from __future__ import annotations

import enum
from typing import Any

import attrs
import pytest
import strictyaml  # type: ignore[import-untyped]
from hypothesis import HealthCheck, event, example, given, reject, settings

from evalglass.errors import RecordError
from evalglass.records.load import records_from_text
from evalglass.records.model import DatasetRecord, DatasetStatus
from evalglass.records.reference import strictyaml_schema
from evalglass.records.schema import KINDS, Field
from tests.strategies import RecordDocument, record_documents

_REJECTED = object()
_PROCESS_ONLY = ("timeout", "cwd", "expect_exit", "cache")


def _breaks_a_rule(kind: str, record_id: str, fields: dict[str, Any]) -> bool:
    """The rules between fields, restated from docs/host-records.md (not from schema.RULES)."""
    given = fields.keys()
    if kind == "metrics":
        # A check's metric gives status only; every other metric names its dataset.
        return (
            set(given) != {"status"} if record_id.startswith("check/") else "dataset" not in given
        )
    if kind == "thresholds":
        if (
            fields.get("approval") == "approved"
            and not {"approved_by", "approved_on", "approved_for"} <= given
        ):
            return True
        if not {"value", "max_drop", "max_relative_drop"} & given:
            return True
        # An approval names the data it saw: a dataset version, a fingerprint or both.
        if "approved_for" in fields and not {"dataset_version", "fingerprint"} & set(
            fields["approved_for"]
        ):
            return True
        return {"approved_on", "expires_on"} <= given and fields["expires_on"] < fields[
            "approved_on"
        ]
    if kind == "datasets":
        # A dataset past proposed pins a version, a fingerprint or both.
        return fields.get("status") != "proposed" and not {"version", "fingerprint"} & given
    if kind == "judges":
        return "min_agreement" in fields and "evidence" not in fields
    if kind == "baselines":
        # Exactly one source of the numbers: a scorecard, a rows file, or value with n.
        files, has_numbers = {"scorecard", "rows"} & given, {"value", "n"} & given
        # It names the data it was measured on: a dataset version, a fingerprint or both.
        if not {"dataset_version", "fingerprint"} & given:
            return True
        if files:
            return len(files) > 1 or bool(has_numbers)
        return has_numbers != {"value", "n"}
    if kind == "checks":
        does = {"run", "shell", "file_exists", "regex"} & given
        if len(does) != 1:
            return True
        (what,) = does
        process = what in ("run", "shell")
        return (
            (process and "timeout" not in fields)
            or (not process and bool(set(_PROCESS_ONLY) & given))
            or ("non_empty" in fields and what != "file_exists")
            or (("in_file" in fields) != (what == "regex"))
        )
    if kind == "success":
        return ("min_pass_rate" in fields) != (fields.get("mode") == "percentage")
    return False


def _reference(doc: RecordDocument) -> Any:
    """What strictyaml plus the rules between fields accepts: {id: {field: value}}, or _REJECTED.

    A file of one record gives {kind: {field: value}} (or {} when it is empty), as the loader does.
    """
    schema = strictyaml_schema(doc.kind)
    try:
        data = strictyaml.load(doc.text, schema).data
    except strictyaml.YAMLError:
        return _REJECTED
    except TypeError:
        # strictyaml 1.7.3 crashes instead of refusing a repeated key whose mapping follows a
        # comment line (in its copy of ruamel, comments.py): what it cannot load, it does not take.
        return _REJECTED
    except NotImplementedError:
        # Its ruamel cannot place some comments ("overlap in comment": comment lines among a
        # list's items, or between a key and its list), in documents it would otherwise take or
        # refuse: the reference gives no answer to compare with.
        reject()
    if data is None:
        return {}
    records = {doc.kind: data[doc.kind]} if KINDS[doc.kind].single else data[doc.kind]
    if any(_breaks_a_rule(doc.kind, record_id, fields) for record_id, fields in records.items()):
        return _REJECTED
    return records


def _ours(doc: RecordDocument) -> Any:
    try:
        return records_from_text(doc.kind, doc.text, "doc.yaml")
    except RecordError:
        return _REJECTED


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=record_documents())
@example(  # found by this test in CI: strictyaml crashes on it, and the loader must refuse it
    doc=RecordDocument(
        kind="thresholds",
        text=(
            "---\nthresholds:\n 'qa/match/accuracy':\n  approved_for:\n# note\n"
            "   dataset_version: 'qa-gold'\n  approval: 'proposed'\n\n  op: '>='\n\n"
            "  approved_for:\n# note\n   dataset_version: 'qa-gold'\n\n"
        ),
        needs_quoting=False,
    )
)
def test_fast_loader_accepts_exactly_what_strictyaml_accepts(doc: RecordDocument) -> None:
    """A document loads iff strictyaml with the reference schema and the field rules take it."""
    reference, ours = _reference(doc), _ours(doc)
    expected = reference is not _REJECTED and not doc.needs_quoting
    event(f"{doc.kind}: {'loads' if expected else 'refused'}")
    assert (ours is not _REJECTED) == expected, doc.text
    if not expected:
        return
    assert list(ours) == list(reference)
    for record_id, fields in reference.items():
        _same(ours[record_id], fields, KINDS[doc.kind].fields, record_id)


def _same(record: object, fields: dict[str, Any], table: tuple[Field, ...], where: str) -> None:
    """`record` holds what strictyaml read into `fields`, and the table's defaults elsewhere."""
    for field in table:
        ours_value, reference_value = getattr(record, field.name), fields.get(field.name)
        if field.name not in fields:  # strictyaml leaves optional fields out; we default them
            assert ours_value == field.default, (where, field.name)
        elif field.nested:
            _same(ours_value, reference_value, field.fields, f"{where}.{field.name}")
        elif field.many:
            assert ours_value == tuple(reference_value), (where, field.name)
        else:
            assert _plain(ours_value) == _plain(reference_value), (where, field.name)


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


# Record fields code fills in and no host writes: they have no row in the field table.
_SET_BY_CODE = {"origin", "saved", "sample_scores", "rows_object", "evidence_read"}


def test_every_record_field_a_host_writes_is_in_the_table() -> None:
    """Each model field, but those code fills in, has a row in the field table, and no more:
    for every record class, and every class a block mapping builds."""
    tables = [(spec.kind, spec.record, spec.fields) for spec in KINDS.values()]
    tables += [
        (f"{spec.kind}.{field.name}", field.type, field.fields)
        for spec in KINDS.values()
        for field in spec.fields
        if field.nested
    ]
    assert len(tables) == len(KINDS) + 2
    for name, record, fields in tables:
        model = {attribute.name for attribute in attrs.fields(record)} - _SET_BY_CODE
        table = {field.name for field in fields}
        assert table == model, (
            f"{name}: add {sorted(model - table)} to schema.KINDS (or to _SET_BY_CODE "
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


J = "judges:\n  g:\n    model: m\n    calibration: calibrated\n    evidence: e\n"
SP = "success:\n  must_pass:\n"


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("judges", J + "    min_agreement:\n     statistic: kappa\n     lower_bound: -1\n"),
        ("judges", J + "    min_agreement:   # c\n\n      # c\n      statistic: 'kappa'  # c\n"
                       "      lower_bound: \"0.6\"\n  h:\n    model: m\n    calibration: drifted\n"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n"),
        ("judges", J + "    min_agreement:\n"),
        ("judges", J + "    min_agreement:\n    - kappa\n"),
        ("judges", J + "    min_agreement:\n      - kappa\n"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      statistic: ac1\n"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      lower_bound:\n"
                       "        x: 1\n"),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n       lower_bound: 0.6\n"),
        ("judges", J + "    min_agreement:\n       statistic: kappa\n      lower_bound: 0.6\n"),
        ("judges", ("judges:\n  g:\n    min_agreement:\n      statistic: kappa\n"
                   "      lower_bound: 0.6\n    model: m\n    calibration: calibrated\n"
                   "    evidence: e\n")),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      lower_bound: 0.6\n"
                       "      # c\n    # c\n  # c\n"),
        ("judges", J + "    min_agreement:\n      'statistic': kappa\n      \"lower_bound\": 0.6\n"),
        ("judges", J + "    min_agreement: #c\n      statistic : kappa\n      lower_bound:  0.6 \n"),
        ("judges", J + "    min_agreement:\n      ? statistic\n"),
        ("judges", J + "    min_agreement:\n\tstatistic: kappa\n"),
        ("success", SP + "  - a\n  - b\n  min_gates: 2\n"),
        ("success", SP + "    - a\n    - b\n"),
        ("success", SP + "  -   a  # c\n  - 'b'\n  - \"c\"\n  - a, b\n  - '-'\n  - -a\n  - ~\n"),
        ("success", SP + "  - a\n  - 'a'\n"),
        ("success", SP + "  -\n"),
        ("success", SP + "  - # c\n"),
        ("success", SP),
        ("success", SP + "  # nothing\n  min_gates: 1\n"),
        ("success", SP + "    - a\n   - b\n"),
        ("success", SP + "    - a: b\n"),
        ("success", SP + "    - - a\n"),
        ("success", SP + "    -\n      - a\n"),
        ("success", SP + "    -a\n"),
        ("success", SP + "    - a\n    b: c\n"),
        ("success", SP + "    a: b\n"),
        ("success", "success:\n  must_pass: a\n"),
        ("success", "success:\n  must_pass: - a\n"),
        ("success", SP + "  -\ta\n"),
        ("success", SP + "  - &x a\n"),
        ("success", "success:\n"),
        ("success", ""),
        ("success", "success:\n  # c\n"),
        ("success", "success: # c\n  min_gates: 3\n"),
        ("success", "success:\n  min_gates: 1\n min_gates: 2\n"),
        ("success", "success:\n  x:\n    min_gates: 1\n"),
        ("checks", "checks:\n  'a/b':\n    file_exists: f\n"),
        ("checks", "checks:\n  \"a\\n\":\n    file_exists: f\n"),
        ("checks", "checks:\n  a:\n    regex: 'x('\n    in_file: f\n"),
    ],
)  # fmt: skip
def test_block_spellings_agree_with_strictyaml(kind: str, text: str) -> None:
    """Hand-picked nested mappings, lists and single-record files load, or fail, as strictyaml."""
    doc = RecordDocument(kind=kind, text=text, needs_quoting=False)
    reference, ours = _reference(doc), _ours(doc)
    assert (ours is _REJECTED) == (reference is _REJECTED)
    if ours is not _REJECTED:
        for record_id, fields in reference.items():
            _same(ours[record_id], fields, KINDS[kind].fields, record_id)


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
    _differs(RecordDocument(kind="thresholds", text=text, needs_quoting=False), strictyaml_accepts)


@pytest.mark.parametrize(
    ("text", "strictyaml_accepts"),
    [
        # A list item is one line too: YAML would continue it on a deeper line.
        ("success:\n  must_pass:\n    - a\n     - b\n", True),
        ("success:\n  must_pass:\n    - a\n      b\n", True),
        ("success:\n  must_pass:\n    - <a\n", True),
        ("success: ''\n", True),
        ("# no policy yet\n", False),
    ],
)
def test_the_same_differences_hold_for_blocks_and_single_records(
    text: str, strictyaml_accepts: bool
) -> None:
    """Lists and single-record files keep exactly the deliberate differences, no new ones."""
    _differs(RecordDocument(kind="success", text=text, needs_quoting=False), strictyaml_accepts)


def _differs(doc: RecordDocument, strictyaml_accepts: bool) -> None:
    assert (_reference(doc) is not _REJECTED) is strictyaml_accepts
    assert (_ours(doc) is not _REJECTED) is not strictyaml_accepts
