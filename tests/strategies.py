"""Hypothesis strategies for evalglass inputs, one section per input; each section stands alone.

The record-document helpers that return strategies are cached: the composites ask for the same
few thousands of them again and again, and a new strategy object is validated on its first draw.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# Host-record documents: whole YAML files of one kind, valid and invalid, written the ways a
# person might write them (quoting styles, comments, blank lines, typos, wrong types, bad shapes).
# ---------------------------------------------------------------------------------------------
import datetime as dt
import enum
import functools

import attrs
from hypothesis import strategies as st

from evalglass.records.schema import KINDS, Field

# Field values that are right for some type, nearly right, or wrong, to be mixed across fields.
_TEXT_SAMPLES = (
    "qa-gold", "grader-v2", "openai/gpt-4.1", "sha256:ab12", "2026-10", "docs/calib.md", "@alice",
    "it's", 'say "hi"', "a #b", "a#b", "a: b", "a:", ":a", "-a", "- a", "?a", "? a", "%x", "&x",
    "*x", "!x", "|", ">", "<", "<=", ">=", "=>", "{a: 1}", "[a]", "a, b", "x  y", "é", "~", "null",
    "", " ", "a'", "'", '"', "\\", "`x", ",", "]", "}", "---", "...",
)  # fmt: skip
_NUMBER_SAMPLES = (
    "0", "1", "7", "100", "-1", "+3", "07", "1_000", "_", "0x10", "1.5", "0.85", ".5", "5.", "-0.0",
    "1e3", "1E-3", "1e999", "-1e999", "nan", "NaN", ".nan", "inf", ".inf", "-.inf", "Infinity", ".",
    "e5", "1e", "many", "2", "1.0", "0.05",
)  # fmt: skip
_BOOL_SAMPLES = ("yes", "no", "true", "false", "on", "off", "Yes", "NO", "True", "y", "n", "1", "0",
                 "maybe", "ja")  # fmt: skip
_DATE_SAMPLES = ("2026-11-01", "2024-02-29", "2026-02-29", "2026-13-01", "2026-1-1", "20261101",
                 "2026-11-01T00:00", "2026/11/01", "01-11-2026")  # fmt: skip
_ID_SAFE_PLAIN = ("qa/match/accuracy", "qa-gold", "grader-v2", "task.v1/metric", "a:b", "x y", "x",
                  "-x", "é", "check/unit-tests")  # fmt: skip
# A check's metric: a record of another shape (status only) among the metrics.
_CHECK_METRIC = "check/unit-tests"
_ID_QUOTE_ONLY = ("@team/x", "a #b", "a: b", "[x]", "")
_PLAIN_ALPHABET = "abz09/._-:#@'\" <>|&*!?%{}[],é\\"
_TYPOS = {"status": "statsu", "dataset": "datset", "policy": "polcy", "value": "vlaue", "op": "opp"}


@attrs.frozen
class RecordDocument:
    """A generated host-records file and what it is known to need beyond strictyaml's rules."""

    kind: str
    text: str
    # A plain scalar starts with `<`, or opens a quote it does not close on its line (YAML reads
    # on into the next lines): YAML reads it, the fast loader refuses it on purpose.
    needs_quoting: bool


# Values every reader takes, for documents meant to load; texts that mean themselves only quoted.
_VALID = {int: ("1", "7", "100", "07", "+3"), bool: _BOOL_SAMPLES[:-2],
          float: ("0", "0.5", "1", ".5", "1.0", "0.05", "1e-3", "+0.25", "0E0"),
          dt.date: ("2026-11-01", "2024-02-29")}  # fmt: skip
_SAFE_PLAIN = ("qa-gold", "grader-v2", "openai/gpt-4.1", "sha256:ab12", "2026-10", "docs/calib.md",
               "a#b", "x  y", "é", "~", "null", "-a", ":a", "?a", "a, b", "x.y")  # fmt: skip
_QUOTE_ONLY = ("@alice", "it's", 'say "hi"', "a: b", "<=", ">=", "|", "[a]", "{a: 1}", "%x", "- a")


@functools.cache
def _samples_for(field: Field | None, careful: bool) -> st.SearchStrategy[str]:
    """Texts for `field` (None: a field no kind has): right ones, or when not careful, any."""
    if field is not None and issubclass(field.type, enum.Enum):
        values = [member.value for member in field.type]
        if careful:
            return st.sampled_from(values)
        near = [values[0].upper(), values[0][:-1] + "x", values[-1].capitalize(), ""]
        return st.sampled_from(values + values + near)
    if field is not None and field.type in _VALID:
        if careful:
            return st.sampled_from(_VALID[field.type])
        pools = {int: _NUMBER_SAMPLES, float: _NUMBER_SAMPLES, bool: _BOOL_SAMPLES}
        return st.sampled_from(pools.get(field.type, _DATE_SAMPLES))
    if careful:
        return st.sampled_from(_SAFE_PLAIN)
    return st.one_of(st.sampled_from(_TEXT_SAMPLES), st.text(_PLAIN_ALPHABET, max_size=6))


@functools.lru_cache(maxsize=4096)
@st.composite
def _scalar(draw: st.DrawFn, text: str, quoted: bool = False) -> tuple[str, bool]:
    """Write `text` as YAML, plain unless `quoted` or by chance; also: is it a plain `<...`?"""
    styles = ["single", "double", "double-escaped"] + ([] if quoted else ["plain", "plain"])
    style = draw(st.sampled_from(styles))
    if style == "single":
        return "'" + text.replace("'", "''") + "'", False
    if style.startswith("double"):
        escaped = []
        for char in text:
            if char in '\\"':
                escaped.append("\\" + char)
            elif style == "double-escaped" and not char.isalnum():
                escaped.append(
                    draw(st.sampled_from([f"\\x{ord(char):02x}", f"\\u{ord(char):04x}"]))
                )
            else:
                escaped.append(char)
        return '"' + "".join(escaped) + '"', False
    return text, text.lstrip(" ").startswith("<") or _left_open(text.lstrip(" "))


def _left_open(text: str) -> bool:
    """Does `text`, written plain, open a quoted value that it does not close?"""
    if text[:1] not in ("'", '"'):
        return False
    at = 1
    while at < len(text):
        if text[0] == '"' and text[at] == "\\":
            at += 2
        elif text[at] == text[0] and text[0] == "'" and text[at + 1 : at + 2] == "'":
            at += 2  # '' is a quote inside single quotes
        elif text[at] == text[0]:
            return False
        else:
            at += 1
    return True


@functools.cache
@st.composite
def _value(draw: st.DrawFn, field: Field | None, careful: bool) -> tuple[str, bool]:
    if careful and (field is None or field.type is str) and draw(st.booleans()):
        return draw(_scalar(draw(st.sampled_from(_QUOTE_ONLY)), quoted=True))
    text = draw(_samples_for(field, careful))
    # A careful comparison op is quoted, as the docs say; plain ones are the careless mistake.
    return draw(_scalar(text, quoted=careful and text[:1] in ("<", ">")))


@functools.cache
def _slip(careful: bool) -> st.SearchStrategy[bool]:
    """A mistake now and then: rarely in careful documents, often in the rest. (Not integers:
    Hypothesis draws their bounds far more often than their share.)"""
    return st.sampled_from([False] * (200 if careful else 15) + [True])


@functools.cache
@st.composite
def _comment(draw: st.DrawFn, careful_key: bool = False) -> str:
    # `#x` right after a value is part of a plain value but a comment after a quoted one; right
    # after a key's colon it is a mistake, which careful documents do not make.
    comments = ["", "", "", "  # why", " # a: b", " #", "   # 'q' #\tx"]
    return draw(st.sampled_from(comments if careful_key else [*comments, "#x"]))


_CHECK_IDS = ("unit-tests", "build.docs", "model_card", "x", "-x", "A1")
# Careful checks: what each kind of check needs, and what else it takes.
_CHECK_SHAPES = {
    "run": (("timeout",), ("cwd", "expect_exit", "cache", "tier")),
    "shell": (("timeout",), ("cwd", "expect_exit", "cache", "tier")),
    "file_exists": ((), ("non_empty", "tier")),
    "regex": (("in_file",), ("tier",)),
}


_BASELINE_SOURCES = frozenset({"scorecard", "rows", "value", "n"})


@functools.cache
@st.composite
def _names(
    draw: st.DrawFn, kind: str, fields: tuple[Field, ...], careful: bool, record_id: str = ""
) -> list[str]:
    """Which fields a record (or block mapping) writes, in order, with slips mixed in."""
    slip = _slip(careful)
    keep = st.integers(0, 3).map(lambda n: n > 0 if careful else n > 1)
    if kind == "metrics" and careful:
        # A check's metric gives its status alone; every other metric names its dataset.
        check = _CHECK_METRIC in record_id
        names = (
            ["status"]
            if check
            else [f.name for f in fields if f.name in ("status", "dataset") or draw(keep)]
        )
    elif kind == "checks" and careful:
        required, optional = _CHECK_SHAPES[selector := draw(st.sampled_from(list(_CHECK_SHAPES)))]
        names = [selector, *required, *(name for name in optional if draw(keep))]
    elif kind == "baselines" and careful:
        # The numbers come from exactly one place: a saved scorecard, a rows file, or the record.
        source = draw(st.sampled_from([("scorecard",), ("rows",), ("value", "n")]))
        names = [
            *source,
            *(
                f.name
                for f in fields
                if f.required or (f.name not in _BASELINE_SOURCES and draw(keep))
            ),
        ]
    else:
        names = [field.name for field in fields if field.required or draw(keep)]
        if kind == "thresholds" and careful:  # who, when and for what: an approved one loads
            names = [*{*names, "approved_by", "approved_on", "approved_for"}]
    names = list(draw(st.permutations(sorted(names))))
    if draw(slip) and names:
        names = names[1:]  # a required field may be missing
    if draw(slip):
        names.append(draw(st.sampled_from(["notes", _TYPOS.get(names[0], "x") if names else "x"])))
    if draw(slip) and names:
        names.append(names[0])  # a duplicate field
    return names


@functools.cache
@st.composite
def _field_lines(
    draw: st.DrawFn, kind: str, name: str, field: Field | None, indent: int, careful: bool
) -> tuple[list[str], bool]:
    """The lines of one field at `indent`: `name: value`, or `name:` and its block below."""
    slip = _slip(careful)
    block = field is not None and (field.nested or field.many)
    if block == draw(slip):  # a block where one value belongs, or a value where a block does
        source, plain_lt = draw(_value(field if field and not block else None, careful))
        if draw(slip):
            source = ""  # nothing under the key
        return [" " * indent + f"{name}: {source}".rstrip(" ") + draw(_comment())], plain_lt
    lines = [" " * indent + f"{name}:" + draw(_comment(careful))]
    needs_quoting = False
    if field is not None and field.many:
        at = indent + draw(st.integers(0, 3))  # YAML lets a list sit at its key's column
        count = 0 if draw(slip) else draw(st.integers(1, 3))
        seen: set[str] = set()
        for _ in range(count):
            source, plain_lt = draw(_value(field, careful))
            if careful and source in seen:
                continue
            seen.add(source)
            needs_quoting |= plain_lt
            if draw(slip):
                source = draw(st.sampled_from(["a: b", "- a", "", "[a]"]))  # nests deeper
            column = at - 1 if at > indent and draw(slip) else at
            lines.append(" " * column + f"- {source}".rstrip(" ") + draw(_comment()))
        if count and draw(slip):
            lines.append(lines[-1])  # a repeated item
    else:
        subfields = () if field is None else field.fields
        by_name = {sub.name: sub for sub in subfields}
        at = indent + draw(st.integers(1, 3))
        names = [] if draw(slip) else draw(_names(f"{kind}.{name}", subfields, careful))
        if field is None and not names:
            names = ["name"]
        for sub in names:
            source, plain_lt = draw(_value(by_name.get(sub), careful))
            needs_quoting |= plain_lt
            column = at - 1 if at - 1 > indent and draw(slip) else at
            lines.append(" " * column + f"{sub}: {source}".rstrip(" ") + draw(_comment()))
            if draw(slip):
                lines.append(" " * (at + 2) + draw(st.sampled_from(["x: 1", "- x"])))
    if draw(st.integers(0, 10)) == 0:
        lines.insert(draw(st.integers(1, len(lines))), " " * draw(st.integers(0, 8)) + "# note")
    return lines, needs_quoting


@st.composite
def record_documents(draw: st.DrawFn, kinds: tuple[str, ...] = ()) -> RecordDocument:
    """A whole file of one kind (of `kinds`, default any): mostly well formed, with the mistakes
    people make mixed in."""
    kind = draw(st.sampled_from(kinds or list(KINDS)))
    spec = KINDS[kind]
    # Careful documents are meant to load, so loaded values get compared too; the rest mostly fail.
    careful = draw(st.booleans())
    slip = _slip(careful)
    record_indent = draw(st.integers(1, 3))
    field_indent = (0 if spec.single else record_indent) + draw(st.integers(1, 3))
    needs_quoting = False
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("# " + draw(st.sampled_from(["owned by the eval leads", "a: b", "- x"])))
    if draw(st.integers(0, 4)) == 0:
        lines.append("---")
    top = draw(st.sampled_from([kind[:-1], "other", *KINDS])) if draw(slip) else kind
    lines.append(f"{top}:{draw(_comment(careful))}")
    ids = _CHECK_IDS if spec.ids is not None and careful else _ID_SAFE_PLAIN + _ID_QUOTE_ONLY
    for _ in range(draw(st.integers(0, 1) if spec.single else st.integers(0, 3))):
        if not spec.single:
            if careful and spec.ids is None and draw(st.integers(0, 3)) == 0:
                record_id, plain_lt = draw(
                    _scalar(draw(st.sampled_from(_ID_QUOTE_ONLY[:-1])), quoted=True)
                )
            else:
                record_id, plain_lt = draw(_scalar(draw(st.sampled_from(ids))))
            needs_quoting |= plain_lt
            if draw(slip):  # a record written as a scalar, not a mapping
                lines.append(" " * record_indent + f"{record_id}: gating")
                continue
            lines.append(" " * record_indent + f"{record_id}:{draw(_comment(careful))}")
        fields = {field.name: field for field in spec.fields}
        for name in draw(_names(kind, spec.fields, careful, "" if spec.single else record_id)):
            indent = field_indent
            if field_indent - 1 > (-1 if spec.single else record_indent) and draw(slip):
                indent = field_indent - 1  # a field out of line with its neighbours
            written, plain_lt = draw(_field_lines(kind, name, fields.get(name), indent, careful))
            lines += written
            needs_quoting |= plain_lt
            if draw(st.integers(0, 10)) == 0:
                lines.append(
                    draw(st.sampled_from(["", "#", " " * draw(st.integers(0, 6)) + "# note"]))
                )
    text = ("\r\n" if draw(slip) else "\n").join(lines) + "\n"
    if draw(slip):
        text = "\ufeff" + text
    return RecordDocument(kind=kind, text=text, needs_quoting=needs_quoting)


# ---------------------------------------------------------------------------------------------
# Scorecard JSON documents: any value the contract admits, including texts no renderer would
# write (control characters, lone surrogates are left out: JSON text cannot carry them).
# ---------------------------------------------------------------------------------------------
from typing import get_args

from evalglass import contract

_texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_finite = st.floats(allow_nan=False, allow_infinity=False)
_maybe_finite = st.none() | _finite
_counts = st.integers(min_value=0, max_value=2**63 - 1)
_levels = st.floats(min_value=0.5, max_value=0.999)


def _literal(kind: object) -> st.SearchStrategy[str]:
    return st.sampled_from(get_args(kind))


_reasons = st.lists(st.builds(contract.Reason, code=_texts, message=_texts), max_size=2).map(tuple)
_intervals = st.none() | st.tuples(_maybe_finite, _maybe_finite)
_changes = st.builds(
    contract.Change,
    value=_maybe_finite,
    interval=_intervals,
    level=st.none() | _levels,
    method=st.none() | _literal(contract.MethodName),
    paired=st.none() | _counts,
)
_thresholds = st.builds(
    contract.Threshold,
    op=_literal(contract.OpName),
    value=_maybe_finite,
    max_drop=_maybe_finite,
    max_relative_drop=_maybe_finite,
    warn_value=_maybe_finite,
    approval=_literal(contract.ApprovalName),
    approved_by=st.none() | _texts,
    approved_on=st.none() | st.dates().map(lambda d: d.isoformat()),
    approved_for=st.none()
    | st.builds(
        contract.ApprovedFor,
        dataset_version=_texts,
        fingerprint=st.none() | _texts,
        judge_model=st.none() | _texts,
    ),
    expires_on=st.none() | st.dates().map(lambda d: d.isoformat()),
)
_attempts = st.builds(
    contract.Attempt,
    outcome=_literal(contract.OutcomeOfAttempt),
    command=_texts,
    found=_texts,
    exit_code=st.none() | st.integers(min_value=-64, max_value=255),
    duration=_maybe_finite,
    timed_out=st.booleans(),
    cached=st.none() | st.builds(contract.CachedPass, commit=_texts, recorded=_texts),
    stderr=_texts,
)
_metrics = st.builds(
    contract.Metric,
    id=_texts,
    value=_maybe_finite,
    n=st.none() | _counts,
    interval=_intervals,
    level=st.none() | _levels,
    method=st.none() | _literal(contract.MethodName),
    method_basis=st.none() | _literal(contract.MethodBasisName),
    clusters=st.none() | _counts,
    missing=_counts,
    model=st.none() | _texts,
    source=st.none() | _texts,
    dataset=st.none()
    | st.builds(
        contract.Dataset,
        record=st.none() | _texts,
        name=st.none() | _texts,
        version=st.none() | _texts,
        fingerprint=st.none() | _texts,
        name_verified=st.booleans(),
        version_verified=st.booleans(),
        fingerprint_verified=st.booleans(),
    ),
    earlier_runs=st.lists(
        st.builds(
            contract.EarlierRun,
            source=_texts,
            started=st.none() | _texts,
            value=_maybe_finite,
            n=st.none() | _counts,
        ),
        max_size=2,
    ).map(tuple),
    validity=st.builds(contract.Validity, valid=st.booleans(), reasons=_reasons),
    authority=st.builds(
        contract.Authority, outcome=_literal(contract.OutcomeName), reasons=_reasons, notes=_reasons
    ),
    threshold=st.none() | _thresholds,
    gate=st.builds(
        contract.Gate,
        result=_literal(contract.ResultName),
        reasons=_reasons,
        evidence=_texts,
        change=st.none() | _changes,
    ),
    samples=st.none()
    | st.lists(
        st.builds(contract.Sample, id=_texts, epoch=st.none() | _counts, score=_maybe_finite),
        max_size=3,
    ).map(tuple),
    attempts=st.none() | st.lists(_attempts, max_size=2).map(tuple),
)
_rates = st.none() | st.floats(min_value=0, max_value=1)
_policies = st.builds(
    contract.Policy,
    source=_literal(contract.PolicySourceName),
    mode=_literal(contract.ModeName),
    min_gates=_counts,
    min_pass_rate=_rates,
    must_pass=st.lists(_texts, max_size=2).map(tuple),
    max_attempts=st.none() | st.integers(min_value=1, max_value=2**31),
    decided_by=_literal(contract.RuleName),
    enforced=_counts,
    passed=_counts,
    pass_rate=_rates,
    tolerated=st.lists(
        st.builds(contract.Tolerated, id=_texts, status=_literal(contract.StatusName)), max_size=2
    ).map(tuple),
    unmet=st.lists(
        st.builds(
            contract.Unmet,
            id=_texts,
            status=st.none() | _literal(contract.StatusName),
            message=_texts,
        ),
        max_size=2,
    ).map(tuple),
)
scorecard_documents = st.builds(
    contract.Scorecard,
    schema_version=st.just(1),
    verdict=_literal(contract.VerdictName),
    exit_code=st.integers(min_value=0, max_value=255),
    evaluated_at=st.none() | st.datetimes(timezones=st.just(dt.UTC)),
    model=st.none() | _texts,
    sources=st.lists(_texts, max_size=3).map(tuple),
    counts=st.builds(
        contract.Counts,
        passed=_counts,
        warned=_counts,
        failed=_counts,
        blocked=_counts,
        informational=_counts,
        not_run=_counts,
    ),
    policy=st.none() | _policies,
    metrics=st.lists(_metrics, max_size=3).map(tuple),
    skipped=st.lists(st.builds(contract.Skipped, source=_texts, reason=_texts), max_size=2).map(
        tuple
    ),
    tier=st.none() | _literal(contract.TierName),
)
