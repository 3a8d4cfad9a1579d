"""Both HTML pages (the scorecard and the trend) at a phone's, a pull-request's and a desktop's
width, laid out in headless Chromium and measured through the DOM: nothing wider than the
viewport, no badge clipped, no chart text under 9 px on screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from evalglass.render import Format, render
from evalglass.render.trend import render as render_trend
from tests import render_cases
from tests.render.layout import measure
from tests.render.test_render_html import HOSTILE_IDS
from tests.render.test_render_markdown_width import REAL_IDS
from tests.render.test_render_trend import example, hostile

WIDTHS = (375, 780, 1280)
SMALLEST_TEXT = 9.0  # CSS pixels on screen

PAGES: dict[str, Callable[[], str]] = {
    "scorecard, inspect_evals ids": lambda: render(render_cases.scorecard(REAL_IDS), Format.HTML),
    "scorecard, hostile ids": lambda: render(render_cases.scorecard(HOSTILE_IDS), Format.HTML),
    "trend, the example": lambda: render_trend(example(), Format.HTML),
    "trend, hostile text": lambda: render_trend(hostile(), Format.HTML),
}

_MEASURE = (
    "{width: d.documentElement.scrollWidth, viewport: w.innerWidth, over: overflowing(d, w),"
    " clipped: clipped(d), text: svgText(d, w)}"
)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_fits_its_width(tmp_path: Path, page: str, width: int) -> None:
    """No sideways scrolling (the page and every element in it within the viewport, tables
    included), every badge's word whole, and every chart label at least 9 px on screen."""
    found = measure(tmp_path, PAGES[page](), width, _MEASURE)
    assert found["viewport"] == width
    assert found["width"] <= width, found["over"][:5]
    assert found["over"] == []
    assert found["clipped"] == []
    assert found["text"], "no chart text was drawn"
    assert min(found["text"]) >= SMALLEST_TEXT, sorted(found["text"])[:5]
