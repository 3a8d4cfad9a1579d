"""The jinja2 environment: templates from the installed package, strict about undefined names,
and the filters that escape untrusted text for Markdown (markdown_text.py). Every value a
template prints passes through safe_text first, so no template can forget it."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from evalglass.render import _view
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.safe_text import escape


def _template_dir() -> Path:
    installed = resources.files("evalglass") / "templates"
    if installed.is_dir():
        return Path(str(installed))
    # Running from a checkout (editable install): the templates sit beside the package.
    return Path(__file__).resolve().parents[2] / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_template_dir()),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["md"] = markdown_escape
    env.filters["code"] = markdown_code
    env.filters["pad"] = lambda text, width: str(text).ljust(width)
    env.globals.update(
        headline=_view.headline,
        deciding=_view.deciding,
        others=_view.others,
        value_text=_view.value_text,
        interval_text=_view.interval_text,
        n_text=_view.n_text,
        threshold_text=_view.threshold_text,
    )
    return env


def _shown(value: object) -> object:
    """What `{{ value }}` prints: markup this package built is left as it is, anything else is
    escaped by safe_text (and then by autoescape, in the HTML page)."""
    if isinstance(value, Markup) or value is None:
        return value
    return escape(value)
