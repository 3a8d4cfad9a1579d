"""The trend's three formats: what each shows, hostile text kept inert, the chart's geometry, and
a real browser drawing the page. (Exact bytes of the example series: tests/render/test_golden.py.)"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass import contract
from evalglass.render import Format
from evalglass.render import _trend_view as view
from evalglass.render.json import to_contract
from evalglass.render.trend import render
from evalglass.render.trend_chart import DOTS_UP_TO, HEIGHT, LEFT, RIGHT, TOP, WIDTH, trend_chart
from evalglass.shell import api
from evalglass.tools.trend import Trend, build
from tests.render.test_render import HOSTILE, cells, hostile_scorecard, table_rows
from tests.render.test_render_html import (
    browser,
    colours,
    console_lines,
    near,
    png_pixels,
    run_browser,
    structure,
)
from tests.tools.test_trend import card, metric, threshold, week

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = sorted((ROOT / "examples" / "trend" / "scorecards").glob("week-*.json"))
HOSTILE_CODE = "x|`y` <i>@z</i>\n[l](https://e.vil)\x1b[31m"


def example() -> Trend:
    return api.trend(EXAMPLE)


def example_metric_ids(*, measured: bool = False) -> set[str]:
    """Every metric id any week's scorecard names (with a value, if `measured`), read from the
    files, not from evalglass."""
    return {
        m["id"] for path in EXAMPLE for m in json.loads(path.read_text())["metrics"]
        if not measured or m["value"] is not None
    }  # fmt: skip


def hostile() -> Trend:
    """Two runs of the hostile scorecard: ids, model, sources, and now reason codes, hostile."""
    doc = to_contract(hostile_scorecard())
    later = attrs.evolve(doc, evaluated_at=doc.evaluated_at + dt.timedelta(days=7), metrics=tuple(
        attrs.evolve(m, authority=contract.Authority(
            outcome="blocked", reasons=(contract.Reason(HOSTILE_CODE, "<b>m</b>"),), notes=()))
        for m in doc.metrics
    ))  # fmt: skip
    return build([("a|b`c`.json", doc), ("<i>@x</i>.json", later)])


def test_every_format_shows_the_example_series_story() -> None:
    """Each format names the promotion, the block and the threshold raise of the example."""
    trend = example()
    for fmt in (Format.TERMINAL, Format.MARKDOWN, Format.HTML):
        text = render(trend, fmt)
        assert f"6 runs of {len(example_metric_ids())} metrics, 2026-11-02 to 2026-12-07" in text
        assert "run 5: can_gate → blocked" in text
        assert "run 3: informational → can_gate" in text
        assert "judge_drifted" in text
        assert re.search(r"run 4: (&gt;|>)= 0.85 → (&gt;|>)= 0.88", text), fmt


def test_only_the_three_formats_render() -> None:
    """JSON, JUnit and GitHub are scorecard formats, not trend formats."""
    with pytest.raises(ValueError, match="trend renders as terminal, markdown, html"):
        render(example(), Format.JSON)


def test_markdown_hostile_text_keeps_the_table_intact() -> None:
    """Each hostile id is one row with exactly the table's eight columns."""
    md = render(hostile(), Format.MARKDOWN)
    rows = [r for r in table_rows(md) if not r.startswith(("| Metric", "| Run"))]
    metric_rows = [r for r in rows if len(cells(r)) == 8]
    run_rows = [r for r in rows if len(cells(r)) == 4]
    assert len(metric_rows) == len(HOSTILE) and len(run_rows) == 2
    assert len(metric_rows) + len(run_rows) == len(rows)


def test_markdown_hostile_text_cannot_inject_html_links_or_mentions() -> None:
    """No raw tag, link, URL or @mention survives from ids, codes or file names."""
    md = render(hostile(), Format.MARKDOWN)
    outside_code = re.sub(r"(`+)(?:(?!\1).)*?\1", "", md)
    assert "<script" not in outside_code and "<img" not in outside_code
    assert "<i>" not in outside_code and "<b>" not in outside_code
    assert "](https" not in outside_code and "https://" not in outside_code
    assert not re.search(r"(?<![`\w])@\w", outside_code)


def test_terminal_shows_control_characters_instead_of_sending_them() -> None:
    """An escape sequence in a code or id reaches the terminal as text, never as a control."""
    text = render(hostile(), Format.TERMINAL)
    assert "\x1b" not in text and "\\x1b[31m" in text
    lines = text.splitlines()
    assert not any("\r" in line for line in lines)
    assert "two\\nlines\\r\\nhere#" in text


def test_html_hostile_text_is_escaped_and_the_page_well_formed() -> None:
    """Only the template's elements appear; hostile text is text."""
    page = render(hostile(), Format.HTML)
    parsed = structure(page)
    assert parsed.problems == [] and parsed.stack == []
    allowed = {"html", "head", "meta", "title", "style", "body", "main", "header", "h1", "h2",
               "h3", "p", "code", "ul", "ol", "li", "article", "span", "dl", "dt", "dd", "div",
               "table", "thead", "tbody", "tr", "th", "td", "svg", "line", "text", "rect",
               "polygon", "polyline", "circle"}  # fmt: skip
    assert set(parsed.tags) <= allowed, set(parsed.tags) - allowed
    assert "<script" not in page and "<i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_html_page_is_self_contained() -> None:
    """No URL is loaded: no src or href, and a policy that forbids loading anything."""
    page = render(example(), Format.HTML)
    assert not re.search(r"\s(src|href)=", page)
    assert "default-src 'none'" in page


def test_sparkline_spans_lowest_to_highest_with_gaps_marked() -> None:
    """The lowest value is the shortest bar, the highest the tallest; gaps are dots."""
    assert view.spark([0.1, None, 0.5, 0.4]) == "▁·█▆"
    assert view.spark([0.7, 0.7]) == "▄▄"
    assert view.spark([None, None]) == "··"


def test_sparkline_shows_the_latest_runs_and_says_so() -> None:
    """Past SPARK_RUNS runs, the sparkline keeps the latest and its header says how many."""
    runs = view.SPARK_RUNS + 15
    trend = build([(f"{i}.json", card(week(i), metric("a", i / 100))) for i in range(runs)])
    assert view.sparkline(trend.series[0]) == view.spark([i / 100 for i in range(15, runs)])
    assert f"the latest {view.SPARK_RUNS} of {runs} runs" in render(trend, Format.MARKDOWN)


def test_text_formats_list_the_latest_changes_and_count_the_rest() -> None:
    """A metric that flips every run lists the latest changes and counts the earlier ones."""
    runs = view.CHANGES_SHOWN + 4
    flips = [
        metric("a", outcome="blocked", reasons=("judge_drifted",)) if i % 2 else metric("a")
        for i in range(runs)
    ]
    trend = build([(f"{i}.json", card(week(i), m)) for i, m in enumerate(flips)])
    text = render(trend, Format.TERMINAL)
    assert "(3 earlier changes)" in text
    assert text.count("→ blocked") + text.count("→ can_gate") == view.CHANGES_SHOWN


def test_chart_draws_band_line_steps_and_markers_on_one_scale() -> None:
    """Interval band around the line, the threshold a step where it changed, the block marked."""
    trend = example()
    helpfulness = next(s for s in trend.series if s.id == "qa/helpfulness")
    whens = tuple(view.when(r) for r in trend.runs)
    c = trend_chart(helpfulness, whens)
    assert c is not None
    assert [m.after for m in c.markers] == ["can_gate", "blocked", "can_gate"]
    assert len(c.lines) == 1 and len(c.lines[0]) == 6 and len(c.bands) == 1
    for (x, y), dot in zip(c.lines[0], c.dots, strict=True):
        assert (x, y) == (dot.x, dot.y)
    assert [d.status for d in c.dots][4] == "blocked"
    exact = next(s for s in trend.series if s.id == "qa/exact_match")
    steps = trend_chart(exact, whens).steps  # type: ignore[union-attr]
    assert len(steps) == 2 and steps[0].y > steps[1].y  # raised: drawn higher (smaller y)
    assert steps[0].x2 == steps[1].x1


def test_chart_of_a_metric_with_gaps_breaks_its_line() -> None:
    """A run without the metric splits the value line; the first run alone has no band width."""
    given = [
        ("1.json", card(week(1), metric("a", 0.8))),
        ("2.json", card(week(2))),
        ("3.json", card(week(3), metric("a", 0.9))),
        ("4.json", card(week(4), metric("a", 0.85))),
    ]
    c = trend_chart(build(given).series[0], ("a", "b", "c", "d"))
    assert c is not None and [len(line) for line in c.lines] == [1, 2]
    assert len(c.bands) == 2


def test_many_runs_draw_a_line_without_dots() -> None:
    """Past DOTS_UP_TO runs, dots would merge: the line alone is drawn."""
    runs = DOTS_UP_TO + 1
    trend = build([(f"{i}.json", card(week(i), metric("a", 0.5 + i / 1000))) for i in range(runs)])
    c = trend_chart(trend.series[0], tuple(view.when(r) for r in trend.runs))
    assert c is not None and c.dots == () and len(c.lines[0]) == runs
    assert (
        len(c.x_labels) == 7 and c.x_labels[0][1] == "run 1" and c.x_labels[-1][1] == f"run {runs}"
    )


def test_no_chart_when_no_number_can_be_drawn() -> None:
    """A metric never measured, with no threshold, draws no chart and says so."""
    trend = build([("1.json", card(week(1), metric("a", None, interval=None)))])
    assert trend_chart(trend.series[0], ("x",)) is None
    assert "No chart: no number in any run can be drawn." in render(trend, Format.HTML)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=1, max_size=30),
    st.one_of(st.none(), st.floats(-1e6, 1e6)),
)
def test_chart_geometry_stays_inside_the_frame(
    values: list[float | None], bar: float | None
) -> None:
    """Every dot, band corner and step lies inside the plot, whatever the numbers."""
    rule = None if bar is None else threshold(bar)
    given_ = [
        (
            f"{i}.json",
            card(
                week(i), metric("a", v, interval=None if v is None else (v - 1, v + 1), rule=rule)
            ),
        )
        for i, v in enumerate(values)
    ]
    c = trend_chart(build(given_).series[0], tuple("w" for _ in values))
    if c is None:
        assert all(v is None for v in values) and bar is None
        return
    xs = [d.x for d in c.dots] + [x for band in c.bands for x, _ in band]
    ys = [d.y for d in c.dots] + [y for band in c.bands for _, y in band] + [s.y for s in c.steps]
    assert all(LEFT - 3.5 <= x <= WIDTH - RIGHT + 3.5 for x in xs)
    assert all(TOP - 0.1 <= y <= HEIGHT - 40 + 0.1 for y in ys)
    assert all(LEFT <= s.x1 <= s.x2 <= WIDTH - RIGHT for s in c.steps)


def test_browser_renders_the_trend_page_visibly(tmp_path: Path) -> None:
    """Headless chromium draws the example trend: many colours, charts, and the green gates."""
    binary = browser()
    page = tmp_path / "trend.html"
    page.write_text(render(example(), Format.HTML), encoding="utf-8")
    shot = tmp_path / "trend.png"
    done = run_browser(
        binary, tmp_path, f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()
    )
    assert shot.exists(), done.stderr[-2000:]
    width, height, pixels = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 900)
    assert colours(pixels) > 50  # text, badges and charts, not a blank sheet
    green = (0x06, 0x76, 0x47)  # --pass in the page's CSS: badges, dots and markers
    assert near(pixels, green, 3) > 500
    band = (0xD4, 0xD8, 0xDF)  # the interval band (#98a2b3 at 45% on white)
    assert near(pixels, band, 6) > 5000


def test_browser_reports_no_console_errors_on_hostile_text(tmp_path: Path) -> None:
    """Chromium loads the hostile trend with nothing logged, and shows its heading."""
    binary = browser()
    page = tmp_path / "trend.html"
    page.write_text(render(hostile(), Format.HTML), encoding="utf-8")
    done = run_browser(
        binary, tmp_path, "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()
    )
    assert f"evalglass trend: 2 runs of {len(HOSTILE)} metrics" in done.stdout, done.stderr[-2000:]
    assert console_lines(done.stderr) == []


def test_every_untrusted_string_in_the_example_page_comes_from_the_files() -> None:
    """Sanity for the golden page: the metric ids and sources shown are the files' own."""
    page = render(example(), Format.HTML)
    for path in EXAMPLE:
        assert f"<code>{path}</code>" in page
    assert page.count('<article class="metric') == len(example_metric_ids())
    # A metric with no value in any run (a check `score` does not run) has nothing to chart.
    assert page.count('<svg class="trend"') == len(example_metric_ids(measured=True))
    assert len(example_metric_ids(measured=True)) < len(example_metric_ids())
    # Those checks could gate; the page says they were not run, not that they are informational.
    for check in sorted(set(example_metric_ids()) - set(example_metric_ids(measured=True))):
        card = page[page.index(f"<code>{check}</code>") - 400 : page.index(f"<code>{check}</code>")]
        assert '<article class="metric s-not-run">' in card and ">NOT RUN<" in card
    assert dt.date(2026, 12, 7).isoformat() in page


def two_runs() -> Trend:
    """The every-status scorecard a week apart: first with its failing gate, then passing
    everything it enforces (qa/fail dropped), so the strip shows FAIL then another verdict."""
    from tests.render_cases import scorecard

    first = to_contract(scorecard())
    second = attrs.evolve(
        first,
        verdict="blocked",
        evaluated_at=first.evaluated_at + dt.timedelta(days=7),
        metrics=tuple(m for m in first.metrics if m.id != "qa/fail"),
    )
    return build([("one.json", first), ("two.json", second)])


def test_html_opens_with_each_runs_verdict_in_order() -> None:
    """A strip of one verdict per run, oldest first, before any metric."""
    page = render(two_runs(), Format.HTML)
    strip = page[page.index('<ol class="strip"') : page.index("</ol>")]
    assert re.findall(r'<li class="(v-\w+)"[^>]*>(\w+)</li>', strip) == [
        ("v-fail", "FAIL"), ("v-blocked", "BLOCKED"),
    ]  # fmt: skip
    assert page.index("</ol>") < page.index("<article")


def test_html_lists_failing_and_blocked_metrics_first() -> None:
    """Metrics by their latest status, worst first (fail, unsound, blocked, pass, then the rest),
    each group by id: not the id order of the text formats."""
    page = render(example(), Format.HTML)
    words = re.findall(r'<article class="metric s-([\w-]+)">', page)
    rank = ["fail", "unsound", "blocked", "warn", "pass", "not-run", "informational"]
    assert words == sorted(words, key=rank.index)
    mixed = render(two_runs(), Format.HTML)
    ids = re.findall(
        r'<article class="metric s-[\w-]+">\n  <header><span class="badge">\w+</span><h3><code>([^<]+)</code>',
        mixed,
    )
    assert ids[:3] == ["qa/fail", "qa/unsound", "qa/blocked"]
