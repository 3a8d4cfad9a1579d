"""The jinja2 environment: templates from the installed package, strict about undefined names,
and the filters that escape untrusted text for Markdown (markdown_text.py) and for a terminal
(terminal_text.py)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import jinja2

from evalglass.render import _view
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.terminal_text import terminal_safe


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
    )
    env.filters["md"] = markdown_escape
    env.filters["code"] = markdown_code
    env.filters["plain"] = terminal_safe
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
