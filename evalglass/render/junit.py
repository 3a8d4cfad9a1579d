"""The JUnit XML scorecard for CI test reports: one testcase per metric, in the common schema
strict readers hold a report to (a `<testsuites>` root; tests, failures, errors, skipped, time and
timestamp on the suite; classname, name and time on every case). Reads the view model every
format reads (render/view.py); never decides. Which element a metric gets follows from the status the scorecard already holds.
Untrusted text is escaped (safe_text) before it is XML-escaped, so a CI page shows each id and
message on one line, with no control character."""

from __future__ import annotations

import re

from evalglass.core.scorecard import Scorecard
from evalglass.core.success import Source
from evalglass.render.safe_text import escape
from evalglass.render.status_look import LOOKS
from evalglass.render.view import MetricView, printed, scorecard_view

SUITE = "evalglass"

# XML 1.0 allows tab, LF, CR and everything from U+0020 except the surrogates and U+FFFE/U+FFFF;
# ids and messages come from untrusted files, so anything else becomes U+FFFD and the report
# always parses.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
# evalglass reads results an eval already produced, so it has no duration of its own to report;
# readers that parse `time` with no fallback (dorny/test-reporter) need a number, not an absence.
_TIME = "0"


def xml_text(text: object) -> str:
    """Untrusted text with every character XML 1.0 forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(text))


def render(scorecard: Scorecard) -> str:
    """A JUnit XML report: one testcase per metric (a failure, an error, skipped or passed, by
    its status), the verdict and the policy as properties, the headline as system-out."""
    # Written as text, not built with ElementTree: the same bytes on every Python version, and a
    # large report in a fraction of the time. Every value passes through _attribute or _text.
    view = scorecard_view(scorecard)
    properties = [("verdict", view.verdict), ("exit_code", str(view.exit_code)),
                  ("model", view.model or "")]  # fmt: skip
    properties += [("source", source) for source in view.sources]
    policy = view.policy
    if policy.source is not Source.DEFAULT:
        properties.append(("policy", f"{policy.source.value}: {policy.text}"))
    properties += [("policy_detail", line) for line in policy.details]
    if view.comparison:
        properties.append(("compared_with", view.comparison))
    # In id order, as the scorecard holds them.
    cases = [_testcase(metric) for metric in view.metrics]
    # The totals are the scorecard's counts (a failure is a failed gate, an error a blocked or
    # unsound one, a skip one that does not gate), counted once in the core from the same
    # statuses the testcases' elements come from. The timestamp is the evaluation time, in
    # UTC without a zone (Ant's schema takes none). The root takes no `skipped` in the schema:
    # the suite carries it.
    c = view.counts
    totals = f'tests="{len(cases)}" failures="{c.failed}" errors="{c.blocked}"'
    skipped = c.informational + c.not_run
    timestamp = view.evaluated_at.replace(tzinfo=None).isoformat(timespec="seconds")
    return "".join(
        [
            _DECLARATION,
            f'<testsuites name="{SUITE}" {totals} time="{_TIME}">\n',
            (
                f'  <testsuite name="{SUITE}" {totals} skipped="{skipped}" '
                f'time="{_TIME}" timestamp="{timestamp}">\n'
            ),
            "    <properties>\n",
            *(
                f'      <property name="{name}" value="{_attribute(value)}" />\n'
                for name, value in properties
            ),
            "    </properties>\n",
            *cases,
            f"    <system-out>{_text(view.headline)}</system-out>\n",
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


def case_name(metric: MetricView) -> str:
    """A testcase's name: the metric id alone. Jenkins and GitLab follow a test's history by its
    name, so nothing that changes from run to run (a value, a bound, a check's timing or what it
    printed) is in it: those are in the message and `system-out`."""
    return metric.id


def _testcase(metric: MetricView) -> str:
    status = metric.status
    # A failed gate fails, a gate that could not be decided errors, a metric that does not gate
    # is skipped; a passed gate (warned or not) has no element, since it does not fail the run.
    kind = LOOKS[status].junit
    opening = f'    <testcase classname="{SUITE}" name="{_attribute(case_name(metric))}" time="{_TIME}">\n'
    if kind is not None:
        message = metric.explanation
        # The schemas give `type` to a failure and an error (the status word); a skip has none.
        kind_type = "" if kind == "skipped" else f' type="{LOOKS[status].word}"'
        child = (
            f'      <{kind} message="{_attribute(message)}"{kind_type}>'
            f"{_text(_details(metric, message))}</{kind}>\n"
        )
    else:
        # Readers that show a passed case's output (Jenkins) show the whole record here.
        details = _details(metric, metric.why)
        child = f"      <system-out>{_text(details)}</system-out>\n"
    return opening + child + "    </testcase>\n"


def _details(metric: MetricView, message: str) -> str:
    lines = [
        f"status: {metric.word}",
        f"value: {metric.text.value}",
        f"interval: {metric.text.interval}",
        f"n: {metric.text.n}",
        f"threshold: {metric.text.threshold}",
        message,
    ]
    if metric.change:
        lines.append(f"compared: {metric.change}")
    if metric.costly:
        said = ", ".join(s.text for s in metric.costly)
        lines.append(f"samples that cost it most, in {metric.costly[0].source}: {said}")
        if metric.open_with:
            lines.append(f"open them with: {metric.open_with}")
    for number, stream, tail in printed(metric):
        lines.append(f"attempt {number}, the last lines of {stream}:")
        lines += [f"  | {line}" for line in tail]
    return "\n".join(escape(line) for line in lines)
