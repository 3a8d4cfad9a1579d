"""The host records as typed, frozen values: the only source of authority.

Loading lives in `load.py`; this module holds the vocabularies and shapes, and no I/O.
"""

from __future__ import annotations

import datetime as dt
import enum
import operator
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from evalglass.tiers import Tier

if TYPE_CHECKING:
    from evalglass import contract
    from evalglass.calibration_evidence import CalibrationEvidence


class MetricStatus(enum.Enum):
    """Where a metric is in its life: only `gating` lets it gate; every other status keeps it
    informational."""

    DRAFT = "draft"
    INFORMATIONAL = "informational"
    CALIBRATING = "calibrating"
    GATING = "gating"
    RETIRED = "retired"


class Decision(enum.Enum):
    """How a can_gate value is compared: the conservative end of its interval, or the point."""

    BOUND = "bound"
    POINT = "point"


class Scale(enum.Enum):
    """What values a metric's scores can take, when the records say: `proportion` (each sample
    scores 0 or 1, so the value is a share of n and its interval is Wilson's) or `unit` (scores
    lie in [0, 1], so no interval end goes past them)."""

    PROPORTION = "proportion"
    UNIT = "unit"


class Op(enum.Enum):
    """A threshold's direction: `>=` and `>` when higher is better, `<=` and `<` when lower is."""

    GE = ">="
    GT = ">"
    LE = "<="
    LT = "<"

    @property
    def higher_is_better(self) -> bool:
        """Whether a larger value is better: it says which end of an interval is the conservative
        one, and which way a regression goes."""
        return self in (Op.GE, Op.GT)

    def holds(self, left: float, right: float) -> bool:
        """Whether `left OP right` is true, e.g. an interval's bound against the threshold."""
        return _OPS[self](left, right)


_OPS: Mapping[Op, Callable[[float, float], bool]] = {
    Op.GE: operator.ge,
    Op.GT: operator.gt,
    Op.LE: operator.le,
    Op.LT: operator.lt,
}


class Approval(enum.Enum):
    """Whether a person has approved a threshold; only an approved one authorizes a gate."""

    PROPOSED = "proposed"
    APPROVED = "approved"


class DatasetStatus(enum.Enum):
    """A dataset's life: proposed keeps its metrics informational and retired blocks them, so
    only validated data can decide a build."""

    PROPOSED = "proposed"
    VALIDATED = "validated"
    RETIRED = "retired"


class Calibration(enum.Enum):
    """How far a judge is trusted: uncalibrated and calibrating keep its metrics informational,
    drifted and retired block them, calibrated lets them gate."""

    UNCALIBRATED = "uncalibrated"
    CALIBRATING = "calibrating"
    CALIBRATED = "calibrated"
    DRIFTED = "drifted"
    RETIRED = "retired"


class JudgeStatistic(enum.Enum):
    """An agreement statistic a judge's calibration evidence reports (named as it writes them)."""

    KAPPA = "kappa"
    AC1 = "ac1"
    PERCENT_AGREEMENT = "percent_agreement"
    WEIGHTED_KAPPA = "weighted_kappa"
    ALPHA = "alpha"
    SPEARMAN = "spearman"
    ICC = "icc"


class CheckKind(enum.Enum):
    """What a check does: start a process (run, shell) or look at a file (file_exists, regex)."""

    RUN = "run"
    SHELL = "shell"
    FILE_EXISTS = "file_exists"
    REGEX = "regex"


class SuccessMode(enum.StrEnum):
    """How a run's gates decide its verdict: every one must pass, or a share of them
    (`min_pass_rate`)."""

    ALL = "all"
    PERCENTAGE = "percentage"


class Policy(enum.Enum):
    """A dataset's data policy: only permitted or redacted data may decide a build; any other
    policy, or none, blocks."""

    PERMITTED = "permitted"
    REDACTED = "redacted"
    RESTRICTED = "restricted"
    FORBIDDEN = "forbidden"
    UNKNOWN = "unknown"


@attrs.frozen
class Origin:
    """Where a record was written: shown in errors and by tools that point at a line."""

    path: str
    line: int

    def __str__(self) -> str:
        """`path:line`, as messages name a place."""
        return f"{self.path}:{self.line}"


_NOWHERE = Origin("<memory>", 0)


def _origin() -> Origin:
    return attrs.field(default=_NOWHERE, eq=False, repr=False)


@attrs.frozen(kw_only=True)
class MetricRecord:
    """What the eval leads decided about a metric. A check's metric (`check/NAME`) gives status
    only (the loader enforces it): its definition in checks.yaml is its bar, so it has no
    dataset; every other metric names its dataset."""

    status: MetricStatus
    dataset: str | None = None
    judge: str | None = None
    requires_baseline: bool = False
    min_samples: int = 10
    decision: Decision = Decision.BOUND
    # Errored or skipped samples, as a fraction of all samples, above which the value is unsound.
    max_missing_fraction: float = 0.0
    # Confidence level of the interval a bound rule compares.
    interval_level: float = 0.95
    # What values the scores can take; None when the records do not say.
    scale: Scale | None = None
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class ApprovedFor:
    """What an approval was given for: the dataset (and judge) it saw, by version, fingerprint
    or both (the loader requires one). `origin` is its line."""

    dataset_version: str | None = None
    fingerprint: str | None = None
    judge_model: str | None = None
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class ThresholdRecord:
    """The bar a gating metric must clear: an absolute `value`, a largest allowed regression
    from the approved baseline (`max_drop`, `max_relative_drop`), or both; at least one."""

    op: Op
    approval: Approval
    value: float | None = None
    max_drop: float | None = None
    max_relative_drop: float | None = None
    # Passing the gate but not this bound is a warning: shown everywhere, exit code unchanged.
    warn_value: float | None = None
    approved_by: str | None = None
    approved_on: dt.date | None = None
    approved_for: ApprovedFor | None = None
    # The last day the approval holds; never before approved_on.
    expires_on: dt.date | None = None
    origin: Origin = _origin()

    @property
    def regression(self) -> bool:
        """Whether it bounds the drop from the approved baseline (max_drop or max_relative_drop),
        as well as or instead of an absolute value."""
        return self.max_drop is not None or self.max_relative_drop is not None


@attrs.frozen(kw_only=True)
class DatasetRecord:
    """A dataset the host has reviewed: its status, and the version (and fingerprint) an output
    must have been measured on for its metrics to gate. `names` are how the tools name it
    (lm-eval's dataset_path, an Inspect task's dataset name): an output naming a dataset that
    is neither the record's id nor one of them measured something else. It pins a version, a
    fingerprint or both (the loader requires one): a tool that records no version, as Inspect,
    is checked by the fingerprint alone."""

    status: DatasetStatus
    version: str | None = None
    fingerprint: str | None = None
    names: tuple[str, ...] = ()  # no repeats
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class MinAgreement:
    """The bar a judge's calibration evidence must clear: the lower end of the statistic's
    interval at least `lower_bound`. `origin` is its line."""

    statistic: JudgeStatistic
    lower_bound: float
    origin: Origin = _origin()


@attrs.frozen
class UnreadableEvidence:
    """A judge's calibration evidence file that could not be used: missing, unreadable or not
    calibration evidence. `problem` says which, for the reason that blocks the judge's metrics."""

    problem: str


@attrs.frozen(kw_only=True)
class JudgeRecord:
    """A model grader the host tracks: its model, how far its calibration is trusted, and
    optionally the evidence file and the agreement that evidence must show."""

    model: str
    calibration: Calibration
    # A calibration evidence file, relative to the records folder; min_agreement needs one.
    evidence: str | None = None
    min_agreement: MinAgreement | None = None
    # Filled by the loader from the `evidence` file, never from YAML: the document, or why it
    # could not be read. None when the record was not loaded from a folder (nothing was read).
    evidence_read: CalibrationEvidence | UnreadableEvidence | None = attrs.field(
        default=None, repr=False
    )
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class PolicyRecord:
    """The data policy of one dataset id, looked up whether or not a dataset record exists."""

    policy: Policy
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class BaselineRecord:
    """An approved earlier measurement of a metric: inline numbers, a saved scorecard JSON
    (`scorecard`, relative to the records folder) whose entry for the metric supplies them, or a
    Parquet rows file (`rows`, likewise) that the shell reads and pairs with the current rows.
    It names the data it was measured on by dataset_version, fingerprint or both (the loader
    requires one), as the dataset record pins it."""

    dataset_version: str | None = None
    value: float | None = None
    n: int | None = None
    stderr: float | None = None
    fingerprint: str | None = None
    judge: str | None = None
    scorecard: str | None = None
    rows: str | None = None
    # Filled from the saved scorecard, never from YAML: its entry for the metric, and its
    # per-sample scores by sample id (epochs averaged) when it was saved with --keep-samples.
    saved: contract.Metric | None = attrs.field(default=None, repr=False)
    sample_scores: Mapping[str, float] | None = attrs.field(default=None, repr=False)
    # Filled only by `history`, from the commit's tree: the git object id of the rows file, so a
    # file replaced under the same name shows as a change without reading any Parquet.
    rows_object: str | None = attrs.field(default=None, repr=False)
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class CheckRecord:
    """A host-owned check, yielding the metric `check/NAME`: exactly one of run, shell,
    file_exists and regex is set (the loader enforces it; `kind` says which)."""

    run: str | None = None  # a command, split like a shell would and run without one
    shell: str | None = None  # a command for /bin/sh -c
    file_exists: str | None = None  # a path that must exist
    regex: str | None = None  # a pattern (it compiles) that must match in in_file
    in_file: str | None = None  # required with regex, and only with it
    non_empty: bool = False  # file_exists only: the file must also have content
    timeout: int | None = None  # seconds; required with run and shell, and only with them
    cwd: str | None = None  # run and shell only
    expect_exit: int = 0  # run and shell only
    tier: Tier = Tier.FULL
    cache: bool = True  # run and shell only: detectors are never cached
    origin: Origin = _origin()

    @property
    def kind(self) -> CheckKind:
        """Which of run, shell, file_exists and regex this check is. ValueError for a record with
        none, which the loader never builds."""
        for kind in CheckKind:
            if getattr(self, kind.value) is not None:
                return kind
        raise ValueError("a check record with none of run, shell, file_exists, regex")

    @property
    def target(self) -> str:
        """The command, path or pattern its kind names."""
        value: str = getattr(self, self.kind.value)
        return value


# A gate's attempts, when success.yaml does not bound them: one retry, as a host check has.
DEFAULT_MAX_ATTEMPTS = 2


@attrs.frozen(kw_only=True)
class SuccessPolicy:
    """What a whole run needs to pass. The defaults are the behaviour without success.yaml:
    every enforced gate must pass, zero enforced gates is allowed, and a gate may pass on its
    second attempt (with a warning) but not on a later one."""

    min_gates: int = 0
    mode: SuccessMode = SuccessMode.ALL
    min_pass_rate: float | None = None  # in (0, 1]: given iff mode is percentage
    must_pass: tuple[str, ...] = ()  # metric ids, no repeats
    # The latest attempt a gate may pass on after an earlier one missed its bar (1: every
    # attempt must pass). Two mirrors a check's one retry.
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    origin: Origin = _origin()


def _frozen_map(value: Mapping[str, object]) -> Mapping[str, object]:
    # Records never change after loading; a read-only view keeps it so.
    return types.MappingProxyType(dict(value))


@attrs.frozen(kw_only=True)
class HostRecords:
    """Every host record, keyed by id. An absent file is an empty mapping: no records of that kind;
    an absent success.yaml is `success=None`, which means what `SuccessPolicy()` says."""

    metrics: Mapping[str, MetricRecord] = attrs.field(factory=dict, converter=_frozen_map)
    thresholds: Mapping[str, ThresholdRecord] = attrs.field(factory=dict, converter=_frozen_map)
    datasets: Mapping[str, DatasetRecord] = attrs.field(factory=dict, converter=_frozen_map)
    judges: Mapping[str, JudgeRecord] = attrs.field(factory=dict, converter=_frozen_map)
    policies: Mapping[str, PolicyRecord] = attrs.field(factory=dict, converter=_frozen_map)
    baselines: Mapping[str, BaselineRecord] = attrs.field(factory=dict, converter=_frozen_map)
    checks: Mapping[str, CheckRecord] = attrs.field(factory=dict, converter=_frozen_map)
    success: SuccessPolicy | None = None

    def dataset_of(self, metric: MetricRecord) -> DatasetRecord | None:
        """The dataset record the metric names; None when it names none (a check's metric) or
        datasets.yaml has no such record."""
        return None if metric.dataset is None else self.datasets.get(metric.dataset)
