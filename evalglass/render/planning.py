"""`evalglass plan` for a terminal or a machine. Reads a Plan; decides nothing."""

from __future__ import annotations

from evalglass.contract import json_text
from evalglass.numbers import fmt
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.tools.planning import Plan


def render(plan: Plan, how: Format) -> str:
    """The plan as a terminal line or the JSON document {metric, expect, power, n, method,
    reason}. ValueError for any other format."""
    if how is Format.JSON:
        doc = {
            "metric": plan.metric,
            "expect": plan.expect,
            "power": plan.power,
            "n": plan.n,
            "method": plan.method,
            "reason": plan.reason,
        }
        return json_text(doc) + "\n"
    if how is not Format.TERMINAL:
        raise ValueError(f"plan has no {how.value} format")
    return environment().get_template("plan.txt.j2").render(p=plan, num=fmt)
