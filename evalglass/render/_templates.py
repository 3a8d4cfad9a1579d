"""The jinja2 environment: templates from the installed package, strict about undefined names,
and the one filter that escapes untrusted text for Markdown."""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

import jinja2

from evalglass.render import _view

# Characters that would let untrusted text start emphasis, a link, an image or a table cell.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
# A zero-width space inside `://` and `www.` stops GitHub's autolinker without changing the look.
_AUTOLINK = re.compile(r"(:)(//)|(www)(\.)", re.IGNORECASE)


def markdown_escape(text: object) -> str:
    """Untrusted text as inert Markdown: one line, no HTML, no links, no mentions, no table breaks."""
    flat = " ".join(str(text).split())
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = _MARKDOWN_SPECIAL.sub(r"\\\1", flat)
    flat = _AUTOLINK.sub(lambda m: "\u200b".join(g for g in m.groups() if g), flat)
    # `@name` would notify a GitHub user; the entity renders the same without pinging.
    return flat.replace("@", "&#64;")


def markdown_code(text: object) -> str:
    """Untrusted text as an inline code span: nothing inside renders, links or pings.

    The fence is one backtick longer than any run inside; `|` stays escaped because GitHub
    splits table cells before it parses code spans."""
    flat = " ".join(str(text).split()).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


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
    env.filters["pad"] = lambda text, width: str(text).ljust(width)
    env.globals.update(
        headline=_view.headline,
        deciding=_view.deciding,
        others=_view.others,
        reasons_text=_view.reasons_text,
        why=_view.why,
    )
    return env
