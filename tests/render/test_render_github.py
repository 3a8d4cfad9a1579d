"""GitHub Actions workflow commands: the exact lines for a scorecard, and escaping that keeps
untrusted text from ending a command or forging another."""

from __future__ import annotations

import re

from evalglass.core.scorecard import Scorecard
from evalglass.evidence.model import Interval, Measurement, Method
from evalglass.records.model import MetricRecord, MetricStatus, Op
from evalglass.render import Format, render
from evalglass.render.github import escape_data, escape_property
from tests.render_cases import GOOD, RUN, assembled, scorecard, single, threshold

# A runner reads `::name key=value,key=value::data`; properties end at `,` or `::`.
COMMAND = re.compile(r"^::(error|warning|notice) title=([^:,]*)::(.*)$")


def unescape_data(text: str) -> str:
    """What the Actions runner does to a command's data."""
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    """What the Actions runner does to a property value."""
    return unescape_data(text.replace("%3A", ":").replace("%2C", ","))


def test_exact_lines_for_every_kind_of_metric() -> None:
    """Headline first, then failed, unsound, blocked, passed gates, then the metrics that do not gate."""
    assert render(scorecard(), Format.GITHUB).splitlines() == [
        "::error title=evalglass::FAIL — 1 of 2 enforced gates failed; 2 blocked; 2 informational",
        "::error title=FAIL qa/fail::lower bound 0.87 is not >= 0.95 (value 0.9, n 500, 95%25 Wilson)",
        "::error title=UNSOUND qa/unsound::interval_unavailable: no interval, and the gate compares a bound",
        "::error title=BLOCKED qa/blocked::dataset_retired: dataset 'qa-old' is retired",
        "::notice title=PASS qa/pass::lower bound 0.87 >= 0.8 (value 0.9, n 500, 95%25 Wilson)",
        "::notice title=INFORMATIONAL qa/informational::no_record: no record for 'qa/informational' in metrics.yaml",
        (
            "::warning title=INFORMATIONAL qa/noted::metric_not_gating: metric status is "
            "calibrating; would block once promoted: policy_not_permitted: no data policy for "
            "dataset 'qa-new'"
        ),
    ]


def test_headline_is_a_notice_when_nothing_stops_the_run() -> None:
    """A passing run and a run with nothing enforced open with a notice, never an error."""
    passing = render(single("m", 0.9), Format.GITHUB).splitlines()
    assert passing[0] == (
        "::notice title=evalglass::PASS — 1 gate enforced, all passed; 0 informational"
    )
    nothing = render(single("m", 0.9, gated=False), Format.GITHUB).splitlines()
    assert nothing[0] == (
        "::notice title=evalglass::NO ACTIVE GATE — nothing was enforced (1 metric informational)"
    )


def test_failed_gate_is_an_error_annotation() -> None:
    """A gate that fails is reported as an error with its evidence."""
    lines = render(single("m", 0.5), Format.GITHUB).splitlines()
    assert lines[0].startswith("::error title=evalglass::FAIL")
    assert lines[1] == (
        "::error title=FAIL m::lower bound 0.48 is not >= 0.8 (value 0.5, n 500, 95%25 Wilson)"
    )


def test_escaping_follows_the_runner_rules() -> None:
    """Data shows CR and LF as visible escapes and writes % as %25 (so a literal %0A survives);
    properties also escape : and ,. Never the runner's own %0A, which it turns into a line."""
    assert escape_data("50% a\r\nb %0A") == "50%25 a\\r\\nb %250A"
    assert escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d\\n"
    assert escape_data("a:b,c") == "a:b,c"


def test_hostile_ids_stay_inside_one_command_each() -> None:
    """Ids with newlines, `::`, commas and percent signs yield one well-formed line per metric;
    the runner decodes each title and message to one line, the id's line breaks shown as
    visible escapes."""
    hostile = {
        "pass": "x\n::error title=forged::gotcha",
        "informational": "a,title=b::c%0Ad\r\n::stop-commands::tok",
        "fail": "%25 and %3A and : and ,",
    }
    text = render(scorecard(hostile), Format.GITHUB)
    # The runner splits its output on CR and LF only, so split exactly there.
    lines = re.split(r"\r\n|\r|\n", text.removesuffix("\n"))
    assert len(lines) == 1 + 6
    titles = []
    for line in lines:
        match = COMMAND.match(line)
        assert match, line
        titles.append(unescape_property(match.group(2)))
        for decoded in (titles[-1], unescape_data(match.group(3))):
            assert "\n" not in decoded and "\r" not in decoded
    assert "PASS x\\n::error title=forged::gotcha" in titles
    assert "INFORMATIONAL a,title=b::c%0Ad\\r\\n::stop-commands::tok" in titles
    assert f"FAIL {hostile['fail']}" in titles
    # The no-record message quotes the id: it is decoded back, escaped, from the data, too.
    informational = next(line for line in lines if line.startswith("::notice title=INFORMATIONAL"))
    assert "a,title=b::c%0Ad\\r\\n::stop-commands::tok" in unescape_data(
        COMMAND.match(informational).group(3)  # type: ignore[union-attr]
    )


def test_a_forged_line_in_an_id_reaches_the_title_as_a_visible_escape() -> None:
    """A metric id "z\\n::error::forged PASS": the title GitHub decodes is one line showing
    `\\n`, never a line break (the runner turns %0A into one)."""
    text = render(scorecard({"fail": "z\n::error::forged PASS"}), Format.GITHUB)
    assert "%0A" not in text and "%0D" not in text
    titles = [title for _, title in levels_of(text)]
    assert "FAIL z\\n::error::forged PASS" in titles


def test_output_is_deterministic() -> None:
    """The same scorecard gives the same commands."""
    assert render(scorecard(), Format.GITHUB) == render(scorecard(), Format.GITHUB)


def test_a_failing_run_counts_its_warned_gates_among_those_that_passed() -> None:
    """FAIL with a gate that passed its bar but not its warn bound: the warning is said of the
    gates that passed, never tacked onto the informational count."""
    import attrs

    from evalglass.evidence.model import Interval, Measurement, Method
    from evalglass.records.model import MetricRecord, MetricStatus, Op
    from tests.render_cases import GOOD, RUN, assembled, threshold

    def measured(metric_id: str, value: float) -> Measurement:
        interval = Interval(value - 0.02, value + 0.02, 0.95, Method.WILSON)
        return Measurement(id=metric_id, run=RUN, value=value, n=500, interval=interval)

    gating = MetricRecord(status=MetricStatus.GATING, dataset=GOOD)
    card = assembled(
        {"a/fails": gating, "b/warns": gating},
        {"a/fails": threshold(Op.GE, 0.9), "b/warns": attrs.evolve(
            threshold(Op.GE, 0.5), warn_value=0.95)},
        {"a/fails": measured("a/fails", 0.6), "b/warns": measured("b/warns", 0.8)},
    )  # fmt: skip
    headline = render(card, Format.GITHUB).splitlines()[0]
    assert headline == (
        "::error title=evalglass::FAIL — 1 of 2 enforced gates failed, 1 passed with a warning; "
        "0 blocked; 0 informational"
    )


def scorecard_of(failing: list[str], *, value: float, passing: int = 0) -> Scorecard:
    """Gating metrics against >= 0.8: `failing` at `value`, and `passing` more (p00, ...) at 0.9."""
    values = {metric_id: value for metric_id in failing}
    values.update({f"p{i:02}": 0.9 for i in range(passing)})
    measurements = {
        metric_id: Measurement(
            id=metric_id,
            run=RUN,
            value=v,
            n=500,
            interval=Interval(v - 0.02, v + 0.02, 0.95, Method.WILSON),
        )
        for metric_id, v in values.items()
    }
    metric = MetricRecord(status=MetricStatus.GATING, dataset=GOOD)
    return assembled(
        dict.fromkeys(values, metric), dict.fromkeys(values, threshold(Op.GE, 0.8)), measurements
    )


def levels_of(text: str) -> list[tuple[str, str]]:
    """Each command line's level and title."""
    found = []
    for line in text.splitlines():
        match = COMMAND.match(line)
        assert match is not None, line
        found.append((match.group(1), unescape_property(match.group(2))))
    return found


def test_at_most_ten_annotations_per_level_and_a_notice_for_the_rest() -> None:
    """GitHub drops annotations past 10 of a level: 25 failures give the headline and 9 failures
    as errors, then one notice naming the 16 left out and the step summary."""
    from evalglass.render.github import PER_LEVEL

    failing = scorecard_of([*(f"f{i:02}" for i in range(25))], value=0.5)
    found = levels_of(render(failing, Format.GITHUB))
    assert PER_LEVEL == 10
    assert [lvl for lvl, _ in found].count("error") == 10
    assert found[0] == ("error", "evalglass")
    assert [title for _, title in found[1:10]] == [f"FAIL f{i:02}" for i in range(9)]
    assert found[-1][0] == "notice" and len(found) == 11
    last = unescape_data(render(failing, Format.GITHUB).splitlines()[-1].split("::", 2)[2])
    assert last == (
        "16 more metrics not annotated (16 errors): GitHub shows 10 annotations of each level "
        "per step; the step summary's scorecard lists every metric"
    )


def test_worst_first_keeps_failures_over_passes_and_notices_in_their_cap() -> None:
    """12 failures and 12 passes: errors are the worst 9 failures, notices the first 9 passes
    (the tenth notice says how many were left out), and nothing past 10 of any level."""
    mixed = scorecard_of([*(f"f{i:02}" for i in range(12))], value=0.5, passing=12)
    found = levels_of(render(mixed, Format.GITHUB))
    for name in ("error", "warning", "notice"):
        assert [lvl for lvl, _ in found].count(name) <= 10
    assert [t for lvl, t in found if lvl == "error"][1:] == [f"FAIL f{i:02}" for i in range(9)]
    notices = [t for lvl, t in found if lvl == "notice"]
    assert notices == [*(f"PASS p{i:02}" for i in range(9)), "evalglass"]


def test_the_error_annotations_shown_are_the_worst_misses() -> None:
    """30 failing gates at 30 different values: after the headline, the nine error annotations
    GitHub shows are the nine whose bound misses the bar by most, worst first; the rest are
    left to the notice."""
    values = {f"f{i:02}": 0.5 + 0.01 * ((i * 7) % 30) for i in range(30)}
    measurements = {
        metric_id: Measurement(
            id=metric_id, run=RUN, value=v, n=500,
            interval=Interval(v - 0.02, v + 0.02, 0.95, Method.WILSON),
        )
        for metric_id, v in values.items()
    }  # fmt: skip
    metric = MetricRecord(status=MetricStatus.GATING, dataset=GOOD)
    card = assembled(
        dict.fromkeys(values, metric), dict.fromkeys(values, threshold(Op.GE, 0.8)), measurements
    )
    errors = [title for level, title in levels_of(render(card, Format.GITHUB)) if level == "error"]
    worst = sorted(values, key=values.__getitem__)[:9]
    assert errors[1:] == [f"FAIL {metric_id}" for metric_id in worst]
    assert worst != sorted(worst)  # the id order would have shown others


def test_no_left_out_notice_when_everything_fits() -> None:
    """Nine failures and the headline make ten errors: all are shown and no notice is added."""
    found = levels_of(render(scorecard_of([f"f{i}" for i in range(9)], value=0.5), Format.GITHUB))
    assert [lvl for lvl, _ in found] == ["error"] * 10
