"""The JUnit XML scorecard for CI test reports: one testcase per metric, in the common schema
strict readers hold a report to (a `<testsuites>` root; tests, failures, errors, skipped, time and
timestamp on the suite; classname, name and time on every case). Reads a Scorecard; never
decides. Which element a metric gets follows from the status the scorecard already holds.
Untrusted text is escaped (safe_text) before it is XML-escaped, so a CI page shows each id and
message on one line, with no control character."""

from __future__ import annotations

import re

from evalglass.core.decision import Result
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
# evalglass reads results an eval already produced, so it has no duration of its own to report;
# readers that parse `time` with no fallback (dorny/test-reporter) need a number, not an absence.
_TIME = "0"
# A compared gate's case name carries its numbers: GitLab and most report pages show a passed
# case's name and nothing else (not its system-out).
_COMPARED = (Result.PASS, Result.WARN, Result.FAIL)


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
    if scorecard.comparison is not None:
        properties.append(("compared_with", _view.comparison_text(scorecard)))
    tally = {"failure": 0, "error": 0, "skipped": 0}
    cases = []
    for card in scorecard.metrics:
        kind, case = _testcase(card, _view.change_text(scorecard, card))
        if kind is not None:
            tally[kind] += 1
        cases.append(case)
    # Counted from the testcases just written, so the totals cannot disagree with them. The
    # timestamp is the evaluation time, in UTC without a zone (Ant's schema takes none).
    # The root takes no `skipped` in the schema: the suite carries it.
    totals = (
        f'tests="{len(scorecard.metrics)}" failures="{tally["failure"]}" errors="{tally["error"]}"'
    )
    timestamp = scorecard.evaluated_at.replace(tzinfo=None).isoformat(timespec="seconds")
    return "".join(
        [
            _DECLARATION,
            f'<testsuites name="{SUITE}" {totals} time="{_TIME}">\n',
            (
                f'  <testsuite name="{SUITE}" {totals} skipped="{tally["skipped"]}" '
                f'time="{_TIME}" timestamp="{timestamp}">\n'
            ),
            "    <properties>\n",
            *(
                f'      <property name="{name}" value="{_attribute(value)}" />\n'
                for name, value in properties
            ),
            "    </properties>\n",
            *cases,
            f"    <system-out>{_text(_view.headline(scorecard))}</system-out>\n",
            "  </testsuite>\n",
            "</testsuites>\n",
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


def case_name(card: MetricCard) -> str:
    """A testcase's name: the metric id, and for a compared gate its evidence after it
    (`qa/x — lower bound 0.871 >= 0.85 (value 0.893, n 412, 95% Wilson)`), so a page that shows
    a passed case by its name alone still shows the value and the bound it cleared."""
    if card.gate.result in _COMPARED:
        return f"{card.id} — {card.gate.evidence}"
    return card.id


def _testcase(card: MetricCard, change: str) -> tuple[str | None, str]:
    status = card.status
    # A failed gate fails, a gate that could not be decided errors, a metric that does not gate
    # is skipped; a passed gate (warned or not) has no element, since it does not fail the run.
    kind = status.junit
    opening = (
        f'    <testcase classname="{SUITE}" name="{_attribute(case_name(card))}" time="{_TIME}">\n'
    )
    if kind is not None:
        message = _view.explanation(card)
        # The schemas give `type` to a failure and an error (the status word); a skip has none.
        kind_type = "" if kind == "skipped" else f' type="{status}"'
        child = (
            f'      <{kind} message="{_attribute(message)}"{kind_type}>'
            f"{_text(_details(card, message, change))}</{kind}>\n"
        )
    else:
        # Readers that show a passed case's output (Jenkins) show the whole record here.
        details = _details(card, _view.why(card), change)
        child = f"      <system-out>{_text(details)}</system-out>\n"
    return kind, opening + child + "    </testcase>\n"


def _details(card: MetricCard, message: str, change: str) -> str:
    lines = [
        f"status: {card.status.value}",
        f"value: {_view.value_text(card)}",
        f"interval: {_view.interval_text(card)}",
        f"n: {_view.n_text(card)}",
        f"threshold: {_view.threshold_text(card)}",
        message,
    ]
    if change:
        lines.append(f"compared: {change}")
    return "\n".join(escape(line) for line in lines)
