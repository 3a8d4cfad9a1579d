"""What an eval output measured, as untrusted, typed values.

Evidence never carries authority: nothing here is read by the resolver except the identity of
the model under evaluation, its graders and the dataset, which can only *block* a gate, never
grant one.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from evalglass.reasons import Reason


class Method(enum.Enum):
    """How an interval was computed; named in every gate's evidence."""

    WILSON = "wilson"
    # Exact binomial bounds, where Wilson's would pass a rate at the bar too often.
    CLOPPER_PEARSON = "clopper_pearson"
    STUDENT_T = "student_t"
    NORMAL = "normal"
    HOEFFDING = "hoeffding"
    CLUSTERED = "clustered"
    # Scores in [0, 1]: a proportion's interval at the effective n their spread gives.
    EFFECTIVE_N = "effective_n"
    CLUSTERED_EFFECTIVE_N = "clustered_effective_n"
    NEWCOMBE = "newcombe"
    PAIRED_T = "paired_t"


class MethodBasis(enum.Enum):
    """Why an interval's method is the one used: what the evidence gave it to work from. Named
    beside the method in the scorecard JSON, so a reader can tell a Wilson interval of 0/1
    scores from one of a value and n read as a share."""

    # Per-sample scores (or exact sums of them): the method follows from the scores themselves.
    SAMPLES = "samples"
    # The framework's own standard error of the value (normal; Student-t on C - 1 degrees of
    # freedom for a clustered one).
    REPORTED_STDERR = "reported_stderr"
    # A value and n read as a share of n: the framework's metric is a rate by construction, or
    # its reported standard error is the binomial one.
    INFERRED_PROPORTION = "inferred_proportion"
    # The metric record's `scale: proportion` made it a share of n.
    DECLARED_SCALE = "declared_scale"


@attrs.frozen
class Proportion:
    """A share of successes: enough to recompute a Wilson interval at any level."""

    successes: float
    n: int


@attrs.frozen
class MeanSd:
    """A mean of scores with their sample standard deviation; `bounded` when all lie in [0, 1];
    the smallest and largest score where the reader kept them (how far the scores reach on
    either side of the mean shows a skew a bound cannot vouch for)."""

    mean: float
    sd: float
    n: int
    bounded: bool
    low: float | None = None
    high: float | None = None


@attrs.frozen
class ValueStderr:
    """A value and its standard error; `df` for a Student-t quantile, None for the normal;
    `bounded` when the scores behind it lie in [0, 1] (a range-aware interval, not ± q·se)."""

    value: float
    stderr: float
    df: int | None = None
    bounded: bool = False


Basis = Proportion | MeanSd | ValueStderr


@attrs.frozen
class Interval:
    """A confidence interval for a value at `level`, naming its method; `basis` lets the
    scorecard recompute it at the metric's own interval_level."""

    low: float
    high: float
    level: float
    method: Method
    # What the interval was computed from, so it can be recomputed at another level.
    basis: Basis | None = attrs.field(default=None, kw_only=True)
    # Independent clusters behind a cluster-robust interval.
    clusters: int | None = attrs.field(default=None, kw_only=True)
    # The range of values the scores can take, when an end was cut back to it (say so).
    clipped: tuple[float, float] | None = attrs.field(default=None, kw_only=True)
    # Why this method: what the evidence gave it to work from.
    method_basis: MethodBasis = attrs.field(default=MethodBasis.SAMPLES, kw_only=True)


@attrs.frozen(kw_only=True)
class Sample:
    """One sample's score, with its epoch when the case was scored more than once and its cluster
    when samples are not independent."""

    id: str
    score: float
    epoch: int | None = None
    cluster: str | None = None


@attrs.frozen(kw_only=True)
class DatasetIdentity:
    """What an output says about the data it measured. Compared with the dataset record it can
    block a gate (`dataset_mismatch`), never grant one."""

    name: str | None = None
    version: str | None = None
    location: str | None = None
    samples: int | None = None
    fingerprint: str | None = None


# What a run names as a grader when a model graded it but the output does not say which (e.g.
# promptfoo's default grader): never shown independent of the model under evaluation, never the
# judge the records name.
UNKNOWN_GRADER = "unknown grader"


def _names(values: Iterable[str | None]) -> tuple[str, ...]:
    """Every distinct name given, sorted; blanks and Nones are no name."""
    return tuple(sorted({v for v in values if v is not None and v.strip()}))


@attrs.frozen(kw_only=True)
class Run:
    """One eval run, for one metric, as its output file describes it.

    `models` are every model under evaluation the output names for the metric (usually one);
    `graders` every model it names as grading the metric's judgments (none for a metric that
    is not model-graded, or a format that does not record its grader). `task` is the task (or
    lm-eval group) the output says it ran, as written (`inspect_evals/gsm8k`); None for a format
    that names none: a metric id's first segment is not a task."""

    source: str
    task: str | None = None
    models: tuple[str, ...] = attrs.field(default=(), converter=_names)
    dataset: DatasetIdentity | None = None
    graders: tuple[str, ...] = attrs.field(default=(), converter=_names)
    status: str | None = None
    started: str | None = None
    # The tool's own order among its runs started in the same instant (DeepEval saves a second
    # run in one second as test_run_<ts>_2.json): later is greater.
    sequence: int = 0
    # What identifies this run in every file it is written to (promptfoo's row ids, DeepEval's
    # test run), so one run written twice is read once; None when the format has no such mark.
    identity: str | None = None
    # The run this file holds all or part of, where a tool writes one run to several files as
    # it goes (promptfoo's evalId: a paused eval's export, then its resumed or retried output),
    # and how much of it the file holds (its rows, and those with a result): of the files of one
    # run, the one holding the most is read. None when the format has no such mark.
    whole: str | None = None
    extent: tuple[int, int] | None = None
    # What makes runs one evaluation (Inspect: the task_id and model an eval-retry keeps), so a
    # run completing a stopped one is that evaluation, not a new attempt; None when not recorded.
    evaluation: str | None = None
    # The id the framework's own viewer finds the run by (promptfoo's evalId), shown beside the
    # samples a failed gate lists; never compared.
    viewer_id: str | None = None

    @property
    def model(self) -> str | None:
        """The model under evaluation as shown to people: the one named, or several joined."""
        return ", ".join(self.models) or None


@attrs.frozen(kw_only=True)
class Reduction:
    """How a case's repeated scores (epochs, repeats) became the one score n counts once."""

    reducer: str  # "mean", "median", ... as the framework names it
    # The fewest and most scores any case had before reduction.
    least: int
    most: int


@attrs.frozen(kw_only=True)
class EarlierAttempt:
    """A superseded run of the same metric, kept so a retry cannot hide a failure."""

    source: str
    started: str | None
    value: float | None
    n: int | None
    # The run's evaluation (Run.evaluation), and whether the run completed.
    evaluation: str | None = None
    complete: bool = True
    # What the gate's own rule judges it by, as for the newest attempt: its interval as read,
    # the samples it missed and the problems found in its file.
    interval: Interval | None = None
    missing: int = 0
    findings: tuple[Reason, ...] = ()


class AttemptOutcome(enum.Enum):
    """How one attempt at a host check ended. Could not run is no outcome at all: never a pass,
    never a plain fail."""

    PASSED = "passed"
    FAILED = "failed"
    COULD_NOT_RUN = "could_not_run"


@attrs.frozen(kw_only=True)
class CachedPass:
    """Where a pass read from the cache was recorded: at which commit, and when (ISO 8601, UTC)."""

    commit: str
    recorded: str


# How much of what a check's process wrote to each of stderr and stdout is kept: the end, where
# the error and a test runner's summary usually are; never the whole output.
STDERR_KEPT = 4096
STDOUT_KEPT = 4096
# The last lines of each stream a card shows under a check that did not pass.
TAIL_LINES = 5


@attrs.frozen(kw_only=True)
class Attempt:
    """One attempt at a host check: a process run (or its pass read from the cache), or a file
    looked at. What a process printed is kept only to be shown."""

    outcome: AttemptOutcome
    command: str  # as run: the command line, `/bin/sh -c '...'`, or what a detector looked at
    found: str  # what happened, in words: `exit 1 (expected 0)`, `present, 1,234 bytes`
    exit_code: int | None = None  # -N when signal N ended it; None when no process ran
    duration: float | None = None  # seconds
    timed_out: bool = False
    stderr: str = ""  # the last STDERR_KEPT bytes it wrote to stderr
    cached: CachedPass | None = None
    stdout: str = ""  # the last STDOUT_KEPT bytes it wrote to stdout

    @property
    def last_stderr_line(self) -> str:
        """The last line the process wrote to stderr, where an error usually is; "" when it wrote
        nothing."""
        return "".join(_last_lines(self.stderr, 1))

    @property
    def last_stdout_line(self) -> str:
        """The last line the process wrote to stdout (a test runner's summary); "" for none."""
        return "".join(_last_lines(self.stdout, 1))

    @property
    def stderr_tail(self) -> tuple[str, ...]:
        """The last TAIL_LINES non-blank lines it wrote to stderr."""
        return _last_lines(self.stderr, TAIL_LINES)

    @property
    def stdout_tail(self) -> tuple[str, ...]:
        """The last TAIL_LINES non-blank lines it wrote to stdout."""
        return _last_lines(self.stdout, TAIL_LINES)


def _last_lines(text: str, count: int) -> tuple[str, ...]:
    """The last `count` lines of `text` that are not blank, stripped."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return tuple(lines[-count:])


@attrs.frozen(kw_only=True)
class PairedSums:
    """A metric's current scores paired with its baseline's by sample id (each side's epochs
    averaged), as sufficient statistics rather than the pairs, for rows summed where they are.

    `binary`: every paired score is 0 or 1 on both sides, and the four counts are the pairs
    scoring (1, 1), (1, 0), (0, 1) and (0, 0). Otherwise the differences d = current − baseline
    on the summing grid of 2^-64 (aggregate.SCALE): their exact sum and sum of squares (grid
    2^-128), which also say exactly whether every d is the same (n·Σd² = (Σd)²); `bounded`
    when every paired score lies in [0, 1]."""

    n: int
    binary: bool
    both: int = 0
    current_only: int = 0
    baseline_only: int = 0
    neither: int = 0
    total: int = 0
    squares: int = 0
    bounded: bool = False


@attrs.frozen(kw_only=True)
class Measurement:
    """One metric as one output measured it: value, sample count, interval, per-sample scores
    where the file has them, and the problems found in the file itself. It can make a number
    unsound or block a gate; it can never authorize one."""

    id: str
    run: Run
    value: float | None
    n: int | None
    interval: Interval | None = None
    samples: tuple[Sample, ...] | None = None
    missing: int = 0
    # Problems the adapter found in the file itself (e.g. its aggregate disagrees with its samples).
    findings: tuple[Reason, ...] = ()
    earlier: tuple[EarlierAttempt, ...] = ()
    # Set when cases were scored more than once: n counts cases, not their repeats.
    reduction: Reduction | None = None
    # A host check's attempts, in order (a retry second); empty for what an eval output measured.
    attempts: tuple[Attempt, ...] = ()
    # The scores paired with the baseline's rows file where both are Parquet (no `samples`).
    paired: PairedSums | None = None


def _frozen_map(value: Mapping[str, Measurement]) -> Mapping[str, Measurement]:
    return types.MappingProxyType(dict(sorted(value.items())))


@attrs.frozen
class Skipped:
    """A file given or found that holds no run to read (a framework's index, cache or second copy
    of a run read from another file): reported with why, never counted."""

    source: str
    reason: str


@attrs.frozen
class Found:
    """An output file found and recognised: where it is, how it is shown, the format's name."""

    path: Path
    shown: str
    format: str


@attrs.frozen(kw_only=True)
class Evidence:
    """Every measurement from every output given, by metric id, the files they came from, and the
    files passed over."""

    measurements: Mapping[str, Measurement] = attrs.field(factory=dict, converter=_frozen_map)
    sources: tuple[str, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    # Every file found and recognised, as found (each once, in the order given): what a later
    # step that reads a format's files again (a baseline's rows paired with them) reads, so
    # the outputs are expanded and recognised once.
    found: tuple[Found, ...] = ()
