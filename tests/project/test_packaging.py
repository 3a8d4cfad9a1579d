"""What a release ships: `python -m build` makes an sdist and a wheel that `twine check` passes,
and the wheel alone, installed in a fresh virtual environment, runs the demo at its own version.

The build runs as a release does (isolated: hatchling comes from the package index); the fresh
environment installs the wheel and its dependencies from the index too (pip's cache serves them
when warm). Nothing is published."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from evalglass._version import __version__

ROOT = Path(__file__).resolve().parents[2]

# The Python versions the project supports, as the classifiers and the CI matrix name them.
SUPPORTED = ("3.11", "3.12", "3.13")


def _bin(env: Path, name: str) -> Path:
    folder = env / ("Scripts" if os.name == "nt" else "bin")
    return folder / (name + (".exe" if os.name == "nt" else ""))


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built from this checkout as the release workflow builds them."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return out


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("*.whl")
    return wheel


def test_build_makes_one_sdist_and_one_wheel_at_the_package_version(dist: Path) -> None:
    """Both artifacts carry the one version evalglass/_version.py holds."""
    names = sorted(p.name for p in dist.iterdir())
    assert names == [
        f"evalglass-{__version__}-py3-none-any.whl",
        f"evalglass-{__version__}.tar.gz",
    ]


def test_twine_check_passes_both(dist: Path) -> None:
    """The index would accept the metadata and render the long description."""
    result = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_the_wheel_carries_templates_example_and_type_marker(dist: Path) -> None:
    """Every template, the bundled example records and output, py.typed and the license ship."""
    names = set(zipfile.ZipFile(_wheel(dist)).namelist())
    templates = {f"evalglass/templates/{p.name}" for p in (ROOT / "templates").iterdir()}
    records = {
        f"evalglass/example/host_records/{p.name}" for p in (ROOT / "host_records").iterdir()
    }
    assert templates and templates <= names
    assert records and records <= names
    assert "evalglass/example/outputs/run.json" in names
    assert "evalglass/py.typed" in names
    assert f"evalglass-{__version__}.dist-info/licenses/LICENSE" in names


def test_the_wheel_metadata_is_complete(dist: Path) -> None:
    """License, supported Pythons, classifiers and project URLs are there for the index to show."""
    with zipfile.ZipFile(_wheel(dist)) as wheel:
        text = wheel.read(f"evalglass-{__version__}.dist-info/METADATA").decode()
    meta = email.message_from_string(text)
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = set(meta.get_all("Classifier") or [])
    for version in SUPPORTED:
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert "Typing :: Typed" in classifiers
    urls = dict(line.split(", ", 1) for line in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Changelog", "Documentation"} <= set(urls)
    assert all(url.startswith("https://github.com/evalglass/evalglass") for url in urls.values())
    assert meta["Summary"] and "# evalglass" in (meta.get_payload() or "")


def test_the_wheel_alone_installs_and_runs_the_demo(
    dist: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A fresh environment with only the wheel installed (no checkout on the path) runs
    `evalglass demo` to a pass and says the wheel's own version."""
    env = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True).create(env)
    python = _bin(env, "python")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(_wheel(dist))],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # Run from an empty folder so nothing of the checkout can be imported or read.
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    clean = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    evalglass = str(_bin(env, "evalglass"))
    version = subprocess.run(
        [evalglass, "--version"], check=False, cwd=elsewhere, env=clean, capture_output=True,
        text=True,
    )  # fmt: skip
    assert version.returncode == 0
    assert version.stdout == f"evalglass {__version__}\n"
    demo = subprocess.run(
        [evalglass, "demo"], check=False, cwd=elsewhere, env=clean, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.startswith("PASS — 1 gate enforced")
    assert "site-packages" in demo.stderr  # the example came from the installed package
    where = subprocess.run(
        [str(python), "-c", "import evalglass, sys; sys.stdout.write(evalglass.__file__)"],
        check=True,
        cwd=elsewhere,
        env=clean,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout).is_relative_to(env)
