"""The scorecard JSON contract (schema_version 1): its documented shape as frozen classes, and the
one cattrs converter that writes and reads it.

Everything that writes or reads a scorecard JSON goes through here: `--format json`, baseline
scorecards beside the records, `diff` and `trend` of saved scorecards, `evalglass.load_scorecard`.
The classes are the contract itself, not the core's classes: a field added inside the core cannot
change the JSON unseen, and golden files in tests/golden/ guard the bytes. It sits at the bottom of
the package and imports nothing of evalglass but its errors, so the records can read baselines.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import types
from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar, Union, get_args, get_origin

import attrs
import cattrs
import orjson
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from evalglass import _inputs
from evalglass.errors import ContractError
from evalglass.levels import MAX_LEVEL, MIN_LEVEL

SCHEMA_VERSION: Final = 1

# The closed vocabularies the contract publishes (tests pin them to the core's enums). Reason codes
# stay open strings: a newer evalglass may add codes, and a reader must still load its files.
VerdictName = Literal["fail", "blocked", "pass", "informational"]
OutcomeName = Literal["informational", "blocked", "can_gate"]
ResultName = Literal["pass", "warn", "fail", "unsound", "not_enforced"]
OpName = Literal[">=", ">", "<=", "<"]
ApprovalName = Literal["proposed", "approved"]
StatusName = Literal["fail", "unsound", "blocked", "warn", "pass", "not_run", "informational"]
ModeName = Literal["all", "percentage"]
PolicySourceName = Literal["default", "success.yaml"]
RuleName = Literal["gates", "must_pass", "pass_rate", "min_gates", "nothing_enforced"]
MethodName = Literal[
    "wilson", "clopper_pearson", "student_t", "normal", "hoeffding", "clustered", "effective_n",
    "clustered_effective_n", "newcombe", "paired_t",
]
MethodBasisName = Literal["samples", "reported_stderr", "inferred_proportion", "declared_scale"]
OutcomeOfAttempt = Literal["passed", "failed", "could_not_run"]
TierName = Literal["fast", "full"]

_DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
# An instant with its zone; written in UTC as `2026-11-30T12:00:00Z`.
_INSTANT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?(?:Z|[+-][0-9]{2}:[0-9]{2})"
)


def _level(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    if value is not None and not MIN_LEVEL <= value <= MAX_LEVEL:
        raise ValueError(
            f"{attribute.name} must lie between {MIN_LEVEL} and {MAX_LEVEL}, got {value!r}"
        )


def _not_negative(_: object, attribute: attrs.Attribute[Any], value: int | None) -> None:
    if value is not None and value < 0:
        raise ValueError(f"{attribute.name} must not be negative, got {value!r}")


def _positive(_: object, attribute: attrs.Attribute[Any], value: int | None) -> None:
    if value is not None and value < 1:
        raise ValueError(f"{attribute.name} must be at least 1, got {value!r}")


def _pair(_: object, attribute: attrs.Attribute[Any], value: tuple[Any, ...] | None) -> None:
    if value is not None and len(value) != 2:
        raise ValueError(f"{attribute.name} must be [low, high], got {len(value)} numbers")


@attrs.frozen
class Reason:
    """A reason code and its message. The code is an open string: a file from a newer evalglass
    may carry codes this one does not know, and still loads."""

    code: str
    message: str


@attrs.frozen(kw_only=True)
class Validity:
    """Whether the metric's number is sound enough to compare, and the validity codes when it is
    not."""

    valid: bool
    reasons: tuple[Reason, ...]


@attrs.frozen(kw_only=True)
class Authority:
    """The metric's authority outcome and the reasons of the stage that decided it; `notes` are
    what stage 2 would raise once an informational metric is authorized."""

    outcome: OutcomeName
    reasons: tuple[Reason, ...]
    notes: tuple[Reason, ...]


@attrs.frozen(kw_only=True)
class Change:
    """current − baseline of a regression gate, with its interval."""

    value: float | None
    interval: tuple[float | None, float | None] | None = attrs.field(validator=_pair)
    level: float | None = attrs.field(validator=_level)
    method: MethodName | None
    paired: int | None = attrs.field(validator=_not_negative)


@attrs.frozen(kw_only=True)
class Needed:
    """What would pass a gate its bound decided: the least value (for `<=`/`<`, the greatest)
    that clears every bar at this n, and the least n at which this value does; null where no such
    number exists, with why in `reason`. `assumptions` says what was held fixed."""

    value_at_n: float | None
    n_at_value: int | None = attrs.field(validator=_not_negative)
    assumptions: str
    reason: str | None


@attrs.frozen(kw_only=True)
class Gate:
    """The gate result, its reason codes and the evidence string with the numbers compared;
    `change` is set for a regression gate, `needed` for a gate its bound decided."""

    result: ResultName
    reasons: tuple[Reason, ...]
    evidence: str
    change: Change | None
    # Null for a point rule or a gate not compared, and in files from before it was written.
    needed: Needed | None = None


@attrs.frozen(kw_only=True)
class ApprovedFor:
    """What the threshold's approval was given for: the dataset version and fingerprint (one or
    both) and the judge model it saw."""

    dataset_version: str | None
    fingerprint: str | None
    judge_model: str | None


@attrs.frozen(kw_only=True)
class Threshold:
    """The threshold the records held for the metric, as the run applied it."""

    op: OpName
    value: float | None
    max_drop: float | None
    max_relative_drop: float | None
    warn_value: float | None
    approval: ApprovalName
    approved_by: str | None
    approved_on: str | None = attrs.field()
    # Absent from scorecards written before approvals were bound; those still read.
    approved_for: ApprovedFor | None = None
    expires_on: str | None = attrs.field(default=None)

    @approved_on.validator
    @expires_on.validator
    def _date(self, attribute: attrs.Attribute[Any], value: str | None) -> None:
        if value is not None and _DATE.fullmatch(value) is None:
            raise ValueError(f"{attribute.name} must be a date YYYY-MM-DD, got {value!r}")


@attrs.frozen(kw_only=True)
class EarlierRun:
    """A superseded run of the metric, kept so that a retry can never hide a failure."""

    source: str
    started: str | None
    value: float | None
    n: int | None = attrs.field(validator=_not_negative)


@attrs.frozen(kw_only=True)
class Sample:
    """One per-sample score, kept with --keep-samples so the file can serve as a paired baseline."""

    id: str
    epoch: int | None
    score: float | None


@attrs.frozen(kw_only=True)
class CostlySample:
    """A sample that cost a failed, unsound or blocked gate most, and the output file it is in."""

    id: str
    epoch: int | None
    score: float
    source: str


@attrs.frozen(kw_only=True)
class CachedPass:
    """Where a pass read from the cache was recorded: the commit, and when (ISO 8601, UTC)."""

    commit: str
    recorded: str


@attrs.frozen(kw_only=True)
class Attempt:
    """One attempt at a host check: what was run, how it ended, and the end of its stderr and
    stdout."""

    outcome: OutcomeOfAttempt
    command: str
    found: str
    exit_code: int | None
    duration: float | None
    timed_out: bool
    cached: CachedPass | None
    stderr: str
    # The last 4 KB it wrote to stdout; absent in files written before it was kept.
    stdout: str = ""


@attrs.frozen(kw_only=True)
class Dataset:
    """A metric's dataset: the record's id the metric names, what the output says of it (name,
    version, fingerprint), and which of those the dataset record verified."""

    record: str | None
    name: str | None
    version: str | None
    fingerprint: str | None
    name_verified: bool
    version_verified: bool
    fingerprint_verified: bool


@attrs.frozen(kw_only=True)
class Metric:
    """One metric's entry: what was measured, whether the number is sound, whether it may gate,
    the threshold and the gate result: everything a reader needs to re-check the decision."""

    id: str
    value: float | None
    n: int | None = attrs.field(validator=_not_negative)
    interval: tuple[float | None, float | None] | None = attrs.field(validator=_pair)
    level: float | None = attrs.field(validator=_level)
    method: MethodName | None
    # Why that method: what the evidence gave it (null without an interval, and in files
    # written before it was recorded).
    method_basis: MethodBasisName | None = None
    clusters: int | None = attrs.field(validator=_not_negative)
    missing: int = attrs.field(validator=_not_negative)
    model: str | None
    source: str | None
    # Null for a host check's metric, and for a metric no record or output names a dataset for;
    # absent in scorecards written before it was added.
    dataset: Dataset | None = None
    earlier_runs: tuple[EarlierRun, ...]
    validity: Validity
    authority: Authority
    threshold: Threshold | None
    gate: Gate
    # Written only with --keep-samples: absent, not empty, otherwise.
    samples: tuple[Sample, ...] | None = None
    # A host check's attempts (a retry second); absent for every other metric.
    attempts: tuple[Attempt, ...] | None = None
    # For a gate that failed, is unsound or blocked, the samples that cost it most (at most ten);
    # absent otherwise, and when the reader kept no per-sample scores.
    costly_samples: tuple[CostlySample, ...] | None = None


@attrs.frozen(kw_only=True)
class Skipped:
    """A file given or found that held no run to read, and why it was passed over."""

    source: str
    reason: str


@attrs.frozen(kw_only=True)
class Counts:
    """How many metrics ended each way; `blocked` counts unsound gates too, as the verdict does."""

    passed: int = attrs.field(validator=_not_negative)
    warned: int = attrs.field(validator=_not_negative)
    failed: int = attrs.field(validator=_not_negative)
    blocked: int = attrs.field(validator=_not_negative)
    informational: int = attrs.field(validator=_not_negative)
    # Checks that could gate and were not run; absent when none.
    not_run: int = attrs.field(default=0, validator=_not_negative)


@attrs.frozen(kw_only=True)
class Tolerated:
    """A gate a percentage pass let through, and how it ended."""

    id: str
    status: StatusName


@attrs.frozen(kw_only=True)
class Unmet:
    """A must_pass id the run did not satisfy; `status` is null when the run has no such metric."""

    id: str
    status: StatusName | None
    message: str


def _rate(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    if value is not None and not 0 <= value <= 1:
        raise ValueError(f"{attribute.name} must lie between 0 and 1, got {value!r}")


@attrs.frozen(kw_only=True)
class Policy:
    """The success policy that decided the verdict (success.yaml, or the defaults without it),
    and its numbers: gates are the metrics the records authorize, blocked ones included."""

    source: PolicySourceName
    mode: ModeName
    min_gates: int = attrs.field(validator=_not_negative)
    min_pass_rate: float | None = attrs.field(validator=_rate)
    must_pass: tuple[str, ...]
    # Written by every scorecard; a file from before the bound existed has none (null).
    max_attempts: int | None = attrs.field(default=None, validator=_positive)
    decided_by: RuleName
    enforced: int = attrs.field(validator=_not_negative)
    passed: int = attrs.field(validator=_not_negative)
    pass_rate: float | None = attrs.field(validator=_rate)
    tolerated: tuple[Tolerated, ...]
    unmet: tuple[Unmet, ...]


@attrs.frozen(kw_only=True)
class MetricComparison:
    """One metric against the earlier scorecard `--compare` named: its value there (null when
    it had none) and the change, current − earlier, with its interval (null without both)."""

    id: str
    earlier: float | None
    change: Change | None


@attrs.frozen(kw_only=True)
class Comparison:
    """The earlier scorecard a run was shown beside (display only: it decides nothing): its
    path, when it was evaluated, whether it is older than the base commit (null: not checked),
    and each measured metric's change."""

    source: str
    evaluated_at: dt.datetime | None
    stale: bool | None
    metrics: tuple[MetricComparison, ...]


@attrs.frozen(kw_only=True)
class RecordsAt:
    """The git ref the records were read at (`--records-ref`, as given) and the commit it named:
    the records are that commit's."""

    ref: str
    commit: str = attrs.field()

    @commit.validator
    def _full_id(self, attribute: attrs.Attribute[Any], value: str) -> None:
        if _COMMIT.fullmatch(value) is None:
            raise ValueError(f"commit must be a full commit id, got {json.dumps(value)[:80]}")


_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@attrs.frozen(kw_only=True)
class Scorecard:
    """A whole scorecard JSON: the verdict and exit code, the metrics sorted by id, and what the
    run read. Fields added after schema_version 1 was published have defaults, so files written
    before them still load."""

    schema_version: Literal[1]
    verdict: VerdictName
    exit_code: int
    # When the scorecard was evaluated; None in files written before evalglass recorded it.
    evaluated_at: dt.datetime | None = None
    model: str | None
    sources: tuple[str, ...]
    # The records folder read, as given or found (inside the commit, with records_at); null when
    # the records were built in memory, and absent in a file from before evalglass recorded it.
    records_folder: str | None = None
    # The commit the records were read at; null when they were read from the working tree, and
    # absent in a file from before evalglass recorded it.
    records_at: RecordsAt | None = None
    counts: Counts
    # Written by every evalglass that knows success policies; None in a file from before them.
    policy: Policy | None = None
    metrics: tuple[Metric, ...]
    # Files given or found that held no run to read; written only when there are any.
    skipped: tuple[Skipped, ...] = ()
    # The tier of host checks `evalglass run` ran; absent for `evalglass score`, which runs none.
    tier: TierName | None = None
    # The earlier scorecard `score --compare` showed this one beside; absent without one.
    comparison: Comparison | None = None

    def metric(self, metric_id: str) -> Metric | None:
        """The entry for `metric_id`, or None."""
        return next((m for m in self.metrics if m.id == metric_id), None)


def _converter() -> cattrs.Converter:
    # Strict scalars: JSON true is not 1, 1.5 is not a count, and no number is not finite; the
    # default hooks would coerce each of these quietly.
    # Unknown keys are ignored, not refused: a reader keeps loading files that a later evalglass
    # wrote with more fields under the same schema_version.
    conv = cattrs.Converter(detailed_validation=True)

    def number(value: object, _: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, got {_kind(value)}")
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number, got {value!r}")
        return float(value)

    def integer(value: object, _: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer, got {_kind(value)}")
        return value

    def text(value: object, _: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {_kind(value)}")
        return value

    def flag(value: object, _: object) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {_kind(value)}")
        return value

    conv.register_structure_hook(float, number)
    conv.register_structure_hook(int, integer)
    conv.register_structure_hook(str, text)
    conv.register_structure_hook(bool, flag)

    def instant(value: object, _: object) -> dt.datetime:
        if not isinstance(value, str) or _INSTANT.fullmatch(value) is None:
            shown = json.dumps(value)[:40] if isinstance(value, str) else _kind(value)
            raise ValueError(f"expected a time like 2026-11-30T12:00:00Z, got {shown}")
        try:
            return dt.datetime.fromisoformat(value).astimezone(dt.UTC)
        except ValueError:
            raise ValueError(f"{json.dumps(value)}: no such date or time") from None

    conv.register_structure_hook(dt.datetime, instant)
    conv.register_unstructure_hook(dt.datetime, instant_text)

    # Hooks for lists and optional fields are built once per type, each with its item's hook
    # at hand: looked up on every value instead, they were most of the time a file took to read.
    def sequence(kind: Any) -> Callable[[object, Any], tuple[Any, ...]]:
        item = get_args(kind)[0]
        hook = conv.get_structure_hook(item)

        def structure(value: object, _: Any) -> tuple[Any, ...]:
            # Only a JSON list is a list: cattrs would take a string or an object as an iterable.
            if not isinstance(value, list):
                raise TypeError(f"expected a list, got {_kind(value)}")
            items, errors = [], []
            for index, element in enumerate(value):
                try:
                    items.append(hook(element, item))
                except Exception as exc:  # noqa: BLE001 - gathered and re-raised with its index
                    note = IterableValidationNote(
                        f"Structuring {kind} @ index {index}", index, item
                    )
                    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
                    errors.append(exc)
            if errors:
                raise IterableValidationError(f"While structuring {kind}", errors, kind)
            return tuple(items)

        return structure

    conv.register_structure_hook_factory(_is_variadic_tuple, sequence)

    def optional(kind: Any) -> Callable[[object, Any], Any]:
        (inner,) = (arg for arg in get_args(kind) if arg is not type(None))
        hook = conv.get_structure_hook(inner)

        def structure(value: object, _: Any) -> Any:
            return None if value is None else hook(value, inner)

        return structure

    conv.register_structure_hook_factory(_is_optional, optional)

    def one_of(kind: Any) -> Callable[[object, Any], object]:
        allowed = get_args(kind)
        names = ", ".join(str(a) for a in allowed)

        def structure(value: object, _: Any) -> object:
            if value not in allowed or isinstance(value, bool):
                raise ValueError(f"expected one of {names}, got {json.dumps(value)[:40]}")
            return value

        return structure

    conv.register_structure_hook_factory(_is_literal, one_of)

    def record(cls: type[Any]) -> Callable[[object, Any], Any]:
        fields = make_dict_structure_fn(cls, conv)

        def structure(value: object, kind: Any) -> Any:
            if not isinstance(value, dict):
                raise TypeError(f"expected an object, got {_kind(value)}")
            return fields(value, kind)

        return structure

    conv.register_structure_hook_factory(attrs.has, record)
    # `samples` is written only when kept, `attempts` only for a check, `skipped` only when a
    # file was skipped, `not_run` and `tier` only when there is one: every other field is always
    # written, null or not.
    omitted = override(omit_if_default=True)
    conv.register_unstructure_hook(
        Metric,
        make_dict_unstructure_fn(
            Metric, conv, samples=omitted, attempts=omitted, costly_samples=omitted
        ),
    )
    conv.register_unstructure_hook(Counts, make_dict_unstructure_fn(Counts, conv, not_run=omitted))
    conv.register_unstructure_hook(
        Scorecard,
        make_dict_unstructure_fn(
            Scorecard, conv, skipped=omitted, tier=omitted, comparison=omitted
        ),
    )
    return conv


def instant_text(moment: dt.datetime) -> str:
    """An instant as the contract writes it: ISO 8601 in UTC, `2026-11-30T12:00:00Z`."""
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _is_optional(kind: Any) -> bool:
    """`X | None` for one type X."""
    args = get_args(kind)
    return len(args) == 2 and type(None) in args and get_origin(kind) in (types.UnionType, Union)


def _is_literal(kind: Any) -> bool:
    return bool(get_origin(kind) == Literal)


def _is_variadic_tuple(kind: Any) -> bool:
    args = get_args(kind)
    return getattr(kind, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


CONVERTER = _converter()
T = TypeVar("T")


def dumps(scorecard: Scorecard) -> str:
    """The scorecard as indented JSON text, keys in the documented order, ending in a newline."""
    doc = CONVERTER.unstructure(scorecard)
    try:
        # The standard library indents in pure Python, several times slower on a big scorecard.
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        # Only an integer beyond 64 bits or a lone surrogate gets here. Same document; json
        # spells a few small numbers differently (1e-05 where orjson writes 0.00001), which no
        # parser sees.
        text = json_text(doc, allow_nan=False)
    return text + "\n"


def json_text(doc: object, allow_nan: bool = True) -> str:
    """`doc` as indented JSON text that is always valid UTF-8: non-ASCII text as it is, unless the
    document holds a lone surrogate (a "\\ud800" escape in an eval output, a file name that was
    not UTF-8), which only an ASCII escape can carry."""
    text = json.dumps(doc, indent=2, allow_nan=allow_nan, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(doc, indent=2, allow_nan=allow_nan, ensure_ascii=True)
    return text


def loads(text: str | bytes, where: str) -> Scorecard:
    """Read a scorecard JSON; ContractError names `where` and the first field that is wrong."""
    try:
        _inputs.check_json_values(text)
        _check_samples(text)
        doc = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ContractError(where, f"not valid JSON: {exc}") from None
    except _inputs.TooLarge as exc:
        raise ContractError(where, str(exc)) from None
    if not isinstance(doc, dict) or "metrics" not in doc:
        raise ContractError(where, "is not an evalglass scorecard JSON (no 'metrics')")
    version = doc.get("schema_version")
    if version != SCHEMA_VERSION:
        shown = json.dumps(version)[:40]
        raise ContractError(
            where, f"schema_version {shown}: this evalglass reads schema_version {SCHEMA_VERSION}"
        )
    return _structure(doc, Scorecard, where)


# What one kept sample of a scorecard JSON takes while it is read: its text, the parsed object
# and its Sample, measured at once (a 94 MB card of 990,000 samples peaked at 609 MB).
SAMPLE_COST: Final = 560


def _check_samples(text: bytes | str) -> None:
    """Refuse a scorecard whose kept samples would take more than the sample memory cap, before
    it is parsed. Every sample has an `epoch` key, so counting the key bounds the samples
    (an id that spells it only makes the count stricter)."""
    marks = text.count(b'"epoch"') if isinstance(text, bytes) else text.count('"epoch"')
    _inputs.CARD_SAMPLE_MEMORY.check(marks * SAMPLE_COST)


def _structure(doc: object, cls: type[T], where: str) -> T:
    try:
        return CONVERTER.structure(doc, cls)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise ContractError(where, _first_problem(exc)) from None


def _first_problem(exc: BaseException) -> str:
    """cattrs's nested errors as one line: `metrics[3].level: what is wrong with it`."""
    if isinstance(exc, cattrs.BaseValidationError):
        messages = cattrs.transform_error(exc, format_exception=_describe)
    else:
        messages = [str(exc)]
    first = " ".join((messages[0] if messages else str(exc)).split())
    problem, at, path = first.rpartition(" @ $")
    if at:
        first = f"{path.removeprefix('.') or 'the document'}: {problem}"
    return first[:300]


def _describe(exc: BaseException, kind: Any) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, ValueError | TypeError) and str(exc):
        return str(exc)
    return cattrs.v.format_exception(exc, kind)


def load_scorecard(path: str | os.PathLike[str]) -> Scorecard:
    """Read the scorecard JSON at `path` (a file `evalglass score --format json` wrote).

    Raises ContractError (an EvalglassError) naming the file and the first field that is wrong."""
    where = os.fspath(path)
    try:
        data = _inputs.read_regular(where)
    except OSError as exc:
        raise ContractError(where, f"cannot be read: {exc.strerror or exc}") from None
    except _inputs.TooLarge as exc:
        raise ContractError(where, str(exc)) from None
    return loads(data, where)
