"""The Markdown scorecard for a pull-request comment. Reads a Scorecard; never decides.

A comment has to fit GitHub's limit. When the whole scorecard would not, it is shortened: every
gate that failed or could not be decided stays listed (if even those do not fit, as many as fit,
most severe first, and the rest counted by status), and the metrics not affecting the verdict are
counted by outcome and reason instead of listed. The comment says so, and that the JSON and HTML
scorecards have everything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs
from markupsafe import Markup

from evalglass.core.scorecard import Scorecard
from evalglass.core.status import Status
from evalglass.numbers import plural
from evalglass.render._templates import environment
from evalglass.render.view import MetricView, ScorecardView, scorecard_view

LIMIT = 65_536  # characters in a GitHub issue or pull-request comment
MARKER = "<!-- evalglass-scorecard -->"  # first line, so a workflow can find and update its comment
# No row of either table is shorter than this, so more metrics than LIMIT / _SHORTEST_ROW cannot
# fit however they are written, and the whole scorecard need not be rendered to know it; no row of
# the gates' table is shorter than _SHORTEST_GATE_ROW ("| **PASS** | `x` | — | — | — | — | — |").
_SHORTEST_ROW = 20
_SHORTEST_GATE_ROW = 36
# The most the line counting unlisted gates can grow by as fewer are listed: five statuses.
_COUNTS_MARGIN = 200


@attrs.frozen(kw_only=True)
class Shortened:
    """What a shortened comment lists, and what it counts instead of listing."""

    gates: tuple[MetricView, ...]  # the gates listed, most severe first
    unlisted: tuple[tuple[str, int], ...]  # (status, how many) of the gates not listed
    reasons: tuple[tuple[str, str, int], ...]  # (outcome, reason code, metrics) of the rest
    notes: tuple[tuple[str, int], ...]  # (reason code, metrics) that would block once promoted
    others: int  # metrics not affecting the verdict, all counted rather than listed

    @property
    def unlisted_total(self) -> int:
        """How many of the gates that decided are counted instead of listed."""
        return sum(count for _, count in self.unlisted)

    @property
    def listed(self) -> str:
        """What the shortened comment lists, in words."""
        if self.unlisted:
            text = (
                f"{len(self.gates)} of the {len(self.gates) + self.unlisted_total} gates that "
                "decided are listed, the most severe first"
            )
        else:
            text = "every gate that decided is listed"
        if self.others:
            verb = "is" if self.others == 1 else "are"
            text += (
                f", and the {plural(self.others, 'metric')} not affecting the verdict {verb} "
                "counted by reason"
            )
        return text


def render(scorecard: Scorecard) -> str:
    """The Markdown scorecard for a pull-request comment: MARKER first, never longer than LIMIT
    characters. When the whole does not fit, the gates that decided are listed most severe first
    and the rest counted."""
    view = scorecard_view(scorecard)
    gates, rest = view.gates, view.others
    rows = _rows()
    # Each row built once, and only rows a comment can list: every gate when the whole scorecard
    # may fit, else at most `most`, as many as the shortest rows could fill.
    whole_may_fit = len(scorecard.metrics) * _SHORTEST_ROW <= LIMIT
    most = min(len(gates), LIMIT // _SHORTEST_GATE_ROW)
    gate_rows = [
        (str(rows.gate_row(m)), str(rows.gate_detail(m)).rstrip("\n"))
        for m in (gates if whole_may_fit else gates[:most])
    ]

    def text(cut: Shortened | None) -> str:
        listed = gate_rows if cut is None else gate_rows[: len(cut.gates)]
        return _comment(view, listed, cut)

    if whole_may_fit:
        whole = text(None)
        if len(whole) <= LIMIT:
            return whole
    reasons, notes = _counted(rest)

    def shortened(listed: int) -> str:
        unlisted = _by_status(gates[listed:])
        return text(
            Shortened(
                gates=tuple(gates[:listed]),
                unlisted=unlisted,
                reasons=reasons,
                notes=notes,
                others=len(rest),
            )
        )

    # Every gate that could fit, listed once, gives each row's length; the most that fit follow,
    # less a margin for the line that counts the rest, which grows as fewer are listed.
    probe = shortened(most)
    if len(probe) <= LIMIT:
        return probe
    lengths = [len(row) + len(detail) + 2 for row, detail in gate_rows[:most]]
    room = LIMIT - (len(probe) - sum(lengths)) - _COUNTS_MARGIN
    listed = 0
    while listed < len(lengths) and lengths[listed] <= room:
        room -= lengths[listed]
        listed += 1
    while len(comment := shortened(listed)) > LIMIT and listed:
        listed -= 1
    return comment


def _rows() -> Any:
    """The row macros of templates/scorecard_rows.md.j2."""
    return environment().get_template("scorecard_rows.md.j2").module


def _comment(view: ScorecardView, gates: list[tuple[str, str]], cut: Shortened | None) -> str:
    """The comment: the verdict, the gates' table and each gate's evidence below it, then what
    does not affect the verdict, listed, or counted by reason when `cut` says the comment is
    shortened."""
    template = environment().get_template("scorecard.md.j2")
    text: str = template.render(
        scorecard=view,
        rows=[row for row, _ in gates],
        # Markup: each item is Markdown the macro escaped already, lines and all.
        details=[Markup(detail) for _, detail in gates],
        cut=cut,
        limit=LIMIT,
        marker=MARKER,
    )
    return text


def _by_status(cards: Iterable[MetricView]) -> tuple[tuple[str, int], ...]:
    """How many of each status, most severe first (the order the gates are listed in)."""
    counts = Counter(card.status for card in cards)
    return tuple((status.value, counts[status]) for status in Status if counts[status])


def _counted(
    cards: Iterable[MetricView],
) -> tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, int], ...]]:
    """The metrics by outcome and reason code (a metric with two reasons counts under both), and
    by what would block them once promoted; most frequent first."""
    reasons: Counter[tuple[str, str]] = Counter()
    notes: Counter[str] = Counter()
    for card in cards:
        reasons.update((card.outcome, r.code) for r in card.reasons)
        notes.update(r.code for r in card.notes)
    by_reason = sorted(reasons.items(), key=lambda item: (item[0][0], -item[1], item[0][1]))
    by_note = sorted(notes.items(), key=lambda item: (-item[1], item[0]))
    return tuple((o, code, n) for (o, code), n in by_reason), tuple(by_note)
