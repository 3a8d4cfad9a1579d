"""The HTML scorecard: one self-contained, well-formed page that escapes untrusted text, with
chart geometry that holds every number it draws, and a real browser that renders it cleanly."""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.render import Format, render, safe_text
from evalglass.render.chart import WIDTH, axis, chart
from tests.render_cases import scorecard, single

HOSTILE_IDS = {
    "pass": "<script>alert(1)</script>",
    "fail": '"><img src=x onerror=alert(1)>',
    "blocked": "</style><link rel=stylesheet href=https://evil.example/x.css>",
    "unsound": "<a href='javascript:alert(1)'>click</a> & &amp;",
    "informational": "<svg onload=alert(1)>",
    "noted": "{{ 7 * 7 }} {% raw %} \x00 nul",
}

VOID = {"meta", "br", "hr", "img", "input", "link", "wbr"}
# Elements the template writes; anything else in the output came from somewhere it should not.
ALLOWED = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "main",
    "header",
    "h1",
    "h2",
    "h3",
    "p",
    "code",
    "ul",
    "li",
    "article",
    "span",
    "div",
    "dl",
    "dt",
    "dd",
    "svg",
    "line",
    "text",
    "rect",
    "polygon",
    "circle",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "footer",
}


class Structure(HTMLParser):
    """Records every tag and attribute, and checks elements nest and close properly."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.update(name for name, _ in attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.update(name for name, _ in attrs)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def structure(page: str) -> Structure:
    parser = Structure()
    parser.feed(page)
    parser.close()
    return parser


def test_page_is_well_formed() -> None:
    """Every element opened is closed in order, and only the template's elements appear."""
    page = render(scorecard(), Format.HTML)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    parsed = structure(page)
    assert parsed.problems == [] and parsed.stack == []
    assert set(parsed.tags) <= ALLOWED
    assert parsed.tags.count("article") == 6
    assert parsed.tags.count("svg") == 6


def test_page_is_self_contained() -> None:
    """No URL, script, stylesheet link, image or external font: the file works offline."""
    page = render(scorecard(), Format.HTML)
    for banned in ("http://", "https://", "<script", "<link", "<img", "@import", "url(", "src="):
        assert banned not in page, banned


def test_hostile_text_is_escaped() -> None:
    """Ids that look like markup render as text: no extra elements, no event handlers or links."""
    page = render(scorecard(HOSTILE_IDS), Format.HTML)
    parsed = structure(page)
    assert parsed.problems == [] and parsed.stack == []
    assert set(parsed.tags) <= ALLOWED
    assert not {a for a in parsed.attributes if a.startswith("on")}
    assert not parsed.attributes & {"href", "src", "rel"}
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    text = "".join(parsed.text)
    for hostile in HOSTILE_IDS.values():
        assert safe_text.escape(hostile) in text
    # Template syntax inside data is data: it is not evaluated.
    assert "{{ 7 * 7 }}" in text and "49" not in text


def test_headline_leads_and_informational_never_looks_like_a_pass() -> None:
    """The banner holds the headline; a run with nothing enforced is styled apart from a pass."""
    page = render(scorecard(), Format.HTML)
    banner = '<header class="verdict verdict-{}">\n  <h1>{}'
    assert banner.format("fail", "FAIL — 1 of 2 enforced gates failed") in page
    nothing = render(single("m", 0.99, gated=False), Format.HTML)
    assert banner.format("informational", "NO ACTIVE GATE — nothing was enforced") in nothing
    assert "verdict-pass" not in nothing.split("</style>")[1]
    assert "No metric could gate: nothing in this run was enforced." in nothing


def test_decided_gates_come_first_failed_and_blocked_leading() -> None:
    """Gates that decided are listed failed, unsound, blocked, passed; then the rest with notes."""
    whole = render(scorecard(), Format.HTML)
    page = whole[whole.index("<h2>Gates that decided") - 1 :]  # the cards, after the summary
    order = [
        page.index(f"<code>qa/{kind}</code>")
        for kind in ("fail", "unsound", "blocked", "pass", "informational", "noted")
    ]
    assert order == sorted(order)
    assert page.index("Gates that decided (4)") < order[0]
    assert order[3] < page.index("Not affecting the verdict (2)") < order[4]
    noted = page[order[5] :]
    assert "Would block once promoted:" in noted
    assert "<code>policy_not_permitted</code> no data policy for dataset &#39;qa-new&#39;" in noted


def test_gate_shows_value_interval_n_threshold_and_evidence() -> None:
    """A compared gate shows its numbers and the evidence string that decided it."""
    whole = render(scorecard(), Format.HTML)
    page = whole[whole.index("<h2>Gates that decided") :]  # the cards, after the summary
    card = page[page.index("<code>qa/fail</code>") : page.index("<code>qa/unsound</code>")]
    assert "<dt>value</dt><dd>0.9</dd>" in card
    assert "<dt>interval</dt><dd>[0.87, 0.93] (95% Wilson)</dd>" in card
    assert "<dt>n</dt><dd>500</dd>" in card
    assert "<dt>threshold</dt><dd>&gt;= 0.95</dd>" in card
    assert "lower bound 0.87 is not &gt;= 0.95 (value 0.9, n 500, 95% Wilson)" in card
    assert ">&gt;= 0.95</text>" in card  # the chart labels its threshold with the direction


def test_summary_table_comes_first_one_row_per_metric_worst_first() -> None:
    """Before the cards, one row per metric: status, metric, value, the bound a rule compares,
    threshold and change; failed and blocked rows lead."""
    page = render(scorecard(), Format.HTML)
    start, end = page.index('<table class="summary">'), page.index("</table>")
    assert end < page.index("<h2>Gates that decided")
    table = page[start:end]
    assert (
        "<thead><tr><th>Status</th><th>Metric</th><th>Value</th><th>Bound</th>"
        "<th>Threshold</th><th>Change</th></tr></thead>"
    ) in table
    assert [line.split("<code>")[1].split("</code>")[0] for line in table.splitlines()
            if line.startswith("      <tr")] == [
        "qa/fail", "qa/unsound", "qa/blocked", "qa/pass", "qa/informational", "qa/noted",
    ]  # fmt: skip
    assert (
        '<td><code>qa/fail</code></td><td data-label="Value">0.9</td><td data-label="Bound">lower 0.87'
        '</td><td data-label="Threshold">&gt;= 0.95</td><td data-label="Change">—</td>'
    ) in table


def test_failed_and_blocked_cards_give_the_command_that_explains_them() -> None:
    """A failed, blocked or unsound gate's card shows `evalglass explain ID` (quoted for a
    shell); a passed or informational one does not."""
    page = render(scorecard(), Format.HTML)
    for kind in ("fail", "unsound", "blocked"):
        assert f"<code>evalglass explain qa/{kind}</code>" in page
    for kind in ("pass", "informational", "noted"):
        assert f"evalglass explain qa/{kind}<" not in page
    odd = render(single("a b'c", 0.5), Format.HTML)
    assert "<code>evalglass explain &#39;a b&#39;&#34;&#39;&#34;&#39;c&#39;</code>" in odd


def test_footer_names_the_evaluation_time_and_version() -> None:
    """The page ends with when it was evaluated and the evalglass that wrote it."""
    from evalglass._version import __version__

    page = render(scorecard(), Format.HTML)
    footer = page[page.index("<footer") : page.index("</footer>")]
    assert f"Evaluated at 2026-11-30 12:00:00 UTC · evalglass {__version__}" in footer
    assert page.index("<h2>Not affecting the verdict") < page.index("<footer")


def test_output_is_deterministic() -> None:
    """The same scorecard gives the same page."""
    assert render(scorecard(), Format.HTML) == render(scorecard(), Format.HTML)


# --- chart geometry -------------------------------------------------------------------------


def test_chart_places_interval_value_and_threshold_on_one_scale() -> None:
    """Bar, dot and rule sit where a linear axis through the ticks puts them."""
    c = chart(0.9, (0.87, 0.93), ">=", 0.95)
    assert c is not None
    assert [t.label for t in c.ticks] == ["0.85", "0.90", "0.95", "1.00"]
    assert [t.x for t in c.ticks] == [24.0, 128.0, 232.0, 336.0]
    assert c.dot == 128.0
    assert c.rule == 232.0 and c.rule_label == ">= 0.95"
    assert c.bar == (65.6, 124.8)  # 0.87 .. 0.93: left edge and width


def test_chart_arrow_points_to_the_passing_side() -> None:
    """The arrow leaves the threshold rightward for >= and >, leftward for <= and <."""
    for op, sign in ((">=", 1), (">", 1), ("<=", -1), ("<", -1)):
        c = chart(0.5, (0.4, 0.6), op, 0.5)
        assert c is not None and c.arrow is not None and c.rule is not None
        assert c.arrow[0] == c.rule
        assert math.copysign(1, c.arrow[1] - c.arrow[0]) == sign
        assert c.arrow_head[0] == (c.arrow[1], 18)


def test_chart_draws_only_what_is_finite() -> None:
    """A missing or infinite number is left out; with nothing finite, or one huge, no chart."""
    assert chart(None, None, None, None) is None
    assert chart(math.nan, (math.nan, 1.0), ">=", math.inf) is None
    only_rule = chart(None, None, "<=", 0.2)
    assert only_rule is not None and only_rule.dot is None and only_rule.bar is None
    assert chart(0.5, (0.4, 0.6), ">=", 1e308) is None  # too large to draw beside the rest
    no_rule = chart(0.7, (0.6, 0.8), None, None)
    assert no_rule is not None and no_rule.rule is None and no_rule.arrow is None
    assert no_rule.rule_label == ""


def test_chart_marks_a_proposed_threshold() -> None:
    """A proposed threshold is flagged so it is drawn dashed, apart from an approved one."""
    proposed = chart(0.7, None, ">=", 0.8, proposed=True)
    assert proposed is not None and proposed.proposed


def test_chart_keeps_the_threshold_label_inside() -> None:
    """A rule near an edge anchors its label toward the middle so the text is not clipped."""
    left = chart(0.9, (0.85, 0.95), ">=", 0.5)
    right = chart(0.1, (0.05, 0.15), "<=", 0.5)
    assert left is not None and left.label_anchor == "start"
    assert right is not None and right.label_anchor == "end"


def test_chart_sorts_reversed_interval_ends() -> None:
    """Interval ends given high first still make a bar of positive width."""
    c = chart(0.5, (0.6, 0.4), None, None)
    assert c is not None and c.bar is not None and c.bar[1] > 0


def test_axis_for_proportions_stays_within_zero_and_one() -> None:
    """Points within [0, 1] never stretch the axis below 0 or above 1."""
    assert axis([0.97, 1.0]).high == 1.0
    assert axis([0.0, 0.02]).low == 0.0
    assert axis([1.0]).ticks[-1] == (1.0, "1.00")


def test_axis_for_one_point_is_a_range_around_it() -> None:
    """A single point, or points a float's noise apart, still gets a range with room either side."""
    single_point = axis([5.0])
    assert single_point.low < 5.0 < single_point.high
    noise = axis([3.0, 3.0 + 1e-15])
    assert noise.low < 3.0 < noise.high


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=1, max_size=4))
def test_axis_holds_every_point_on_round_ticks(points: list[float]) -> None:
    """The axis contains every point, with two to six evenly spaced ticks and distinct labels."""
    a = axis(points)
    assert a.low <= min(points) and max(points) <= a.high
    values = [v for v, _ in a.ticks]
    assert 3 <= len(values) <= 7
    gaps = [b - c for b, c in zip(values[1:], values[:-1], strict=True)]
    assert all(math.isclose(g, gaps[0], rel_tol=1e-6) for g in gaps)
    labels = [label for _, label in a.ticks]
    assert len(set(labels)) == len(labels)


@given(finite, finite, finite, st.sampled_from([">=", ">", "<=", "<"]), finite)
def test_chart_geometry_stays_inside_and_keeps_order(
    value: float, low: float, high: float, op: str, limit: float
) -> None:
    """Every drawn x lies within the chart, and the dot, bar and rule keep their numbers' order."""
    low, high = sorted((low, high))
    c = chart(value, (low, high), op, limit)
    assert c is not None and c.dot is not None and c.bar is not None and c.rule is not None
    left, right = c.ticks[0].x, c.ticks[-1].x
    for x in (c.dot, c.bar[0], c.bar[0] + c.bar[1], c.rule):
        assert left - 0.2 <= x <= right + 0.2
    assert c.bar[1] >= 0
    assert 0 <= left and right <= WIDTH
    if value < limit:
        assert c.dot <= c.rule
    if value > limit:
        assert c.dot >= c.rule


# --- a real browser -------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def browser() -> str:
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None:
        pytest.skip(f"no chromium binary on PATH (looked for {', '.join(BROWSERS)})")
    return found


def run_browser(binary: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    return subprocess.run(
        [binary, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def console_lines(stderr: str) -> list[str]:
    """What the page logged to the console (CSP violations, script or SVG errors)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def png_pixels(data: bytes) -> tuple[int, int, np.ndarray]:
    """Decode an 8-bit, non-interlaced RGB or RGBA PNG: width, height, and each pixel's RGB, one
    row of an array a pixel. numpy undoes the None, Sub and Up filters a row at a time; Average
    and Paeth, which build on the byte just decoded, are undone byte by byte."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, stride + 1)
    rows = np.empty((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:]
        if kind == 0:
            rows[y] = line
        elif kind == 1:  # each byte plus the decoded one a pixel to its left, modulo 256
            rows[y] = np.cumsum(line.reshape(width, bpp), axis=0, dtype=np.uint8).ravel()
        elif kind == 2:  # plus the byte above, modulo 256
            rows[y] = line + previous
        else:
            rows[y] = np.frombuffer(
                _unfilter(kind, bytearray(line), bytes(previous), bpp), np.uint8
            )
        previous = rows[y]
    return width, height, rows.reshape(height * width, bpp)[:, :3]


def _unfilter(kind: int, line: bytearray, previous: bytes, bpp: int) -> bytearray:
    """The Average (3) and Paeth (4) filters undone, in place."""
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = previous[i]
        if kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 0xFF
        elif kind == 4:
            c = previous[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return line


def colours(pixels: np.ndarray) -> int:
    """How many different colours the pixels show."""
    packed = pixels.astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.uint32)
    return len(np.unique(packed))


def near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int) -> int:
    """How many pixels are within `tolerance` of `colour` in each channel."""
    off = np.abs(pixels.astype(np.int16) - np.array(colour, dtype=np.int16))
    return int((off <= tolerance).all(axis=1).sum())


def test_browser_renders_the_page_visibly(tmp_path: Path) -> None:
    """Headless chromium draws the page: many colours, and the red FAIL banner among them."""
    binary = browser()
    page = tmp_path / "scorecard.html"
    page.write_text(render(scorecard(), Format.HTML), encoding="utf-8")
    shot = tmp_path / "scorecard.png"
    done = run_browser(
        binary, tmp_path, f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()
    )
    assert shot.exists(), done.stderr[-2000:]
    width, height, pixels = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 900)
    assert colours(pixels) > 50  # text, badges and charts, not a blank sheet
    red = (0xB4, 0x23, 0x18)  # --fail in the page's CSS
    assert near(pixels, red, 3) > 20_000  # the FAIL banner alone covers about 1100 x 100 pixels


def test_browser_reports_no_console_errors(tmp_path: Path) -> None:
    """Chromium loads the page with nothing logged to the console, and sees the headline."""
    binary = browser()
    page = tmp_path / "scorecard.html"
    page.write_text(render(scorecard(HOSTILE_IDS), Format.HTML), encoding="utf-8")
    done = run_browser(
        binary, tmp_path, "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()
    )
    assert "FAIL — 1 of 2 enforced gates failed" in done.stdout, done.stderr[-2000:]
    assert console_lines(done.stderr) == []


def test_console_check_sees_a_blocked_load(tmp_path: Path) -> None:
    """The console check is not vacuous: a page that tries to load a URL is reported."""
    binary = browser()
    page = tmp_path / "bad.html"
    page.write_text(
        render(scorecard(), Format.HTML).replace(
            "<main>", '<main><img alt="" src="https://example.invalid/x.png">'
        ),
        encoding="utf-8",
    )
    done = run_browser(
        binary, tmp_path, "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()
    )
    assert any("Content Security Policy" in line for line in console_lines(done.stderr))


@given(st.text())
def test_card_escaping_is_jinja2s(text: str) -> None:
    """The cards escape text exactly as the page template does: control and bidirectional
    characters shown as escapes, then autoescape's HTML escaping."""
    import markupsafe

    from evalglass.render._html_card import escape

    assert escape(text) == str(markupsafe.escape(safe_text.escape(text)))
