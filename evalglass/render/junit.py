"""The JUnit XML scorecard for CI test reports: one testcase per metric. Reads a Scorecard; never
decides. Which element a metric gets follows from the status the scorecard already holds."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from evalglass.render import _view
from evalglass.scorecard import MetricCard, Scorecard

SUITE = "evalglass"

# XML 1.0 allows tab, LF, CR and everything from U+0020 except the surrogates and U+FFFE/U+FFFF;
# ids and messages come from untrusted files, so anything else becomes U+FFFD and the report
# always parses.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# The declaration is written here rather than by ElementTree, which names the locale's encoding
# when asked for text, so the bytes would depend on the machine.
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def xml_text(text: object) -> str:
    """Untrusted text with every character XML 1.0 forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(text))


def element(status: str, decided: bool) -> str | None:
    """The JUnit element for a metric's status: a failed gate fails, a gate that could not be
    decided errors, a metric that does not gate is skipped; a passed gate (warned or not) has
    none, since it does not fail the run."""
    if not decided:
        return "skipped"
    return {"fail": "failure", "blocked": "error", "unsound": "error"}.get(status)


def render(scorecard: Scorecard) -> str:
    suite = ET.Element("testsuite", name=SUITE)
    properties = ET.SubElement(suite, "properties")
    _property(properties, "verdict", scorecard.verdict.value)
    _property(properties, "exit_code", str(scorecard.exit_code))
    _property(properties, "model", scorecard.model or "")
    for source in scorecard.sources:
        _property(properties, "source", source)
    tally = {"failure": 0, "error": 0, "skipped": 0}
    for card in scorecard.metrics:
        kind = _testcase(suite, card)
        if kind is not None:
            tally[kind] += 1
    # Counted from the testcases just written, so the totals cannot disagree with them.
    suite.attrib.update(
        tests=str(len(scorecard.metrics)),
        failures=str(tally["failure"]),
        errors=str(tally["error"]),
        skipped=str(tally["skipped"]),
    )
    ET.SubElement(suite, "system-out").text = xml_text(_view.headline(scorecard))
    ET.indent(suite)
    return _DECLARATION + ET.tostring(suite, encoding="unicode") + "\n"


def _property(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, "property", name=name, value=xml_text(value))


def _testcase(suite: ET.Element, card: MetricCard) -> str | None:
    case = ET.SubElement(suite, "testcase", classname=SUITE, name=xml_text(card.id))
    status = card.status
    kind = element(status, card.decided)
    if kind is not None:
        message = _view.explanation(card)
        child = ET.SubElement(case, kind, message=xml_text(message), type=status)
        child.text = xml_text(_details(card, message))
    else:
        # A passed gate has no child element to carry its numbers; CI tools show system-out.
        ET.SubElement(case, "system-out").text = xml_text(_details(card, _view.why(card)))
    return kind


def _details(card: MetricCard, message: str) -> str:
    lines = [
        f"status: {card.status}",
        f"value: {_view.value_text(card)}",
        f"interval: {_view.interval_cell(card)}",
        f"n: {_view.n_text(card)}",
        f"threshold: {_view.threshold_text(card)}",
        message,
    ]
    return "\n".join(lines)
