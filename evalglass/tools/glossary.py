"""Every reason code in plain words: what it means for the metric, and who can change it.

Read by `explain` and `doctor`; it explains decisions already made and never makes one.
"""

from __future__ import annotations

import types
from collections.abc import Mapping

from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import GateCode as G
from evalglass.reasons import ValidityCode as V

PLAIN: Mapping[C | V | G, str] = types.MappingProxyType(
    {
        C.NO_RECORD: (
            "metrics.yaml does not mention this metric, so nobody has decided what it is for. "
            "It is shown and never enforced until it has a record."
        ),
        C.METRIC_NOT_GATING: (
            "Its status in metrics.yaml is not `gating`: the eval leads have not asked for it to "
            "fail builds. Only `gating` metrics may."
        ),
        C.THRESHOLD_MISSING: (
            "thresholds.yaml has no bar for it, so there is nothing to compare its value with."
        ),
        C.THRESHOLD_PROPOSED: (
            "Its threshold is only proposed. A bar may fail builds once its owner approves it "
            "(approval: approved, with approved_by and approved_on)."
        ),
        C.DATASET_PROPOSED: (
            "Its dataset is only proposed: nobody has yet checked that the data (labels, "
            "coverage, leakage) is fit to decide a release on."
        ),
        C.JUDGE_UNCALIBRATED: (
            "It is graded by a model judge whose grades have not (yet) been checked against "
            "human labels. An unchecked grader cannot fail a build."
        ),
        C.DANGLING_REFERENCE: (
            "The metric names a dataset or judge that has no record (or, for a check's metric, "
            "checks.yaml has no check of its name), usually a typo in an id. A missing record is "
            "not 'proposed': an authorized metric blocks on it."
        ),
        C.POLICY_NOT_PERMITTED: (
            "Data governance has not permitted results on this dataset to decide a release "
            "(policies.yaml: permitted or redacted). A dataset with no policy counts as not."
        ),
        C.DATASET_RETIRED: (
            "Its dataset is retired. An authorized metric on retired data blocks rather than "
            "quietly passing or turning informational."
        ),
        C.DATASET_MISMATCH: (
            "The eval output says it ran on another dataset (a name that is neither the "
            "record's id nor one of its names:), or on another version or content (fingerprint) "
            "of it, than the one validated in datasets.yaml, so the number is not about the "
            "checked data."
        ),
        C.DATASET_UNVERIFIABLE: (
            "The dataset record pins a fingerprint, and the eval output records nothing it can "
            "be computed from (docs/formats.md says what each format needs), so it cannot show "
            "it measured that data. Re-run so the output records its samples."
        ),
        C.JUDGE_DRIFTED: (
            "Its judge was calibrated once but no longer agrees with human labels. Its grades "
            "cannot decide anything until it is recalibrated."
        ),
        C.JUDGE_RETIRED: "Its judge is retired: its grades no longer decide anything.",
        C.JUDGE_EVIDENCE_INSUFFICIENT: (
            "The judge's record points to calibration evidence (a file `evalglass calibrate` "
            "wrote) and holds it to that: the file is missing or unreadable, is for another "
            "judge or model, or its agreement with human labels falls short of the record's "
            "min_agreement (the lower end of the interval, not the value). Re-calibrate, or "
            "point `evidence` at the right file."
        ),
        C.JUDGE_NOT_INDEPENDENT: (
            "The judge, or a grader the output names, is (or cannot be shown not to be) the "
            "model under evaluation, however its name is spelled. A model grading itself is "
            "not independent evidence; the output must name its model."
        ),
        C.JUDGE_MODEL_MISMATCH: (
            "The output says its judgments were graded by another model than the judge the "
            "records name (or by several, one of them another), or by a model while "
            "metrics.yaml names no judge. The calibration vouches for the judge, not for that "
            "grader: re-grade with the judge, or record the grader as the judge."
        ),
        C.BASELINE_MISSING: (
            "The metric is compared with an approved baseline, and baselines.yaml has none."
        ),
        C.BASELINE_NOT_COMPARABLE: (
            "The baseline was measured on other data or graded by another judge than today's "
            "records describe, so a comparison with it would not mean anything."
        ),
        C.APPROVAL_STALE: (
            "The threshold's approval was given for other data or another grader than the "
            "records now name: its approved_for names another dataset version or fingerprint, "
            "or another judge model (another snapshot counts), than datasets.yaml and judges.yaml "
            "hold today. The approver vouched for what they saw; the bar's owner must approve it "
            "again for what is there now."
        ),
        C.APPROVAL_EXPIRED: (
            "The threshold's approval held until its expires_on date, and the evaluation date is "
            "later. The bar's owner must approve it again (a new approved_on, and a new "
            "expires_on or none)."
        ),
        V.VALUE_MISSING: "No value was measured for this metric in the outputs given.",
        V.VALUE_NOT_FINITE: "The measured value is not a number (NaN or infinite).",
        V.TOO_FEW_SAMPLES: (
            "Fewer samples than the record's min_samples, or a sample count the output does not "
            "give: too little evidence to compare with a bar."
        ),
        V.INTERVAL_UNAVAILABLE: (
            "The gate compares the conservative end of an interval, and none could be computed "
            "(it needs per-sample scores, or n and a standard error)."
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
