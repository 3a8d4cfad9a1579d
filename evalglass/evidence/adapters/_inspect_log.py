"""Inspect AI logs (`.eval` archives with zstd or deflate members, and `.json`) as Measurements.
It reads what the log measured and who measured it; it never lets a field grant authority and
never invents a value for a run that ended without results."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters import _inspect_epochs as epochs
from evalglass.evidence.adapters import _inspect_files as files
from evalglass.evidence.adapters import _inspect_groups as groups
from evalglass.evidence.adapters import _inspect_run as run_of
from evalglass.evidence.model import Measurement, Run, Sample
from evalglass.reasons import Reason, ValidityCode

FORMAT = "inspect"

# Spread statistics feed the interval; they are not metrics a gate compares on their own.
_SPREAD = frozenset({"stderr", "bootstrap_stderr", "std"})
# Metrics that are the mean of the per-sample scores, so the samples and the stderr describe them.
_MEANS = frozenset({"accuracy", "mean"})
# Built-in scorers whose every score is C or I: their accuracy is a rate by construction.
_CORRECT_OR_NOT = frozenset({"match", "includes", "pattern", "choice", "exact", "answer"})
# The one status of a run that finished: "started", "cancelled" and "error" did not.
_COMPLETE = "success"


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    log = files.load(path, shown)
    return tuple(_measurements(log, shown))


def _measurements(log: files.Log, shown: str) -> Iterator[Measurement]:
    header = log.header
    spec = c.mapping(header.get("eval"), shown, "eval")
    task = c.text(spec.get("task"))
    if task is None:
        raise OutputError(shown, "eval.task: expected the task name")
    status = c.text(header.get("status"))
    stats = c.section(header, "stats")
    run = Run(
        source=shown,
        task=task,
        models=[c.text(spec.get("model"))],
        dataset=run_of.dataset(spec),
        status=status,
        started=c.iso_time(stats.get("started_at")) or c.iso_time(spec.get("created")),
        identity=run_of.identity(spec, stats),
        evaluation=run_of.evaluation(spec),
    )
    declared = _declared_samples(spec, log.samples)
    incomplete = _incomplete(status, header, declared)
    unstarted = _unstarted(spec, log.samples) if incomplete else 0
    results = header.get("results")
    if results is None:
        for measured in _unmeasured(header, spec, task, run, declared):
            yield attrs.evolve(measured, findings=measured.findings + incomplete)
        return
    listed = c.mapping(results, shown, "results").get("scores", [])
    entries = [c.mapping(e, shown, "results.scores[]") for e in c.sequence(listed, shown, "scores")]
    default_reducer = epochs.default_reducer(spec)
    # Without a reducer, Inspect's metrics and scored_samples are over every epoch's score.
    unreduced = epochs.unreduced(spec)
    names = [_name(e, shown, f"results.scores[{i}].name") for i, e in enumerate(entries)]
    repeated = {n for n, k in Counter(names).items() if k > 1}
    metadata: dict[str, dict[str, Any]] | None = None
    summaries = None if log.samples is None else epochs.Summaries(log.samples)
    for entry, name in zip(entries, names, strict=True):
        scorer = c.text(entry.get("scorer")) or name
        reducer = c.text(entry.get("reducer")) or default_reducer
        # Several epoch reducers give one entry per reducer under the same scorer name.
        segment = f"{name}@{reducer}" if name in repeated else name
        scorer_spec = _scorer_spec(spec, scorer)
        per_epoch = epochs.epoch_scores(summaries, name, scorer)
        reduced = (
            None
            if unreduced
            else epochs.reduced(log.reductions, name, scorer, reducer, default_reducer)
        )
        if reduced is None and per_epoch is not None:
            reduced = epochs.reduce(per_epoch, reducer)
        n = c.count(entry.get("scored_samples"))
        if n is None or unreduced:
            n = _count(unreduced, reduced, epochs.scored_ids(summaries, name, scorer))
        metrics = c.mapping(entry.get("metrics"), shown, f"results.scores[{name}].metrics")
        stderr = _stderr(metrics, shown)
        cluster_key = files.cluster_key(scorer_spec)
        base = Measurement(
            id=f"{task}/{segment}",
            run=attrs.evolve(run, graders=run_of.graders(entry, scorer_spec, spec, scorer)),
            value=None,
            n=n,
            samples=epochs.samples(per_epoch, cluster_key),
            missing=_missing(declared, n),
            reduction=epochs.reduction(per_epoch, reducer),
        )
        for metric, body in metrics.items():
            if metric in _SPREAD:
                continue
            where = f"results.scores[{name}].metrics.{metric}.value"
            body = c.mapping(body, shown, where)
            value = c.number(body.get("value"), shown, where)
            group = groups.group_of(metric, body)
            kind = metric if group is None else group.metric
            if kind in _SPREAD:
                continue
            measured = attrs.evolve(base, id=f"{base.id}/{metric}", value=value)
            if group is not None and not group.whole:
                if metadata is None:
                    metadata = _metadata(log.samples)
                ids = groups.members(group, metadata)
                grouped = _in_group(measured, ids, per_epoch, reduced, kind, reducer)
                yield _flagged(grouped, incomplete, unstarted)
                continue
            if kind in _MEANS and not (group is not None and group.over_groups):
                # A clustered stderr accounts for correlated samples; ours would not.
                scores = None if cluster_key or reduced is None else [v for _, v in reduced]
                rate = kind == "accuracy" and scorer.rsplit("/", 1)[-1] in _CORRECT_OR_NOT
                findings: tuple[Reason, ...] = c.out_of_range(value, rate)
                if scores is not None:
                    findings += _value_check(value, scores, per_epoch if unreduced else None)
                    findings += c.count_mismatch(n, len(scores), "scored samples")
                clusters = None if cluster_key is None else _clusters(base.samples)
                measured = attrs.evolve(
                    measured,
                    interval=c.interval(value, scores, stderr, n=n, rate=rate, clusters=clusters),
                    findings=findings,
                )
            yield _flagged(measured, incomplete, 0)


def _count(
    unreduced: bool,
    reduced: list[tuple[str | None, float]] | None,
    scored: set[str] | None,
) -> int | None:
    """Distinct samples scored, where the log's `scored_samples` does not say them (the run
    kept its epochs unreduced, so it counts epochs, or it is not written): the samples with a
    score of any value (a metric of the scorer's own over dict-valued scores has no number per
    sample), else those with a reduced value."""
    if scored:
        return len(scored)
    return None if reduced is None or unreduced else len(reduced)


def _value_check(
    value: float | None, scores: list[float], per_epoch: epochs.EpochScores | None
) -> tuple[Reason, ...]:
    """The value against the samples: the mean of their reduced scores, or, when the run kept
    its epochs unreduced, of every epoch's score, as Inspect's metric then is."""
    if per_epoch is not None:
        pooled = per_epoch.pooled()
        return c.mismatch(value, c.mean(pooled), f"the mean of its {len(pooled)} epoch scores")
    return c.mismatch(value, c.mean(scores), f"the mean of its {len(scores)} sample scores")


def _incomplete(
    status: str | None, header: dict[str, Any], declared: int | None
) -> tuple[Reason, ...]:
    """Why a run that did not finish cannot support a gate; () for one that finished."""
    if status == _COMPLETE:
        return ()
    results = c.section(header, "results")
    done, total = c.count(results.get("completed_samples")), c.count(results.get("total_samples"))
    total = declared if declared is not None else total
    counted = f": {done} of {total} samples completed" if done is not None and total else ""
    return (Reason(ValidityCode.RUN_INCOMPLETE, f"run status is '{status}'{counted}"),)


def _unstarted(spec: dict[str, Any], samples: list[files.Summary] | None) -> int:
    """Samples a stopped run set out to score and never logged: which group each was in is not
    known, so each group counts them all as missing (erring toward missing, never toward n)."""
    ids = c.section(spec, "dataset").get("sample_ids")
    if not isinstance(ids, list):
        return 0
    seen = {s.id for s in samples or []}
    return len({str(i) for i in ids if isinstance(i, str | int)} - seen)


def _flagged(measured: Measurement, incomplete: tuple[Reason, ...], unstarted: int) -> Measurement:
    if not incomplete:
        return measured
    missing = measured.missing + unstarted if measured.n is not None else measured.missing
    return attrs.evolve(measured, missing=missing, findings=measured.findings + incomplete)


def _in_group(
    measured: Measurement,
    ids: frozenset[str] | None,
    per_epoch: epochs.EpochScores | None,
    reduced: list[tuple[str | None, float]] | None,
    kind: str | None,
    reducer: str,
) -> Measurement:
    """One group of a grouped() metric: its own samples and n, never the whole scorer's."""
    # Without each reduced value's sample id, which values are the group's cannot be told.
    known = reduced is not None and all(sample is not None for sample, _ in reduced)
    if ids is None or not known:
        return attrs.evolve(measured, n=None, samples=None, missing=0, reduction=None)
    values = [value for sample, value in reduced or () if sample in ids]
    findings: tuple[Reason, ...] = ()
    interval = None
    if kind in _MEANS:
        interval = c.interval(measured.value, values, None)
        findings = c.mismatch(
            measured.value, c.mean(values), f"the mean of its group's {len(values)} sample scores"
        )
    samples = measured.samples
    return attrs.evolve(
        measured,
        n=len(values),
        interval=interval,
        samples=None if samples is None else tuple(s for s in samples if s.id in ids),
        missing=max(0, len(ids) - len(values)),
        findings=findings,
        reduction=epochs.reduction(per_epoch, reducer, ids),
    )


def _metadata(samples: list[files.Summary] | None) -> dict[str, dict[str, Any]]:
    """Each sample's metadata (the keys scoring groups by), by sample id."""
    found: dict[str, dict[str, Any]] = {}
    for summary in samples or []:
        found.setdefault(summary.id, summary.metadata)
    return found


def _unmeasured(
    header: dict[str, Any], spec: dict[str, Any], task: str, run: Run, declared: int | None
) -> Iterator[Measurement]:
    """A run without results measured nothing: its declared metrics, with no value to gate on."""
    error = header.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    why = f"run ended with status '{run.status}' and recorded no results"
    if isinstance(message, str) and message.strip():
        why += f": {c.one_line(message.strip().splitlines()[0], 160)}"
    finding = (Reason(ValidityCode.VALUE_MISSING, why),)
    scorers = c.sequence(spec.get("scorers") or [], run.source, "eval.scorers")
    for index, item in enumerate(scorers):
        scorer_spec = c.mapping(item, run.source, f"eval.scorers[{index}]")
        scorer = _name(scorer_spec, run.source, f"eval.scorers[{index}].name")
        graders = run_of.graders({}, scorer_spec, spec, scorer)
        for segment, metric in _declared_metrics(scorer, scorer_spec.get("metrics") or []):
            if metric in _SPREAD:
                continue
            yield Measurement(
                id=f"{task}/{segment}/{metric}",
                run=attrs.evolve(run, graders=graders),
                value=None,
                n=None,
                missing=declared or 0,
                findings=finding,
            )


def _declared_metrics(segment: str, metrics: object) -> Iterator[tuple[str, str]]:
    """Scorers declare a list of metrics, or a mapping from score key to a list of metrics (a
    walk with a stack of its own: the log's nesting never deepens Python's)."""
    pending: list[tuple[str, object]] = [(segment, metrics)]
    while pending:
        segment, metrics = pending.pop()
        if isinstance(metrics, dict):
            pending.extend(reversed([(key, inner) for key, inner in metrics.items()]))
        elif isinstance(metrics, list):
            for item in reversed(metrics):
                name = item.get("name") if isinstance(item, dict) else None
                if isinstance(name, str):
                    pending.append((segment, _Declared(name.rsplit("/", 1)[-1])))
                elif not isinstance(item, dict):
                    pending.append((segment, item))
        elif isinstance(metrics, _Declared):
            yield segment, metrics.name


@attrs.frozen
class _Declared:
    name: str


def _name(entry: dict[str, Any], shown: str, where: str) -> str:
    name = c.text(entry.get("name"))
    if name is None:
        raise OutputError(shown, f"{where}: expected a name, got {c.kind(entry.get('name'))}")
    return name


def _declared_samples(spec: dict[str, Any], samples: list[files.Summary] | None) -> int | None:
    """Distinct samples the run set out to score (epochs are not extra samples)."""
    data = c.section(spec, "dataset")
    ids = data.get("sample_ids")
    if isinstance(ids, list) and ids:
        return len({str(i) if isinstance(i, str | int | float) else c.kind(i) for i in ids})
    if samples:
        return len({s.id for s in samples})
    return c.count(data.get("samples"))


def _missing(declared: int | None, n: int | None) -> int:
    if declared is None:
        return 0
    return max(0, declared - (n or 0))


def _scorer_spec(spec: dict[str, Any], scorer: str) -> dict[str, Any]:
    for item in spec.get("scorers") or []:
        if isinstance(item, dict) and item.get("name") == scorer:
            return item
    return {}


def _clusters(samples: tuple[Sample, ...] | None) -> int:
    """How many clusters a clustered stderr was computed over: the distinct values of the
    cluster key among the scored samples; 0 when the log has no samples to count them in."""
    return len({s.cluster for s in samples or ()})


def _stderr(metrics: dict[str, Any], shown: str) -> float | None:
    for key in ("stderr", "bootstrap_stderr"):
        spread = metrics.get(key)
        if isinstance(spread, dict):
            return c.number(spread.get("value"), shown, f"metrics.{key}.value")
    return None
