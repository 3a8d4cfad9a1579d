"""The scorecard JSON contract (schema_version 1): its documented shape as frozen classes, and the
one cattrs converter that writes and reads it.

Everything that writes or reads a scorecard JSON goes through here: `--format json`, baseline
scorecards beside the records, `diff` and `trend` of saved scorecards, `evalglass.load_scorecard`.
The classes are the contract itself, not the core's classes: a field added inside the core cannot
change the JSON unseen, and golden files in tests/golden/ guard the bytes. It sits at the bottom of
the package and imports nothing of evalglass but its errors, so the records can read baselines.

One concept a module: `vocabulary` (the closed vocabularies and field checks), `metric` (a
metric's entry), `scorecard` (the document around the metrics), `converter` (the cattrs
converter), `text` (the JSON text, written and read). This module holds no logic: it is the
public path the rest of the package and hosts import.
"""

from __future__ import annotations

from evalglass.contract.converter import CONVERTER, instant_text
from evalglass.contract.metric import (
    ApprovedFor,
    Attempt,
    Authority,
    CachedPass,
    Change,
    CostlySample,
    Dataset,
    EarlierRun,
    Gate,
    Metric,
    Needed,
    Reason,
    Sample,
    Threshold,
    Validity,
)
from evalglass.contract.scorecard import (
    Comparison,
    Counts,
    MetricComparison,
    Policy,
    RecordsAt,
    Scorecard,
    Skipped,
    Tolerated,
    Unmet,
)
from evalglass.contract.text import SAMPLE_COST, dumps, json_text, load_scorecard, loads
from evalglass.contract.vocabulary import (
    SCHEMA_VERSION,
    ApprovalName,
    MethodBasisName,
    MethodName,
    ModeName,
    OpName,
    OutcomeName,
    OutcomeOfAttempt,
    PolicySourceName,
    ResultName,
    RuleName,
    StatusName,
    TierName,
    VerdictName,
)

__all__ = [
    "CONVERTER",
    "SAMPLE_COST",
    "SCHEMA_VERSION",
    "ApprovalName",
    "ApprovedFor",
    "Attempt",
    "Authority",
    "CachedPass",
    "Change",
    "Comparison",
    "CostlySample",
    "Counts",
    "Dataset",
    "EarlierRun",
    "Gate",
    "MethodBasisName",
    "MethodName",
    "Metric",
    "MetricComparison",
    "ModeName",
    "Needed",
    "OpName",
    "OutcomeName",
    "OutcomeOfAttempt",
    "Policy",
    "PolicySourceName",
    "Reason",
    "RecordsAt",
    "ResultName",
    "RuleName",
    "Sample",
    "Scorecard",
    "Skipped",
    "StatusName",
    "Threshold",
    "TierName",
    "Tolerated",
    "Unmet",
    "Validity",
    "VerdictName",
    "dumps",
    "instant_text",
    "json_text",
    "load_scorecard",
    "loads",
]
