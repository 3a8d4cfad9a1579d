"""The field table of every host-record kind, as data: the loader (`build.py`), the strictyaml
reference (`reference.py`) and the JSON Schema (`json_schema.py`) all derive from it, as they do
from the rules between fields (`rules.py`); and each field's meaning (`fields.py`), which diff,
doctor, explain and the docs' field tables read. It reads no files and types no text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

import attrs

from evalglass.levels import MAX_LEVEL, MIN_LEVEL
from evalglass.metric_ids import CHECK_PREFIX
from evalglass.reasons import AuthorityCode
from evalglass.records.fields import Doc, Field, Loosens, Pattern, Role
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    BaselineRecord,
    Calibration,
    CheckRecord,
    DatasetRecord,
    DatasetStatus,
    Decision,
    JudgeRecord,
    JudgeStatistic,
    MetricRecord,
    MetricStatus,
    MinAgreement,
    Op,
    Policy,
    PolicyRecord,
    Scale,
    SuccessMode,
    SuccessPolicy,
    ThresholdRecord,
)
from evalglass.tiers import Tier

Record = (
    MetricRecord | ThresholdRecord | DatasetRecord | JudgeRecord | PolicyRecord | BaselineRecord
    | CheckRecord | SuccessPolicy
)  # fmt: skip

# strictyaml's own spellings, so both readers agree on every boolean.
TRUE_WORDS = frozenset({"yes", "true", "on", "1", "y"})
FALSE_WORDS = frozenset({"no", "false", "off", "0", "n"})

__all__ = [
    "FALSE_WORDS", "KINDS", "TRUE_WORDS", "Field", "Ids", "Loosens", "Pattern", "Record",
    "RecordKind", "Role",
]  # fmt: skip

_L = Loosens
_A = Loosens.AUTHORITY  # the table's most common word


@attrs.frozen(kw_only=True)
class Ids:
    """What the ids of a kind may look like, and the message for one that does not."""

    pattern: re.Pattern[str]
    message: str  # follows `{noun} name 'x'`; {id} is the id with `prefix`, quoted
    prefix: str = ""


@attrs.frozen(kw_only=True)
class RecordKind:
    """A record kind: its file's top-level key, the record class it builds, and its fields.

    A `single` kind's file holds one record, its fields right under the top-level key, no ids.
    """

    kind: str
    noun: str
    record: type[Record]
    fields: tuple[Field, ...]
    single: bool = False
    ids: Ids | None = None

    @property
    def filename(self) -> str:
        """The file in the records folder that holds this kind."""
        return f"{self.kind}.yaml"

    def field(self, name: str) -> Field:
        """The declared field of this name."""
        (found,) = (f for f in self.fields if f.name == name)
        return found

    def having(self, role: Role) -> tuple[Field, ...]:
        """The fields that declare `role`, in table order."""
        return tuple(f for f in self.fields if f.role is role)


def _field(
    name: str,
    type_: type[Any],
    loosens: Loosens,
    meaning: str,
    *,
    required: str | None = None,
    values: str | None = None,
    min: float | None = None,
    max: float | None = None,
    min_exclusive: bool = False,
    many: bool = False,
    role: Role = Role.PLAIN,
    order: tuple[object, ...] = (),
    expired: AuthorityCode | None = None,
) -> Field:
    return Field(
        name=name, type=type_, loosens=loosens, min=min, max=max, min_exclusive=min_exclusive,
        many=many, role=role, order=order, expired=expired,
        doc=Doc(meaning=meaning, required=required, values=values),
    )  # fmt: skip


def _nested(name: str, record: type[Any], field: Field, *fields: Field) -> Field:
    return attrs.evolve(field, name=name, type=record, fields=_bound(record, fields))


def _bound(record: type[Any], fields: tuple[Field, ...]) -> tuple[Field, ...]:
    # Required-ness and defaults come from the model, so the table and the model cannot drift.
    model = attrs.fields_dict(record)

    def bind(field: Field) -> Field:
        default = model[field.name].default
        if default is attrs.NOTHING:
            return attrs.evolve(field, required=True, default=None)
        return attrs.evolve(field, required=False, default=default)

    return tuple(bind(f) for f in fields)


def _kind(
    kind: str, noun: str, record: type[Record], *fields: Field, single: bool = False,
    ids: Ids | None = None,
) -> RecordKind:  # fmt: skip
    return RecordKind(
        kind=kind, noun=noun, record=record, fields=_bound(record, fields), single=single, ids=ids
    )


# Every field's meaning, once: the loader, the reference schema and the JSON Schema type by it;
# diff weighs a change by `loosens` and `role`, doctor and explain read the dates that expire,
# and scripts/docs.py writes docs/host-records.md's tables from the docs text.
KINDS: Mapping[str, RecordKind] = {
    spec.kind: spec
    for spec in (
        _kind(
            "metrics", "metric", MetricRecord,
            _field("status", MetricStatus, _A, "only `gating` may gate"),
            _field("dataset", str, _A, "the data the metric is measured on; looked up in "
                   "datasets.yaml and policies.yaml", required="yes (none for a check's metric)",
                   values="a dataset id"),
            _field("judge", str, _A, "the model grader; looked up in judges.yaml",
                   values="a judge id"),
            _field("requires_baseline", bool, _L.RANKED, "the metric may only gate against a "
                   "comparable baseline", order=(True, False)),
            _field("min_samples", int, _L.LOWER, "fewer scored samples, or an unknown count, make "
                   "the number unsound", min=1),
            # The point skips the interval.
            _field("decision", Decision, _L.RANKED, "compare the conservative end of the "
                   "interval, or the point value", order=(Decision.BOUND, Decision.POINT)),
            _field("max_missing_fraction", float, _L.HIGHER, "errored or skipped samples, as a "
                   "fraction of all, above which the number is unsound", min=0, max=1),
            # A lower level, a narrower interval.
            _field("interval_level", float, _L.LOWER, "confidence level of the interval a bound "
                   "rule compares (see statistics.md)", min=MIN_LEVEL, max=MAX_LEVEL),
            # A declared proportion lets a value and n gate with no interval of their own; a unit
            # scale only cuts an interval back to [0, 1]. Declaring either can let a run through.
            _field("scale", Scale, _L.RANKED, "what the scores can take: `proportion` (each "
                   "sample 0 or 1: a value with n gets a proportion's interval, Wilson's or with "
                   "few successes or failures Clopper–Pearson's, even from a reported stderr or "
                   "none), `unit` (scores in [0, 1]: an interval is clipped to it, and says so) "
                   "(see statistics.md)", order=(None, Scale.UNIT, Scale.PROPORTION)),
        ),
        _kind(
            "thresholds", "threshold", ThresholdRecord,
            _field("op", Op, _L.OP, "the direction: higher or lower is better",
                   values="`'>='`, `'>'`, `'<='`, `'<'` (quoted)"),
            _field("value", float, _L.AGAINST_OP, "the absolute bar",
                   required="one of value, max_drop, max_relative_drop"),
            _field("max_drop", float, _L.HIGHER, "largest allowed regression from the baseline, "
                   "absolute (a rise for `<=`/`<` metrics)", required="see value", min=0),
            _field("max_relative_drop", float, _L.HIGHER, "the same as a fraction of the "
                   "baseline's value; with max_drop, the stricter applies", required="see value",
                   min=0, max=1),
            _field("warn_value", float, _L.NEVER, "passing the gate but not this bar is a `warn` "
                   "(exit code unchanged)"),
            _field("approval", Approval, _A, "only an approved threshold authorizes a gate",
                   role=Role.APPROVAL),
            _field("approved_by", str, _L.NEVER, "who approved it", required="when approved",
                   role=Role.APPROVAL),
            _field("approved_on", dt.date, _L.NEVER, "when", required="when approved",
                   role=Role.APPROVAL),
            _nested(
                "approved_for", ApprovedFor,
                _field("approved_for", ApprovedFor, _L.REMOVED, "what the approval was given for: "
                       "the data and the grader the approver saw", required="when approved",
                       values="a block mapping, below", role=Role.BINDS),
                _field("dataset_version", str, _L.REMOVED, "the dataset version approved: must "
                       "equal the dataset record's `version`",
                       required="when the metric's dataset record has a `version`; one of "
                       "dataset_version and fingerprint always",
                       values="text (quote it if it looks like a number or date)"),
                _field("fingerprint", str, _L.REMOVED, "the dataset fingerprint approved: must "
                       "equal the dataset record's `fingerprint`. For data pinned by fingerprint "
                       "alone (an Inspect log names no version) it is all the approval binds to",
                       required="when the metric's dataset record has one"),
                _field("judge_model", str, _L.REMOVED, "the judge model approved: must be the "
                       "judge record's `model`, by the strict grader rule (another snapshot is "
                       "another judge)", required="when the metric names a judge",
                       values="model name"),
            ),
            _field("expires_on", dt.date, _L.LATER, "the last day the approval holds",
                   values="date `YYYY-MM-DD`, not before approved_on", role=Role.EXPIRES,
                   expired=AuthorityCode.APPROVAL_EXPIRED),
        ),
        _kind(
            "datasets", "dataset", DatasetRecord,
            _field("status", DatasetStatus, _A, "proposed keeps metrics informational; retired "
                   "blocks them"),
            _field("version", str, _A, "the validated version; an output measured on another "
                   "version is blocked (`dataset_mismatch`), and a baseline must match it. An "
                   "output that names no version is not blocked for it, and the scorecard says "
                   "the dataset was not verified, unless the record's fingerprint matched",
                   required="one of version and fingerprint, unless proposed",
                   values="text (quote it if it looks like a number or date)"),
            _field("fingerprint", str, _A, "the fingerprint `evalglass metrics` prints for the "
                   "outputs you reviewed (docs/formats.md, \"Datasets and fingerprints\"); an "
                   "output with another is blocked (`dataset_mismatch`), and one that yields none "
                   "(`dataset_unverifiable`). An output that shows it verifies the data without a "
                   "name or version: the way to pin an Inspect dataset, whose logs name no "
                   "version (Inspect's fingerprint is over sample ids: it pins which samples, not "
                   "their text)", required="one of version and fingerprint, unless proposed"),
            _field("names", str, _A, "how the tools name this dataset, besides its id: lm-eval's "
                   "`dataset_path` (or its data files), an Inspect task's dataset name, "
                   "DeepEval's dataset alias (as `evalglass metrics` lists them). An output "
                   "naming any dataset that is neither the id nor one of these is blocked "
                   "(`dataset_mismatch`), whatever its version", many=True),
        ),
        _kind(
            "judges", "judge", JudgeRecord,
            _field("model", str, _A, "the grading model; must not be the model under evaluation",
                   values="model name"),
            _field("calibration", Calibration, _A, "uncalibrated/calibrating keep metrics "
                   "informational; drifted/retired block them"),
            _field("evidence", str, _A, "the calibration evidence file",
                   required="with min_agreement",
                   values="path, relative to the records folder"),
            _nested(
                "min_agreement", MinAgreement,
                _field("min_agreement", MinAgreement, _A, "the agreement the evidence must show",
                       values="a block mapping: statistic, lower_bound"),
                _field("statistic", JudgeStatistic, _A, "which agreement statistic of the evidence is "
                       "held to the bar"),
                _field("lower_bound", float, _A, "the least the statistic's lower interval bound "
                       "may be", values="number from -1 to 1", min=-1, max=1),
            ),
        ),
        _kind("policies", "policy", PolicyRecord,
              _field("policy", Policy, _A, "only permitted or redacted data may decide a build; a "
                     "dataset with no policy blocks")),
        _kind(
            "baselines", "baseline", BaselineRecord,
            # Lower, for a `>=` gate, lets more runs through the allowed drop from it.
            _field("value", float, _L.AGAINST_OP, "the baseline's value",
                   required="with n, unless scorecard or rows", values="finite number"),
            _field("n", int, _L.UNRANKED, "its sample count",
                   required="with value, unless scorecard or rows", min=1),
            _field("stderr", float, _L.UNRANKED, "its standard error", min=0),
            _field("dataset_version", str, _A, "must equal the dataset record's version to be "
                   "comparable (absent, when the record pins a fingerprint alone)",
                   required="one of dataset_version and fingerprint"),
            _field("fingerprint", str, _A, "must equal the dataset record's fingerprint, when both "
                   "are known or the record pins no version",
                   required="one of dataset_version and fingerprint"),
            _field("judge", str, _A, "must equal the metric's judge model exactly to be "
                   "comparable", required="for judged metrics", values="model name"),
            _field("scorecard", str, _L.UNRANKED, "a scorecard JSON saved with `evalglass score "
                   "--format json --keep-samples`; its entry for this metric gives value, n, "
                   "standard error and per-sample scores (for paired comparison)",
                   required="instead of value and n",
                   values="path, relative to the records folder"),
            _field("rows", str, _L.UNRANKED, "a Parquet file of generic rows (docs/formats.md); "
                   "scoring it gives value, n and standard error, and current Parquet rows are "
                   "paired with it by sample id inside DuckDB (docs/scale.md). Needs the "
                   "`parquet` extra. `validate` checks that the file is there; `doctor`, `score` "
                   "and `diff` read it. A file kept in Git LFS is read from the clone's local LFS "
                   "store, offline and checked against its pointer; without the object, run `git "
                   "lfs pull` (docs/scale.md)", required="instead of value and n, and of scorecard",
                   values="path, relative to the records folder"),
        ),
        _kind(
            "checks", "check", CheckRecord,
            # A check's definition is its bar, and no one can tell a stricter one from a weaker.
            _field("run", str, _L.ANY, "a command, split like a shell would split it, run without "
                   "a shell", required="exactly one of run, shell, file_exists, regex",
                   values="command"),
            _field("shell", str, _L.ANY, "a command run through `/bin/sh -c`", required="see run",
                   values="command"),
            _field("file_exists", str, _L.ANY, "the file must exist", required="see run",
                   values="path"),
            _field("regex", Pattern, _L.ANY, "must match somewhere in `in_file`; compiled when the "
                   "records load", required="see run"),
            _field("in_file", str, _L.ANY, "the file the regex searches",
                   required="with regex, and only with it", values="path"),
            _field("non_empty", bool, _L.ANY, "the file must also have content",
                   required="no (default `no`); file_exists only"),
            _field("timeout", int, _L.ANY, "seconds before the process is killed",
                   required="with run or shell, and only with them", min=1),
            _field("cwd", str, _L.ANY, "where the command runs, relative to where evalglass runs",
                   required="no; run or shell only", values="path"),
            _field("expect_exit", int, _L.ANY, "the exit code that passes",
                   required="no (default 0); run or shell only", min=0),
            _field("tier", Tier, _L.ANY, "`fast` checks run in both tiers, `full` ones only in "
                   "the full tier"),
            _field("cache", bool, _L.ANY, "whether a pass may be cached (file checks are never "
                   "cached)", required="no (default `yes`); run or shell only"),
            # A check's name becomes the metric id check/NAME: plain characters only.
            ids=Ids(pattern=re.compile("[A-Za-z0-9_.-]+"),
                    message="may hold only letters, digits, '_', '.' and '-' (it becomes the "
                            "metric id {id})", prefix=CHECK_PREFIX),
        ),
        _kind(
            "success", "success policy", SuccessPolicy,
            _field("min_gates", int, _L.LOWER, "fewer gates than this is never a pass: the run is "
                   "informational and exits 5, as with `--require-gate`", min=0),
            # `all` is a share of 1.
            _field("mode", SuccessMode, _L.RANKED, "`all`: every enforced gate must pass; "
                   "`percentage`: enough of them must",
                   order=(SuccessMode.ALL, SuccessMode.PERCENTAGE)),
            _field("min_pass_rate", float, _L.LOWER, "the share of enforced gates that must pass",
                   required="when mode is percentage, and only then", values="number in (0, 1]",
                   min=0, max=1, min_exclusive=True),
            _field("must_pass", str, _L.REMOVED, "gates that must be enforced and pass in any "
                   "mode", required="no (default none)",
                   values="a block list of metric ids, none repeated", many=True),
            _field("max_attempts", int, _L.HIGHER, "the latest attempt a gate may pass on after an "
                   "earlier attempt missed its bar; a later pass fails the gate "
                   "(`too_many_attempts`). `1`: every attempt must pass. The default is a host "
                   "check's one retry", min=1),
            single=True,
        ),
    )
}  # fmt: skip
