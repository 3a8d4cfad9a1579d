"""The JUnit XML scorecard for CI test reports: one testcase per metric. Reads a Scorecard; never
decides. Which element a metric gets follows from the status the scorecard already holds.
Untrusted text is escaped (safe_text) before it is XML-escaped, so a CI page shows each id and
message on one line, with no control character."""

from __future__ import annotations

import re

from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.core.success import Source
from evalglass.render import _view
from evalglass.render.safe_text import escape

SUITE = "evalglass"

# XML 1.0 allows tab, LF, CR and everything from U+0020 except the surrogates and U+FFFE/U+FFFF;
# ids and messages come from untrusted files, so anything else becomes U+FFFD and the report
# always parses.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def xml_text(text: object) -> str:
    """Untrusted text with every character XML 1.0 forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(text))


def render(scorecard: Scorecard) -> str:
    """A JUnit XML report: one testcase per metric (a failure, an error, skipped or passed, by
    its status), the verdict and the policy as properties, the headline as system-out."""
    # Written as text, not built with ElementTree: the same bytes on every Python version, and a
    # large report in a fraction of the time. Every value passes through _attribute or _text.
    properties = [("verdict", scorecard.verdict.value), ("exit_code", str(scorecard.exit_code)),
                  ("model", scorecard.model or "")]  # fmt: skip
    properties += [("source", source) for source in scorecard.sources]
    policy = scorecard.policy
    if policy.source is not Source.DEFAULT:
        properties.append(("policy", f"{policy.source.value}: {_view.policy_text(policy)}"))
    properties += [("policy_detail", line) for line in _view.policy_details(policy)]
    tally = {"failure": 0, "error": 0, "skipped": 0}
    cases = []
    for card in scorecard.metrics:
        kind, case = _testcase(card)
        if kind is not None:
            tally[kind] += 1
        cases.append(case)
    # Counted from the testcases just written, so the totals cannot disagree with them.
    suite = (
        f'<testsuite name="{SUITE}" tests="{len(scorecard.metrics)}" '
        f'failures="{tally["failure"]}" errors="{tally["error"]}" skipped="{tally["skipped"]}">\n'
    )
    return "".join(
        [
            _DECLARATION,
            suite,
            "  <properties>\n",
            *(
                f'    <property name="{name}" value="{_attribute(value)}" />\n'
                for name, value in properties
            ),
            "  </properties>\n",
            *cases,
            f"  <system-out>{_text(_view.headline(scorecard))}</system-out>\n",
            "</testsuite>\n",
        ]
    )


def _attribute(value: str) -> str:
    """Untrusted text as an XML attribute value, on one line."""
    return (
        xml_text(escape(value))
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _text(value: str) -> str:
    """Untrusted text as XML character data."""
    return xml_text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _testcase(card: MetricCard) -> tuple[str | None, str]:
    status = card.status
    # A failed gate fails, a gate that could not be decided errors, a metric that does not gate
    # is skipped; a passed gate (warned or not) has no element, since it does not fail the run.
    kind = status.junit
    opening = f'  <testcase classname="{SUITE}" name="{_attribute(card.id)}">\n'
    if kind is not None:
        message = _view.explanation(card)
        child = (
            f'    <{kind} message="{_attribute(message)}" type="{status}">'
            f"{_text(_details(card, message))}</{kind}>\n"
        )
    else:
        # A passed gate has no child element to carry its numbers; CI tools show system-out.
        child = f"    <system-out>{_text(_details(card, _view.why(card)))}</system-out>\n"
    return kind, opening + child + "  </testcase>\n"


def _details(card: MetricCard, message: str) -> str:
    lines = [
        f"status: {card.status.value}",
        f"value: {_view.value_text(card)}",
        f"interval: {_view.interval_text(card)}",
        f"n: {_view.n_text(card)}",
        f"threshold: {_view.threshold_text(card)}",
        message,
    ]
    return "\n".join(escape(line) for line in lines)
