"""The HTML chart's frame, written as numbers in the template, is the one html.py computes in."""

from __future__ import annotations

import re

from evalglass.render import Format, render
from evalglass.render.chart import ARROW_Y, AXIS_Y, HEIGHT, WIDTH, chart_for
from evalglass.render.view import scorecard_view
from tests.render_cases import single


def test_the_template_draws_in_the_frame_the_geometry_assumes() -> None:
    """viewBox, axis, ticks, interval, rule, arrow and dot sit where html.py's constants say."""
    card = single("qa/x", 0.9)
    (metric,) = (*scorecard_view(card).gates, *scorecard_view(card).others)
    c = chart_for(metric)
    assert c is not None and c.rule is not None and c.arrow is not None
    page = render(card, Format.HTML)
    assert f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"' in page
    axis = rf'<line class="axis" x1="[^"]+" y1="{AXIS_Y}" x2="[^"]+" y2="{AXIS_Y}"/>'
    assert re.search(axis, page)
    assert f'y1="{AXIS_Y}" x2="{c.ticks[0].x}" y2="{AXIS_Y + 4}"/>' in page
    assert f'<text x="{c.ticks[0].x}" y="{AXIS_Y + 17}" text-anchor="middle">' in page
    assert f'y="{AXIS_Y - 6}" width=' in page
    assert f'x1="{c.rule}" y1="{ARROW_Y - 4}" x2="{c.rule}" y2="{AXIS_Y + 8}"/>' in page
    assert f'x1="{c.arrow[0]}" y1="{ARROW_Y}" x2="{c.arrow[1]}" y2="{ARROW_Y}"/>' in page
    assert all(y in (ARROW_Y - 3, ARROW_Y, ARROW_Y + 3) for _, y in c.arrow_head)
    assert f'<text x="{c.rule}" y="{ARROW_Y - 7}"' in page
    assert f'cx="{c.dot}" cy="{AXIS_Y}" r="5"/>' in page
