"""The jinja2 environment: templates from the installed package, strict about undefined names,
and the filters that escape untrusted text for Markdown (markdown_text.py). Every value a
template prints passes through safe_text first, so no template can forget it."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
import types
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from evalglass.numbers import plural
from evalglass.render import words
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.safe_text import escape


def _template_dir() -> Path:
    # The package's own folder, found from this file: what `importlib.resources.files` gives for
    # a package on disk (the only kind a FileSystemLoader reads), without the resource readers,
    # zip and temporary-file machinery that importing it loads, which cost more than the render.
    package = Path(__file__).resolve().parents[1]
    installed = package / "templates"
    if installed.is_dir():
        return installed
    # Running from a checkout (editable install): the templates sit beside the package.
    return package.parent / "templates"


# The package's templates compiled into Python modules beside this one
# (evalglass/render/_compiled/, written by `compiled_module_source` and checked current by
# tests/render/test_compiled_templates.py), so a run neither compiles them (which costs more than
# the whole render) nor loads code from anywhere a user or a job can write: never a cache.
_COMPILED = "evalglass.render._compiled"


def compiled_module_name(name: str) -> str:
    """The module of `_compiled` that holds the template `name` compiled."""
    return re.sub(r"\W", "_", name)


def compile_key(env: jinja2.Environment, source: str) -> str:
    """What compiled code depends on: the template's source, jinja2's version and the settings
    decided at compile time (whether output is escaped, whether it passes `finalize`)."""
    settings = (
        jinja2.__version__, bool(env.autoescape), env.finalize is not None, env.trim_blocks,
        env.lstrip_blocks, env.keep_trailing_newline, env.newline_sequence,
    )  # fmt: skip
    return hashlib.sha256(repr(settings).encode() + b"\0" + source.encode()).hexdigest()


def compiled_module_source(env: jinja2.Environment, name: str) -> str:
    """The Python module `_compiled` holds for the template `name` under `env`'s settings."""
    source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    code = env.compile(source, name, f"templates/{name}", raw=True, defer_init=True)
    return (
        f"# Compiled from templates/{name} by evalglass/render/_templates.py; do not edit.\n"
        f"# ruff: noqa\n# mypy: ignore-errors\nKEY = {compile_key(env, source)!r}\n{code}\n"
    )


class _PackageLoader(jinja2.FileSystemLoader):
    """The package's templates: the module compiled from a template when it was compiled from
    this very source under these settings, else the template compiled here, in memory (an
    edited checkout, another jinja2). Nothing is read from or written to a cache."""

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        """The template `name`, from its compiled module when that is current."""
        namespace = {} if globals is None else globals
        source, filename, uptodate = self.get_source(environment, name)
        module = _compiled(name)
        if module is not None and getattr(module, "KEY", None) == compile_key(environment, source):
            return environment.template_class.from_module_dict(
                environment, module.__dict__, namespace
            )
        code = environment.compile(source, name, filename)
        return environment.template_class.from_code(environment, code, namespace, uptodate)


def _compiled(name: str) -> types.ModuleType | None:
    # A fresh module each time: the template binds its environment into the module's
    # namespace, and the HTML pages' overlay is another environment than the shared one.
    spec = importlib.util.find_spec(f"{_COMPILED}.{compiled_module_name(name)}")
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_PackageLoader(_template_dir()),
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
        value_text=words.value_text,
        interval_text=words.interval_text,
        n_text=words.n_text,
        threshold_text=words.threshold_text,
    )
    return env


def _shown(value: object) -> object:
    """What `{{ value }}` prints: markup this package built is left as it is, anything else is
    escaped by safe_text (and then by autoescape, in the HTML page)."""
    if isinstance(value, Markup) or value is None:
        return value
    return escape(value)
