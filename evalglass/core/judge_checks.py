"""The stage 2 checks of a metric's grader: the judge is neither drifted nor retired, its
calibration evidence holds it up, the grading is independent of the model under evaluation, and
the output was graded by the judge the records name. Each says why not ("" when it holds).
"""

from __future__ import annotations

from evalglass.calibration_evidence import CalibrationEvidence
from evalglass.core.agreement import check_agreement
from evalglass.core.model_names import same_grader, same_model
from evalglass.core.situation import Situation, listed
from evalglass.evidence.model import UNKNOWN_GRADER
from evalglass.records.model import Calibration, JudgeRecord, UnreadableEvidence


def judge_drifted(s: Situation) -> str:
    """Whether the metric's judge has drifted."""
    drifted = s.judge is not None and s.judge.calibration is Calibration.DRIFTED
    return f"judge '{s.metric.judge}' has drifted" if drifted else ""


def judge_retired(s: Situation) -> str:
    """Whether the metric's judge is retired."""
    retired = s.judge is not None and s.judge.calibration is Calibration.RETIRED
    return f"judge '{s.metric.judge}' is retired" if retired else ""


def judge_evidence(s: Situation) -> str:
    """Why the judge's calibration evidence does not hold it up."""
    if s.judge is None or s.metric.judge is None:
        return ""
    return evidence_shortfall(s.metric.judge, s.judge)


def not_independent(s: Situation) -> str:
    """The judge the records name and every grader the output names are compared with every
    model the output says it evaluated; an output that names no model cannot show
    independence."""
    run = s.measurement.run if s.measurement is not None else None
    models = run.models if run is not None else ()
    graders = run.graders if run is not None else ()
    judge = s.judge
    if judge is None and not graders:
        return ""
    if not models:
        who = "judge" if judge is not None else "grader"
        return f"the eval output names no model, so the {who} cannot be shown independent"
    said = []
    if judge is not None:
        said += [
            f"judge model '{judge.model}' is the model under evaluation '{m}'"
            for m in models
            if same_model(judge.model, m)
        ][:1]
    if UNKNOWN_GRADER in graders:
        # A grader nobody named could be the model under evaluation itself.
        said.append(
            "the output says a model graded it without naming which (the tool's default "
            "grader), so the grading cannot be shown independent"
        )
    said += [
        f"the output says '{g}', the model under evaluation '{m}', graded it"
        for g in graders
        if g != UNKNOWN_GRADER
        for m in models
        if same_model(g, m)
    ][:1]
    return "; ".join(said)


def judge_model_mismatch(s: Situation) -> str:
    """Which graders the output names that are not the records' judge."""
    graders = s.measurement.run.graders if s.measurement is not None else ()
    if not graders:
        return ""
    if s.metric.judge is None:
        return (
            f"the output says {listed(graders)} graded it, and metrics.yaml names no judge: "
            "a model-graded metric must name its judge"
        )
    judge = s.judge
    if judge is None:
        return ""
    # Stricter than independence: another snapshot or size of the judge is another grader.
    others = tuple(g for g in graders if not same_grader(g, judge.model))
    if not others:
        return ""
    return (
        f"the output says {listed(others)} graded it, not judge '{s.metric.judge}' "
        f"('{judge.model}')"
    )


def evidence_shortfall(judge_id: str, judge: JudgeRecord) -> str:
    """Why the calibration evidence a judge's record names does not hold it up ("" when it
    does, or when the record names no evidence and no min_agreement).

    The evidence must have been read, be for this judge and its model, and, given a
    min_agreement, show the statistic's lower interval bound at or above it. Checked whatever
    the judge's calibration: a judge not yet calibrated shows it as a note (what would block
    once it is), and a drifted or retired one is blocked for this as well."""
    if judge.evidence is None:
        # The loader refuses this; a record built in memory must not slip through.
        return (
            ""
            if judge.min_agreement is None
            else (f"judge '{judge_id}' has a min_agreement but names no calibration evidence")
        )
    where = f"judge '{judge_id}': calibration evidence '{judge.evidence}'"
    found = judge.evidence_read
    if found is None:
        return f"{where} was not read"
    if isinstance(found, UnreadableEvidence):
        return f"{where} {found.problem}"
    return _evidence_mismatch(where, judge_id, judge, found)


def _evidence_mismatch(
    where: str, judge_id: str, judge: JudgeRecord, found: CalibrationEvidence
) -> str:
    if found.judge != judge_id:
        return f"{where} is for judge '{found.judge}', not '{judge_id}'"
    if found.judge_model is None:
        return f"{where} names no judge model, so it cannot be shown to be for '{judge.model}'"
    # Strict, as for the grader: evidence for another snapshot or size of the model is not
    # evidence for the judge that grades now.
    if not same_grader(found.judge_model, judge.model):
        return (
            f"{where} is for model '{found.judge_model}'; judge '{judge_id}' grades with "
            f"'{judge.model}'"
        )
    bar = judge.min_agreement
    if bar is None:
        return ""
    check = check_agreement(found, bar.statistic.value, bar.lower_bound)
    return "" if check.met else f"{where}: {check.message}"
