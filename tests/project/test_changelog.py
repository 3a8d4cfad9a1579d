"""CHANGELOG.md keeps Keep a Changelog's shape: `[Unreleased]` first, then one dated section per
version, newest first, the newest being the package's version, each with its compare link."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from packaging.version import Version

from evalglass._version import __version__

ROOT = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"^## \[(?P<name>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?$")
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _text() -> str:
    return (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_sections_are_unreleased_then_dated_versions_newest_first() -> None:
    """The first section is [Unreleased]; every later one is a version with a date, versions and
    dates descending. evalglass/_version.py holds the newest released version, or between
    releases a development version of the next (before the first release, the only kind): a
    version is in the changelog only once it is tagged."""
    lines = [line for line in _text().splitlines() if line.startswith("## ")]
    matches = [SECTION.match(line) for line in lines]
    assert all(matches), lines
    names = [m["name"] for m in matches if m]
    assert names[0] == "Unreleased"
    versions = [m for m in matches[1:] if m]
    assert all(m["date"] for m in versions)
    released = [Version(m["name"]) for m in versions]
    assert released == sorted(released, reverse=True)
    assert [m["date"] for m in versions] == sorted((m["date"] for m in versions), reverse=True)
    for m in versions:
        dt.date.fromisoformat(m["date"])
    ours = Version(__version__)
    if ours.is_devrelease:
        assert not released or ours > released[0]
        assert not any(v == Version(ours.base_version) for v in released)
    else:
        assert released and ours == released[0]


def test_subsections_are_keep_a_changelog_kinds() -> None:
    """Every `###` heading is one of Keep a Changelog's six kinds."""
    kinds = {line[4:] for line in _text().splitlines() if line.startswith("### ")}
    assert kinds <= KINDS, kinds - KINDS


def test_every_section_has_its_link() -> None:
    """Each section name links to its compare or release page at the bottom."""
    text = _text()
    names = [m["name"] for m in map(SECTION.match, text.splitlines()) if m]
    for name in names:
        link = rf"^\[{re.escape(name)}\]: https://github\.com/evalglass/evalglass/"
        assert re.search(link, text, re.MULTILINE), name
