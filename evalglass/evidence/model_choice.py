"""Which model each metric's number is about. A metric measured for several models is never
merged into one number, and file order never decides between them: the user names the model
(`--model`), and the other models' measurements are skipped, or it is an input error naming
every model found. Ids that already name the model (promptfoo's provider column) are distinct
metrics and never meet here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from evalglass.errors import OutputError
from evalglass.evidence.model import Measurement, Skipped

# How a run that names no model is shown among those that do.
_UNNAMED = "(no model named)"


def choose(
    measurements: Sequence[Measurement], model: str | None
) -> tuple[list[Measurement], list[Skipped]]:
    """The measurements of the model chosen (every one when none is), and each file whose every
    measurement is of another model, skipped with why. OutputError when `model` was measured by
    no output, or, with none chosen, when outputs measure one metric id for several models."""
    if model is None:
        _refuse_mixed(measurements)
        return list(measurements), []
    kept = [m for m in measurements if model in m.run.models]
    if not kept:
        first = measurements[0].run.source if measurements else "--model"
        raise OutputError(
            first,
            f"no output measures model '{model}' (--model); models found: {_all(measurements)}",
        )
    sources_kept = {m.run.source for m in kept}
    skipped: dict[str, Skipped] = {}
    for m in measurements:
        source = m.run.source
        if source not in sources_kept and source not in skipped:
            skipped[source] = Skipped(
                source, f"measures model {m.run.model or _UNNAMED}, not --model {model}"
            )
    return kept, list(skipped.values())


def _refuse_mixed(measurements: Iterable[Measurement]) -> None:
    """One metric id measured for two models cannot be one number: say which, and how to pick."""
    seen: dict[str, tuple[str | None, str]] = {}
    everything = list(measurements)
    for m in everything:
        model = m.run.model
        first = seen.setdefault(m.id, (model, m.run.source))
        if first[0] != model:
            raise OutputError(
                m.run.source,
                f"metric '{m.id}' is measured for model {model or _UNNAMED} here and for "
                f"{first[0] or _UNNAMED} in {first[1]}; a metric's number is about one model: "
                f"choose one with --model NAME (models found: {_all(everything)})",
            )


def _all(measurements: Iterable[Measurement]) -> str:
    names = sorted({m.run.model or _UNNAMED for m in measurements})
    return ", ".join(names)
