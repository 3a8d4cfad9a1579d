"""A host's own template (`--template PATH`) rendered over the documented view model.

The template is the host's, but the data in it is not: ids, model names and messages come from eval
outputs. So it runs in jinja2's sandbox (no attribute a template could reach code through), with
StrictUndefined (a misspelt name is an error, not an empty cell), and with autoescape when the
template writes HTML or XML. It reads the same view model our own templates do; it decides nothing.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import signal
import string
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.runtime import Context, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment

from evalglass._inputs import Cap, TooLarge, read_regular
from evalglass.core.scorecard import Scorecard
from evalglass.errors import TemplateError
from evalglass.numbers import plural
from evalglass.render.markdown_text import markdown_code, markdown_escape
from evalglass.render.view import scorecard_view

_ESCAPED = (".html", ".htm", ".xml", ".svg")


# What one render may cost: its output (and any string it builds on the way), and its time.
OUTPUT_CHARACTERS = Cap(
    "EVALGLASS_MAX_TEMPLATE_OUTPUT", 16 << 20, "the template's output", "characters"
)
RENDER_SECONDS = Cap("EVALGLASS_MAX_TEMPLATE_SECONDS", 30, "rendering the template", "seconds")


class _TooMuch(Exception):
    """The template asked for more than a cap allows; `str()` says what."""


def _over(amount: int, what: str) -> _TooMuch:
    limit = OUTPUT_CHARACTERS.limit()
    return _TooMuch(
        f"{what} would be {amount:,} characters, past the {limit:,} cap; "
        f"set {OUTPUT_CHARACTERS.variable} to raise it"
    )


def _measured(value: object) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else 0


class _BoundedCode(CodeGenerator):
    """The sandbox's code, with `~` joining through the environment, so that a string doubled
    in a loop (`{% set ns.s = ns.s ~ ns.s %}`) is refused before it is built."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        """`a ~ b` as `environment.joined((a, b), context)`."""
        self.write("environment.joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("), context)")


class _Sandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox, bounded: every operator, method and filter that can build a
    large string from a small template (`'x' * 10**10`, `'{:>2000000000}'.format(..)`,
    `center(10**9)`, `10 ** 10 ** 10`) is refused past the output cap before it runs."""

    code_generator_class = _BoundedCode
    intercepted_binops = frozenset(["*", "**", "%", "+"])

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """The operator, when what it would build is within the output cap."""
        limit = OUTPUT_CHARACTERS.limit()
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if _measured(seq) and isinstance(times, int) and _measured(seq) * times > limit:
                    raise _over(_measured(seq) * times, "a repeated string or list")
        elif operator == "**" and isinstance(left, int) and isinstance(right, int):
            digits = right * math.log10(abs(left)) if abs(left) > 1 and right > 0 else 0
            if digits > limit:
                raise _over(int(digits), "a power's digits")
        elif operator == "%" and isinstance(left, str):
            _check_widths(re.findall(r"%[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?", left), limit)
        elif operator == "+" and _measured(left) + _measured(right) > limit:
            raise _over(_measured(left) + _measured(right), "a joined string or list")
        return super().call_binop(context, operator, left, right)

    def joined(self, parts: tuple[Any, ...], context: Context) -> str:
        """`~`: the parts as text, within the output cap."""
        texts = [str(part) for part in parts]
        total = sum(map(len, texts))
        if total > OUTPUT_CHARACTERS.limit():
            raise _over(total, "a joined string")
        if context.eval_ctx.autoescape:
            return str(markup_join(parts))
        return str(str_join(parts))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """`str.format` and `format_map`, sandboxed as jinja2 does, with no field wider or more
        precise than the output cap and no width taken from an argument."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        specs = [spec or "" for _, _, spec, _ in string.Formatter().parse(value.__self__)]

        def checked(*args: Any, **kwargs: Any) -> str:
            if any("{" in spec for spec in specs):
                raise SecurityError("a format field's width may not come from an argument")
            _check_widths([re.findall(r"\d+", spec) for spec in specs], OUTPUT_CHARACTERS.limit())
            return wrapped(*args, **kwargs)

        return checked

    def call(__self, __context: Context, __obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        """A method or function called from the template, with no number past the output cap
        among its arguments (`'a'.ljust(10**10)`, `'a'.center(..)`, `zfill`)."""
        _check_numbers(args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)


def _check_widths(found: list[Any], limit: int) -> None:
    for groups in found:
        for number in (groups,) if isinstance(groups, str) else groups:
            if number and number != "*" and int(number) > limit:
                raise _over(int(number), "a formatted field")
            if number == "*":
                raise SecurityError("a '%' field's width may not come from an argument")


def _check_numbers(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    limit = OUTPUT_CHARACTERS.limit()
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            raise _over(value, "a width or a count")


def _bounded_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that refuses a number past the output cap among its arguments (`center`,
    `indent`, `wordwrap`, `truncate`, `batch`)."""

    @functools.wraps(function)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_numbers(args[1:], kwargs)
        return function(*args, **kwargs)

    return bounded


class _FolderLoader(jinja2.BaseLoader):
    """Templates from the host template's own folder only: `{% include %}` and `{% extends %}`
    name files inside it (no `..`, no link that leads out), read like every input (a regular
    file, within the parse cap)."""

    def __init__(self, folder: str) -> None:
        """`folder` is the host template's folder, every included name taken from it."""
        self.folder = os.path.realpath(folder)

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        """The source of `template`, inside the folder; TemplateError otherwise."""
        pieces = split_template_path(template)
        path = os.path.join(self.folder, *pieces)
        real = os.path.realpath(path)
        if real != self.folder and not real.startswith(self.folder + os.sep):
            raise TemplateError(
                path, f"leads outside the template's folder {self.folder}; a template may "
                "include only templates beside it or below",
            )  # fmt: skip
        return _read(path), path, lambda: True


def _read(where: str) -> str:
    try:
        data = read_regular(where)
    except FileNotFoundError:
        raise TemplateError(where, "cannot be read: no such file") from None
    except OSError as exc:
        raise TemplateError(where, f"cannot be read: {exc.strerror or exc}") from None
    except TooLarge as exc:
        raise TemplateError(where, f"cannot be read: {exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TemplateError(where, "cannot be read: not UTF-8 text") from None


def _environment(path: str) -> jinja2.Environment:
    folder = os.path.dirname(os.path.abspath(path))
    escape = os.path.basename(path).removesuffix(".j2").removesuffix(".jinja").lower()
    env = _Sandbox(
        loader=_FolderLoader(folder),
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
    env.filters = {name: _bounded_filter(f) for name, f in env.filters.items()}
    return env


def render(scorecard: Scorecard, path: str | os.PathLike[str]) -> str:
    """The scorecard through the template at `path`; TemplateError names the file and line.

    The template file is read like any input; its output is bounded in size
    (EVALGLASS_MAX_TEMPLATE_OUTPUT characters) and, on the main thread, its render in time
    (EVALGLASS_MAX_TEMPLATE_SECONDS)."""
    where = os.fspath(path)
    env = _environment(where)
    source = _read(where)
    try:
        template = env.from_string(source)
        with _deadline(RENDER_SECONDS.limit()):
            text = _bounded_render(template, scorecard_view(scorecard))
    except TemplateError:
        raise
    except _TooMuch as exc:
        raise TemplateError(where, f"template: {exc}") from None
    except _OutOfTime:
        raise TemplateError(
            where, f"template: rendering took longer than {RENDER_SECONDS.limit()} s; set "
            f"{RENDER_SECONDS.variable} to allow more",
        ) from None  # fmt: skip
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(where, f"template syntax: {exc.message}", exc.lineno) from None
    except SecurityError as exc:
        raise TemplateError(where, f"not allowed in a template: {exc}") from None
    except jinja2.TemplateError as exc:
        raise TemplateError(where, f"template: {' '.join(str(exc).split())}") from None
    except MemoryError:
        raise TemplateError(where, "template: ran out of memory") from None
    except Exception as exc:  # noqa: BLE001 - the template is the host's code, not ours
        raise TemplateError(where, f"template raised {type(exc).__name__}: {exc}") from None
    return text


def _bounded_render(template: jinja2.Template, view: object) -> str:
    """The template's output, gathered piece by piece and refused once past the cap."""
    limit = OUTPUT_CHARACTERS.limit()
    parts: list[str] = []
    total = 0
    for part in template.generate(scorecard=view):
        total += len(part)
        if total > limit:
            raise _over(total, "the output")
        parts.append(part)
    return "".join(parts)


class _OutOfTime(Exception):
    """The render's time is up."""


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    # A timer signal interrupts a template's loops between any two steps, even one that writes
    # nothing (10^5 x 10^5 empty iterations). Signals reach only the main thread; elsewhere
    # (a caller's worker thread) the output cap still holds, the time cap does not.
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
