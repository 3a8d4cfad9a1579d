"""The JSON Schema of each records file, as an editor's YAML language server applies it: the bundled
and documented examples pass, and it agrees with the strictyaml reference on generated documents."""

from __future__ import annotations

import enum
import math
import re
import warnings
from pathlib import Path
from typing import Any

import attrs
import pytest
import strictyaml  # type: ignore[import-untyped]
from hypothesis import HealthCheck, event, given, reject, settings
from jsonschema import Draft7Validator, Draft202012Validator
from strictyaml.ruamel import main as ruamel  # type: ignore[import-untyped]
from strictyaml.ruamel.nodes import MappingNode, ScalarNode  # type: ignore[import-untyped]

from evalglass.records.json_schema import json_schema, json_schemas
from evalglass.records.reference import strictyaml_schema
from evalglass.records.rules import RULES, NotBefore, cross_field_problem
from evalglass.records.schema import KINDS, Field, Pattern
from tests.strategies import RecordDocument, record_documents

ROOT = Path(__file__).resolve().parents[2]
_REJECTED = object()


class NotData(Exception):
    """The text is not YAML an editor could turn into JSON data (or has duplicate keys)."""


# YAML 1.2 core schema, as the YAML language server resolves plain scalars.
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")


def _core(text: str) -> Any:
    if _NULL.fullmatch(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.fullmatch(text):
        return int(text)
    if _OCT.fullmatch(text):
        return int(text, 0)
    if _HEX.fullmatch(text):
        return int(text, 0)
    if _FLOAT.fullmatch(text):
        return float(text)
    if _INF.fullmatch(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.fullmatch(text):
        return math.nan
    return text


@attrs.frozen
class YamlData:
    """A document as an editor's JSON data, with what strictyaml sees that the data does not."""

    data: Any
    # Each scalar under the top-level key, with the keys leading to it (None for a list item).
    scalars: list[tuple[tuple[str | None, ...], ScalarNode]]
    # Each list under the top-level key: its items' texts, and their values as JSON data.
    lists: list[tuple[list[str], list[Any]]]
    syntax: bool  # anchors, aliases, tags, flow style, uneven sibling indents: strictyaml refuses


def yaml_data(text: str) -> YamlData:
    """The document as JSON data (YAML 1.2 core types; keys as written)."""
    try:
        root = ruamel.compose(text, Loader=ruamel.SafeLoader)
    except Exception as exc:  # any parse error: not data for an editor either
        raise NotData(str(exc)) from exc
    scalars: list[tuple[tuple[str | None, ...], ScalarNode]] = []
    lists: list[tuple[list[str], list[Any]]] = []
    syntax = False

    def convert(node: Any, path: tuple[Any, ...]) -> Any:
        nonlocal syntax
        core_tag = node.tag.startswith("tag:yaml.org,2002:")
        if node.anchor or not core_tag or getattr(node, "flow_style", None):
            syntax = True
        if isinstance(node, ScalarNode):
            if path:
                scalars.append((path, node))
            return _core(node.value) if node.style is None else node.value
        if isinstance(node, MappingNode):
            # strictyaml also refuses sibling mappings at different indents; data cannot show it.
            columns = {v.start_mark.column for _, v in node.value if isinstance(v, MappingNode)}
            syntax |= len(columns) > 1
            out: dict[str, Any] = {}
            for key, value in node.value:
                if not isinstance(key, ScalarNode) or key.value in out:
                    raise NotData("complex or duplicate key")
                out[key.value] = convert(value, (*path, key.value))
            return out
        values = [convert(item, (*path, None)) for item in node.value]
        texts = [item.value if isinstance(item, ScalarNode) else "" for item in node.value]
        lists.append((texts, values))
        return values

    data = None if root is None else convert(root, ())
    return YamlData(data, scalars, lists, syntax)


def _field_at(kind: str, path: tuple[str | None, ...]) -> Field | None:
    """The table's field a scalar at `path` (top-level key first) is the value of, if any."""
    spec = KINDS[kind]
    names = list(path[1:] if spec.single else path[2:])
    if names and names[-1] is None:
        names.pop()  # a list item: typed as its list's field
    table, field = spec.fields, None
    for name in names:
        field = next((f for f in table if f.name == name), None)
        if field is None:
            return None
        table = field.fields
    return field


def beyond_json(kind: str, doc: YamlData) -> str | None:
    """Why JSON data cannot show what strictyaml sees in this document, or None.

    Each is a deliberate, documented difference: an editor may be stricter or looser here."""
    if doc.syntax:
        return "YAML syntax strictyaml refuses (anchors, tags, flow style, uneven indents)"
    for path, node in doc.scalars:
        field = _field_at(kind, path)
        if field is None or field.nested:
            continue
        why = _lossy(field, node.value, node.style is None)
        if why:
            return why
    for texts, values in doc.lists:
        json_unique = Draft202012Validator({"uniqueItems": True}).is_valid(values)
        if json_unique != (len(set(texts)) == len(texts)):
            return "list items that repeat as text but not as JSON values, or the other way"
    for rule in RULES.get(kind, ()):
        if isinstance(rule, NotBefore) and _breaks_order(kind, doc.data, rule):
            return "a rule between two values (JSON Schema compares none)"
    return None


def _breaks_order(kind: str, data: Any, rule: NotBefore) -> bool:
    held = data.get(kind) if isinstance(data, dict) else None
    records = held.values() if isinstance(held, dict) else ()
    for fields in records:
        if not isinstance(fields, dict):
            continue
        later, earlier = fields.get(rule.field), fields.get(rule.earlier)
        if isinstance(later, str) and isinstance(earlier, str) and later < earlier:
            return True
    return False


def _lossy(field: Field, text: str, plain: bool) -> str | None:
    kind = field.type
    if plain:
        value = _core(text)
        if kind in (str, Pattern) and value is None and text:
            return "text field written as a YAML null (~, null)"
        if kind in (int, float, bool) and (_OCT.fullmatch(text) or _HEX.fullmatch(text)):
            return "octal or hex number"
        if kind is int and isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return "integer field written as a whole float (1.0, 1e3)"
        if kind is float and isinstance(value, float) and math.isnan(value):
            return "NaN"
        if kind is bool and isinstance(value, int | float) and value in (0, 1):
            return None if text in ("0", "1") else "boolean written as another spelling of 0 or 1"
        return None
    if kind in (int, float) and (_INT if kind is int else _FLOAT).fullmatch(text):
        number = float(text)
        low = -math.inf if field.min is None else field.min
        high = math.inf if field.max is None else field.max
        above = number > low if field.min_exclusive else number >= low
        if not (math.isfinite(number) and above and number <= high):
            return "quoted number out of range (a pattern checks its form only)"
    return None


def _reference(doc: RecordDocument) -> Any:
    """strictyaml with the reference schema, and the loader's own cross-field rules."""
    try:
        data = strictyaml.load(doc.text, strictyaml_schema(doc.kind)).data
    except strictyaml.YAMLError:
        return _REJECTED
    except (NotImplementedError, TypeError):
        # strictyaml's ruamel cannot place some comments ("overlap in comment", e.g. a comment
        # line between a key and its list), and crashes on a repeated key whose mapping follows
        # a comment line: the reference gives no answer to compare with.
        reject()
    if data is None:
        return {}
    records = {doc.kind: data[doc.kind]} if KINDS[doc.kind].single else data[doc.kind]
    table = {field.name: field for field in KINDS[doc.kind].fields}
    for record_id, fields in records.items():
        typed = {
            name: table[name].type(value) if issubclass(table[name].type, enum.Enum) else value
            for name, value in fields.items()
        }
        if cross_field_problem(doc.kind, typed, record_id):
            return _REJECTED
        for name, value in fields.items():
            if table[name].nested and cross_field_problem(f"{doc.kind}.{name}", value, record_id):
                return _REJECTED
    return records


def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(
        json_schema(kind), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def _draft7(kind: str) -> Draft7Validator:
    # Editors' YAML language servers implement draft-07; the schema uses only its keywords.
    return Draft7Validator(json_schema(kind), format_checker=Draft7Validator.FORMAT_CHECKER)


def _json_accepts(kind: str, text: str) -> bool:
    return _is_valid(_validator(kind), yaml_data(text).data)


def _is_valid(validator: Any, data: object) -> bool:
    """The validator's verdict; Python's warning of a possible nested set in a `regex` (which the
    validator compiles, as evalglass does) is no verdict."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return bool(validator.is_valid(data))


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    """Each file's schema is valid 2020-12 and draft-07 JSON Schema; all eight keyed by file name."""
    schemas = json_schemas()
    assert list(schemas) == [spec.filename for spec in KINDS.values()]
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
        Draft7Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "host_records").glob("*.yaml")), ids=lambda p: p.name
)
def test_bundled_examples_validate(path: Path) -> None:
    """Every bundled host_records/*.yaml passes its file's JSON Schema."""
    kind = path.stem
    data = yaml_data(path.read_text()).data
    errors = [e.message for e in _validator(kind).iter_errors(data)]
    assert errors == []


def _documented_examples() -> list[tuple[str, str]]:
    """Every YAML block in docs/host-records.md that is a records file (its first key a kind)."""
    text = (ROOT / "docs" / "host-records.md").read_text()
    found = []
    for block in re.findall(r"```yaml\n(.*?)```", text, re.DOTALL):
        body = [line for line in block.splitlines() if line and not line.startswith("#")]
        kind = body[0].split(":", 1)[0]
        if kind in KINDS:
            found.append((kind, block))
    return found


def test_every_records_file_is_documented_by_example() -> None:
    """Each kind has an example in docs/host-records.md (so the test below checks all eight)."""
    assert {kind for kind, _ in _documented_examples()} == set(KINDS)


@pytest.mark.parametrize(("kind", "text"), _documented_examples())
def test_documented_examples_validate(kind: str, text: str) -> None:
    """Every records example in docs/host-records.md (with its modeline) passes its JSON Schema."""
    assert _json_accepts(kind, text)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=record_documents())
def test_json_schema_agrees_with_the_strictyaml_reference(doc: RecordDocument) -> None:
    """Schema-valid iff strictyaml and the cross-field rules accept it, bar `beyond_json` cases."""
    reference = _reference(doc) is not _REJECTED
    try:
        data = yaml_data(doc.text)
    except NotData:
        event("not YAML data")
        assert not reference, doc.text
        return
    why = beyond_json(doc.kind, data)
    if why:
        event(f"beyond JSON: {why}")
        return
    event(f"compared: {'valid' if reference else 'invalid'}")
    assert _is_valid(_validator(doc.kind), data.data) == reference, doc.text
    assert _is_valid(_draft7(doc.kind), data.data) == reference, doc.text


T = "thresholds:\n  x:\n    op: '>='\n    approval: proposed\n"
M = "metrics:\n  m:\n    status: gating\n    dataset: d\n"


@pytest.mark.parametrize(
    ("kind", "text", "loader_accepts"),
    [
        # An editor is stricter: these load, and JSON data cannot tell them from a mistake.
        ("metrics", "metrics:\n  m:\n    status: gating\n    dataset: ~\n", True),
        ("thresholds", T + "    value: .nan\n", False),
        ("metrics", M + "    min_samples: 1.0\n", False),
        ("metrics", M + "    min_samples: 0x10\n", False),
        ("metrics", M + "    max_missing_fraction: '2'\n", False),
        (
            "thresholds",
            T + "    value: 1\n    approved_on: 2026-11-01\n    expires_on: 2026-10-01\n",
            False,
        ),
        ("success", "success:\n  must_pass:\n    - 1\n    - '1'\n", False),
        ("success", "success:\n  must_pass:\n    - ~\n", True),
    ],
)
def test_deliberate_differences_from_the_loader(kind: str, text: str, loader_accepts: bool) -> None:
    """Each disagreement with the loader is one YAML-as-JSON cannot show, named by beyond_json."""
    doc = RecordDocument(kind=kind, text=text, needs_quoting=False)
    assert (_reference(doc) is not _REJECTED) is loader_accepts
    assert _json_accepts(kind, text) is not loader_accepts
    assert beyond_json(kind, yaml_data(text)) is not None


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        (T + "    value: 0.85\n", True),
        (T.replace("proposed", "approved") + "    value: 0.85\n", False),
        (
            T.replace("proposed", "approved") + "    value: 0.85\n    approved_by: '@a'\n"
            "    approved_on: 2026-11-01\n",
            False,
        ),
        (
            T.replace("proposed", "approved") + "    value: 0.85\n    approved_by: '@a'\n"
            "    approved_on: 2026-11-01\n    approved_for:\n      dataset_version: '1'\n",
            True,
        ),
        (
            T.replace("proposed", "approved") + "    value: 0.85\n    approved_by: '@a'\n"
            "    approved_on: 2026-02-30\n    approved_for:\n      dataset_version: '1'\n",
            False,
        ),
        (T, False),
        (T + "    max_drop: 0.02\n", True),
        (T + "    value: '0.85'\n", True),
        (T + "    value: 0.85\n    note: x\n", False),
        ("thresholds:\n", True),
        ("", True),
    ],
)
def test_threshold_rules(text: str, valid: bool) -> None:
    """The approval rule (if/then), the need for a bar, dates, and unknown fields, by example."""
    assert _json_accepts("thresholds", text) is valid


J = "judges:\n  g:\n    model: m\n    calibration: calibrated\n"
C = "checks:\n  unit-tests:\n"


@pytest.mark.parametrize(
    ("kind", "text", "valid"),
    [
        ("judges", J + "    evidence: e.json\n    min_agreement:\n      statistic: kappa\n"
                       "      lower_bound: 0.6\n", True),
        ("judges", J + "    min_agreement:\n      statistic: kappa\n      lower_bound: 0.6\n",
         False),
        ("judges", J + "    evidence: e\n    min_agreement:\n      statistic: kappa\n", False),
        ("judges", J + "    evidence: e\n    min_agreement:\n      statistic: kappa\n"
                       "      lower_bound: 1.5\n", False),
        ("judges", J + "    evidence: e\n    min_agreement:\n", False),
        ("thresholds", T + "    value: 1\n    approved_for:\n      dataset_version: '2026-10'\n",
         True),
        # An approval binds to a version, a fingerprint or both; to nothing, never.
        ("thresholds", T + "    value: 1\n    approved_for:\n      fingerprint: x\n", True),
        ("thresholds", T + "    value: 1\n    approved_for:\n      judge_model: x\n", False),
        ("datasets", "datasets:\n  d:\n    status: validated\n    fingerprint: x\n", True),
        ("datasets", "datasets:\n  d:\n    status: validated\n", False),
        ("datasets", "datasets:\n  d:\n    status: retired\n", False),
        ("datasets", "datasets:\n  d:\n    status: proposed\n", True),
        ("thresholds", T + "    value: 1\n    approved_for:\n      dataset_version: v\n"
                           "      note: x\n", False),
        ("checks", C + "    run: pytest\n    timeout: 60\n    tier: fast\n", True),
        ("checks", C + "    run: pytest\n", False),
        ("checks", C + "    run: pytest\n    shell: make\n    timeout: 60\n", False),
        ("checks", C + "    file_exists: f\n    non_empty: yes\n", True),
        ("checks", C + "    file_exists: f\n    timeout: 5\n", False),
        ("checks", C + "    regex: 'qa (v'\n    in_file: f\n", False),
        ("checks", C + "    regex: 'qa (v)'\n    in_file: f\n", True),
        ("checks", C + "    regex: 'qa'\n", False),
        # Python warns of a possible nested set; the pattern compiles, and the warning is no verdict.
        ("checks", C + "    regex: '[[a]]'\n    in_file: f\n", True),
        ("checks", "checks:\n  unit tests:\n    file_exists: f\n", False),
        ("checks", C + "    run: x\n    timeout: 0\n", False),
        ("success", "success:\n", True),
        ("success", "", True),
        ("success", "success:\n  mode: percentage\n  min_pass_rate: 1\n", True),
        ("success", "success:\n  mode: percentage\n  min_pass_rate: 0\n", False),
        ("success", "success:\n  mode: percentage\n", False),
        ("success", "success:\n  min_pass_rate: 0.5\n", False),
        ("success", "success:\n  must_pass:\n    - a\n    - b\n  min_gates: 1\n", True),
        ("success", "success:\n  must_pass:\n    - a\n    - a\n", False),
        ("success", "success:\n  must_pass:\n", False),
        ("success", "success:\n  must_pass: a\n", False),
    ],
)  # fmt: skip
def test_block_and_new_kind_rules(kind: str, text: str, valid: bool) -> None:
    """Nested mappings, lists, checks and the success policy, by example, as the loader sees them."""
    assert _json_accepts(kind, text) is valid
    doc = RecordDocument(kind=kind, text=text, needs_quoting=False)
    assert (_reference(doc) is not _REJECTED) is valid


def test_every_note_is_about_a_field_of_its_own_kind() -> None:
    """Notes are keyed by the field's path in its file, and each key names a field there: a
    note cannot drift onto another kind's field of the same name (it once did, keyed by the
    bare name), nor outlive its field."""
    from evalglass.records.json_schema import NOTES
    from evalglass.records.schema import KINDS

    paths = set()
    for kind, spec in KINDS.items():
        for field in spec.fields:
            paths.add(f"{kind}.{field.name}")
            paths.update(f"{kind}.{field.name}.{sub.name}" for sub in field.fields or ())
    assert set(NOTES) <= paths, set(NOTES) - paths
    schemas = json_schemas()
    described = {
        f"{file.removesuffix('.yaml')}.{name}"
        for file, schema in schemas.items()
        for definition in schema["$defs"].values()
        for name, prop in definition["properties"].items()
        if "description" in prop
    }
    assert described == {p for p in NOTES if p.count(".") == 1}
