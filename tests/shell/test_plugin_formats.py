"""Readers a package adds under the entry-point group `evalglass.formats`, end to end: the
fixture plugin packages are pip-installed (into a folder put on the path, as a team's package
would be installed) and the real `evalglass` command runs with them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
EVALGLASS = Path(sys.executable).parent / "evalglass"

RECORDS = {
    "metrics.yaml": """metrics:
  acme/exact:
    status: gating
    dataset: arith
    min_samples: 10
  acme/closeness:
    status: informational
    dataset: arith
""",
    "thresholds.yaml": """thresholds:
  acme/exact:
    op: '>='
    value: 0.5
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '1'
  acme/closeness:
    op: '>='
    value: 0.5
    approval: proposed
""",
    "datasets.yaml": """datasets:
  arith:
    status: validated
    version: '1'
""",
    "policies.yaml": """policies:
  arith:
    policy: permitted
""",
}

ACME = {
    "model": "acme/model-x",
    "dataset": "arith",
    "scores": {"exact": [1] * 16 + [0] * 4, "closeness": [0.5] * 10 + [1.0] * 10},
}


def _install(package: str, into: Path) -> Path:
    """`pip install` of a plugin package from a copy of its folder (a build writes beside its
    sources), into `into`."""
    source = into.parent / f"{package}-source"
    shutil.copytree(FIXTURES / package, source)
    # pip builds it as on any machine: its build backend (setuptools) from the package index.
    args = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(into)]
    subprocess.run([*args, str(source)], check=True, capture_output=True, timeout=600)
    return into


@pytest.fixture(scope="session")
def plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the fixture plugins (acme, evil, raising) are installed in."""
    return _install("plugin_pkg", tmp_path_factory.mktemp("plugins") / "site")


@pytest.fixture(scope="session")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder a plugin that fails at import is installed in."""
    return _install("plugin_broken", tmp_path_factory.mktemp("broken") / "site")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Host records authorizing acme/exact, and an acme output."""
    (tmp_path / "host_records").mkdir()
    for name, text in RECORDS.items():
        (tmp_path / "host_records" / name).write_text(text)
    (tmp_path / "run.acme").write_text(json.dumps(ACME))
    return tmp_path


def evalglass(*args: str, cwd: Path, site: Path | None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [str(EVALGLASS), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120,
        check=False,
    )  # fmt: skip


def test_a_plugin_reader_gates_end_to_end(project: Path, plugins: Path) -> None:
    """An installed plugin's files are recognised and gate like a built-in format's: the
    authorized metric passes on its lower bound, the one with a proposed threshold is
    informational."""
    result = evalglass("score", "run.acme", "--format", "json", cwd=project, site=plugins)
    assert result.returncode == 0, result.stderr
    card = json.loads(result.stdout)
    metrics = {m["id"]: m for m in card["metrics"]}
    assert card["verdict"] == "pass"
    assert metrics["acme/exact"]["value"] == 0.8
    assert metrics["acme/exact"]["n"] == 20
    # 16 of 20 with 4 failures: a proportion's interval (Clopper–Pearson's, by the small-n rule).
    assert metrics["acme/exact"]["method"] == "clopper_pearson"
    assert metrics["acme/exact"]["gate"]["result"] == "pass"
    assert metrics["acme/closeness"]["authority"]["outcome"] == "informational"
    assert metrics["acme/exact"]["source"] == "run.acme"


def test_without_the_plugin_its_files_are_not_read(project: Path) -> None:
    """The same file with the plugin not installed is no recognised output: exit 4."""
    result = evalglass("score", "run.acme", cwd=project, site=None)
    assert result.returncode == 4
    assert "run.acme" in result.stderr


def test_help_and_metrics_list_the_plugin_format(project: Path, plugins: Path) -> None:
    """`--input-format`'s help names the plugin's formats between the frameworks' and the
    generic ones, `--input-format acme` reads a file by it, and `metrics` lists its ids."""
    from evalglass.evidence.registry import FRAMEWORKS, GENERIC

    listed = ", ".join(
        [*(n for n, _ in FRAMEWORKS), "acme", "evil", "raising", *(n for n, _ in GENERIC)]
    )
    for command in ("score", "metrics"):
        help_text = evalglass(command, "--help", cwd=project, site=plugins).stdout
        assert listed in " ".join(help_text.split()), command
    renamed = project / "run.txt"
    shutil.copy(project / "run.acme", renamed)
    result = evalglass("metrics", "run.txt", "--input-format", "acme", cwd=project, site=plugins)
    assert result.returncode == 0, result.stderr
    assert "acme/exact" in result.stdout and "acme/closeness" in result.stdout


def test_a_plugin_cannot_promote_a_gate(project: Path, plugins: Path) -> None:
    """What a plugin returns is untrusted evidence: a measurement carrying a host check's passing
    attempt, an earlier run and another file as its source, for a metric whose threshold is
    only proposed, stays informational, with none of that carried into the scorecard."""
    (project / "run.evil").write_text(json.dumps({"kind": "attempts", "metric": "acme/closeness"}))
    result = evalglass("score", "run.evil", "--format", "json", cwd=project, site=plugins)
    card = json.loads(result.stdout)
    (metric,) = card["metrics"][:1]
    assert metric["id"] == "acme/closeness"
    assert metric["authority"]["outcome"] == "informational"
    assert metric["gate"]["result"] == "not_enforced"
    assert metric["source"] == "run.evil"
    assert not metric.get("earlier_runs") and not metric.get("attempts")
    assert card["verdict"] != "pass"


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("subclass", "returned _Promoted, not an evalglass.Measurement"),
        ("dict", "returned dict, not an evalglass.Measurement"),
    ],
)
def test_a_plugin_returning_no_measurement_is_an_input_error(
    project: Path, plugins: Path, kind: str, said: str
) -> None:
    """A measurement type of the plugin's own (authority fields on a subclass) or a bare dict is
    refused: one line naming the plugin, exit 4, no traceback."""
    (project / "run.evil").write_text(json.dumps({"kind": kind, "metric": "acme/exact"}))
    result = evalglass("score", "run.evil", cwd=project, site=plugins)
    assert result.returncode == 4
    assert result.stdout == ""
    assert result.stderr == (
        "evalglass: run.evil: plugin format 'evil' (evalglass-plugin-fixture 1.0, "
        f"evalglass_plugin_fixture.evil:READER) {said}\n"
    )


def test_a_plugin_raising_while_reading_is_one_line(project: Path, plugins: Path) -> None:
    """A plugin that raises while reading a file it claimed: one line naming the plugin and the
    file, exit 4, no traceback."""
    (project / "run.raising").write_text("{}")
    result = evalglass("score", "run.raising", cwd=project, site=plugins)
    assert result.returncode == 4
    assert result.stderr == (
        "evalglass: run.raising: plugin format 'raising' (evalglass-plugin-fixture 1.0, "
        "evalglass_plugin_fixture.raising:READER) failed reading it: KeyError: 'score'\n"
    )


def test_a_plugin_failing_at_import_is_one_line(project: Path, broken: Path) -> None:
    """A plugin that cannot be imported fails a run whose files reach the plugins: one line
    naming it, exit 4; a framework's own file never reaches it."""
    (project / "run.json").write_text(json.dumps({"model": "m", "metrics": {"acme/exact": 0.9}}))
    result = evalglass("score", "run.json", cwd=project, site=broken)
    assert result.returncode == 4
    assert result.stderr == (
        "evalglass: plugin format 'broken' (evalglass-plugin-broken 1.0, "
        "evalglass_plugin_broken:READER): failed to load: ModuleNotFoundError: No module named "
        "'not_installed_anywhere'\n"
    )
    lm_eval = next((FIXTURES / "lm-eval" / "results").rglob("results_*.json"))
    framework = evalglass("metrics", str(lm_eval), cwd=project, site=broken)
    assert framework.returncode == 0, framework.stderr
