"""Every reason code in plain words: what it means for the metric, and who can change it. The
authority codes' words are their conditions' (evalglass/core/conditions.py).

Read by `explain` and `doctor`; it explains decisions already made and never makes one.
"""

from __future__ import annotations

import types
from collections.abc import Mapping

from evalglass.core.conditions import CONDITIONS
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import GateCode as G
from evalglass.reasons import ValidityCode as V

PLAIN: Mapping[C | V | G, str] = types.MappingProxyType(
    {
        **{row.code: row.plain for row in CONDITIONS},
        V.VALUE_MISSING: "No value was measured for this metric in the outputs given.",
        V.VALUE_NOT_FINITE: "The measured value is not a number (NaN or infinite).",
        V.VALUE_OUT_OF_RANGE: (
            "The measured value (or a sample's score) lies outside [0, 1], where its metric's "
            "values must lie: the record declares a scale, or the metric is a rate by "
            "construction. An impossible number is not clipped into a pass: fix the output or "
            "the record's scale."
        ),
        V.TOO_FEW_SAMPLES: (
            "Fewer samples than the record's min_samples, or a sample count the output does not "
            "give: too little evidence to compare with a bar."
        ),
        V.INTERVAL_UNAVAILABLE: (
            "The gate compares the conservative end of an interval, and none could be computed "
            "(it needs per-sample scores, or n and a standard error)."
        ),
        V.INTERVAL_UNRELIABLE: (
            "The gate would compare the bound of an interval made where its method was measured "
            "to pass a metric at its bar far more often than its level says: fewer than 10 "
            "clusters, or scores of unknown range skewed toward the bound. Measure more clusters "
            "or samples (docs/statistics.md says where the limits lie)."
        ),
        V.TOO_MANY_MISSING: (
            "More samples errored or were skipped than the record's max_missing_fraction allows: "
            "the value describes only the samples that happened to succeed."
        ),
        V.VALUE_MISMATCH: (
            "The output's own summary value disagrees with its per-sample scores, so it is not "
            "clear which number to trust."
        ),
        V.RUN_INCOMPLETE: (
            "The run behind the number did not complete: it was cancelled, ended in error, or "
            "was still running. Its samples are those that happened to finish before it stopped, "
            "so it cannot support a gate; run it to completion (Inspect: `inspect eval-retry`)."
        ),
        V.CHECK_COULD_NOT_RUN: (
            "The check could not run at all (its executable was not found, its cwd does not "
            "exist, or its file could not be read). That is no result: never a pass, never a "
            "plain fail, and a gating check blocks the run until it can run."
        ),
        G.PASSED_ON_RETRY: (
            "The check failed, then passed when evalglass ran it once more; or the eval passed "
            "only on a later attempt, after earlier complete runs of the same evaluation missed "
            "the bar. A gate that passes only sometimes is flaky: the run passes with this "
            "warning, never a plain pass (up to success.yaml's max_attempts; past it, the gate "
            "fails: too_many_attempts)."
        ),
        G.TOO_MANY_ATTEMPTS: (
            "The gate passed only on a later attempt than success.yaml's max_attempts allows "
            "(default 2: one retry, as a host check has), after earlier complete runs of the "
            "same evaluation missed the bar. Rerunning until it passes is not a pass, so the "
            "gate fails. Give only the runs of this change, fix what makes it flaky, or have the "
            "gate's owners raise max_attempts."
        ),
        G.NOT_RUN: (
            "This run did not start the check: `evalglass score` starts no process, and a "
            "full-tier check is not run in the fast tier. It decides nothing here; "
            "`evalglass run` (--tier full) runs it."
        ),
    }
)


def plain(code: C | V | G) -> str:
    """The plain-language explanation of `code` (its bare name for a code not yet explained)."""
    return PLAIN.get(code, code.value)
