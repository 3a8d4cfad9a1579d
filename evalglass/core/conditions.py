"""The authority conditions, each declared once: its reason code, its stage, its place in the
order, the check, and the words people read about it.

`resolve` runs the checks in this order; the glossary `explain` and `doctor` quote, and the
reason table in docs/authority.md, are read from the same rows. The checks themselves live in the
modules named for what they check (`authorizing_checks`, `data_checks`, `judge_checks`,
`baseline_checks`, `approval_checks`); what they read is `situation.Situation`. Adding a
condition is a row here, its check, the record field it reads, and a state in the exhaustive
table (tests/core/test_authority.py), whose expectation is written from DESIGN.md, not from
these rows.
"""

from __future__ import annotations

from evalglass.core import approval_checks as approval
from evalglass.core import authorizing_checks as authorizing
from evalglass.core import baseline_checks as baseline
from evalglass.core import data_checks as data
from evalglass.core import judge_checks as judge
from evalglass.core.situation import Condition, Situation, Stage
from evalglass.reasons import AuthorityCode as C


def _never(s: Situation) -> str:
    # no_record is decided before any row runs: a metric without a record has no Situation.
    return ""


_1, _2 = Stage.AUTHORIZED, Stage.SOUND

CONDITIONS: tuple[Condition, ...] = (
    Condition(
        C.NO_RECORD,
        _1,
        "the metric has a record in metrics.yaml (if not, this is its only reason)",
        (
            "metrics.yaml does not mention this metric, so nobody has decided what it is for. "
            "It is shown and never enforced until it has a record."
        ),
        _never,
    ),
    Condition(
        C.METRIC_NOT_GATING,
        _1,
        "its status is `gating`",
        (
            "Its status in metrics.yaml is not `gating`: the eval leads have not asked for it to "
            "fail builds. Only `gating` metrics may."
        ),
        authorizing.not_gating,
    ),
    Condition(
        C.THRESHOLD_MISSING,
        _1,
        "a threshold exists in thresholds.yaml",
        "thresholds.yaml has no bar for it, so there is nothing to compare its value with.",
        authorizing.threshold_missing,
    ),
    Condition(
        C.THRESHOLD_PROPOSED,
        _1,
        "the threshold's approval is `approved`",
        (
            "Its threshold is only proposed. A bar may fail builds once its owner approves it "
            "(approval: approved, with approved_by and approved_on)."
        ),
        authorizing.threshold_proposed,
    ),
    Condition(
        C.DATASET_PROPOSED,
        _1,
        "its dataset's status is not `proposed`",
        (
            "Its dataset is only proposed: nobody has yet checked that the data (labels, "
            "coverage, leakage) is fit to decide a release on."
        ),
        authorizing.dataset_proposed,
    ),
    Condition(
        C.JUDGE_UNCALIBRATED,
        _1,
        "its judge, if it names one, is not `uncalibrated` or `calibrating`",
        (
            "It is graded by a model judge whose grades have not (yet) been checked against "
            "human labels. An unchecked grader cannot fail a build."
        ),
        authorizing.judge_uncalibrated,
    ),
    Condition(
        C.DANGLING_REFERENCE,
        _2,
        "every record the metric names (dataset, judge) exists",
        (
            "The metric names a dataset or judge that has no record (or, for a check's metric, "
            "checks.yaml has no check of its name), usually a typo in an id. A missing record is "
            "not 'proposed': an authorized metric blocks on it."
        ),
        data.dangling,
    ),
    Condition(
        C.POLICY_NOT_PERMITTED,
        _2,
        (
            "the data policy for its dataset id is `permitted` or `redacted` (a missing policy "
            "counts as not)"
        ),
        (
            "Data governance has not permitted results on this dataset to decide a release "
            "(policies.yaml: permitted or redacted). A dataset with no policy counts as not."
        ),
        data.policy,
    ),
    Condition(
        C.DATASET_RETIRED,
        _2,
        "its dataset's status is not `retired`",
        (
            "Its dataset is retired. An authorized metric on retired data blocks rather than "
            "quietly passing or turning informational."
        ),
        data.dataset_retired,
    ),
    Condition(
        C.DATASET_MISMATCH,
        _2,
        (
            "the output was measured on the validated dataset: the dataset it names (if any) is "
            "the record's id or one of its `names`; its version (when it names this dataset, or "
            "names none, and the record has one) and its fingerprint (when it yields one and the "
            "record has one) equal the record's. An output that names no version passes this "
            "row, and the scorecard says the dataset was not verified unless the fingerprint the "
            "record pins matched"
        ),
        (
            "The eval output says it ran on another dataset (a name that is neither the "
            "record's id nor one of its names:), or on another version or content (fingerprint) "
            "of it, than the one validated in datasets.yaml, so the number is not about the "
            "checked data."
        ),
        data.dataset_mismatch,
    ),
    Condition(
        C.DATASET_UNVERIFIABLE,
        _2,
        (
            "a dataset record that pins a `fingerprint` is checked against one: the output "
            "yields a fingerprint (docs/formats.md says what each format needs)"
        ),
        (
            "The dataset record pins a fingerprint, and the eval output records nothing it can "
            "be computed from (docs/formats.md says what each format needs), so it cannot show "
            "it measured that data. Re-run so the output records its samples."
        ),
        data.dataset_unverifiable,
    ),
    Condition(
        C.JUDGE_DRIFTED,
        _2,
        "the judge is not `drifted`",
        (
            "Its judge was calibrated once but no longer agrees with human labels. Its grades "
            "cannot decide anything until it is recalibrated."
        ),
        judge.judge_drifted,
    ),
    Condition(
        C.JUDGE_RETIRED,
        _2,
        "the judge is not `retired`",
        "Its judge is retired: its grades no longer decide anything.",
        judge.judge_retired,
    ),
    Condition(
        C.JUDGE_EVIDENCE_INSUFFICIENT,
        _2,
        (
            "the calibration evidence the judge's record names (`evidence`) holds it up: the "
            "file is there and is calibration evidence, for this judge id and for its model (by "
            "the stricter [grader rule](#model-names): evidence for another snapshot or size of "
            "the model does not count), and, with `min_agreement`, the statistic's lower "
            "interval bound is at least the bar (the message names both numbers)"
        ),
        (
            "The judge's record points to calibration evidence (a file `evalglass calibrate` "
            "wrote) and holds it to that: the file is missing or unreadable, is for another "
            "judge or model, or its agreement with human labels falls short of the record's "
            "min_agreement (the lower end of the interval, not the value). Re-calibrate, or "
            "point `evidence` at the right file."
        ),
        judge.judge_evidence,
    ),
    Condition(
        C.JUDGE_NOT_INDEPENDENT,
        _2,
        (
            "the grading is independent: neither the judge the metric names nor any grader the "
            "output names is a model under evaluation (by the [model-name rule](#model-names) "
            "below); an output that names no model cannot show independence, when the metric "
            "names a judge or the output names a grader"
        ),
        (
            "The judge, or a grader the output names, is (or cannot be shown not to be) the "
            "model under evaluation, however its name is spelled. A model grading itself is "
            "not independent evidence; the output must name its model."
        ),
        judge.not_independent,
        about_run=True,
    ),
    Condition(
        C.JUDGE_MODEL_MISMATCH,
        _2,
        (
            "judgments were graded by the judge the records name: every grader the output names "
            "for the metric is the judge's `model` (by the stricter [grader "
            "rule](#model-names)); an output that names a grader for a metric whose record names "
            "no judge fails too, since a model-graded metric must name its judge"
        ),
        (
            "The output says its judgments were graded by another model than the judge the "
            "records name (or by several, one of them another), or by a model while "
            "metrics.yaml names no judge. The calibration vouches for the judge, not for that "
            "grader: re-grade with the judge, or record the grader as the judge."
        ),
        judge.judge_model_mismatch,
    ),
    Condition(
        C.BASELINE_MISSING,
        _2,
        "a required baseline (`requires_baseline: yes`, or a regression threshold) exists in "
        "baselines.yaml",
        "The metric is compared with an approved baseline, and baselines.yaml has none.",
        baseline.baseline_missing,
    ),
    Condition(
        C.BASELINE_NOT_COMPARABLE,
        _2,
        (
            "a required baseline is comparable: its `dataset_version` equals the dataset "
            "record's `version` (both absent for data pinned by fingerprint alone), its "
            "`fingerprint` the record's when both have one or the record has no version, and "
            "its `judge`, when both it and the metric's judge exist, equals the judge record's "
            "`model` exactly"
        ),
        (
            "The baseline was measured on other data or graded by another judge than today's "
            "records describe, so a comparison with it would not mean anything."
        ),
        baseline.baseline_not_comparable,
    ),
    Condition(
        C.APPROVAL_STALE,
        _2,
        (
            "the approval still describes what is measured: the threshold's `approved_for` "
            "names the dataset record's `version` and `fingerprint` (when the dataset record "
            "exists) and, when the judge record exists, its `model` by the strict [grader "
            "rule](#model-names) (another snapshot is another judge), or no judge when the "
            "metric names none; an approved threshold without `approved_for` describes nothing"
        ),
        (
            "The threshold's approval was given for other data or another grader than the "
            "records now name: its approved_for names another dataset version or fingerprint, "
            "or another judge model (another snapshot counts), than datasets.yaml and judges.yaml "
            "hold today. The approver vouched for what they saw; the bar's owner must approve it "
            "again for what is there now."
        ),
        approval.approval_stale,
    ),
    Condition(
        C.APPROVAL_EXPIRED,
        _2,
        (
            "the approval has not expired: the evaluation date (the UTC date of `--as-of`, "
            "default now) is not after the threshold's `expires_on`"
        ),
        (
            "The threshold's approval held until its expires_on date, and the evaluation date is "
            "later. The bar's owner must approve it again (a new approved_on, and a new "
            "expires_on or none)."
        ),
        approval.approval_expired,
    ),
)

# The rows each stage runs, in order (no_record is decided before either).
AUTHORIZING = tuple(c for c in CONDITIONS if c.stage is _1 and c.code is not C.NO_RECORD)
SOUNDNESS = tuple(c for c in CONDITIONS if c.stage is _2)
BY_CODE = {c.code: c for c in CONDITIONS}
