"""The jinja2 environment: templates from the installed package, strict about undefined names,
and the filters that escape untrusted text for Markdown (markdown_text.py). Every value a
template prints passes through safe_text first, so no template can forget it."""

from __future__ import annotations

import functools
import hashlib
import os
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from evalglass.core.numbers import plural
from evalglass.render import _view
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.safe_text import escape


def _template_dir() -> Path:
    installed = resources.files("evalglass") / "templates"
    if installed.is_dir():
        return Path(str(installed))
    # Running from a checkout (editable install): the templates sit beside the package.
    return Path(__file__).resolve().parents[2] / "templates"


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs (compiling one costs more than the whole render);
    keyed by the template's source, so an edited template is recompiled. A cache that cannot be
    read or written is only a slower run, never an error."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # Compiled code depends on the environment as well as the template (whether every value
    # passes `finalize` is decided at compile time), so the environment's own source is part
    # of the key: code compiled by another evalglass is never run by this one.
    settings = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    folder = os.path.join(base, "evalglass", f"jinja2-{jinja2.__version__}-{settings}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return _BytecodeCache(folder)


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_template_dir()),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["md"] = markdown_escape
    env.filters["code"] = markdown_code
    env.filters["plain"] = escape
    env.filters["pad"] = lambda text, width: str(text).ljust(width)
    env.filters["plural"] = plural
    env.filters["reasons_text"] = lambda reasons: "; ".join(
        f"{r.code}: {r.message}" for r in reasons
    )
    env.globals.update(
        headline=_view.headline,
        deciding=_view.deciding,
        others=_view.others,
        value_text=_view.value_text,
        interval_text=_view.interval_text,
        n_text=_view.n_text,
        threshold_text=_view.threshold_text,
        policy_text=_view.policy_text,
        policy_details=_view.policy_details,
    )
    return env


def _shown(value: object) -> object:
    """What `{{ value }}` prints: markup this package built is left as it is, anything else is
    escaped by safe_text (and then by autoescape, in the HTML page)."""
    if isinstance(value, Markup) or value is None:
        return value
    return escape(value)
