"""The trend across runs as text for a terminal, Markdown, or an HTML page. Reads a Trend; never
decides, and changes no verdict.

Terminal and Markdown come from templates (trend.txt.j2, trend.md.j2), which escape every string
read from a scorecard file; the HTML page is trend_html.py.
"""

from __future__ import annotations

from evalglass._collector import paused
from evalglass.render import Format, _trend_view
from evalglass.render._templates import environment
from evalglass.tools.trend import Trend

FORMATS = (Format.TERMINAL, Format.MARKDOWN, Format.HTML)
_TEMPLATES = {Format.TERMINAL: "trend.txt.j2", Format.MARKDOWN: "trend.md.j2"}


def render(trend: Trend, fmt: Format) -> str:
    """The trend in `fmt`, one of FORMATS; ValueError for another."""
    if fmt not in FORMATS:
        raise ValueError(f"trend renders as {', '.join(f.value for f in FORMATS)}, not {fmt.value}")
    with paused():
        if fmt is Format.HTML:
            from evalglass.render import trend_html

            return trend_html.render(trend)
        return environment().get_template(_TEMPLATES[fmt]).render(trend=trend, v=_trend_view)
