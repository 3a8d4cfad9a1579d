"""The exit-code table: verdict to code, and the codes for bad input and bad usage. No other
module holds an exit number."""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping


class Verdict(enum.StrEnum):
    """The run's one-word answer, by precedence: fail > blocked > pass > informational."""

    FAIL = "fail"
    BLOCKED = "blocked"
    PASS = "pass"
    INFORMATIONAL = "informational"


VERDICT_EXIT: Mapping[Verdict, int] = types.MappingProxyType(
    {Verdict.PASS: 0, Verdict.FAIL: 1, Verdict.BLOCKED: 3, Verdict.INFORMATIONAL: 0}
)
# Informational when a gate was asked for (--require-gate, or the success policy's min_gates):
# too few gated, and more was asked.
NO_GATE_REQUIRED_EXIT = 5
USAGE_EXIT = 2
INPUT_ERROR_EXIT = 4
# An exception evalglass did not expect: a bug in evalglass, never a verdict and never the input's
# fault (sysexits.h calls 70 an internal software error).
INTERNAL_ERROR_EXIT = 70


def exit_code(verdict: Verdict, require_gate: bool = False, min_gates: int = 0) -> int:
    """The verdict's code; informational is 5 when gates were asked for, by `--require-gate`
    (at least one) or by the success policy (`min_gates`, the policy's own minimum)."""
    if verdict is Verdict.INFORMATIONAL and (require_gate or min_gates > 0):
        return NO_GATE_REQUIRED_EXIT
    return VERDICT_EXIT[verdict]


DIFF_LOOSENED_EXIT = 1  # `diff --fail-on-loosen`: a change makes gating easier without approval
DOCTOR_ERRORS_EXIT = 1  # `doctor`: some problem is an error (it blocks or misleads a gate)
DOCTOR_CLEAN_EXIT = 0  # `doctor`: no errors (warnings alone do not fail)
