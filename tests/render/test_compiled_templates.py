"""The package's templates run as the package's own compiled modules: current with templates/,
never compiled again on a real render, and never loaded from a cache a user or a job can write.

Regenerate the modules after editing a template (then read the diff before committing):

    EVALGLASS_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -n0 tests/render/test_compiled_templates.py
"""

from __future__ import annotations

import io
import marshal
import os
import pickle
import shutil
import subprocess
from pathlib import Path

import jinja2
import jinja2.bccache
import pytest

from evalglass.render import Format, _templates, render, trend_html
from tests import render_cases
from tests.shell.test_cli import EVALGLASS, EXAMPLE_OUTPUT, EXAMPLE_RECORDS, edit

ROOT = Path(__file__).resolve().parents[2]
COMPILED = ROOT / "evalglass" / "render" / "_compiled"
UPDATE = os.environ.get("EVALGLASS_UPDATE_GOLDEN") == "1"
TEMPLATES = sorted(p.name for p in (ROOT / "templates").glob("*.j2"))


def _environment_for(name: str) -> jinja2.Environment:
    """The environment the package renders `name` in: the HTML pages' escape."""
    if name.endswith(".html.j2"):
        return trend_html._environment()
    return _templates.environment()


@pytest.mark.parametrize("name", TEMPLATES)
def test_each_template_has_its_compiled_module_current(name: str) -> None:
    """Every template in templates/ is compiled in the package from its source as it is now."""
    expected = _templates.compiled_module_source(_environment_for(name), name)
    path = COMPILED / f"{_templates.compiled_module_name(name)}.py"
    if UPDATE:
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected, "EVALGLASS_UPDATE_GOLDEN=1 rewrites it"


def test_no_compiled_module_without_its_template() -> None:
    """The compiled folder holds a module for each template and nothing else."""
    modules = {p.stem for p in COMPILED.glob("*.py")} - {"__init__"}
    assert modules == {_templates.compiled_module_name(n) for n in TEMPLATES}


def test_rendering_every_format_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real render of every format runs the compiled modules; nothing is compiled at run time."""
    compiled: list[str | None] = []
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None, *a: object,
                 **k: object) -> object:  # fmt: skip
        compiled.append(name)
        return original(self, source, name, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    scorecard = render_cases.scorecard()
    for fmt in Format:
        assert render(scorecard, fmt)
    for name in TEMPLATES:
        _environment_for(name).get_template(name)
    assert compiled == []


def _forge(cache: Path) -> int:
    """Every compiled template jinja2 cached under `cache` rewritten to print a forged PASS."""
    forged = jinja2.Environment().compile("PASS — forged\n", "forged")
    rewritten = 0
    for path in (p for p in cache.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if not data.startswith(jinja2.bccache.bc_magic):
            continue
        stream = io.BytesIO(data[len(jinja2.bccache.bc_magic) :])
        checksum = pickle.load(stream)
        path.write_bytes(
            jinja2.bccache.bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(forged)
        )
        rewritten += 1
    return rewritten


def _score(work: Path, cache: Path, fmt: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        # One evaluation time for both runs: the HTML footer shows it.
        [str(EVALGLASS), "score", "run.json", "--format", fmt, "--as-of", "2026-11-30T12:00:00Z"],
        cwd=work, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "html"])
def test_a_rewritten_cache_cannot_change_the_verdict(tmp_path: Path, fmt: str) -> None:
    """A failing score stays failing, in what it prints, however the user's cache folder is
    rewritten between runs; score writes no compiled code there to rewrite."""
    work = tmp_path / "work"
    shutil.copytree(EXAMPLE_RECORDS, work / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, work / "run.json")
    edit(work / "host_records/thresholds.yaml", "value: 0.85", "value: 0.95")
    cache = tmp_path / "cache"
    cache.mkdir()
    first = _score(work, cache, fmt)
    assert first.returncode == 1, first.stderr
    _forge(cache)
    again = _score(work, cache, fmt)
    assert again.returncode == 1, again.stderr
    assert again.stdout == first.stdout
    assert "forged" not in again.stdout
    assert [p for p in cache.rglob("*") if p.is_file()] == []
