"""The contract's closed vocabularies and the checks its fields hold values to.

The vocabularies are `Literal` types a test pins to the core's enums; reason codes stay open
strings, so a reader still loads a file a newer evalglass wrote with codes it does not know.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal

import attrs

from evalglass.levels import MAX_LEVEL, MIN_LEVEL

SCHEMA_VERSION: Final = 1

# The closed vocabularies the contract publishes (tests pin them to the core's enums). Reason codes
# stay open strings: a newer evalglass may add codes, and a reader must still load its files.
VerdictName = Literal["fail", "blocked", "pass", "informational"]
OutcomeName = Literal["informational", "blocked", "can_gate"]
ResultName = Literal["pass", "warn", "fail", "unsound", "not_enforced"]
OpName = Literal[">=", ">", "<=", "<"]
ApprovalName = Literal["proposed", "approved"]
StatusName = Literal["fail", "unsound", "blocked", "warn", "pass", "not_run", "informational"]
ModeName = Literal["all", "percentage"]
PolicySourceName = Literal["default", "success.yaml"]
RuleName = Literal["gates", "must_pass", "pass_rate", "min_gates", "nothing_enforced"]
MethodName = Literal[
    "wilson",
    "clopper_pearson",
    "student_t",
    "normal",
    "hoeffding",
    "clustered",
    "effective_n",
    "clustered_effective_n",
    "newcombe",
    "paired_t",
]
MethodBasisName = Literal["samples", "reported_stderr", "inferred_proportion", "declared_scale"]
OutcomeOfAttempt = Literal["passed", "failed", "could_not_run"]
# `evalglass.tiers.Tier`, spelled out so mypy checks it; a test holds the two equal.
TierName = Literal["fast", "full"]

DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
# An instant with its zone; written in UTC as `2026-11-30T12:00:00Z`.
INSTANT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?(?:Z|[+-][0-9]{2}:[0-9]{2})"
)


def level(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    """A confidence level evalglass can hold an interval at."""
    if value is not None and not MIN_LEVEL <= value <= MAX_LEVEL:
        raise ValueError(
            f"{attribute.name} must lie between {MIN_LEVEL} and {MAX_LEVEL}, got {value!r}"
        )


def not_negative(_: object, attribute: attrs.Attribute[Any], value: int | None) -> None:
    """A count: never below zero."""
    if value is not None and value < 0:
        raise ValueError(f"{attribute.name} must not be negative, got {value!r}")


def positive(_: object, attribute: attrs.Attribute[Any], value: int | None) -> None:
    """At least 1."""
    if value is not None and value < 1:
        raise ValueError(f"{attribute.name} must be at least 1, got {value!r}")


def pair(_: object, attribute: attrs.Attribute[Any], value: tuple[Any, ...] | None) -> None:
    """An interval: exactly [low, high]."""
    if value is not None and len(value) != 2:
        raise ValueError(f"{attribute.name} must be [low, high], got {len(value)} numbers")


def rate(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    """A share: between 0 and 1."""
    if value is not None and not 0 <= value <= 1:
        raise ValueError(f"{attribute.name} must lie between 0 and 1, got {value!r}")
