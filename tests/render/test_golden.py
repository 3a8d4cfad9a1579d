"""Golden files: every format's exact bytes on a few fixed inputs, reviewed as diffs.

Regenerate after an intended change with one command, then read the diff before committing:

    EVALGLASS_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_golden.py
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from evalglass.core.scorecard import RecordsAt, Scorecard
from evalglass.evidence.model import Evidence
from evalglass.evidence.read import read_outputs
from evalglass.records.load import load_records
from evalglass.render import Format, custom, render
from evalglass.render import diagnosis as render_diagnosis
from evalglass.render import explanation as render_explanation
from evalglass.render import listing as render_listing
from evalglass.render import trend as render_trend
from evalglass.shell import api
from evalglass.tools.diagnosis import diagnose
from evalglass.tools.explanation import explain
from evalglass.tools.trend import Trend
from tests import render_cases
from tests.render.test_render import hostile_scorecard
from tests.render_cases import WHEN

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UPDATE = os.environ.get("EVALGLASS_UPDATE_GOLDEN") == "1"
TODAY = dt.date(2026, 11, 30)  # doctor compares approval dates with today


def _example() -> Scorecard:
    return api.score(["examples/run.json"], "host_records", as_of=WHEN)


def _doctor_records() -> Scorecard:
    return api.score(["tests/doctor_records/run.json"], "tests/doctor_records", as_of=WHEN)


def _pinned() -> Scorecard:
    """The example as `--records-ref origin/main` reads it: the scorecard names the commit."""
    return attrs.evolve(_example(), records_at=RecordsAt("origin/main", "1f" * 20))


SCORECARDS: dict[str, Callable[[], Scorecard]] = {
    "example": _example,
    "every-status": render_cases.scorecard,
    "doctor-records": _doctor_records,
    "hostile": hostile_scorecard,
}
_SUFFIX = {
    Format.TERMINAL: "txt", Format.MARKDOWN: "md", Format.JSON: "json", Format.JUNIT: "xml",
    Format.GITHUB: "github.txt", Format.HTML: "html",
}  # fmt: skip


def test_every_format_has_golden_files() -> None:
    """A new --format gets its golden files by being added here: the table is the whole Format
    vocabulary, so a format left out fails rather than going unreviewed."""
    assert set(_SUFFIX) == set(Format)
    assert len(set(_SUFFIX.values())) == len(_SUFFIX)


def _outputs() -> dict[str, Callable[[], str]]:
    """Every golden file, by its path under tests/golden/, and how to render it now."""
    outputs: dict[str, Callable[[], str]] = {}
    for case, build in SCORECARDS.items():
        for fmt, suffix in _SUFFIX.items():
            outputs[f"{case}/scorecard.{suffix}"] = lambda b=build, f=fmt: render(b(), f)
        outputs[f"{case}/scorecard.colour.txt"] = lambda b=build: render(
            b(), Format.TERMINAL, colour=True
        )
    outputs["example/template.comment.md"] = lambda: custom.render(
        _example(), ROOT / "examples" / "templates" / "comment.md.j2"
    )
    outputs["example/scorecard.keep-samples.json"] = lambda: render(
        _example(), Format.JSON, keep_samples=True
    )
    for fmt, suffix in ((Format.TERMINAL, "txt"), (Format.MARKDOWN, "md"), (Format.JSON, "json")):
        outputs[f"example/scorecard.records-at.{suffix}"] = lambda f=fmt: render(_pinned(), f)
    for metric in ("qa/exact_match", "qa/helpfulness"):
        name = metric.replace("/", "_")
        for fmt, suffix in (
            (Format.TERMINAL, "txt"),
            (Format.MARKDOWN, "md"),
            (Format.JSON, "json"),
        ):
            outputs[f"example/explain.{name}.{suffix}"] = lambda m=metric, f=fmt: (
                render_explanation.render(
                    explain(
                        m,
                        load_records("host_records"),
                        read_outputs(["examples/run.json"]),
                        evaluated_at=WHEN,
                    ),
                    f,
                )
            )
    outputs["example/explain.qa_exact_match.no-outputs.txt"] = lambda: render_explanation.render(
        explain("qa/exact_match", load_records("host_records"), Evidence(), evaluated_at=WHEN),
        Format.TERMINAL,
    )
    outputs["example/explain.qa_exact_match.no-outputs.json"] = lambda: render_explanation.render(
        explain("qa/exact_match", load_records("host_records"), Evidence(), evaluated_at=WHEN),
        Format.JSON,
    )
    for fmt, suffix in ((Format.TERMINAL, "txt"), (Format.JSON, "json")):
        outputs[f"example/metrics.{suffix}"] = lambda f=fmt: render_listing.render(
            read_outputs(["examples/run.json"]), f
        )
    for fmt, suffix in ((Format.TERMINAL, "txt"), (Format.JSON, "json")):
        outputs[f"doctor-records/doctor.{suffix}"] = lambda f=fmt: render_diagnosis.render(
            diagnose(
                load_records("tests/doctor_records"),
                read_outputs(["tests/doctor_records/run.json"]),
                TODAY,
            ),
            f,
        )
    for fmt, suffix in ((Format.TERMINAL, "txt"), (Format.MARKDOWN, "md"), (Format.HTML, "html")):
        outputs[f"trend/trend.{suffix}"] = lambda f=fmt: render_trend.render(_trend(), f)
    return outputs


def _trend() -> Trend:
    """The committed example series (examples/trend/make.sh), given out of order."""
    weeks = sorted(Path("examples/trend/scorecards").glob("week-*.json"), reverse=True)
    return api.trend([p.as_posix() for p in weeks])


OUTPUTS = _outputs()


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_output_matches_its_golden_file(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rendering is byte-identical to the reviewed golden file."""
    monkeypatch.chdir(ROOT)  # sources print as given, relative to the repository
    # The HTML footer names evalglass's version: pinned, so a release does not rewrite goldens.
    monkeypatch.setattr("evalglass.render.html.VERSION", "0.0.0+golden")
    text = OUTPUTS[name]()
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    assert path.exists(), f"no golden file {name}: run with EVALGLASS_UPDATE_GOLDEN=1"
    assert text == path.read_bytes().decode("utf-8"), f"{name} changed: review the diff"


def test_no_golden_file_is_left_without_its_case() -> None:
    """Every file under tests/golden/ is one a test renders: a renamed case leaves no orphan."""
    on_disk = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.is_file()}
    assert on_disk == set(OUTPUTS)
