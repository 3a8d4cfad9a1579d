"""CODEOWNERS read as GitHub reads it: gitignore-style patterns, the last matching line wins, and
doctor's warning for an approval given by someone the file does not name."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evalglass.records.load import load_records
from evalglass.tools.codeowners import LOCATIONS, Ownership, is_owner, parse
from evalglass.tools.diagnosis import Problem, diagnose
from tests import states as s
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_RECORDS

# (pattern, path, matches): GitHub's documented examples and gitignore's rules.
PATTERNS = [
    ("*", "host_records/thresholds.yaml", True),
    ("*.yaml", "host_records/thresholds.yaml", True),
    ("*.yml", "host_records/thresholds.yaml", False),
    ("thresholds.yaml", "deep/host_records/thresholds.yaml", True),  # no slash: any depth
    ("/thresholds.yaml", "host_records/thresholds.yaml", False),
    ("/host_records/thresholds.yaml", "host_records/thresholds.yaml", True),
    ("host_records/thresholds.yaml", "host_records/thresholds.yaml", True),
    ("host_records/thresholds.yaml", "deep/host_records/thresholds.yaml", False),  # anchored
    ("host_records/", "host_records/thresholds.yaml", True),
    ("host_records/", "deep/host_records/thresholds.yaml", True),  # a folder at any depth
    ("/host_records/", "deep/host_records/thresholds.yaml", False),
    ("host_records", "host_records/thresholds.yaml", True),  # a folder owns what is below it
    ("records/", "host_records/thresholds.yaml", False),
    ("host_records/*", "host_records/thresholds.yaml", True),
    ("docs/*", "docs/build-app/troubleshooting.md", False),  # GitHub: only files right in docs
    ("/docs/", "docs/build-app/troubleshooting.md", True),
    ("apps/", "src/apps/x.yaml", True),
    ("**/thresholds.yaml", "a/b/thresholds.yaml", True),
    ("/host_records/**", "host_records/thresholds.yaml", True),
    ("host_records/**/thresholds.yaml", "host_records/thresholds.yaml", True),
    ("host_records/**/thresholds.yaml", "host_records/x/y/thresholds.yaml", True),
    ("thresholds.yam?", "host_records/thresholds.yaml", True),
    ("thresholds.y?ml?", "host_records/thresholds.yaml", False),
    ("/host_records/thresholds.yaml/", "host_records/thresholds.yaml", False),  # folders only
]


@pytest.mark.parametrize(("pattern", "path", "matches"), PATTERNS)
def test_patterns_match_as_github_reads_them(pattern: str, path: str, matches: bool) -> None:
    """Each pattern owns the path exactly when GitHub's rules say it does."""
    owners = parse(f"{pattern} @team/x\n", "CODEOWNERS")
    assert (owners.rule_for(path) is not None) is matches


def test_the_last_matching_line_wins_and_comments_are_skipped() -> None:
    """Later lines override earlier ones; a line with no owners leaves the file unowned; the rule
    keeps its line number and text; `\\#` escapes a hash in a pattern."""
    text = (
        "# owners\n*  @everyone\n\n/host_records/  @acme/eval-leads  # leads\n"
        "/host_records/thresholds.yaml @acme/product-owners @alice\n"
        "/host_records/policies.yaml\n\\#odd @x\n"
    )
    owners = parse(text, ".github/CODEOWNERS")
    rule = owners.rule_for("host_records/thresholds.yaml")
    assert rule is not None
    assert (rule.line, rule.owners, rule.text) == (
        5,
        ("@acme/product-owners", "@alice"),
        "/host_records/thresholds.yaml @acme/product-owners @alice",
    )
    leads = owners.rule_for("host_records/metrics.yaml")
    assert leads is not None and (leads.line, leads.owners) == (4, ("@acme/eval-leads",))
    unowned = owners.rule_for("host_records/policies.yaml")
    assert unowned is not None and unowned.owners == ()
    odd = owners.rule_for("#odd")
    assert odd is not None and odd.owners == ("@x",)


def test_an_owner_is_named_whatever_the_case() -> None:
    """User names and emails compare without case; a team names no one in particular."""
    assert is_owner("@Alice", ("@alice",)) and is_owner("a@b.io", ("A@B.io",))
    assert not is_owner("@alice", ("@acme/product-owners",))


def _ownership(text: str) -> Ownership:
    found = parse(text, ".github/CODEOWNERS")
    path = "host_records/thresholds.yaml"
    return Ownership(codeowners=found.path, path=path, rule=found.rule_for(path))


def _approver_findings(text: str | None) -> list[str]:
    records = s.records(s.State())
    ownership = None if text is None else _ownership(text)
    return [
        f.message
        for f in diagnose(records, None, s.TODAY, ownership).findings
        if f.problem is Problem.APPROVER_NOT_OWNER
    ]


def test_doctor_warns_of_an_approver_codeowners_does_not_name() -> None:
    """No CODEOWNERS: nothing to check. The approver named: no warning. A team only: a warning
    naming the line it checked and that a team's members cannot be checked. No matching line:
    a warning saying so."""
    assert _approver_findings(None) == []
    assert _approver_findings("/host_records/thresholds.yaml @Alice\n") == []
    assert _approver_findings("*.md @docs\n/host_records/ @acme/product-owners\n") == [
        (
            "threshold 'qa/match/accuracy' is approved by '@alice', who is not named as an owner of "
            "thresholds.yaml in CODEOWNERS: .github/CODEOWNERS:2 ('/host_records/ "
            "@acme/product-owners') names @acme/product-owners (a team's members cannot be checked "
            "here: confirm @alice is one)"
        )
    ]
    assert _approver_findings("*.md @docs\n") == [
        (
            "threshold 'qa/match/accuracy' is approved by '@alice', who is not named as an owner of "
            "thresholds.yaml in CODEOWNERS: no line of .github/CODEOWNERS matches "
            "host_records/thresholds.yaml"
        )
    ]
    assert _approver_findings("/host_records/ @bob\n/host_records/thresholds.yaml\n") == [
        (
            "threshold 'qa/match/accuracy' is approved by '@alice', who is not named as an owner of "
            "thresholds.yaml in CODEOWNERS: .github/CODEOWNERS:2 ('/host_records/thresholds.yaml') "
            "names no one: the line leaves it unowned"
        )
    ]


@pytest.mark.parametrize("location", LOCATIONS)
def test_doctor_reads_codeowners_where_github_does(tmp_path: Path, location: str) -> None:
    """`evalglass doctor` in a repository with CODEOWNERS in any of GitHub's three places: a
    warning (exit 0 for it alone) at the threshold's line, naming the file and line it checked."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    shutil.copytree(EXAMPLE_RECORDS, repo / "host_records")
    (repo / location).parent.mkdir(parents=True, exist_ok=True)
    (repo / location).write_text("/host_records/thresholds.yaml @acme/product-owners @bob\n")
    result = cli("doctor", "--as-of", "2026-11-30", cwd=repo)
    lines = [line for line in result.stdout.splitlines() if "approver_not_owner" in line]
    assert lines == [
        f"host_records/thresholds.yaml:{n}: warning: threshold '{m}' is approved by '@alice', who "
        "is not named as an owner of thresholds.yaml in CODEOWNERS: "
        f"{location}:1 ('/host_records/thresholds.yaml @acme/product-owners @bob') names "
        "@acme/product-owners, @bob (a team's members cannot be checked here: confirm @alice is "
        "one) [approver_not_owner]"
        for n, m in ((4, "qa/exact_match"), (13, "qa/helpfulness"))
    ]


def test_the_first_codeowners_github_finds_is_the_one_read(tmp_path: Path) -> None:
    """With .github/CODEOWNERS and CODEOWNERS both present, only .github's counts."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "CODEOWNERS").write_text("* @alice\n")
    (tmp_path / "CODEOWNERS").write_text("* @bob\n")
    diagnosis_text = cli("doctor", "--as-of", "2026-11-30", cwd=tmp_path).stdout
    assert "approver_not_owner" not in diagnosis_text
    assert load_records(tmp_path / "host_records").thresholds  # the records themselves load
