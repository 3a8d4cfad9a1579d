"""Every error a user can cause, as one tree; each carries the place it happened.

    EvalglassError            anything evalglass refuses to go on with
    ├── RecordError           a host-records file is unreadable or invalid
    │   ├── RecordErrors      several such problems at once (`validate` names them all)
    │   └── HistoryError      what stops a whole records history (`history`), not one commit
    ├── OutputError           an eval output is unreadable, invalid or ambiguous
    │   └── PluginError       a plugin's reader failed to load, raised, or returned no evidence
    ├── CalibrationError      judgments, labels or a calibration evidence file are unusable
    ├── ContractError         a file that should be a scorecard JSON is not one
    ├── TemplateError         a host's --template cannot be read, compiled or rendered
    ├── PlanError             `plan` has no gate to plan for, or cannot take the expected value
    ├── UnknownMetric         a metric asked for that no record or scorecard has
    └── WriteError            an output could not be written

Errors from strictyaml, json, the OS or a decompressor are translated into these at the boundary
where they happen, so the CLI prints one line and no traceback. The exit code of each is the
CLI's to choose (core/exits.py; the table in docs/ci.md); the control-flow exceptions some
modules raise and catch within themselves never leave them.
"""

from __future__ import annotations

import re

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


class RecordErrors(RecordError):
    """Every problem found in a records folder in one pass, in file order; `str()` is the first
    (the one line any caller but `validate` shows), `errors` all of them."""

    def __init__(self, errors: tuple[RecordError, ...]) -> None:
        """`errors`: at least one, each naming its file and line."""
        first = errors[0]
        self.errors = errors
        super().__init__(first.path, first.message, first.line)


class HistoryError(RecordError):
    """What stops a whole records history, not one commit's records: a git object that is not
    what its id says, a records file past a cap, git failing."""


class OutputError(EvalglassError):
    """An eval output is unreadable, malformed, or conflicts with another output."""


class PluginError(OutputError):
    """A reader a package added (entry-point group `evalglass.formats`) could not be loaded,
    raised, or returned something that is not evidence; the message names the plugin."""


class CalibrationError(EvalglassError):
    """Judgments, human labels or a calibration evidence file are unreadable or invalid, or the
    calibration extra (numpy) is not installed."""


class ContractError(EvalglassError):
    """A file that should be an evalglass scorecard JSON is not one."""


class TemplateError(EvalglassError):
    """A host template that cannot be read, compiled or rendered."""


class PlanError(EvalglassError):
    """A plan that cannot be made: no gate to plan for, or an expected value it cannot take."""


class UnknownMetric(EvalglassError):
    """A metric asked for by id that no record (in any commit read) or no scorecard given has."""


class WriteError(EvalglassError):
    """An output could not be written (a read-only folder, a full disk, a target that changed)."""


def install_hint(extra: str) -> str:
    """How to install what evalglass's optional `extra` brings: its requirements as the
    installed package's metadata lists them, which a user can install however evalglass itself
    was installed (from the package index, a clone or a git URL)."""
    from importlib import metadata

    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    try:
        requires = metadata.requires("evalglass") or []
    except metadata.PackageNotFoundError:  # a source tree on sys.path, never installed
        requires = []
    wanted = [r.split(";", 1)[0].strip() for r in requires if marker.search(r.split(";", 1)[-1])]
    named = f"evalglass's '{extra}' extra"
    if not wanted:
        return f"install {named}"
    return "pip install " + " ".join(f"'{w}'" for w in wanted) + f" ({named})"
