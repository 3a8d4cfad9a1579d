"""Measure a page's layout in headless Chromium at a given width, through the DOM.

The page goes into an iframe of that width unchanged (its own policy still forbids any script of
its own); a script in the probe page around it measures the page and writes what it found as
JSON into the probe's DOM, which Chromium dumps.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from tests.render.test_render_html import browser, run_browser

# What every layout check needs, as functions the measuring script can call with the iframe's
# document `d` and window `w`.
_HELPERS = """
function overflowing(d, w) {
  // Every rendered element that reaches past either edge of the viewport, by its tag and text.
  const out = [];
  for (const el of d.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > w.innerWidth + 0.5 || r.left < -0.5) {
      out.push(el.tagName + ' ' + (el.textContent || '').trim().slice(0, 60) + ' ' + r.left + '..' + r.right);
    }
  }
  return out;
}
function clipped(d) {
  // Every badge whose text is wider than its box.
  return [...d.querySelectorAll('.badge')].filter(b => b.getClientRects().length && b.scrollWidth > b.clientWidth + 0.5)
    .map(b => b.textContent + ' ' + b.scrollWidth + '>' + b.clientWidth);
}
function svgText(d, w) {
  // Each rendered SVG text's size on screen: its computed font size times the SVG's scale.
  const sizes = [];
  for (const t of d.querySelectorAll('svg text')) {
    if (!t.getClientRects().length) continue;
    const svg = t.ownerSVGElement;
    const box = svg.viewBox.baseVal;
    const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
    sizes.push(parseFloat(w.getComputedStyle(t).fontSize) * scale);
  }
  return sizes;
}
function textBoxes(d, needle) {
  // The boxes on screen of the first text node holding `needle`, as [left, right] pairs.
  const walk = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const at = node.data.indexOf(needle);
    if (at < 0) continue;
    const range = d.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + needle.length);
    return [...range.getClientRects()].map(r => [r.left, r.right]);
  }
  return null;
}
"""


def measure(tmp_path: Path, page: str, width: int, expression: str) -> Any:
    """`expression` (JavaScript, with `d` the page's document and `w` its window, and the helpers
    above) evaluated on `page` laid out `width` pixels wide; its value, through JSON."""
    probe = (
        f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" width="{width}" '
        f'height="900" style="border:0" srcdoc="{html.escape(page, quote=True)}"></iframe>'
        f'<pre id="out"></pre><script>{_HELPERS}'
        "const f = document.getElementById('f'); f.onload = () => {"
        " const d = f.contentDocument, w = f.contentWindow;"
        f" document.getElementById('out').textContent = 'RESULT' + JSON.stringify({expression});"
        " };</script></body></html>"
    )
    path = tmp_path / f"probe-{width}.html"
    path.write_text(probe, encoding="utf-8")
    done = run_browser(
        browser(), tmp_path, f"--window-size={max(width + 40, 800)},1000", "--dump-dom",
        path.as_uri(),
    )  # fmt: skip
    found = re.search(r'<pre id="out">RESULT(.*?)</pre>', done.stdout, re.DOTALL)
    assert found is not None, done.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))
