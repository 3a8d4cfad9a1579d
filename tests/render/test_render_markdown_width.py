"""The pull-request comment at GitHub's width: rendered to HTML as GitHub lays it out (its own
stylesheet, tests/render/github_markdown/), the reason each gate failed or is blocked is on
screen at 780 px, not scrolled out of view inside a wide table."""

from __future__ import annotations

import html
from pathlib import Path

from markdown_it import MarkdownIt

from evalglass.render import Format, render
from tests import render_cases
from tests.render.layout import measure

STYLESHEET = Path(__file__).parent / "github_markdown" / "github-markdown-light.css"
COMMENT_WIDTH = 780  # a pull-request comment on github.com, in CSS pixels

# Ids as inspect_evals writes them (TASK/SCORER/METRIC, the task named with its package).
REAL_IDS = {
    kind: f"inspect_evals/agent_threat_bench_{task}/agent_threat_bench_scorer/accuracy"
    for kind, task in (
        ("fail", "memory_poison"),
        ("blocked", "autonomy_hijack"),
        ("unsound", "data_exfil"),
        ("pass", "tool_misuse"),
    )
}
# The reason each decided gate shows, as the page reads it.
REASONS = {
    "fail": "lower bound 0.87 is not >= 0.95 (value 0.9, n 500, 95% Wilson)",
    "blocked": "dataset 'qa-old' is retired",
    "unsound": "no interval, and the gate compares a bound",
    "pass": "lower bound 0.87 >= 0.8 (value 0.9, n 500, 95% Wilson)",
}


def as_github_shows_it(markdown: str) -> str:
    """The comment as an HTML page: CommonMark with GitHub's tables (raw HTML kept, as GitHub's
    sanitizer keeps `<br>` and `<details>`), in GitHub's stylesheet and comment padding."""
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    css = STYLESHEET.read_text(encoding="utf-8")
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
        f"{css}\n.markdown-body {{ box-sizing: border-box; padding: 16px; }}</style></head>"
        f'<body style="margin:0"><article class="markdown-body">{body}</article></body></html>'
    )


def test_each_gates_reason_is_on_screen_at_780_pixels(tmp_path: Path) -> None:
    """With real Inspect ids, the text saying why each gate failed, was blocked, was unsound or
    passed (its numbers: bound, threshold, value, n) lies within a 780 px comment: no sideways
    scrolling to read it."""
    page = as_github_shows_it(render(render_cases.scorecard(REAL_IDS), Format.MARKDOWN))
    found = measure(
        tmp_path, page, COMMENT_WIDTH,
        "{" + ", ".join(f"{kind!r}: textBoxes(d, {text!r})" for kind, text in REASONS.items()) + "}",
    )  # fmt: skip
    for kind, boxes in found.items():
        assert boxes, f"{kind}: {REASONS[kind]!r} is not on the page"
        assert all(0 <= left and right <= COMMENT_WIDTH for left, right in boxes), (kind, boxes)


def test_the_measure_sees_text_scrolled_out_of_a_table(tmp_path: Path) -> None:
    """The check is not vacuous: the same reason in the last column of a wide table (as the
    comment had it) is found past the comment's right edge."""
    row = " | ".join(f"`{metric_id}`" for metric_id in REAL_IDS.values())
    markdown = f"| a | b | c | d | why |\n|---|---|---|---|---|\n| {row} | {html.escape(REASONS['fail'])} |\n"
    boxes = measure(tmp_path, as_github_shows_it(markdown), COMMENT_WIDTH,
                    f"textBoxes(d, {REASONS['fail']!r})")  # fmt: skip
    assert boxes and max(right for _, right in boxes) > COMMENT_WIDTH
