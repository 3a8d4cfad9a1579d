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

import attrs

from evalglass.core.numbers import plural
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.core.status import Status
from evalglass.render import _view
from evalglass.render.markdown_text import markdown_code, markdown_escape

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

    gates: tuple[MetricCard, ...]  # the gates listed, most severe first
    unlisted: tuple[tuple[str, int], ...]  # (status, how many) of the gates not listed
    reasons: tuple[tuple[str, str, int], ...]  # (outcome, reason code, metrics) of the rest
    notes: tuple[tuple[str, int], ...]  # (reason code, metrics) that would block once promoted

    @property
    def unlisted_total(self) -> int:
        return sum(count for _, count in self.unlisted)


def render(scorecard: Scorecard) -> str:
    gates, rest = _view.deciding(scorecard), _view.others(scorecard)
    # Each row built once, and only rows a comment can list: every gate when the whole scorecard
    # may fit, else at most `most`, as many as the shortest rows could fill.
    whole_may_fit = len(scorecard.metrics) * _SHORTEST_ROW <= LIMIT
    most = min(len(gates), LIMIT // _SHORTEST_GATE_ROW)
    gate_rows = [_gate_row(card) for card in (gates if whole_may_fit else gates[:most])]

    def text(cut: Shortened | None) -> str:
        listed = gate_rows if cut is None else gate_rows[: len(cut.gates)]
        return _comment(scorecard, listed, rest, cut)

    if whole_may_fit:
        whole = text(None)
        if len(whole) <= LIMIT:
            return whole
    reasons, notes = _counted(rest)

    def shortened(listed: int) -> str:
        unlisted = _by_status(gates[listed:])
        return text(
            Shortened(gates=tuple(gates[:listed]), unlisted=unlisted, reasons=reasons, notes=notes)
        )

    # Every gate that could fit, listed once, gives each row's length; the most that fit follow,
    # less a margin for the line that counts the rest, which grows as fewer are listed.
    probe = shortened(most)
    if len(probe) <= LIMIT:
        return probe
    lengths = [len(row) + 1 for row in gate_rows[:most]]
    room = LIMIT - (len(probe) - sum(lengths)) - _COUNTS_MARGIN
    listed = 0
    while listed < len(lengths) and lengths[listed] <= room:
        room -= lengths[listed]
        listed += 1
    while len(comment := shortened(listed)) > LIMIT and listed:
        listed -= 1
    return comment


def _comment(
    scorecard: Scorecard, rows: list[str], rest: list[MetricCard], cut: Shortened | None
) -> str:
    """The comment: the verdict, the gates' table, then what does not affect the verdict,
    listed, or counted by reason when `cut` says the comment is shortened."""
    out = [MARKER, f"**{markdown_escape(_view.headline(scorecard))}**", ""]
    if scorecard.model is not None:
        out.append(f"Model under evaluation: {markdown_code(scorecard.model)}")
    if cut is not None:
        if cut.unlisted:
            listed = (
                f"{len(cut.gates)} of the {len(cut.gates) + cut.unlisted_total} gates that "
                "decided are listed, the most severe first"
            )
        else:
            listed = "every gate that decided is listed"
        if rest:
            verb = "is" if len(rest) == 1 else "are"
            listed += (
                f", and the {plural(len(rest), 'metric')} not affecting the verdict {verb} "
                "counted by reason"
            )
        note = (
            f"_Shortened to fit GitHub's limit of {LIMIT:,} characters for a comment: {listed}. "
            "The JSON and HTML scorecards (`--format json`, `--format html`) have every metric._"
        )
        out += ["", note]
    if rows:
        out += [
            "",
            "| Result | Metric | Value | Interval | n | Threshold | Evidence or reasons |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    elif cut is None or not cut.unlisted:
        out += ["", "No metric could gate: nothing in this run was enforced."]
    if cut is not None and cut.unlisted:
        counts = ", ".join(f"{count} {status}" for status, count in cut.unlisted)
        more = plural(cut.unlisted_total, "more gate")
        out += ["", f"**{more} not listed here:** {counts}."]
    if rest:
        summary = f"{plural(len(rest), 'metric')} not affecting the verdict"
        out += ["", f"<details><summary>{summary}</summary>", ""]
        if cut is None:
            out += [
                "| Metric | Value | n | Why it does not gate | Would block once promoted |",
                "|---|---|---|---|---|",
                *(_other_row(card) for card in rest),
            ]
        else:
            out += ["| Outcome | Why it does not gate | Metrics |", "|---|---|---|"]
            out += [f"| {o} | {markdown_code(code)} | {n} |" for o, code, n in cut.reasons]
            if cut.notes:
                out += ["", "| Would block once promoted | Metrics |", "|---|---|"]
                out += [f"| {markdown_code(code)} | {n} |" for code, n in cut.notes]
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def _other_row(card: MetricCard) -> str:
    notes = _view.reasons_text(card.authority.notes) or "—"
    return (
        f"| {markdown_code(card.id)} | {_view.value_text(card)} | {_view.n_text(card)} | "
        f"{markdown_escape(_view.reasons_text(card.authority.reasons))} | "
        f"{markdown_escape(notes)} |"
    )


def _gate_row(card: MetricCard) -> str:
    """One row of the gates' table; every string from an output or a record escaped."""
    return (
        f"| **{card.status.value.upper()}** | {markdown_code(card.id)} | {_view.value_text(card)} | "
        f"{_view.interval_text(card)} | {_view.n_text(card)} | "
        f"{markdown_escape(_view.threshold_text(card))} | "
        f"{markdown_escape(_view.why(card))} |"
    )


def _by_status(cards: Iterable[MetricCard]) -> tuple[tuple[str, int], ...]:
    """How many of each status, most severe first (the order the gates are listed in)."""
    counts = Counter(card.status for card in cards)
    return tuple((status.value, counts[status]) for status in Status if counts[status])


def _counted(
    cards: Iterable[MetricCard],
) -> tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, int], ...]]:
    """The metrics by outcome and reason code (a metric with two reasons counts under both), and
    by what would block them once promoted; most frequent first."""
    reasons: Counter[tuple[str, str]] = Counter()
    notes: Counter[str] = Counter()
    for card in cards:
        outcome = card.authority.outcome.value
        reasons.update((outcome, r.code.value) for r in card.authority.reasons)
        notes.update(r.code.value for r in card.authority.notes)
    by_reason = sorted(reasons.items(), key=lambda item: (item[0][0], -item[1], item[0][1]))
    by_note = sorted(notes.items(), key=lambda item: (-item[1], item[0]))
    return tuple((o, code, n) for (o, code), n in by_reason), tuple(by_note)
