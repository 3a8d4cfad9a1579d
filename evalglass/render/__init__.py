"""Renderers: each turns a Scorecard into text for one audience. They read; they never decide."""

from __future__ import annotations

import enum
import importlib
from typing import TYPE_CHECKING

from evalglass._collector import paused

if TYPE_CHECKING:
    from evalglass.core.scorecard import Scorecard


class Format(enum.Enum):
    """The output formats; the values are what `--format` accepts. Not every command has every
    format: a renderer raises ValueError for one it lacks."""

    TERMINAL = "terminal"
    MARKDOWN = "markdown"
    JSON = "json"
    JUNIT = "junit"
    GITHUB = "github"
    HTML = "html"


def render(
    scorecard: Scorecard, fmt: Format, colour: bool = False, keep_samples: bool = False
) -> str:
    """`colour` applies to the terminal format, `keep_samples` to JSON; others ignore them."""
    # Imported on use: only the HTML page loads jinja2, only JSON loads orjson.
    module = importlib.import_module(f"evalglass.render.{fmt.value}")
    with paused():
        if fmt is Format.TERMINAL:
            return module.render(scorecard, colour=colour)  # type: ignore[no-any-return]
        if fmt is Format.JSON:
            return module.render(scorecard, keep_samples=keep_samples)  # type: ignore[no-any-return]
        return module.render(scorecard)  # type: ignore[no-any-return]
