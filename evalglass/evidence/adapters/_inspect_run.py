"""Who and what an Inspect log says ran: the run's identity for telling copies and retries
apart, the dataset it set out to score, and the models that graded each scorer. Read from the
log's eval spec; none of it grants authority."""

from __future__ import annotations

from typing import Any

from evalglass.evidence.adapters import _common as c
from evalglass.evidence.fingerprint import fingerprint as fingerprint_of
from evalglass.evidence.model import DatasetIdentity


def identity(spec: dict[str, Any], stats: dict[str, Any]) -> str | None:
    """A log converted between .eval and .json keeps its eval id and start: one run, read once.
    A retry starts anew, so it is never taken for a copy."""
    eval_id, started = c.text(spec.get("eval_id")), c.text(stats.get("started_at"))
    return None if eval_id is None or started is None else f"inspect:{eval_id}:{started}"


def evaluation(spec: dict[str, Any]) -> str | None:
    """`inspect eval-retry` keeps the task_id (and model) of the run it completes; a new
    `inspect eval` draws a new task_id, so it is another attempt."""
    task_id, model = c.text(spec.get("task_id")), c.text(spec.get("model"))
    return None if task_id is None else f"inspect:{task_id}:{model}"


def dataset(spec: dict[str, Any]) -> DatasetIdentity | None:
    data = spec.get("dataset")
    if not isinstance(data, dict):
        return None
    return DatasetIdentity(
        name=c.text(data.get("name")),
        location=c.text(data.get("location")),
        samples=c.count(data.get("samples")),
        fingerprint=fingerprint(data.get("sample_ids")),
    )


def fingerprint(ids: object) -> str | None:
    """The fingerprint of the sample ids the run set out to score (`eval.dataset.sample_ids`),
    each id as text; None when the log lists none, or lists one that is not an id."""
    if not isinstance(ids, list) or not all(
        isinstance(i, str | int) and not isinstance(i, bool) for i in ids
    ):
        return None
    return fingerprint_of(str(i) for i in ids)


def graders(
    entry: dict[str, Any], scorer_spec: dict[str, Any], spec: dict[str, Any], scorer: str
) -> list[str]:
    """The models that graded a scorer's judgments, as the log records them."""
    params = c.section(entry, "params")
    options = c.section(scorer_spec, "options")
    names = model_names(params.get("model")) or model_names(options.get("model"))
    if names:
        return names
    if scorer.rsplit("/", 1)[-1].startswith("model_graded"):
        # Without a model of its own, Inspect grades with its model role ("grader" unless the
        # scorer names another), else with the model under evaluation itself: record that so
        # a self-graded run is visible.
        role = c.text(params.get("model_role")) or c.text(options.get("model_role")) or "grader"
        roles = c.section(spec, "model_roles")
        return model_names(roles.get(role)) or model_names(spec.get("model"))
    return []


def model_names(value: object) -> list[str]:
    """Every model name in a scorer's `model` (a name, an object with a model, or a list of
    them), walked with a stack of its own."""
    names, pending = [], [value]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and value.strip():
            names.append(value)
        elif isinstance(value, dict):
            pending.append(value.get("model"))
        elif isinstance(value, list):
            pending.extend(reversed(value))
    return names
