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
from evalglass.evidence.adapters import _inspect_files as files
from evalglass.evidence.adapters._inspect_scores import epoch_reducer, value_to_float
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.reasons import Reason, ValidityCode

FORMAT = "inspect"

# Spread statistics feed the interval; they are not metrics a gate compares on their own.
_SPREAD = frozenset({"stderr", "bootstrap_stderr", "std"})
# Metrics that are the mean of the per-sample scores, so the samples and the stderr describe them.
_MEANS = frozenset({"accuracy", "mean"})
_DEFAULT_REDUCER = "mean"


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    with c.shape_errors(shown):
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
        models=[c.text(spec.get("model"))],
        dataset=_dataset(spec),
        status=status,
        started=c.iso_time(stats.get("started_at")) or c.iso_time(spec.get("created")),
    )
    declared = _declared_samples(spec, log.samples)
    results = header.get("results")
    if results is None:
        yield from _unmeasured(header, spec, task, run, declared)
        return
    listed = c.mapping(results, shown, "results").get("scores", [])
    entries = [c.mapping(e, shown, "results.scores[]") for e in c.sequence(listed, shown, "scores")]
    default_reducer = _default_reducer(spec)
    repeated = {n for n, k in Counter(e["name"] for e in entries).items() if k > 1}
    for entry in entries:
        name, scorer = str(entry["name"]), str(entry.get("scorer") or entry["name"])
        reducer = c.text(entry.get("reducer")) or default_reducer
        # Several epoch reducers give one entry per reducer under the same scorer name.
        segment = f"{name}@{reducer}" if name in repeated else name
        scorer_spec = _scorer_spec(spec, scorer)
        per_epoch = _epoch_scores(log.samples, name, scorer)
        reduced = _reduced(log.reductions, name, scorer, reducer, default_reducer)
        if reduced is None and per_epoch is not None:
            reduced = _reduce(per_epoch, reducer)
        scored = c.integer(entry.get("scored_samples"))
        n = scored if scored is not None else (len(reduced) if reduced is not None else None)
        metrics = c.mapping(entry.get("metrics"), shown, f"results.scores[{name}].metrics")
        stderr = _stderr(metrics, shown)
        cluster_key = files.cluster_key(scorer_spec)
        scorer_run = attrs.evolve(run, graders=_graders(entry, scorer_spec, spec, scorer))
        samples = _samples(per_epoch, cluster_key)
        for metric, body in metrics.items():
            if metric in _SPREAD:
                continue
            where = f"results.scores[{name}].metrics.{metric}.value"
            value = c.number(c.mapping(body, shown, where).get("value"), shown, where)
            findings: tuple[Reason, ...] = ()
            interval = None
            if metric in _MEANS:
                # A clustered stderr accounts for correlated samples; ours would not.
                scores = None if cluster_key or reduced is None else reduced
                interval = c.interval(value, scores, stderr)
                if reduced is not None:
                    findings = c.mismatch(
                        value, c.mean(reduced), f"the mean of its {len(reduced)} sample scores"
                    ) + c.count_mismatch(n, len(reduced), "scored samples")
            yield Measurement(
                id=f"{task}/{segment}/{metric}",
                run=scorer_run,
                value=value,
                n=n,
                interval=interval,
                samples=samples,
                missing=_missing(declared, n),
                findings=findings,
            )


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
    for scorer_spec in spec.get("scorers") or []:
        scorer = str(scorer_spec["name"])
        graders = _graders({}, scorer_spec, spec, scorer)
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
    # Scorers declare a list of metrics, or a mapping from score key to a list of metrics.
    if isinstance(metrics, dict):
        for key, inner in metrics.items():
            yield from _declared_metrics(str(key), inner)
    elif isinstance(metrics, list):
        for item in metrics:
            if isinstance(item, dict) and "name" in item:
                yield segment, str(item["name"]).rsplit("/", 1)[-1]
            else:
                yield from _declared_metrics(segment, item)


def _dataset(spec: dict[str, Any]) -> DatasetIdentity | None:
    data = spec.get("dataset")
    if not isinstance(data, dict):
        return None
    return DatasetIdentity(
        name=c.text(data.get("name")),
        location=c.text(data.get("location")),
        samples=c.integer(data.get("samples")),
    )


def _declared_samples(
    spec: dict[str, Any], samples: list[files.Summary | object] | None
) -> int | None:
    """Distinct samples the run set out to score (epochs are not extra samples)."""
    data = c.section(spec, "dataset")
    ids = data.get("sample_ids")
    if isinstance(ids, list) and ids:
        return len({str(i) for i in ids})
    if samples:
        return len({files.sample_id(s) for s in samples})
    return c.integer(data.get("samples"))


def _missing(declared: int | None, n: int | None) -> int:
    if declared is None:
        return 0
    return max(0, declared - (n or 0))


def _default_reducer(spec: dict[str, Any]) -> str:
    config = c.section(spec, "config")
    reducers = config.get("epochs_reducer")
    if isinstance(reducers, list) and len(reducers) == 1 and isinstance(reducers[0], str):
        return reducers[0]
    return _DEFAULT_REDUCER


def _scorer_spec(spec: dict[str, Any], scorer: str) -> dict[str, Any]:
    for item in spec.get("scorers") or []:
        if isinstance(item, dict) and item.get("name") == scorer:
            return item
    return {}


def _graders(
    entry: dict[str, Any], scorer_spec: dict[str, Any], spec: dict[str, Any], scorer: str
) -> list[str]:
    """The models that graded a scorer's judgments, as the log records them."""
    params = c.section(entry, "params")
    options = c.section(scorer_spec, "options")
    names = _model_names(params.get("model")) or _model_names(options.get("model"))
    if names:
        return names
    if scorer.rsplit("/", 1)[-1].startswith("model_graded"):
        # Without a model of its own, Inspect grades with its model role ("grader" unless the
        # scorer names another), else with the model under evaluation itself: record that so
        # a self-graded run is visible.
        role = c.text(params.get("model_role")) or c.text(options.get("model_role")) or "grader"
        roles = c.section(spec, "model_roles")
        return _model_names(roles.get(role)) or _model_names(spec.get("model"))
    return []


def _model_names(value: object) -> list[str]:
    if isinstance(value, str) and value.strip():
        return [value]
    if isinstance(value, dict):
        return _model_names(value.get("model"))
    if isinstance(value, list):
        return [name for item in value for name in _model_names(item)]
    return []


def _stderr(metrics: dict[str, Any], shown: str) -> float | None:
    for key in ("stderr", "bootstrap_stderr"):
        if isinstance(metrics.get(key), dict):
            return c.number(metrics[key].get("value"), shown, f"metrics.{key}.value")
    return None


@attrs.frozen
class _EpochScore:
    sample_id: str
    epoch: int | None
    score: float
    metadata: dict[str, Any]


def _epoch_scores(
    samples: list[files.Summary | object] | None, name: str, scorer: str
) -> list[_EpochScore] | None:
    """Scores per (sample, epoch) as Inspect's value_to_float reads them; errored ones have none."""
    if samples is None:
        return None
    found = []
    for sample in samples:
        summary = files.summary(sample)
        if summary.scores is None:
            continue
        value = files.score_value(summary.scores, name, scorer)
        if value is None:
            continue
        epoch = summary.epoch if isinstance(summary.epoch, int) else None
        found.append(_EpochScore(files.sample_id(summary), epoch, value, summary.metadata))
    return found


def _reduced(
    reductions: list[files.Reduction | files.Unreadable] | None,
    name: str,
    scorer: str,
    reducer: str,
    default_reducer: str,
) -> list[float] | None:
    """The epoch-reduced per-sample values Inspect itself fed this scorer's metrics."""
    for reduction in reductions or []:
        if isinstance(reduction, files.Unreadable):
            raise reduction.error
        if (c.text(reduction.reducer) or default_reducer) != reducer:
            continue
        if reduction.scorer not in (name, scorer):
            continue
        if isinstance(reduction.values, files.Unreadable):
            raise reduction.values.error
        values = []
        for written in reduction.values:
            if isinstance(written, files.Unreadable):
                raise written.error
            value = value_to_float(written.get(name) if isinstance(written, dict) else written)
            if value is not None:
                values.append(value)
        return values
    return None


def _reduce(scores: list[_EpochScore], reducer: str) -> list[float] | None:
    """Reduce each sample's epochs as the log says; None for a reducer we cannot reproduce."""
    by_sample: dict[str, list[float]] = {}
    for score in scores:
        by_sample.setdefault(score.sample_id, []).append(score.score)
    reduce = epoch_reducer(reducer)
    return None if reduce is None else [reduce(values) for values in by_sample.values()]


def _samples(
    scores: list[_EpochScore] | None, cluster_key: str | None
) -> tuple[Sample, ...] | None:
    if scores is None:
        return None
    ordered = sorted(scores, key=lambda s: (s.sample_id, s.epoch or 0))
    return tuple(
        Sample(
            id=s.sample_id,
            score=s.score,
            epoch=s.epoch,
            cluster=None if cluster_key is None else c.text(str(s.metadata.get(cluster_key, ""))),
        )
        for s in ordered
    )
