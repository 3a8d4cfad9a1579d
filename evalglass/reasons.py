"""Reason codes: the closed vocabulary behind every authority, validity and gate decision.

Codes are what machines match on; messages are for people and may change wording.
"""

from __future__ import annotations

import enum

import attrs


class AuthorityCode(enum.Enum):
    """Why a metric is not can_gate. Stage 1 codes keep it informational (not authorized); stage
    2 codes block an authorized metric (its evidence is not sound). The values are the codes
    every format prints."""

    # Stage 1: is the metric authorized to gate? Failing any of these makes it informational.
    NO_RECORD = "no_record"
    METRIC_NOT_GATING = "metric_not_gating"
    THRESHOLD_MISSING = "threshold_missing"
    THRESHOLD_PROPOSED = "threshold_proposed"
    DATASET_PROPOSED = "dataset_proposed"
    JUDGE_UNCALIBRATED = "judge_uncalibrated"
    # Stage 2: is the evidence sound? Failing any of these blocks an authorized metric.
    DANGLING_REFERENCE = "dangling_reference"
    POLICY_NOT_PERMITTED = "policy_not_permitted"
    DATASET_RETIRED = "dataset_retired"
    DATASET_MISMATCH = "dataset_mismatch"
    DATASET_UNVERIFIABLE = "dataset_unverifiable"
    JUDGE_DRIFTED = "judge_drifted"
    JUDGE_RETIRED = "judge_retired"
    JUDGE_EVIDENCE_INSUFFICIENT = "judge_evidence_insufficient"
    JUDGE_NOT_INDEPENDENT = "judge_not_independent"
    JUDGE_MODEL_MISMATCH = "judge_model_mismatch"
    BASELINE_MISSING = "baseline_missing"
    BASELINE_NOT_COMPARABLE = "baseline_not_comparable"
    APPROVAL_STALE = "approval_stale"
    APPROVAL_EXPIRED = "approval_expired"


class ValidityCode(enum.Enum):
    """Why a measured number is not sound enough to compare with a threshold."""

    VALUE_MISSING = "value_missing"
    VALUE_NOT_FINITE = "value_not_finite"
    # A value its metric cannot take: outside [0, 1] for a declared scale or a rate.
    VALUE_OUT_OF_RANGE = "value_out_of_range"
    TOO_FEW_SAMPLES = "too_few_samples"
    INTERVAL_UNAVAILABLE = "interval_unavailable"
    # The interval a bound rule would compare comes from a method in a setting where it was
    # measured to pass a metric at its bar far more often than its level says (too few
    # clusters; scores of unknown range skewed toward the bound): no bound to rely on.
    INTERVAL_UNRELIABLE = "interval_unreliable"
    TOO_MANY_MISSING = "too_many_missing"
    VALUE_MISMATCH = "value_mismatch"
    # The run behind the number did not complete (cancelled, errored, still running): what it
    # scored is part of what it set out to score, chosen by when it stopped.
    RUN_INCOMPLETE = "run_incomplete"
    # A check that could not run (executable not found, cwd missing, file unreadable): no
    # outcome at all, so never a pass and never a plain fail.
    CHECK_COULD_NOT_RUN = "check_could_not_run"


class GateCode(enum.Enum):
    """Why a gate's result is what it is, beyond comparing a number: its attempts, or its scope."""

    # A check failed, then passed when run once more, or an eval passed only on a later attempt
    # of the same evaluation: a warning, never a plain pass.
    PASSED_ON_RETRY = "passed_on_retry"
    # The pass came on a later attempt than the success policy's max_attempts allows: a fail.
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    # A check this run did not start (another tier, or `evalglass score`): it decides nothing.
    NOT_RUN = "not_run"


@attrs.frozen
class Reason:
    """A reason code and its message: the code is for machines and tests, the message for people."""

    code: AuthorityCode | ValidityCode | GateCode
    message: str
