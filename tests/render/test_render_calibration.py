"""Calibration summaries: untrusted labels made inert in Markdown, missing numbers shown as such."""

from __future__ import annotations

import attrs

from evalglass.calibration_evidence import Estimate
from evalglass.render import Format
from evalglass.render.calibration import render
from tests.foundation.test_calibration_evidence import evidence


def test_markdown_makes_labels_inert() -> None:
    """A label with a table pipe or a mention cannot break the table or ping anyone."""
    ev = attrs.evolve(evidence(), categories=("a|b", "@team"))
    text = render(ev, Format.MARKDOWN)
    assert "| `a\\|b` | 90 | 10 |" in text
    assert "@team" in text and "| `@team` |" in text  # inside a code span: no mention


def test_undefined_values_and_missing_intervals_are_named() -> None:
    """An undefined statistic reads `undefined`, a withheld interval `none (k undefined)`."""
    ev = evidence(kappa=Estimate(None, None, None, 12, 40), ac1=Estimate(0.5, None, None, 12))
    text = render(ev, Format.TERMINAL)
    assert "undefined  none (40 undefined)" in text
    assert "0.5  none " in text
