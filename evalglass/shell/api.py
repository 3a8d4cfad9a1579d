"""The Python API, one verb per task, which the command line and the MCP server call too: each
verb resolves its run's inputs once (`RunInputs`) and returns a finished value, never patched."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evalglass._collector import paused
from evalglass.core.scope import NO_CHECKS, Scope
from evalglass.core.scorecard import Scorecard, assemble
from evalglass.records.load import load_records
from evalglass.records.source import RecordsSource
from evalglass.shell.baseline_rows import attach
from evalglass.shell.run_inputs import RunInputs

if TYPE_CHECKING:
    from evalglass.evidence.model import Evidence, Skipped
    from evalglass.records.model import HostRecords
    from evalglass.tools.checks.session import Progress
    from evalglass.tools.diagnosis import Diagnosis
    from evalglass.tools.explanation import Explanation
    from evalglass.tools.history import History
    from evalglass.tools.planning import Plan
    from evalglass.tools.records_diff import RecordsDiff
    from evalglass.tools.trend import Trend

__all__ = [
    "diff_records",
    "doctor",
    "example_paths",
    "explain",
    "explain_patch",
    "history",
    "plan",
    "run",
    "score",
    "trend",
    "validate",
]


def score(
    outputs: Sequence[str | os.PathLike[str]],
    records: str | os.PathLike[str] | RecordsSource = "host_records",
    *,
    input_format: str | None = None,
    model: str | None = None,
    require_gate: bool = False,
    records_ref: str | None = None,
    as_of: dt.date | dt.datetime | None = None,
    compare: str | os.PathLike[str] | None = None,
) -> Scorecard:
    """Read the host records and the eval outputs, and assemble the scorecard.

    With `records_ref`, the records folder is read as committed at that git ref, not from the
    working tree (`records` may instead be a source already pinned: the scorecard names the ref
    as given and the commit it named). `as_of` is the evaluation time (a date is its midnight
    UTC, a naive time is UTC; default: now), recorded as the scorecard's `evaluated_at`. With
    `compare`, each metric is shown beside the earlier scorecard JSON at that path, display
    only; with `records_ref` too, an earlier scorecard evaluated before the records' commit was
    made is marked stale. Raises `RecordError`, `OutputError` or `ContractError` (each an
    `EvalglassError`) for input it cannot use.
    """
    inputs = RunInputs.of(
        outputs, records, records_ref=records_ref, input_format=input_format, model=model,
        as_of=as_of, compare=compare,
    )  # fmt: skip
    host, evidence = _gathered(inputs)
    return _assembled(inputs, host, evidence, require_gate)


def _gathered(inputs: RunInputs) -> tuple[HostRecords, Evidence]:
    """The records and the outputs' evidence, each baseline's rows filled in."""
    host = inputs.records.load()
    # Reading a large output and assembling its scorecard build many small acyclic objects.
    with paused():
        return attach(host, inputs.evidence(), inputs.records)


def _assembled(
    inputs: RunInputs,
    host: HostRecords,
    evidence: Evidence,
    require_gate: bool,
    scope: Scope = NO_CHECKS,
) -> Scorecard:
    """The one scorecard of the run: everything it names, from the records folder to the earlier
    scorecard beside it, comes from `inputs`, so nothing is set on it afterwards."""
    earlier = inputs.earlier()
    with paused():
        return assemble(
            host,
            evidence,
            require_gate,
            evaluated_at=inputs.evaluated_at,
            scope=scope,
            records_folder=inputs.records.folder,
            records_at=inputs.records_at,
            earlier=earlier,
        )


def run(
    outputs: Sequence[str | os.PathLike[str]] = (),
    records: str | os.PathLike[str] | RecordsSource = "host_records",
    *,
    tier: str = "full",
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    input_format: str | None = None,
    model: str | None = None,
    require_gate: bool = False,
    records_ref: str | None = None,
    as_of: dt.date | dt.datetime | None = None,
) -> Scorecard:
    """Run the host checks of `tier` ("fast" or "full") from checks.yaml, then score them with
    the eval outputs: one scorecard. Checks run in the current directory (their cwd and files
    are relative to it); passes of run and shell checks are cached under `cache_dir` (default
    `$XDG_CACHE_HOME/evalglass`) unless `use_cache` is false. Outputs are read before any check
    starts, so bad input fails at once. `records`, `records_ref` and `as_of` are as for `score`
    (the clock is read when the run starts). Raises EvalglassError for input it cannot use."""
    import attrs

    from evalglass.tiers import Tier
    from evalglass.tools.checks.cache import Store, default_folder
    from evalglass.tools.checks.session import Settings, run_checks

    scope = Scope(Tier(tier))
    inputs = RunInputs.of(
        outputs, records, records_ref=records_ref, input_format=input_format, model=model,
        as_of=as_of,
    )  # fmt: skip
    host, evidence = _gathered(inputs)
    store = None
    if use_cache:
        store = Store(Path(cache_dir) if cache_dir is not None else default_folder())
    settings = Settings(scope=scope, evaluated_on=inputs.evaluated_on, store=store)
    checked = run_checks(host, settings, progress)
    # An output cannot report a check/ metric (read_outputs refuses one): no id is in both.
    both = attrs.evolve(evidence, measurements={**evidence.measurements, **checked.measurements})
    return _assembled(inputs, host, both, require_gate, scope)


def _with_rows(source: RecordsSource) -> HostRecords:
    """The records with their rows baselines filled in, for commands that read no outputs."""
    from evalglass.evidence.model import Evidence

    return attach(source.load(), Evidence(), source)[0]


def example_paths() -> tuple[Path, Path]:
    """The bundled example: (records folder, eval output), from the installed package or a checkout."""
    from importlib import resources

    installed = resources.files("evalglass") / "example"
    if installed.is_dir():
        base = Path(str(installed))
        return base / "host_records", base / "outputs" / "run.json"
    root = Path(__file__).resolve().parents[2]
    return root / "host_records", root / "examples" / "run.json"


def diff_records(
    base_ref: str,
    records: str | os.PathLike[str] | RecordsSource = "host_records",
    outputs: Sequence[str | os.PathLike[str]] = (),
    *,
    head_ref: str | None = None,
    input_format: str | None = None,
    model: str | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
    as_of: dt.date | dt.datetime | None = None,
) -> RecordsDiff:
    """Compare the records at `base_ref` with `head_ref` (default: the working tree, or the
    commit a source already pinned names), and the authority each side resolves for the given
    outputs, as of the evaluation time `as_of` (default: now), which also dates the approvals
    found expiring."""
    from evalglass.tools.records_diff import diff

    folder = records.folder if isinstance(records, RecordsSource) else records
    base = RecordsSource.pin(folder, base_ref)
    head = RunInputs.of(
        outputs, records, records_ref=head_ref, input_format=input_format, model=model,
        as_of=as_of,
    )  # fmt: skip
    # Each side's baselines with the numbers their rows files give, so a swapped file shows.
    before = _with_rows(base)
    after = _with_rows(head.records)
    evidence = _read(head, on_skipped) if head.outputs else None
    return diff(
        before,
        after,
        evidence,
        base_name=base.ref or base.folder,
        head_name="working tree" if head.records.ref is None else head.records.ref,
        evaluated_on=head.evaluated_on,
    )


def explain(
    metric_id: str,
    outputs: Sequence[str | os.PathLike[str]] = (),
    records: str | os.PathLike[str] | RecordsSource = "host_records",
    *,
    input_format: str | None = None,
    model: str | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
    records_ref: str | None = None,
    as_of: dt.date | dt.datetime | None = None,
) -> Explanation:
    """One metric's value, validity and authority, and the edits that would let it gate, with
    (given outputs) the hypothetical result, evaluated at `as_of` (default: now). Reads only;
    raises EvalglassError for an unknown id. With `records_ref`, the records are read as
    committed at that git ref."""
    from evalglass.evidence.model import Evidence
    from evalglass.tools.explanation import explain as explain_metric

    inputs = RunInputs.of(
        outputs, records, records_ref=records_ref, input_format=input_format, model=model,
        as_of=as_of,
    )  # fmt: skip
    host = inputs.records.load()
    evidence = _read(inputs, on_skipped) if inputs.outputs else Evidence()
    host, evidence = attach(host, evidence, inputs.records)
    return explain_metric(metric_id, host, evidence, evaluated_at=inputs.evaluated_at)


def explain_patch(
    explanation: Explanation, records: str | os.PathLike[str] = "host_records"
) -> str:
    """The explanation's edits as a unified diff of the records folder, for a person to review,
    fill in and `git apply`. Reads the records files; writes nothing. Empty when no edit is left."""
    from evalglass.records.load import read_text
    from evalglass.records.schema import KINDS
    from evalglass.tools.records_patch import patch

    edits = explanation.checklist.edits
    files = {
        kind: read_text(os.path.join(os.fspath(records), KINDS[kind].filename))
        for kind in {edit.kind for edit in edits}
    }
    return patch(files, os.fspath(records), edits)


def doctor(
    outputs: Sequence[str | os.PathLike[str]] = (),
    records: str | os.PathLike[str] | RecordsSource = "host_records",
    *,
    input_format: str | None = None,
    model: str | None = None,
    on_skipped: Callable[[Skipped], None] | None = None,
    records_ref: str | None = None,
    as_of: dt.date | dt.datetime | None = None,
) -> Diagnosis:
    """Every problem in the records (and, given outputs, between them and the run), as of the
    evaluation time `as_of` (default: now), with approvers checked against the CODEOWNERS file
    of the repository around the records folder, where there is one, and the programs run checks
    name that are not found from here. Reads only. With `records_ref`, the records are read as
    committed at that git ref (CODEOWNERS still from the working tree)."""
    from evalglass.shell.ownership import ownership
    from evalglass.tools.checks.attempts import unfound_executables
    from evalglass.tools.diagnosis import diagnose

    inputs = RunInputs.of(
        outputs, records, records_ref=records_ref, input_format=input_format, model=model,
        as_of=as_of,
    )  # fmt: skip
    # A baseline's rows file is read as score reads it: one it could not use is found here.
    host = _with_rows(inputs.records)
    evidence = _read(inputs, on_skipped) if inputs.outputs else None
    # Looked for here, where evalglass run would start them: doctor itself touches nothing.
    unfound = unfound_executables(host, Path("."))
    return diagnose(host, evidence, inputs.evaluated_on, ownership(inputs.records.folder), unfound)


def plan(
    metric_id: str,
    records: str | os.PathLike[str] = "host_records",
    *,
    expect: float,
    power: float = 0.8,
    sd: float | None = None,
) -> Plan:
    """The sample size at which the metric's gate, as the records define it, passes with at
    least `power` when the true value is `expect`: exact binomial for 0/1 scores, the normal
    approximation for scores of standard deviation `sd`. Reads the records only; writes
    nothing. Raises PlanError (an EvalglassError) when there is no gate to plan for."""
    from evalglass.tools.planning import plan as plan_gate

    return plan_gate(metric_id, load_records(records), expect, power, sd)


def history(
    metric_id: str, records: str | os.PathLike[str] = "host_records", *, since: str | None = None
) -> History:
    """Every commit reachable from HEAD (after `since`) that changed a record behind the metric,
    oldest first: who, when, and each field's old and new value, from the records loaded at each
    commit. Raises RecordError outside a git repository, UnknownMetric (an EvalglassError) when
    no commit holds a record of the metric."""
    from evalglass.records.git_history import revisions
    from evalglass.tools.history import build

    return build(metric_id, revisions(records, since), folder=os.fspath(records), since=since)


def _read(inputs: RunInputs, on_skipped: Callable[[Skipped], None] | None) -> Evidence:
    """The outputs' evidence; each file skipped (it held no run) is passed to `on_skipped`,
    since these results do not list their sources."""
    evidence = inputs.evidence()
    if on_skipped is not None:
        for item in evidence.skipped:
            on_skipped(item)
    return evidence


def validate(records: str | os.PathLike[str] = "host_records") -> int:
    """Load the records folder against its schema and nothing else; the number of records.
    Raises RecordErrors naming every problem found, not only the first."""
    from evalglass.records.load import validated_records

    host = validated_records(records)
    kinds = (
        host.metrics,
        host.thresholds,
        host.datasets,
        host.judges,
        host.policies,
        host.baselines,
        host.checks,
    )
    return sum(len(kind) for kind in kinds) + (host.success is not None)


def trend(scorecards: Sequence[str | os.PathLike[str]], metrics: Sequence[str] = ()) -> Trend:
    """Each metric over the runs these scorecard JSON files record, in order of evaluation time
    (files without one first, in the order given); `metrics` limits it to those ids. Reads no
    records and changes no verdict. Raises ContractError (an EvalglassError) for a file that is
    not a scorecard, ValueError for a metric id no file has."""
    from evalglass.contract import load_scorecard
    from evalglass.tools.trend import build

    loaded, seen = [], set()
    # A thousand scorecards are a million small acyclic objects: see _collector.
    with paused():
        for given in scorecards:
            # The same file named twice (overlapping globs) is one run, not two.
            resolved = Path(given).resolve()
            if resolved not in seen:
                seen.add(resolved)
                loaded.append((os.fspath(given), load_scorecard(given)))
        return build(loaded, metrics)
