"""The judge edits of a checklist: the judge a model-graded metric names, its model, its
calibration and the evidence that holds it up; and what only a re-run can show about who graded
it. Pure, like the checklist it adds to (`checklist.py`).
"""

from __future__ import annotations

import attrs

from evalglass.calibration_evidence import (
    CalibrationEvidence,
    Estimate,
    InputFile,
    Items,
    LabelScale,
)
from evalglass.core.judge_checks import evidence_shortfall
from evalglass.core.model_names import grader_key, same_grader, same_model
from evalglass.evidence.model import UNKNOWN_GRADER, Measurement, Run
from evalglass.numbers import fmt
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import Calibration, JudgeRecord
from evalglass.tools.checklist_plan import EditPlan
from evalglass.tools.edits import yaml_text


def judge(
    plan: EditPlan, metric_id: str, measurement: Measurement | None
) -> tuple[tuple[Reason, ...], str | None]:
    """The judge edits; returns what only the run can show, and the judge model after them."""
    metric = plan.records.metrics.get(metric_id)
    run = measurement.run if measurement is not None else None
    graders = _distinct(run.graders) if run is not None else []
    judge_id = metric.judge if metric is not None else None
    if judge_id is None and not graders:
        return (), None
    outside = []
    if UNKNOWN_GRADER in graders:
        # No record names a grader the run does not name: only a re-run can.
        graders.remove(UNKNOWN_GRADER)
        outside.append(
            Reason(
                C.JUDGE_NOT_INDEPENDENT,
                "the run does not name the model that graded it (the tool's default "
                "grader): name the grader in the eval's config (promptfoo: "
                "defaultTest.options.provider) and re-run",
            )
        )
    if len(graders) > 1:
        named = "the one metrics.yaml names" if judge_id else "then name it in metrics.yaml"
        outside.append(
            Reason(
                C.JUDGE_MODEL_MISMATCH,
                (
                    f"the run was graded by several models ({', '.join(graders)}): re-run the grading "
                    f"with one judge, {named}"
                ),
            )
        )
    grader = graders[0] if len(graders) == 1 else None
    if judge_id is None and grader is None:
        # Which of the graders is to be the judge is for the re-run to settle.
        independent = _independence(None, None, run)
        return ((independent,) if independent else ()) + tuple(outside), None
    if judge_id is None:
        assert grader is not None
        judge_id = _judge_id(plan, grader)
        plan.put(
            "metrics",
            metric_id,
            "judge",
            judge_id,
            f"this metric is model-graded, by judge '{judge_id}' (an id you may rename)",
        )
    judge = plan.records.judges.get(judge_id)
    if judge is None:
        model = grader or "<judge model>"
        plan.put(
            "judges",
            judge_id,
            "model",
            model,
            "this is the grading model, and it is not the model under evaluation",
            choose=None if grader else "the grading model",
        )
    elif grader is not None and not same_grader(grader, judge.model):
        model = grader
        plan.put(
            "judges",
            judge_id,
            "model",
            grader,
            f"judge '{judge_id}' grades with {yaml_text(grader)}, the model that graded "
            "this run, and its calibration was measured with that model (if not, re-run "
            f"the grading with {yaml_text(judge.model)} instead)",
        )
    else:
        model = judge.model
    if judge is None or judge.calibration is not Calibration.CALIBRATED:
        plan.put(
            "judges",
            judge_id,
            "calibration",
            Calibration.CALIBRATED,
            "you have checked this judge's grades against human labels, and they agree "
            "well enough to fail builds on",
        )
    if judge is not None:
        # Held to the model it will grade with once the edits above are made.
        _evidence(
            plan, judge_id, attrs.evolve(judge, calibration=Calibration.CALIBRATED, model=model)
        )
    independent = _independence(judge_id, model, run)
    # In the resolver's order: independence first.
    return ((independent,) if independent else ()) + tuple(outside), model


def _judge_id(plan: EditPlan, grader: str) -> str:
    """The recorded judge that grades with `grader`, else a new id named after it."""
    for judge_id, judge in plan.records.judges.items():
        if same_grader(judge.model, grader):
            return judge_id
    base = grader_key(grader) or "judge"
    candidates = [base, *(f"{base}-{n}" for n in range(2, len(plan.records.judges) + 3))]
    return next(c for c in candidates if c not in plan.records.judges)


def _evidence(plan: EditPlan, judge_id: str, judge: JudgeRecord) -> None:
    """Re-calibrate, or point `evidence` at the right file, when the evidence the judge's
    record names does not hold it up."""
    if not evidence_shortfall(judge_id, judge):
        return
    bar = judge.min_agreement
    shows = (
        f"its {bar.statistic.value} lower bound is at least {fmt(bar.lower_bound)}"
        if bar is not None
        else "it is for this judge and model"
    )
    plan.put(
        "judges",
        judge_id,
        "evidence",
        judge.evidence or f"calibration/{judge_id}.json",
        f"you ran `evalglass calibrate --judge {judge_id}` on human labels for "
        f"'{judge.model}', committed the evidence file it wrote beside the records, and "
        f"{shows}",
        choose="the calibration evidence file, relative to the records folder",
        assumes=(("evidence_read", _assumed_evidence(judge_id, judge)),),
    )


def _assumed_evidence(judge_id: str, judge: JudgeRecord) -> CalibrationEvidence:
    """Evidence that just meets the judge's bar: what the edit asserts the new file shows, for
    the in-memory copy only. It is never written and never read from anywhere."""
    bar = judge.min_agreement
    statistics = (
        {}
        if bar is None
        else {bar.statistic.value: Estimate(bar.lower_bound, bar.lower_bound, bar.lower_bound, 0)}
    )
    nothing = InputFile(path="<assumed>", sha256="<assumed>")
    return CalibrationEvidence(
        judge=judge_id,
        judge_model=judge.model,
        scale=LabelScale.BINARY,
        categories=(),
        raters=(),
        statistics=statistics,
        confusion=None,
        items=Items(
            matched=0, judged_only=0, labelled_only=0, judge_blank=0, human_blank=0, no_consensus=0
        ),
        level=0.95,
        resamples=0,
        seed=0,
        judgments=nothing,
        labels=nothing,
        evalglass_version="<assumed>",
        date="<assumed>",
    )


def _distinct(graders: tuple[str, ...]) -> list[str]:
    """One name per grader, where spellings of the same grader count once."""
    kept: list[str] = []
    for grader in graders:
        if not any(same_grader(grader, k) for k in kept):
            kept.append(grader)
    return kept


def _independence(judge_id: str | None, model: str | None, run: Run | None) -> Reason | None:
    """What no records edit clears: a run naming no model, or graded by the model it grades."""
    models = run.models if run is not None else ()
    if not models:
        who = f"judge '{judge_id}'" if judge_id else "its grader"
        return Reason(
            C.JUDGE_NOT_INDEPENDENT,
            (
                f"an eval output must name the model under evaluation, so {who} can be shown not "
                "to be it"
            ),
        )
    for evaluated in models:
        if model is not None and same_model(model, evaluated):
            return Reason(
                C.JUDGE_NOT_INDEPENDENT,
                (
                    f"judge '{judge_id}' grades with '{model}', the model under evaluation "
                    f"'{evaluated}': grade with an independent model (a calibrated judge of another "
                    "model, named in metrics.yaml)"
                ),
            )
    for grader in run.graders if run is not None else ():
        for evaluated in models:
            if same_model(grader, evaluated):
                return Reason(
                    C.JUDGE_NOT_INDEPENDENT,
                    (
                        f"the run was graded by '{grader}', the model under evaluation "
                        f"'{evaluated}': re-run the grading with an independent judge"
                    ),
                )
    return None
