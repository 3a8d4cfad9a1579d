"""CHANGELOG.md keeps Keep a Changelog's shape: `[Unreleased]` first, then one dated section per
version, newest first, the newest being the package's version, each with its compare link; and
the fragments of changelog.d/ are of its kinds and fold into such a section."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
import sys
import tomllib
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


def _towncrier(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "towncrier", *args, "--dir", str(root)],
        capture_output=True, text=True, check=False, timeout=120, cwd=root,
    )  # fmt: skip


def test_every_fragment_is_of_a_kind_the_changelog_has() -> None:
    """Each file of changelog.d/ (its README aside) is `NAME.KIND.md` with KIND one of the
    kinds towncrier is configured with, and those are Keep a Changelog's six: a misnamed
    fragment fails here rather than vanishing from a release."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    kinds = {t["directory"]: t["name"] for t in config["towncrier"]["type"]}
    assert set(kinds.values()) == KINDS
    fragments = [p for p in (ROOT / "changelog.d").iterdir() if p.name not in {"README.md",
                                                                              ".gitkeep"}]  # fmt: skip
    assert [p.name for p in fragments if p.suffix != ".md" or p.stem.rpartition(".")[2]
            not in kinds] == []  # fmt: skip


def test_a_release_folds_the_fragments_into_a_section_after_unreleased(tmp_path: Path) -> None:
    """The towncrier configuration builds: `towncrier build` on a copy writes one dated version
    section below [Unreleased], with each fragment under its kind, and the changelog keeps the
    shape the tests above hold it to."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy(ROOT / "CHANGELOG.md", tmp_path / "CHANGELOG.md")
    fragments = tmp_path / "changelog.d"
    fragments.mkdir()
    (fragments / "+probe.fixed.md").write_text("A probe entry.\n", encoding="utf-8")
    (fragments / "+other.added.md").write_text("Another entry.\n", encoding="utf-8")
    built = _towncrier(tmp_path, "build", "--version", "99.0.0", "--date", "2099-01-02", "--yes")
    assert built.returncode == 0, built.stderr
    text = (tmp_path / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## [Unreleased]", "## [99.0.0] - 2099-01-02"]
    section = text.split("## [99.0.0] - 2099-01-02\n", 1)[1]
    assert section.index("### Added\n\n- Another entry.") < section.index("### Fixed\n\n- A probe")
    assert not list(fragments.glob("+*.md"))
