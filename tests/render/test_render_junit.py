"""The JUnit XML scorecard: each kind of metric maps to its JUnit element, counts agree, and any
text still parses, read back with a real JUnit parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import xmlschema
from hypothesis import given
from hypothesis import strategies as st
from junitparser import Error, Failure, JUnitXml, Skipped, TestSuite

from evalglass.metric_ids import CHECK_PREFIX
from evalglass.render import Format, render
from evalglass.render.junit import case_name, xml_text
from evalglass.render.safe_text import escape
from evalglass.render.view import scorecard_view
from tests.render_cases import KINDS, checked, failed_attempt, scorecard, single

# The Jenkins JUnit schema (tests/junit_schema/README.md says where it came from).
SCHEMA = xmlschema.XMLSchema(Path(__file__).parents[1] / "junit_schema" / "junit-10.xsd")

HOSTILE_IDS = {
    "pass": "bell\x07 and nul\x00 and esc\x1b[31m",
    "fail": "cdata ]]> end",
    "blocked": "<testcase name='x'/> & &amp;",
    "unsound": "quote \" and 'single' and tab\there",
    "informational": "surrogate \ud800 and \ufffe and \x0b\x0c",
    "noted": "two\nlines\r\nand \x85 next-line",
}


def parse(text: str, tmp_path: Path) -> TestSuite:
    """Write the report as CI would (UTF-8 bytes) and read it back with junitparser."""
    path = tmp_path / "evalglass.xml"
    path.write_bytes(text.encode("utf-8"))
    suites = list(JUnitXml.fromfile(str(path)))
    assert len(suites) == 1
    suite: TestSuite = suites[0]
    return suite


def metric_id(name: str) -> str:
    """The metric id a case is named by: its whole name."""
    return name


def kinds(suite: TestSuite) -> dict[str, str]:
    """Each testcase's metric id and its result element ("pass" when it has none)."""
    out = {}
    for case in suite:
        results = list(case.result)
        assert len(results) <= 1, case.name
        out[metric_id(case.name)] = type(results[0]).__name__ if results else "pass"
    return out


def test_each_metric_kind_maps_to_its_junit_element(tmp_path: Path) -> None:
    """pass: plain testcase; fail: failure; blocked, unsound: error; informational: skipped."""
    suite = parse(render(scorecard(), Format.JUNIT), tmp_path)
    assert suite.name == "evalglass"
    assert {case.classname for case in suite} == {"evalglass"}
    assert kinds(suite) == {
        "qa/blocked": "Error",
        "qa/fail": "Failure",
        "qa/informational": "Skipped",
        "qa/noted": "Skipped",
        "qa/pass": "pass",
        "qa/unsound": "Error",
    }


def test_suite_counts_agree_with_testcases_and_scorecard(tmp_path: Path) -> None:
    """tests/failures/errors/skipped equal the testcases' elements and the scorecard's counts."""
    card = scorecard()
    suite = parse(render(card, Format.JUNIT), tmp_path)
    found = list(kinds(suite).values())
    counts = card.counts
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (
        len(found),
        found.count("Failure"),
        found.count("Error"),
        found.count("Skipped"),
    )
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (
        len(card.metrics),
        counts.failed,
        counts.blocked,
        counts.informational,
    )


def test_messages_carry_evidence_reasons_and_notes(tmp_path: Path) -> None:
    """A failure carries the evidence, an error the reason codes, a skip its reasons and notes."""
    suite = parse(render(scorecard(), Format.JUNIT), tmp_path)
    result = {metric_id(case.name): next(iter(case.result), None) for case in suite}
    assert isinstance(result["qa/fail"], Failure)
    assert result["qa/fail"].message == (
        "lower bound 0.87 is not >= 0.95 (value 0.9, n 500, 95% Wilson)"
    )
    assert isinstance(result["qa/blocked"], Error)
    assert result["qa/blocked"].message == "dataset_retired: dataset 'qa-old' is retired"
    assert isinstance(result["qa/unsound"], Error)
    assert result["qa/unsound"].message.startswith("interval_unavailable: ")
    assert isinstance(result["qa/noted"], Skipped)
    assert result["qa/noted"].message == (
        "metric_not_gating: metric status is calibrating; would block once promoted: "
        "policy_not_permitted: no data policy for dataset 'qa-new'"
    )
    assert "threshold: >= 0.95" in result["qa/fail"].text


def test_passed_gate_shows_its_evidence_in_system_out(tmp_path: Path) -> None:
    """A passed testcase has no result element but still shows the numbers that passed it."""
    suite = parse(render(scorecard(), Format.JUNIT), tmp_path)
    passed = next(case for case in suite if metric_id(case.name) == "qa/pass")
    assert passed.is_passed
    assert "lower bound 0.87 >= 0.8" in passed.system_out


def test_suite_records_the_verdict_and_headline() -> None:
    """The verdict and exit code are suite properties; the headline is the suite's system-out."""
    root = ET.fromstring(render(scorecard(), Format.JUNIT).encode("utf-8"))
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["verdict"] == "fail" and props["exit_code"] == "1"
    assert root.findtext("testsuite/system-out", "").startswith(
        "FAIL — 1 of 2 enforced gates failed"
    )


def test_output_is_deterministic_and_declares_utf8() -> None:
    """The same scorecard gives the same text, opening with an XML declaration naming UTF-8."""
    first, second = render(scorecard(), Format.JUNIT), render(scorecard(), Format.JUNIT)
    assert first == second
    assert first.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="evalglass"')


def test_hostile_ids_and_control_characters_still_parse(tmp_path: Path) -> None:
    """Control characters, surrogates, `]]>`, `<` and `&` in ids and messages leave valid XML."""
    text = render(scorecard(HOSTILE_IDS), Format.JUNIT)
    suite = parse(text, tmp_path)
    assert len(list(suite)) == len(HOSTILE_IDS)
    names = {metric_id(case.name) for case in suite}
    assert "cdata ]]> end" in names
    assert "<testcase name='x'/> & &amp;" in names
    # Control characters are shown as escapes, so a CI page shows each name on one line; what
    # XML forbids and safe_text keeps (U+FFFE) becomes U+FFFD.
    assert "bell\\x07 and nul\\x00 and esc\\x1b[31m" in names
    assert "surrogate \\ud800 and \ufffd and \\x0b\\x0c" in names
    assert "quote \" and 'single' and tab\\there" in names
    assert "two\\nlines\\r\\nand \\x85 next-line" in names


def test_hostile_text_does_not_add_elements(tmp_path: Path) -> None:
    """An id that looks like markup stays text: one testcase per metric and nothing more."""
    root = ET.fromstring(render(scorecard(HOSTILE_IDS), Format.JUNIT).encode("utf-8"))
    assert [child.tag for child in root] == ["testsuite"]
    suite = root[0]
    assert [child.tag for child in suite] == ["properties", *["testcase"] * 6, "system-out"]


def test_xml_text_replaces_only_characters_xml_forbids() -> None:
    """Forbidden characters become U+FFFD; tab, newline, CR and ordinary Unicode are kept."""
    assert xml_text("a\x00b\x1fc\ud834d\uffffe") == "a\ufffdb\ufffdc\ufffdd\ufffde"
    assert xml_text("tab\tnl\ncr\r é 𝄞 \u2028") == "tab\tnl\ncr\r é 𝄞 \u2028"


def test_single_passing_gate_is_one_passing_testcase(tmp_path: Path) -> None:
    """A run with one passing gate is a suite of one passed test, with nothing failed or skipped."""
    suite = parse(render(single("only", 0.9), Format.JUNIT), tmp_path)
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (1, 0, 0, 0)
    assert kinds(suite) == {"only": "pass"}


# Any metric id an output may report: `check/` names are the host checks' own, refused in outputs.
@given(
    metric_id=st.text(min_size=1).filter(lambda i: not i.startswith(CHECK_PREFIX)), model=st.text()
)
def test_any_id_and_model_read_back_as_written(metric_id: str, model: str) -> None:
    """The report is written as text: whatever an output names its metric and model, a parser
    reads back exactly that, on one line (control characters shown as escapes, XML's other
    forbidden characters replaced), in one testcase."""
    card = attrs.evolve(single(metric_id, 0.9), model=model)
    text = render(card, Format.JUNIT)
    root = ET.fromstring(text.encode("utf-8"))
    cases = root.findall("testsuite/testcase")
    (metric,) = (*scorecard_view(card).gates, *scorecard_view(card).others)
    assert [case.get("name") for case in cases] == [xml_text(escape(case_name(metric)))]
    assert [case.get("name").startswith(xml_text(escape(metric_id))) for case in cases] == [True]
    found = root.find("testsuite/properties/property[@name='model']")
    assert found.get("value") == xml_text(escape(model))
    assert cases[0].find("failure") is not None or cases[0].find("system-out") is not None
    SCHEMA.validate(text)


def test_every_status_validates_against_the_jenkins_junit_schema() -> None:
    """Every kind of case, hostile ids included, is valid under the Jenkins JUnit XSD."""
    for card in (scorecard(), scorecard(HOSTILE_IDS), single("only", 0.9)):
        SCHEMA.validate(render(card, Format.JUNIT))


def test_suite_and_cases_carry_what_strict_readers_parse(tmp_path: Path) -> None:
    """A `<testsuites>` root; the suite's counts, time and timestamp (the evaluation time, UTC,
    no zone); classname, name and time on every case, read back by junitparser."""
    card = scorecard()
    text = render(card, Format.JUNIT)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    assert {k: root.get(k) for k in ("tests", "failures", "errors", "time")} == {
        "tests": "6", "failures": "1", "errors": "2", "time": "0",
    }  # fmt: skip
    assert root[0].get("skipped") == "2"
    suite = parse(text, tmp_path)
    assert suite.time == 0.0
    assert suite.timestamp == card.evaluated_at.strftime("%Y-%m-%dT%H:%M:%S")
    assert [(case.classname, case.time) for case in suite] == [("evalglass", 0.0)] * 6


def test_skipped_has_no_type_and_failures_and_errors_do() -> None:
    """`<skipped>` carries a message only; a failure and an error name the status as `type`."""
    root = ET.fromstring(render(scorecard(), Format.JUNIT).encode("utf-8"))
    assert {e.get("type") for e in root.iter("skipped")} == {None}
    assert [e.get("type") for e in root.iter("failure")] == ["fail"]
    assert [e.get("type") for e in root.iter("error")] == ["blocked", "unsound"]


def test_a_case_is_named_by_its_metric_id_alone(tmp_path: Path) -> None:
    """Every testcase's name is its metric id, whatever the gate found: CI follows a test's
    history by its name."""
    suite = parse(render(scorecard(), Format.JUNIT), tmp_path)
    assert sorted(case.name for case in suite) == [f"qa/{kind}" for kind in sorted(KINDS)]


def test_names_stay_the_same_when_numbers_timing_and_stderr_change() -> None:
    """Two runs with other values, a check's other timing and other stderr give the same test
    names; what changed is in the message and system-out."""
    runs = [
        (
            single("qa/x", 0.9),
            checked(failed_attempt(26.59, "E assert 1 == 2"), failed_attempt(3.1)),
        ),
        (single("qa/x", 0.7), checked(failed_attempt(1.25, "warning: old"), failed_attempt(2.0))),
    ]
    named = []
    for gate, check in runs:
        roots = [ET.fromstring(render(card, Format.JUNIT).encode()) for card in (gate, check)]
        named.append(sorted(case.get("name") for r in roots for case in r.iter("testcase")))
    assert named[0] == named[1] == ["check/unit", "qa/x"]
    root = ET.fromstring(render(runs[0][1], Format.JUNIT).encode())
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and "3.10 s" in failure.get("message", "")
    root = ET.fromstring(render(runs[0][0], Format.JUNIT).encode())
    passed = root.find("testsuite/testcase/system-out")
    assert passed is not None and "lower bound 0.88 >= 0.8" in (passed.text or "")
