"""A host's own template (`--template PATH`) rendered over the documented view model.

The template is the host's, but the data in it is not: ids, model names and messages come from eval
outputs. So it runs in jinja2's sandbox (no attribute a template could reach code through), with
StrictUndefined (a misspelt name is an error, not an empty cell), and with autoescape when the
template writes HTML or XML. It reads the same view model our own templates do; it decides nothing.
"""

from __future__ import annotations

import os

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from evalglass.core.numbers import plural
from evalglass.core.scorecard import Scorecard
from evalglass.errors import EvalglassError
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.view import scorecard_view

_ESCAPED = (".html", ".htm", ".xml", ".svg")


class TemplateError(EvalglassError):
    """A host template that cannot be read, compiled or rendered."""


def _environment(path: str) -> jinja2.Environment:
    folder = os.path.dirname(os.path.abspath(path))
    escape = os.path.basename(path).removesuffix(".j2").removesuffix(".jinja").lower()
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        autoescape=escape.endswith(_ESCAPED),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = markdown_escape
    env.filters["code"] = markdown_code
    env.filters["pad"] = lambda text, width: str(text).ljust(width)
    env.filters["plural"] = plural
    env.filters["reasons_text"] = lambda reasons: "; ".join(
        f"{r.code}: {r.message}" for r in reasons
    )
    return env


def render(scorecard: Scorecard, path: str | os.PathLike[str]) -> str:
    """The scorecard through the template at `path`; TemplateError names the file and line."""
    where = os.fspath(path)
    env = _environment(where)
    try:
        with open(where, encoding="utf-8") as stream:
            source = stream.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(
            where, f"cannot be read: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        template = env.from_string(source)
        text: str = template.render(scorecard=scorecard_view(scorecard))
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(where, f"template syntax: {exc.message}", exc.lineno) from None
    except SecurityError as exc:
        raise TemplateError(where, f"not allowed in a template: {exc}") from None
    except jinja2.TemplateError as exc:
        raise TemplateError(where, f"template: {' '.join(str(exc).split())}") from None
    except Exception as exc:  # noqa: BLE001 - the template is the host's code, not ours
        raise TemplateError(where, f"template raised {type(exc).__name__}: {exc}") from None
    return text
