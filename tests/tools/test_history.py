"""`evalglass history`: every commit that changed a record behind a metric, oldest first, read by
loading the records at each commit (never by parsing diff text), on real git repositories."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import RecordError
from evalglass.records.load import records_from_text
from evalglass.records.model import HostRecords
from evalglass.tools.history import FieldChange, changed
from tests import states as s
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_RECORDS


class Repo:
    """A git repository in which commits are made by named people on given days."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, who: str = "Ann Owner", day: str = "2026-11-01") -> str:
        email = who.split()[0].lower() + "@example.com"
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": who,
            "GIT_AUTHOR_EMAIL": email,
            "GIT_AUTHOR_DATE": f"{day}T10:00:00+00:00",
            "GIT_COMMITTER_NAME": who,
            "GIT_COMMITTER_EMAIL": email,
            "GIT_COMMITTER_DATE": f"{day}T10:00:00+00:00",
        }
        done = subprocess.run(
            ["git", "-c", "commit.gpgsign=false", *args],
            cwd=self.root,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.root / "host_records" / name
        text = path.read_text()
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new))

    def commit(self, message: str, who: str, day: str) -> str:
        self.git("add", "-A", ".", who=who, day=day)
        self.git("commit", "-qm", message, who=who, day=day)
        return self.git("rev-parse", "HEAD").strip()


BUMP = ("version: '2026-10'\n\n  toxic", "version: '2026-11'\n\n  toxic")
REAPPROVE = (
    (
        "    approved_on: 2026-11-01\n    approved_for:\n      dataset_version: '2026-10'\n\n"
        "  qa/helpfulness"
    ),
    (
        "    approved_on: 2026-11-20\n    approved_for:\n      dataset_version: '2026-11'\n\n"
        "  qa/helpfulness"
    ),
)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """The example records, then: a dataset bump, an unrelated edit, the re-approval that
    follows the bump, a commit that breaks a file and one that mends it."""
    repo = Repo(tmp_path / "repo")
    shutil.copytree(EXAMPLE_RECORDS, repo.root / "host_records")
    (repo.root / "README").write_text("not a record\n")
    repo.commit("Start the records", "Ann Owner", "2026-11-01")
    repo.edit("datasets.yaml", *BUMP)
    repo.commit("Bump qa-gold to 2026-11", "Dan Data", "2026-11-10")
    repo.edit(
        "metrics.yaml",
        "  qa/refusal_rate:\n    status: gating",
        "  qa/refusal_rate:\n    status: informational",
    )
    (repo.root / "README").write_text("still not a record\n")
    repo.commit("Demote refusal rate", "Eve Lead", "2026-11-12")
    repo.edit("thresholds.yaml", *REAPPROVE)
    repo.edit(
        "thresholds.yaml",
        "    approved_by: '@alice'\n    approved_on: 2026-11-20",
        "    approved_by: '@bob'\n    approved_on: 2026-11-20",
    )
    repo.commit("Approve exact match again for 2026-11", "Bob Owner", "2026-11-20")
    repo.edit("policies.yaml", "policy: permitted", "policy: permited")
    repo.commit("Typo", "Eve Lead", "2026-11-21")
    repo.edit("policies.yaml", "policy: permited", "policy: permitted")
    repo.commit("Fix the typo", "Eve Lead", "2026-11-22")
    return repo


def history_json(repo: Repo, *args: str) -> dict:
    result = cli("history", *args, "--format", "json", cwd=repo.root)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_each_commit_behind_the_metric_with_who_when_and_every_field(repo: Repo) -> None:
    """Oldest first: the commit that made it a gate (every field it wrote), the dataset bump,
    the re-approval, the commit whose records do not load (one line) and the mend; the unrelated
    demotion of another metric is not shown."""
    doc = history_json(repo, "qa/exact_match")
    assert (doc["metric"], doc["records"], doc["since"], doc["commits_read"]) == (
        "qa/exact_match",
        "host_records",
        None,
        6,
    )
    rows = [
        (
            c["subject"],
            c["author"],
            c["date"][:10],
            c["error"],
            [(x["file"], x["record"], x["field"], x["old"], x["new"]) for x in c["changes"]],
        )
        for c in doc["commits"]
    ]
    assert rows[0][:4] == ("Start the records", "Ann Owner", "2026-11-01", None)
    assert rows[0][4] == [
        ("metrics.yaml", "qa/exact_match", "status", None, "gating"),
        ("metrics.yaml", "qa/exact_match", "dataset", None, "'qa-gold'"),
        ("metrics.yaml", "qa/exact_match", "min_samples", None, "100"),
        ("thresholds.yaml", "qa/exact_match", "op", None, "'>='"),
        ("thresholds.yaml", "qa/exact_match", "value", None, "0.85"),
        ("thresholds.yaml", "qa/exact_match", "approval", None, "approved"),
        ("thresholds.yaml", "qa/exact_match", "approved_by", None, "'@alice'"),
        ("thresholds.yaml", "qa/exact_match", "approved_on", None, "2026-11-01"),
        ("thresholds.yaml", "qa/exact_match", "approved_for.dataset_version", None, "'2026-10'"),
        ("datasets.yaml", "qa-gold", "status", None, "validated"),
        ("datasets.yaml", "qa-gold", "version", None, "'2026-10'"),
        ("policies.yaml", "qa-gold", "policy", None, "permitted"),
        ("success.yaml", "success", "min_gates", None, "1"),
        ("success.yaml", "success", "must_pass", None, "'qa/exact_match'"),
    ]
    assert rows[1:] == [
        (
            "Bump qa-gold to 2026-11",
            "Dan Data",
            "2026-11-10",
            None,
            [("datasets.yaml", "qa-gold", "version", "'2026-10'", "'2026-11'")],
        ),
        (
            "Approve exact match again for 2026-11",
            "Bob Owner",
            "2026-11-20",
            None,
            [
                ("thresholds.yaml", "qa/exact_match", "approved_by", "'@alice'", "'@bob'"),
                ("thresholds.yaml", "qa/exact_match", "approved_on", "2026-11-01", "2026-11-20"),
                (
                    "thresholds.yaml",
                    "qa/exact_match",
                    "approved_for.dataset_version",
                    "'2026-10'",
                    "'2026-11'",
                ),
            ],
        ),
        (
            "Typo",
            "Eve Lead",
            "2026-11-21",
            (
                "host_records/policies.yaml:4: policy: 'permited' is not one of permitted, redacted, "
                "restricted, forbidden, unknown (did you mean 'permitted'?)"
            ),
            [],
        ),
    ]
    assert [c["commit"] for c in doc["commits"]] == [
        repo.git("rev-list", "-1", f"HEAD~{n}").strip() for n in (5, 4, 2, 1)
    ]
    assert doc["commits"][0]["email"] == "ann@example.com"


def test_the_commit_after_a_broken_one_is_compared_with_the_last_that_loaded(repo: Repo) -> None:
    """A commit that mends a broken file changes nothing behind the metric against the records
    before the break: it is not shown, and nothing is reported twice."""
    subjects = [c["subject"] for c in history_json(repo, "qa/refusal_rate")["commits"]]
    assert subjects == [
        "Start the records",
        "Bump qa-gold to 2026-11",
        "Demote refusal rate",
        "Typo",
    ]


def test_terminal_and_markdown(repo: Repo) -> None:
    """The terminal shows a headline, then per commit its id, date, author and subject and one
    line per field; Markdown a table whose untrusted text is escaped."""
    text = cli("history", "qa/exact_match", cwd=repo.root).stdout.splitlines()
    assert text[0] == (
        "History of qa/exact_match in host_records: 3 commits changed its "
        "records, 1 did not load (6 read), oldest first"
    )
    bump = text.index("  Bump qa-gold to 2026-11")
    assert text[bump - 1].endswith("  2026-11-10T10:00:00+00:00  Dan Data <dan@example.com>")
    assert text[bump + 1] == "  datasets.yaml qa-gold: version: '2026-10' → '2026-11'"
    assert "  records do not load: host_records/policies.yaml:4: policy: 'permited' is not" in (
        "\n".join(text)
    )
    markdown = cli("history", "qa/exact_match", "--format", "markdown", cwd=repo.root).stdout
    assert markdown.startswith("**History of `qa/exact_match` in `host_records`: 3 commits")
    assert "| `datasets.yaml` `qa-gold` | `version` | `'2026-10'` | `'2026-11'` |" in markdown
    assert "`'&#64;bob'`" not in markdown and "`'@bob'`" in markdown  # code spans do not ping


def test_since_starts_after_a_ref(repo: Repo) -> None:
    """--since REF shows only the commits after it, compared with the records at their parents."""
    doc = history_json(repo, "qa/exact_match", "--since", "HEAD~3")
    assert [c["subject"] for c in doc["commits"]] == [
        "Approve exact match again for 2026-11",
        "Typo",
    ]
    assert (doc["since"], doc["commits_read"]) == ("HEAD~3", 3)


def test_a_dataset_switch_shows_the_record_it_moved_to(repo: Repo) -> None:
    """A metric moved to another dataset: the metric's field, and the new dataset's and policy's
    fields against the old ones, labelled old → new."""
    repo.edit(
        "metrics.yaml",
        "  qa/exact_match:\n    status: gating\n    dataset: qa-gold",
        "  qa/exact_match:\n    status: gating\n    dataset: toxic-prompts",
    )
    repo.commit("Move exact match", "Ann Owner", "2026-11-25")
    last = history_json(repo, "qa/exact_match")["commits"][-1]
    assert [(x["file"], x["record"], x["field"], x["old"], x["new"]) for x in last["changes"]] == [
        ("metrics.yaml", "qa/exact_match", "dataset", "'qa-gold'", "'toxic-prompts'"),
        ("datasets.yaml", "qa-gold → toxic-prompts", "version", "'2026-11'", "'2026-09'"),
        ("policies.yaml", "qa-gold → toxic-prompts", "policy", "permitted", "restricted"),
    ]


def test_a_side_branch_commit_is_shown_by_its_own_change(repo: Repo) -> None:
    """A change made on a branch and merged: the branch's commit is shown, compared with its own
    parent, and the merge adds nothing."""
    repo.git("checkout", "-q", "-b", "side")
    repo.edit("judges.yaml", "calibration: calibrating", "calibration: calibrated")
    repo.commit("Calibrate the grader", "Cal Ibrator", "2026-11-23")
    repo.git("checkout", "-q", "main")
    (repo.root / "README").write_text("meanwhile\n")
    repo.commit("Elsewhere", "Ann Owner", "2026-11-24")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge side", "side", day="2026-11-25")
    commits = history_json(repo, "qa/helpfulness")["commits"]
    assert [c["subject"] for c in commits][-2:] == ["Typo", "Calibrate the grader"]
    assert commits[-1]["changes"] == [
        {
            "file": "judges.yaml",
            "record": "grader-v2",
            "field": "calibration",
            "old": "calibrating",
            "new": "calibrated",
        }
    ]


def test_outside_a_git_repository_is_one_line_exit_4(tmp_path: Path) -> None:
    """No repository: exit 4, one line on stderr, nothing on stdout."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    env_root = tmp_path  # a temporary folder is no repository
    result = cli("history", "qa/exact_match", cwd=env_root)
    assert (result.returncode, result.stdout) == (4, "")
    assert result.stderr == (
        "evalglass: host_records: the history of the records is read from "
        "git, and this is not a git repository\n"
    )


def test_a_metric_no_commit_records_is_one_line_exit_4(repo: Repo) -> None:
    """A metric no commit has a record of: exit 4 in one line, with the closest id."""
    result = cli("history", "qa/exact_matc", cwd=repo.root)
    assert (result.returncode, result.stdout) == (4, "")
    assert result.stderr == (
        "evalglass: qa/exact_matc: no record of this metric in host_records "
        "in any commit in the history of HEAD (6 read) (did you mean "
        "'qa/exact_match'?)\n"
    )


def test_a_since_that_names_no_commit_is_one_line_exit_4(repo: Repo) -> None:
    """--since naming nothing in the clone: exit 4 in one line."""
    result = cli("history", "qa/exact_match", "--since", "nope", cwd=repo.root)
    assert (result.returncode, result.stdout) == (4, "")
    assert result.stderr == (
        "evalglass: host_records: --since: git ref 'nope' is not in this clone\n"
    )


def test_a_records_file_that_is_a_link_at_a_commit_does_not_load(repo: Repo) -> None:
    """A records file committed as a symbolic link is refused at that commit, as for a ref."""
    path = repo.root / "host_records" / "policies.yaml"
    path.unlink()
    path.symlink_to("/etc/hostname")
    repo.commit("Link the policies", "Eve Lead", "2026-11-23")
    last = history_json(repo, "qa/exact_match")["commits"][-1]
    assert last["error"] == (
        "host_records/policies.yaml: is a symbolic link, not a file; records "
        "are read as committed, never through links or other repositories"
    )


def test_check_and_success_policy_records_are_behind_their_metric(tmp_path: Path) -> None:
    """For check/NAME: its check record, and the success policy once it names the metric."""
    repo = Repo(tmp_path / "repo")
    folder = repo.root / "host_records"
    folder.mkdir()
    (folder / "checks.yaml").write_text("checks:\n  unit:\n    file_exists: README\n")
    repo.commit("Add a check", "Ann Owner", "2026-11-01")
    (folder / "success.yaml").write_text("success:\n  must_pass:\n    - check/unit\n")
    repo.commit("It must pass", "Bob Owner", "2026-11-02")
    changes = [
        [(x["file"], x["record"], x["field"], x["old"], x["new"]) for x in c["changes"]]
        for c in history_json(repo, "check/unit")["commits"]
    ]
    assert changes == [
        [("checks.yaml", "unit", "file_exists", None, "'README'")],
        [("success.yaml", "success", "must_pass", None, "'check/unit'")],
    ]


def test_a_rows_file_replaced_under_its_name_is_a_change_of_its_baseline(tmp_path: Path) -> None:
    """A baseline's Parquet rows file is part of the baseline: the file committed after its name,
    and new rows under the same name, show as a change of `rows` with both git objects, a rename
    with its object, and a commit that leaves the file alone shows nothing. No Parquet is read."""
    from tests.shell.test_baseline_rows import (
        generated,
        rows_baselines,
        write_parquet,
        write_records,
    )

    repo = Repo(tmp_path / "repo")
    folder = write_records(repo.root / "host_records", rows_baselines(), ["qa/exact"])
    repo.commit("Name the rows", "Ann Owner", "2026-10-31")
    write_parquet(folder / "base.parquet", generated(1, range(50), 1, 0.8))
    repo.commit("Baseline from rows", "Ann Owner", "2026-11-01")
    first = repo.git("rev-parse", "HEAD:host_records/base.parquet").strip()
    write_parquet(folder / "base.parquet", generated(2, range(50), 1, 0.5))
    repo.commit("Weaker rows, same name", "Mal Lory", "2026-11-02")
    second = repo.git("rev-parse", "HEAD:host_records/base.parquet").strip()
    (repo.root / "README").write_text("not a record\n")
    repo.commit("Unrelated", "Ann Owner", "2026-11-03")
    (folder / "base.parquet").rename(folder / "moved.parquet")
    (folder / "baselines.yaml").write_text(rows_baselines("moved.parquet", ["qa/exact"]))
    repo.commit("Rename the rows", "Ann Owner", "2026-11-04")
    rows_changes = [
        (c["subject"], [(x["old"], x["new"]) for x in c["changes"] if x["field"] == "rows"])
        for c in history_json(repo, "qa/exact")["commits"]
    ]
    assert first != second
    assert rows_changes == [
        ("Name the rows", [(None, "base.parquet (not in the commit)")]),
        (
            "Baseline from rows",
            [("base.parquet (not in the commit)", f"base.parquet ({first[:12]})")],
        ),
        (
            "Weaker rows, same name",
            [(f"base.parquet ({first[:12]})", f"base.parquet ({second[:12]})")],
        ),
        ("Rename the rows", [(f"base.parquet ({second[:12]})", f"moved.parquet ({second[:12]})")]),
    ]


def test_an_added_record_shows_what_it_writes_not_its_defaults() -> None:
    """A record added shows the fields it gives; one edited shows every field that differs,
    including a block's parts; identical records show nothing."""
    before, after = HostRecords(), s.records(s.State())
    fields = [(c.file, c.field, c.old, c.new) for c in changed(s.METRIC, before, after)]
    assert ("metrics.yaml", "min_samples", None, "10") not in fields
    assert ("thresholds.yaml", "approved_for.fingerprint", None, "'sha256:9f2c'") in fields
    moved = s.records(s.State(approval="other_version"))
    assert list(changed(s.METRIC, after, moved)) == [
        FieldChange(
            file="thresholds.yaml",
            record=s.METRIC,
            field="approved_for.dataset_version",
            old="'2026-10'",
            new="'2025-09'",
        ),
    ]
    assert list(changed(s.METRIC, after, after)) == []


def test_a_field_left_out_shows_its_default_and_text_keeps_its_quotes(repo: Repo) -> None:
    """A field the old record leaves out is shown as the default it took (`default 10`), never
    as if someone had written it; text is shown quoted (`'v1'`), as the records write it."""
    repo.edit(
        "metrics.yaml",
        "  qa/refusal_rate:\n    status: informational\n    dataset: qa-gold",
        "  qa/refusal_rate:\n    status: informational\n    dataset: qa-gold\n    min_samples: 100",
    )
    repo.edit("datasets.yaml", "version: '2026-11'", "version: 'v1'")
    repo.commit("Refusals need 100 samples; dataset v1", "Ann Owner", "2026-11-26")
    last = history_json(repo, "qa/refusal_rate")["commits"][-1]
    changes = [(x["file"], x["field"], x["old"], x["new"]) for x in last["changes"]]
    assert ("metrics.yaml", "min_samples", "default 10", "100") in changes
    assert ("datasets.yaml", "version", "'2026-11'", "'v1'") in changes
    shown = cli("history", "qa/refusal_rate", cwd=repo.root).stdout
    assert "metrics.yaml qa/refusal_rate: min_samples: default 10 → 100" in shown
    assert "datasets.yaml qa-gold: version: '2026-11' → 'v1'" in shown


_THRESHOLD = (
    "  m{i}:\n    op: '>='\n    value: {value}\n    approval: approved\n"
    "    approved_by: '@a'\n    approved_on: 2026-11-01\n    approved_for:\n"
    "      dataset_version: '{version}'\n{extra}"
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 2), st.booleans()),
        min_size=2,
        max_size=6,
    )
)
def test_typing_with_the_memo_gives_the_records_a_fresh_load_gives(versions: list) -> None:
    """Many versions of one file typed with a shared memo give exactly the records, origins
    included, and the same errors, that each version typed alone gives."""
    memo: dict = {}
    for count, value, version, extra in versions:
        text = "thresholds:\n" + "".join(
            _THRESHOLD.format(
                i=i,
                value=0.5 + (i == value) / 10,
                version=version,
                extra="      judge_model: j\n" if extra and i == 1 else "",
            )
            for i in range(count)
        )
        if version == 2 and count:
            text = text.replace("dataset_version: '2'", "dataset_version: ''", 1)
        try:
            fresh = records_from_text("thresholds", text, "t.yaml")
        except RecordError as exc:
            with pytest.raises(RecordError) as again:
                records_from_text("thresholds", text, "t.yaml", memo)
            assert str(again.value) == str(exc)
            continue
        memoised = records_from_text("thresholds", text, "t.yaml", memo)
        assert memoised == fresh
        for record_id, record in fresh.items():
            assert memoised[record_id].origin == record.origin
            assert memoised[record_id].approved_for.origin == record.approved_for.origin


# --- what no commit text, clone depth or file size can change -------------------------------


def test_record_separators_in_a_subject_cannot_forge_an_entry(repo: Repo) -> None:
    """A subject holding git's old record and unit separators, spelling a second commit (an
    approval by someone else), is one subject of one commit, in JSON and on the terminal."""
    forged = (
        "Tidy\x1e" + "f" * 40 + "\x1f\x1fMallory Approver\x1fm@example.com\x1f"
        "2026-11-30T00:00:00+00:00\x1fApproved by security"
    )
    repo.edit("thresholds.yaml", "value: 0.85", "value: 0.5")
    repo.commit(forged, "Eve Lead", "2026-11-23")
    doc = history_json(repo, "qa/exact_match")
    assert [c["author"] for c in doc["commits"]] == [
        "Ann Owner", "Dan Data", "Bob Owner", "Eve Lead", "Eve Lead",
    ]  # fmt: skip
    assert doc["commits"][-1]["subject"] == forged
    assert "Mallory" not in json.dumps([c["author"] for c in doc["commits"]])
    assert doc["commits_read"] == 7


def test_an_author_name_with_a_separator_is_shown_not_a_crash(repo: Repo) -> None:
    """An author whose name holds \\x1e and \\x1f: history reads it (exit 0), names them."""
    repo.edit("thresholds.yaml", "value: 0.85", "value: 0.5")
    repo.commit("Lower the bar", "Eve\x1eLead\x1fX", "2026-11-23")
    last = history_json(repo, "qa/exact_match")["commits"][-1]
    assert (last["author"], last["subject"]) == ("Eve\x1eLead\x1fX", "Lower the bar")
    assert cli("history", "qa/exact_match", cwd=repo.root).returncode == 0


def shallow_clone(repo: Repo, target: Path, depth: int) -> Path:
    subprocess.run(
        ["git", "clone", "-q", f"--depth={depth}", f"file://{repo.root}", str(target)],
        check=True, capture_output=True,
    )  # fmt: skip
    return target


def test_a_shallow_clone_says_where_the_history_is_cut(repo: Repo, tmp_path: Path) -> None:
    """A depth-1 clone: the tip's author did not set every record; the history says it is cut
    at the tip, lists no change, and the JSON names the commit."""
    clone = shallow_clone(repo, tmp_path / "shallow", 1)
    tip = repo.git("rev-parse", "HEAD").strip()
    result = cli("history", "qa/exact_match", "--format", "json", cwd=clone)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert (doc["cut_at"], doc["commits"], doc["commits_read"]) == ([tip], [], 1)
    text = cli("history", "qa/exact_match", cwd=clone).stdout
    assert f"History cut at {tip[:12]} (Fix the typo): this clone lacks its parents" in text
    assert "not a change by Eve Lead" in text and "→" not in text
    markdown = cli("history", "qa/exact_match", "--format", "markdown", cwd=clone).stdout
    assert f"History cut at `{tip[:12]}`" in markdown


def test_a_deeper_shallow_clone_shows_changes_after_the_cut(repo: Repo, tmp_path: Path) -> None:
    """Depth 3: the oldest commit in the clone (the re-approval) is where the history starts,
    not its change; the commits after it are compared with it as in a full clone."""
    full = history_json(repo, "qa/exact_match")["commits"]
    clone = shallow_clone(repo, tmp_path / "shallow", 3)
    doc = json.loads(cli("history", "qa/exact_match", "--format", "json", cwd=clone).stdout)
    assert doc["cut_at"] == [repo.git("rev-parse", "HEAD~2").strip()]
    assert [c["subject"] for c in full[-2:]] == ["Approve exact match again for 2026-11", "Typo"]
    assert doc["commits"] == full[-1:]  # the typo that does not load; its fix changes nothing
    assert history_json(repo, "qa/exact_match")["cut_at"] == []


def test_a_records_file_past_the_parse_cap_is_one_line_exit_4(repo: Repo) -> None:
    """A commit whose thresholds file is larger than the parse cap: refused in one line naming
    the file and the commit, exit 4, never read whole."""
    path = repo.root / "host_records" / "thresholds.yaml"
    path.write_text(path.read_text() + "# padding\n" * 500)
    sha = repo.commit("Pad the thresholds", "Eve Lead", "2026-11-23")
    result = cli(
        "history", "qa/exact_match", cwd=repo.root, env={"EVALGLASS_MAX_PARSE_BYTES": "4K"}
    )
    assert (result.returncode, result.stdout) == (4, "")
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert f"host_records/thresholds.yaml at {sha[:12]}" in result.stderr
    assert "past the 4 KiB cap; set EVALGLASS_MAX_PARSE_BYTES" in result.stderr


def test_the_python_api_raises_the_public_history_error(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`evalglass.history()` on a history with a records file past the parse cap raises
    evalglass.errors.HistoryError (a RecordError), a class a caller can import and catch."""
    import evalglass
    from evalglass import errors

    path = repo.root / "host_records" / "thresholds.yaml"
    path.write_text(path.read_text() + "# padding\n" * 500)
    repo.commit("Pad the thresholds", "Eve Lead", "2026-11-23")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("EVALGLASS_MAX_PARSE_BYTES", "4K")
    with pytest.raises(errors.HistoryError) as raised:
        evalglass.history("qa/exact_match", "host_records")
    assert type(raised.value) is errors.HistoryError
    assert "past the 4 KiB cap" in str(raised.value)


def test_a_rewritten_object_in_the_history_is_refused(repo: Repo) -> None:
    """A records blob of an old commit rewritten in the object store (validly compressed):
    refused, exit 4, naming the object."""
    import zlib

    oid = repo.git("rev-parse", "HEAD~2:host_records/thresholds.yaml").strip()
    path = repo.root / ".git" / "objects" / oid[:2] / oid[2:]
    text = b"thresholds: {}\n"
    os.chmod(path, 0o600)
    path.write_bytes(zlib.compress(b"blob %d\0" % len(text) + text))
    result = cli("history", "qa/exact_match", cwd=repo.root)
    assert (result.returncode, result.stdout) == (4, ""), result.stderr
    assert oid in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_window_and_what_is_kept_do_not_change_the_history(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits read two at a time with one folder, file and tree kept: the same history as the
    defaults, merges and a link included."""
    from evalglass.records import git_history, history_loader
    from evalglass.render.history import to_json
    from evalglass.shell import api

    repo.git("checkout", "-q", "-b", "side")
    repo.edit("judges.yaml", "calibration: calibrating", "calibration: calibrated")
    repo.commit("Calibrate the grader", "Cal Ibrator", "2026-11-23")
    repo.git("checkout", "-q", "main")
    repo.edit("thresholds.yaml", "value: 0.85", "value: 0.8")
    repo.commit("Lower the bar", "Ann Owner", "2026-11-24")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge side", "side", day="2026-11-25")
    monkeypatch.chdir(repo.root)

    def both() -> list[dict]:
        return [
            to_json(api.history(m, "host_records")) for m in ("qa/exact_match", "qa/helpfulness")
        ]

    expected = both()
    monkeypatch.setattr(git_history, "_WINDOW", 2)
    monkeypatch.setattr(history_loader, "_KEPT", 1)
    assert both() == expected
    assert len(expected[1]["commits"]) >= 3
