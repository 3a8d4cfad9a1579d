"""Every error a user can cause, as one tree; each carries the place it happened.

    EvalglassError            anything evalglass refuses to go on with (exit 4)
    ├── RecordError           a host-records file is unreadable or invalid
    ├── OutputError           an eval output is unreadable, invalid or ambiguous
    └── CalibrationError      judgments, labels or a calibration evidence file are unusable

Errors from strictyaml, json, the OS or a decompressor are translated into these at the boundary
where they happen, so the CLI prints one line and no traceback.
"""

from __future__ import annotations

_PATH_SHOWN = 300


class EvalglassError(Exception):
    """An input evalglass cannot use; `str()` is the one line a user sees."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        """`path` names the file (or input) at fault, `line` the line to blame when there is one,
        and `message` what is wrong, without repeating the place."""
        self.path = path
        self.line = line
        self.message = message
        super().__init__(self.__str__())

    def __str__(self) -> str:
        """`path:line: message`, or `path: message` when no line is to blame."""
        # A path is named, not repeated whole: one the OS refused as too long may run to pages.
        path = self.path if len(self.path) <= _PATH_SHOWN else self.path[: _PATH_SHOWN - 1] + "…"
        where = path if self.line is None else f"{path}:{self.line}"
        return f"{where}: {self.message}"


class RecordError(EvalglassError):
    """A host-records file is unreadable or does not match its schema."""


class OutputError(EvalglassError):
    """An eval output is unreadable, malformed, or conflicts with another output."""


class CalibrationError(EvalglassError):
    """Judgments, human labels or a calibration evidence file are unreadable or invalid, or the
    calibration extra (numpy) is not installed."""
