"""CI runs the README's test command: the last line of .ci/run is that command, word for word."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_command(number: int) -> str:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"# {number}. "))
    return lines[at + 1]


def test_ci_ends_with_the_readme_test_command() -> None:
    """The README's second command is .ci/run's last line, so the two cannot say different
    things; it runs the tests and every linter."""
    command = _readme_command(2)
    last = (ROOT / ".ci/run").read_text(encoding="utf-8").rstrip("\n").splitlines()[-1]
    assert last == command
    for step in (
        "python -m pytest --cov",
        "ruff check",
        "ruff format --check",
        "mypy evalglass",
        "actionlint",
    ):
        assert step in command


# What .ci/run installs before the README's command, and how the README's heading names it.
_INSTALLED = {
    "chromium": "chromium",
    "default-jre-headless": "a Java runtime",
    "@modelcontextprotocol/inspector": "the MCP Inspector",
}


def test_the_readme_names_what_ci_installs_before_its_command() -> None:
    """The tests that skip without chromium, Java or the MCP Inspector run in CI, which installs
    them first: the README's heading of its test command says so, for each thing .ci/run
    installs, so running the command alone is not taken for all CI does."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    heading = next(line for line in lines if line.startswith("# 2. "))
    script = (ROOT / ".ci/run").read_text(encoding="utf-8")
    installed = set(re.findall(r"apt-get install -y -qq (\S+)\)", script))
    installed |= set(re.findall(r"(@[\w/.-]+?)@[\d.]+", script))
    assert installed == set(_INSTALLED)
    for named in _INSTALLED.values():
        assert named in heading, named
    assert "exactly what CI runs" not in heading


def _workflow(name: str) -> str:
    return (ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8")


def test_ci_lints_the_projects_own_workflows() -> None:
    """The README's test command runs actionlint over .github/workflows too, so the release and
    CI workflows are checked wherever the tests run."""
    command = _readme_command(2)
    assert command.endswith("actionlint examples/ci/github-*.yml .github/workflows/*.yml")
    assert {"ci.yml", "release.yml"} <= {p.name for p in (ROOT / ".github/workflows").iterdir()}


def test_the_workflows_are_actionlint_clean() -> None:
    """actionlint (the pinned one of the lint extra) finds nothing in either workflow."""
    import shutil
    import subprocess
    import sys

    actionlint = Path(sys.executable).parent / "actionlint"
    found = str(actionlint) if actionlint.exists() else shutil.which("actionlint")
    assert found, "actionlint comes with the lint extra"
    result = subprocess.run(
        [found, ".github/workflows/ci.yml", ".github/workflows/release.yml"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_workflow_runs_the_readme_command_on_every_platform_and_python() -> None:
    """ci.yml runs .ci/run's last line (the README's command) on Linux, macOS and Windows with
    Python 3.11 to 3.13."""
    text = _workflow("ci.yml")
    assert "os: [ubuntu-latest, macos-latest, windows-latest]" in text
    assert "python: ['3.11', '3.12', '3.13']" in text
    assert 'command="$(tail -n 1 .ci/run)"' in text
    assert 'eval "$command"' in text


def test_release_workflow_publishes_by_trusted_publishing_without_a_token() -> None:
    """release.yml runs on v* tags, builds and twine-checks, publishes with an OIDC token (no
    secret), attaches the artifacts to a GitHub release and moves the major tag."""
    text = _workflow("release.yml")
    assert "tags: ['v*']" in text
    assert "python -m build --sdist --wheel" in text
    assert "twine check --strict dist/*" in text
    assert "id-token: write" in text
    assert "pypa/gh-action-pypi-publish@release/v1" in text
    assert "secrets." not in text and "password" not in text
    assert 'gh release create "$TAG" dist/*' in text
    assert 'git push --force origin "refs/tags/$major"' in text
