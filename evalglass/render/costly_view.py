"""The samples that cost a failed, unsound or blocked gate most, as every format shows them, and
the command that opens them in the framework's own viewer. Reads a card; never decides.
"""

from __future__ import annotations

import shlex
from pathlib import PurePath
from typing import TYPE_CHECKING

import attrs

from evalglass.core.scorecard import MetricCard
from evalglass.numbers import fmt

if TYPE_CHECKING:
    from evalglass.core.costly import CostlySample


@attrs.frozen(kw_only=True)
class CostlyView:
    """A sample that cost a failed, unsound or blocked gate most."""

    id: str
    epoch: int | None
    score: float
    # Its score as text.
    score_text: str
    # The output file it is in.
    source: str
    # `id (0)`, `id, epoch 2 (0.25)`: the sample in a few words.
    text: str


def costly_view(s: CostlySample) -> CostlyView:
    """One costly sample as templates read it."""
    epoch = "" if s.epoch is None else f", epoch {s.epoch}"
    return CostlyView(
        id=s.id, epoch=s.epoch, score=s.score, score_text=fmt(s.score), source=s.source,
        text=f"{s.id}{epoch} ({fmt(s.score)})",
    )  # fmt: skip


def open_with(card: MetricCard) -> str:
    """The command that opens a gate's costly samples in the framework's own viewer: Inspect's
    log viewer on the log's folder, promptfoo's on its evals; "" for any other format."""
    if not card.costly:
        return ""
    if card.costly_format == "inspect":
        folder = str(PurePath(card.costly[0].source).parent)
        return f"inspect view --log-dir {shlex.quote(folder)}"
    if card.costly_format == "promptfoo":
        run = None if card.measurement is None else card.measurement.run
        eval_id = None if run is None else run.viewer_id
        return "promptfoo view" + ("" if eval_id is None else f" (eval {eval_id})")
    return ""
