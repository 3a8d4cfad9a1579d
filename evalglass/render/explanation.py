"""`evalglass explain` for a terminal, a pull-request comment or a machine (JSON, documented in
docs/agents.md). Reads an Explanation; decides nothing, and shows the hypothetical only under its
label."""

from __future__ import annotations

import json
from typing import Any

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.scorecard import MetricCard
from evalglass.evidence.labels import interval_label
from evalglass.metric_ids import check_name
from evalglass.reasons import Reason
from evalglass.records.model import CheckRecord, MetricRecord
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.render.evidence_line import evidence_line
from evalglass.render.needed_words import needed_text
from evalglass.tools.edits import Edit
from evalglass.tools.explanation import Explanation
from evalglass.tools.glossary import plain

_TEMPLATES = {Format.TERMINAL: "explain.txt.j2", Format.MARKDOWN: "explain.md.j2"}

_OUTCOMES = {
    Outcome.CAN_GATE: "can_gate: its value is compared with its approved threshold",
    Outcome.INFORMATIONAL: "informational: shown, never enforced",
    Outcome.BLOCKED: "blocked: an active gate that fails CI, because we cannot say",
}


def outcome_text(card: MetricCard) -> str:
    """The metric's authority outcome in words; for a host check that can gate, that its attempts
    decide."""
    if check_name(card.id) is not None and card.authority.outcome is Outcome.CAN_GATE:
        return "can_gate: its attempts under evalglass run decide its gate"
    return _OUTCOMES[card.authority.outcome]


def check_text(check: CheckRecord | None) -> str:
    """A check's definition in one line: `run 'pytest -q', timeout 600 s, fast tier`."""
    if check is None:
        return "none in checks.yaml"
    text = f"{check.kind.value} '{check.target}'"
    if check.in_file is not None:
        text += f" in {check.in_file}"
    if check.timeout is not None:
        text += f", timeout {check.timeout} s"
    return f"{text}, {check.tier.value} tier"


def gate_text(card: MetricCard) -> str:
    """The gate result and its evidence, or why it was not compared."""
    gate = card.gate
    if gate.result is Result.NOT_ENFORCED:
        return "not enforced"
    if gate.result is Result.UNSOUND:
        codes = ", ".join(r.code.value for r in gate.reasons)
        return f"unsound ({codes}): {evidence_line(card)}"
    return f"{gate.result.value}: {evidence_line(card)}"


def method_text(card: MetricCard) -> str:
    """`(95% Wilson)`: how the interval was made, or "" without one."""
    m = card.measurement
    return "" if m is None or m.interval is None else f"({interval_label(m.interval)})"


def render(explanation: Explanation, fmt: Format) -> str:
    """explain's answer from the template for `fmt`, or as JSON. ValueError for a format explain
    does not have."""
    if fmt is Format.JSON:
        return json.dumps(to_json(explanation), indent=2, ensure_ascii=False) + "\n"
    name = _TEMPLATES.get(fmt)
    if name is None:
        raise ValueError(f"explain has no {fmt.value} format")
    template = environment().get_template(name)
    return template.render(
        x=explanation,
        plain=plain,
        outcome_text=outcome_text,
        gate_text=gate_text,
        method_text=method_text,
        check_text=check_text,
        needed_text=needed_text,
    )


def to_json(x: Explanation) -> dict[str, Any]:
    """The explanation as a JSON document: each card is the scorecard JSON's metric entry (the
    contract), the edits are the checklist in order, and the hypothetical stays under its key."""
    from evalglass import contract
    from evalglass.render.json import metric

    def card(c: MetricCard) -> Any:
        return contract.CONVERTER.unstructure(metric(c))

    hypothetical = None
    if x.hypothetical is not None:
        hypothetical = {"card": card(x.hypothetical), "gate_known": x.hypothetical_gate_known}
    plan = x.checklist
    doc = {
        "schema_version": 1,
        "metric": x.card.id,
        "outputs_given": x.outputs_given,
        "record": None if x.record is None else _record(x.record),
        "card": card(x.card),
        "edits": [_edit(edit) for edit in plan.edits],
        "outside": [_reason(r) for r in plan.outside],
        "hypothetical": hypothetical,
        "policy": {
            "source": x.policy.source,
            "must_pass": x.policy.must_pass,
            "requires": x.policy.text,
        },
        "glossary": _glossary(x),
    }
    if x.is_check:
        # Only a check's metric has a definition to show; other explanations keep their shape.
        doc["check"] = None if x.check is None else check_text(x.check)
    return doc


def _record(r: MetricRecord) -> dict[str, Any]:
    return {
        "status": r.status.value, "dataset": r.dataset, "judge": r.judge,
        "requires_baseline": r.requires_baseline, "min_samples": r.min_samples,
        "decision": r.decision.value, "max_missing_fraction": r.max_missing_fraction,
        "interval_level": r.interval_level, "file": r.origin.path, "line": r.origin.line,
    }  # fmt: skip


def _edit(e: Edit) -> dict[str, Any]:
    # `text` is the value as it would be written in YAML, or `<what to choose>` when `choose` is
    # set: a person picks that value, and the loader refuses the placeholder as written.
    return {
        "file": e.file, "record": e.record, "field": e.field, "action": e.action.value,
        "text": e.text, "choose": e.choose, "asserts": e.asserts,
    }  # fmt: skip


def _reason(r: Reason) -> dict[str, str]:
    return {"code": r.code.value, "message": r.message}


def _glossary(x: Explanation) -> dict[str, str]:
    """Every authority and validity code the explanation names, in plain words."""
    cards = [x.card] if x.hypothetical is None else [x.card, x.hypothetical]
    reasons = [*x.checklist.outside]
    for c in cards:
        reasons += [*c.validity.reasons, *c.authority.reasons, *c.authority.notes]
    return {
        code.value: plain(code)
        for code in sorted({r.code for r in reasons}, key=lambda code: code.value)
    }
