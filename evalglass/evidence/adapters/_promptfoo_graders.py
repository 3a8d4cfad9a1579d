"""Which of promptfoo's assertions a model graded, and which grader each row names. A metric
any of whose verdicts came from a model is judged; a row whose model-graded assertion names no
grader was graded by promptfoo's default grader, which the export does not record: an unknown
grader. It names graders; whether they may grade is the resolver's.
"""

from __future__ import annotations

from typing import Any

from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import UNKNOWN_GRADER

# The assertion types a model grades: promptfoo's "Model-graded metrics" page
# (promptfoo.dev/docs/configuration/expected-outputs/model-graded/: output-based, context-based
# and conversation graders), together with the types promptfoo 0.123.1 itself treats as graded
# by a provider (MODEL_GRADED_ASSERTION_TYPES and PROVIDER_GROUPED_ASSERTION_TYPES in its
# src/evaluator.ts). `max-score` is not among them: it ranks outputs by their other scores.
MODEL_GRADED = frozenset(
    {
        "agent-rubric",
        "answer-relevance",
        "classifier",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "conversation-relevance",
        "factuality",
        "g-eval",
        "llm-rubric",
        "model-graded-closedqa",
        "model-graded-factuality",
        "moderation",
        "pi",
        "search-rubric",
        "select-best",
        "similar",
        "trajectory:goal-success",
    }
)
# Every red-team plugin's assertion (`promptfoo:redteam:harmful:hate`, ...) is graded by the
# red-team grader, a model (promptfoo's redteam/graders).
MODEL_GRADED_PREFIXES = ("promptfoo:redteam:",)
# promptfoo's negation of an assertion (`not-similar`) is graded the same way.
_NEGATED = "not-"


def model_graded(kind: str) -> bool:
    """Whether promptfoo has a model grade an assertion of this type."""
    base = kind.removeprefix(_NEGATED)
    return base in MODEL_GRADED or base.startswith(MODEL_GRADED_PREFIXES)


def components(row: dict[str, Any]) -> list[Any]:
    """The row's assertion results; a row that lists none (or not as a list) has none."""
    found = c.section(row, "gradingResult").get("componentResults")
    return found if isinstance(found, list) else []


def graders(rows: list[dict[str, Any]], metric: str | None, config: dict[str, Any]) -> list[str]:
    """The grader of every model-graded assertion behind a metric (every one of the column for
    `pass_rate`, `metric` None), row by row, as promptfoo chooses it: the assertion's own
    provider, else its test's options.provider, else the default test's; UNKNOWN_GRADER where
    none is named (promptfoo's default grader, which the export does not record)."""
    default = c.section(c.section(config, "defaultTest"), "options").get("provider")
    named: list[str] = []
    for row in rows:
        test_grader = c.section(c.section(row, "testCase"), "options").get("provider")
        for comp in components(row):
            assertion = c.section(comp, "assertion") if isinstance(comp, dict) else {}
            if not model_graded(c.text(assertion.get("type")) or ""):
                continue
            if metric is not None and assertion.get("metric") != metric:
                continue
            for source in (assertion.get("provider"), test_grader, default):
                names = _provider_names(source)
                if names:
                    named.extend(names)
                    break
            else:
                named.append(UNKNOWN_GRADER)
    return named


def _provider_names(value: object) -> list[str]:
    if isinstance(value, str) and value.strip():
        return [value]
    if isinstance(value, dict):
        # A grader that is also a configured provider is written {providerId, label, delay};
        # one given with `--grader` as the provider object it became, {modelName, config, ...}.
        for key in ("id", "providerId", "modelName", "label"):
            if c.text(value.get(key)):
                return [value[key]]
        # options.provider may name one grader per task: {text: ..., embedding: ...}.
        return [
            n
            for key in ("text", "embedding", "classification")
            for n in _provider_names(value.get(key))
        ]
    return []


def contributing(row: dict[str, Any], name: str) -> int:
    """How many of a row's graded components score the named metric (at least one: a named
    score with no component of its own stands for one)."""
    found = sum(
        1
        for comp in components(row)
        if isinstance(comp, dict) and c.section(comp, "assertion").get("metric") == name
    )
    return found or 1
