"""`evalglass explain` for a terminal or a pull-request comment. Reads an Explanation; decides
nothing, and shows the hypothetical only under its label."""

from __future__ import annotations

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.numbers import interval_label
from evalglass.core.scorecard import MetricCard
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.tools.explanation import Explanation
from evalglass.tools.glossary import plain

_TEMPLATES = {Format.TERMINAL: "explain.txt.j2", Format.MARKDOWN: "explain.md.j2"}

_OUTCOMES = {
    Outcome.CAN_GATE: "can_gate: its value is compared with its approved threshold",
    Outcome.INFORMATIONAL: "informational: shown, never enforced",
    Outcome.BLOCKED: "blocked: an active gate that fails CI, because we cannot say",
}


def outcome_text(card: MetricCard) -> str:
    return _OUTCOMES[card.authority.outcome]


def gate_text(card: MetricCard) -> str:
    """The gate result and its evidence, or why it was not compared."""
    gate = card.gate
    if gate.result is Result.NOT_ENFORCED:
        return "not enforced"
    if gate.result is Result.UNSOUND:
        codes = ", ".join(r.code.value for r in gate.reasons)
        return f"unsound ({codes}): {gate.evidence}"
    return f"{gate.result.value}: {gate.evidence}"


def method_text(card: MetricCard) -> str:
    m = card.measurement
    return "" if m is None or m.interval is None else f"({interval_label(m.interval)})"


def render(explanation: Explanation, fmt: Format) -> str:
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
    )
