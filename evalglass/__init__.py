"""evalglass: which eval results may fail a build — value, validity and authority, kept apart.

The public API, re-exported from the modules that own it. Names load on first use, so that
`evalglass --version` does not pay for the YAML and template machinery.
"""

from __future__ import annotations

import typing as _typing

from evalglass._version import __version__

if _typing.TYPE_CHECKING:
    from evalglass.contract import load_scorecard
    from evalglass.core.authority import Authority, Outcome, resolve
    from evalglass.core.decision import GateResult, Result, decide
    from evalglass.core.exits import Verdict
    from evalglass.core.scorecard import MetricCard, Scorecard, assemble
    from evalglass.errors import (
        ContractError,
        EvalglassError,
        OutputError,
        PlanError,
        PluginError,
        RecordError,
        UnknownMetric,
    )
    from evalglass.evidence.model import (
        DatasetIdentity,
        Evidence,
        Interval,
        Measurement,
        Method,
        Run,
        Sample,
    )
    from evalglass.evidence.plugins import Reader
    from evalglass.evidence.read import read_outputs
    from evalglass.records.load import load_records
    from evalglass.records.model import HostRecords
    from evalglass.render.evidence_line import evidence_line
    from evalglass.shell.api import (
        diff_records,
        doctor,
        explain,
        history,
        plan,
        run,
        score,
        trend,
        validate,
    )

_HOMES = {
    "Authority": "evalglass.core.authority",
    "ContractError": "evalglass.errors",
    "DatasetIdentity": "evalglass.evidence.model",
    "EvalglassError": "evalglass.errors",
    "Evidence": "evalglass.evidence.model",
    "GateResult": "evalglass.core.decision",
    "HostRecords": "evalglass.records.model",
    "Interval": "evalglass.evidence.model",
    "Measurement": "evalglass.evidence.model",
    "Method": "evalglass.evidence.model",
    "MetricCard": "evalglass.core.scorecard",
    "Outcome": "evalglass.core.authority",
    "OutputError": "evalglass.errors",
    "PlanError": "evalglass.errors",
    "PluginError": "evalglass.errors",
    "Reader": "evalglass.evidence.plugins",
    "RecordError": "evalglass.errors",
    "Result": "evalglass.core.decision",
    "Run": "evalglass.evidence.model",
    "Sample": "evalglass.evidence.model",
    "Scorecard": "evalglass.core.scorecard",
    "UnknownMetric": "evalglass.errors",
    "Verdict": "evalglass.core.exits",
    "assemble": "evalglass.core.scorecard",
    "decide": "evalglass.core.decision",
    "diff_records": "evalglass.shell.api",
    "doctor": "evalglass.shell.api",
    "evidence_line": "evalglass.render.evidence_line",
    "explain": "evalglass.shell.api",
    "history": "evalglass.shell.api",
    "load_records": "evalglass.records.load",
    "load_scorecard": "evalglass.contract",
    "plan": "evalglass.shell.api",
    "read_outputs": "evalglass.evidence.read",
    "resolve": "evalglass.core.authority",
    "run": "evalglass.shell.api",
    "score": "evalglass.shell.api",
    "trend": "evalglass.shell.api",
    "validate": "evalglass.shell.api",
}

# A literal list, so tools see the surface; a test pins it against _HOMES.
__all__ = [
    "Authority",
    "ContractError",
    "DatasetIdentity",
    "EvalglassError",
    "Evidence",
    "GateResult",
    "HostRecords",
    "Interval",
    "Measurement",
    "Method",
    "MetricCard",
    "Outcome",
    "OutputError",
    "PlanError",
    "PluginError",
    "Reader",
    "RecordError",
    "Result",
    "Run",
    "Sample",
    "Scorecard",
    "UnknownMetric",
    "Verdict",
    "__version__",
    "assemble",
    "decide",
    "diff_records",
    "doctor",
    "evidence_line",
    "explain",
    "history",
    "load_records",
    "load_scorecard",
    "plan",
    "read_outputs",
    "resolve",
    "run",
    "score",
    "trend",
    "validate",
]


def __getattr__(name: str) -> _typing.Any:
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'evalglass' has no attribute {name!r}")


def __dir__() -> list[str]:
    # What `dir(evalglass)` and an editor's completion offer: the public API alone, not the
    # helpers this module imports to serve it.
    return list(__all__)
