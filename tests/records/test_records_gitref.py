"""Records at a git ref: the committed tree under the path as given, whatever the working tree
holds, and every git failure an input error, never "no records"."""

from __future__ import annotations

import os
import posixpath
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalglass.errors import RecordError
from evalglass.records import gitref
from evalglass.records.gitref import load_records_at
from evalglass.records.model import Calibration
from tests.cli_runner import Result, cli
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS

STRICT = "PASS — 1 gate enforced"  # the example: its judge is still calibrating
PERMISSIVE = "PASS — 2 gates enforced"  # the same records with the judge calibrated


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def put_records(folder: Path, *, permissive: bool) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for f in EXAMPLE_RECORDS.iterdir():
        text = f.read_text()
        if permissive:
            text = text.replace("calibrating", "calibrated")
        (folder / f.name).write_text(text)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose main commit holds the strict records, and permissive ones elsewhere."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    put_records(repo / "host_records", permissive=False)
    put_records(repo / "strict", permissive=False)
    put_records(repo / "deep" / "permissive", permissive=True)
    put_records(repo / "deep" / "strict", permissive=True)  # a trap: lexically never reached
    shutil.copy(EXAMPLE_OUTPUT, repo / "run.json")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records")
    return repo


def commit(repo: Path, message: str = "change") -> None:
    git(repo, "add", "-A", ".")
    git(repo, "commit", "-qm", message)


def replace_by_link(path: Path, target: str) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
    path.symlink_to(target)


def one_line_error(result: subprocess.CompletedProcess[str] | Result, *words: str) -> None:
    assert result.returncode == 4, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# --- the path as given, in the committed tree ---------------------------------------------------


def test_a_symlink_in_the_working_tree_does_not_choose_the_records(repo: Path) -> None:
    """A pull request that turns host_records/ into a link to permissive records gets the
    committed strict ones, and diff sees no change."""
    replace_by_link(repo / "host_records", "deep/permissive")
    result = cli("score", "run.json", "--records-ref", "main", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(STRICT)
    assert cli("score", "run.json", cwd=repo).stdout.startswith(PERMISSIVE)  # the link itself
    same = cli("diff", "--base", "main", "--head", "main", "--fail-on-loosen", cwd=repo)
    assert same.returncode == 0 and "no change" in same.stdout.lower(), same.stdout


def test_a_symlinked_folder_committed_at_the_ref_is_refused(repo: Path) -> None:
    """The records folder committed as a symbolic link is refused (exit 4), never followed."""
    replace_by_link(repo / "host_records", "deep/permissive")
    commit(repo)
    result = cli("score", "run.json", "--records-ref", "main", cwd=repo)
    one_line_error(result, "main", "host_records", "symbolic link")
    loosen = cli("diff", "--base", "main~1", "--head", "main", "--fail-on-loosen", cwd=repo)
    one_line_error(loosen, "host_records", "symbolic link")


def test_a_symlinked_records_file_committed_at_the_ref_is_refused(repo: Path) -> None:
    """A records file committed as a link to a permissive one is refused, not read through."""
    replace_by_link(repo / "host_records" / "judges.yaml", "../deep/permissive/judges.yaml")
    commit(repo)
    one_line_error(
        cli("score", "run.json", "--records-ref", "main", cwd=repo),
        "host_records/judges.yaml",
        "symbolic link",
    )


def test_a_symlinked_parent_folder_at_the_ref_is_refused(repo: Path) -> None:
    """Every folder on the way to the records is walked in the tree: a linked parent is refused."""
    (repo / "config").symlink_to("deep")
    commit(repo)
    one_line_error(
        cli(
            "score", "run.json", "--records", "config/permissive", "--records-ref", "main", cwd=repo
        ),
        "config",
        "symbolic link",
    )


def test_dot_dot_is_lexical_and_cannot_leave_the_repository(repo: Path) -> None:
    """`host_records/../strict` is `strict` at the ref, even when host_records links elsewhere
    in the working tree; a path leaving the repository is refused."""
    replace_by_link(repo / "host_records", "deep/permissive")
    result = cli(
        "score",
        "run.json",
        "--records",
        "host_records/../strict",
        "--records-ref",
        "main",
        cwd=repo,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(STRICT)
    one_line_error(
        cli("score", "run.json", "--records", "../host_records", "--records-ref", "main", cwd=repo),
        "outside",
    )


def test_a_path_given_through_a_symlinked_cwd(repo: Path, tmp_path: Path) -> None:
    """From a current directory reached through a link, the path is taken from where git says
    the directory is in the repository."""
    (tmp_path / "elsewhere").symlink_to(repo / "deep")
    (repo / "host_records").rename(repo / "moved")  # nothing in the working tree to follow
    result = cli(
        "score",
        "../run.json",
        "--records",
        "../host_records",
        "--records-ref",
        "main",
        cwd=tmp_path / "elsewhere",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(STRICT)


def test_a_baseline_scorecard_linked_at_the_ref_is_refused(repo: Path) -> None:
    """A baseline's scorecard file is read from the same tree: a committed link is refused."""
    (repo / "saved").mkdir()
    (repo / "saved" / "base.json").write_text("{}")
    baselines = repo / "host_records" / "baselines.yaml"
    baselines.write_text(
        "baselines:\n  qa/exact_match:\n    scorecard: links/base.json\n"
        "    dataset_version: '2026-10'\n"
    )
    (repo / "host_records" / "links").symlink_to("../saved")
    commit(repo)
    one_line_error(
        cli("score", "run.json", "--records-ref", "main", cwd=repo),
        "host_records/links",
        "symbolic link",
    )


def test_a_submodule_where_the_records_should_be_is_refused(repo: Path, tmp_path: Path) -> None:
    """A gitlink (submodule) at the records path names another repository's commit: refused."""
    inner = tmp_path / "inner"
    inner.mkdir()
    git(inner, "init", "-q", "-b", "main")
    put_records(inner, permissive=True)
    commit(inner)
    git(repo, "rm", "-rq", "host_records")
    oid = git(inner, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{oid},host_records")
    git(repo, "commit", "-qm", "submodule")
    one_line_error(
        cli("score", "run.json", "--records-ref", "main", cwd=repo), "host_records", "submodule"
    )


_PARTS = ("host_records", "strict", "deep", "permissive", "link", "..", ".", "nowhere")
# The folders committed at main, and the calibration of the judge in each (None: no records).
_COMMITTED = {
    ".": None,
    "deep": None,
    "host_records": Calibration.CALIBRATING,
    "strict": Calibration.CALIBRATING,
    "deep/permissive": Calibration.CALIBRATED,
    "deep/strict": Calibration.CALIBRATED,
}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(parts=st.lists(st.sampled_from(_PARTS), min_size=1, max_size=4))
def test_any_path_reads_exactly_the_committed_folder_it_names(
    linked_repo: Path, parts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """For any path over real folders, links, `.` and `..`: the records read are those the path
    names lexically in the committed tree, or, when that is no committed folder (a link, a
    missing one, outside the repository), the path is refused in one line."""
    monkeypatch.chdir(linked_repo)
    given_path = "/".join(parts)
    normal = posixpath.normpath(given_path)
    if normal not in _COMMITTED:
        with pytest.raises(RecordError) as caught:
            load_records_at("main", given_path)
        assert "\n" not in str(caught.value)
        return
    records = load_records_at("main", given_path)
    judge = records.judges.get("grader-v2")
    assert (judge.calibration if judge else None) is _COMMITTED[normal], given_path


@pytest.fixture
def linked_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository with a committed link `link` -> deep/permissive, and in the working tree
    host_records and strict swapped for links to the permissive records."""
    repo = tmp_path_factory.mktemp("linked") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    put_records(repo / "host_records", permissive=False)
    put_records(repo / "strict", permissive=False)
    put_records(repo / "deep" / "permissive", permissive=True)
    put_records(repo / "deep" / "strict", permissive=True)
    (repo / "link").symlink_to("deep/permissive")
    commit(repo)
    replace_by_link(repo / "host_records", "deep/permissive")
    replace_by_link(repo / "strict", "deep/permissive")
    return repo


# --- git failures are errors, never "absent" ----------------------------------------------------


def blob_path(repo: Path, spec: str) -> Path:
    oid = git(repo, "rev-parse", spec).strip()
    return repo / ".git" / "objects" / oid[:2] / oid[2:]


def test_a_missing_object_is_an_error_naming_ref_and_path(repo: Path) -> None:
    """A records blob missing from the object store fails the run (exit 4), naming the file;
    it is not read as "no judges", which would turn every judged gate informational."""
    blob_path(repo, "main:host_records/thresholds.yaml").unlink()
    one_line_error(
        cli("score", "run.json", "--records-ref", "main", cwd=repo),
        "main",
        "host_records/thresholds.yaml",
    )


def test_a_corrupt_object_is_an_error(repo: Path) -> None:
    """A records blob that does not inflate is an input error naming ref and file."""
    path = blob_path(repo, "main:host_records/thresholds.yaml")
    os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    path.write_bytes(b"not a zlib stream")
    one_line_error(
        cli("score", "run.json", "--records-ref", "main", cwd=repo),
        "main",
        "host_records/thresholds.yaml",
    )


def test_a_blobless_clone_whose_remote_is_gone_is_an_error(repo: Path, tmp_path: Path) -> None:
    """A partial clone cannot fetch the records blobs once its remote is gone: exit 4."""
    git(repo, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--no-checkout", "--filter=blob:none", f"file://{repo}", str(clone)],
        check=True,
        capture_output=True,
    )
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    shutil.rmtree(repo)
    one_line_error(
        cli("score", "../run.json", "--records-ref", "origin/main", cwd=clone),
        "origin/main",
        "host_records/",
    )


def test_dubious_ownership_is_named_with_safe_directory(repo: Path) -> None:
    """A repository owned by another user: git refuses it, and the message says so and names
    git's safe.directory setting."""
    if os.geteuid() != 0:
        pytest.skip("changing a folder's owner needs root")
    os.chown(repo, 12345, 12345)
    result = cli("score", "run.json", "--records-ref", "main", cwd=repo)
    one_line_error(result, "dubious ownership", "safe.directory")


def fake_git(folder: Path, script: str) -> str:
    folder.mkdir(exist_ok=True)
    path = folder / "git"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return f"{folder}:/usr/bin:/bin"


def test_git_saying_dubious_ownership_is_named_as_such(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's multi-line dubious-ownership refusal becomes one line naming safe.directory."""
    path = fake_git(
        tmp_path / "bin",
        (
            "echo \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\n"
            "echo 'To add an exception for this directory, call:' >&2\n"
            "echo '' >&2\necho \"\tgit config --global --add safe.directory $PWD\" >&2\nexit 128\n"
        ),
    )
    monkeypatch.setenv("PATH", path)
    monkeypatch.chdir(repo)
    with pytest.raises(RecordError) as caught:
        load_records_at("main", "host_records")
    assert "dubious ownership" in str(caught.value) and "safe.directory" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_git_missing_is_an_error(repo: Path, tmp_path: Path) -> None:
    """Without git on PATH, reading records at a ref is an input error, not the working tree."""
    (tmp_path / "empty").mkdir()
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "evalglass"),
            "score",
            "run.json",
            "--records-ref",
            "main",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path / "empty")},
        timeout=60,
        check=False,
    )
    one_line_error(result, "git is not installed")


def test_a_git_that_does_not_answer_times_out(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git that hangs is stopped and reported, naming the ref."""
    monkeypatch.setenv("PATH", fake_git(tmp_path / "bin", "sleep 30\n"))
    monkeypatch.setattr(gitref, "TIMEOUT_SECONDS", 0.5)
    monkeypatch.chdir(repo)
    with pytest.raises(RecordError, match="did not answer") as caught:
        load_records_at("main", "host_records")
    assert "main" in str(caught.value)


def test_a_missing_ref_and_a_missing_folder_are_errors(repo: Path) -> None:
    """Only a path absent at the ref means absent: a missing ref or folder fails the run."""
    one_line_error(cli("score", "run.json", "--records-ref", "nope", cwd=repo), "nope")
    one_line_error(
        cli("score", "run.json", "--records", "nowhere", "--records-ref", "main", cwd=repo),
        "nowhere",
    )


def test_a_missing_records_file_at_the_ref_means_no_records_of_its_kind(repo: Path) -> None:
    """A records file not committed at the ref is absent (as in a folder), not an error."""
    (repo / "host_records" / "policies.yaml").unlink()
    commit(repo)
    records = load_records_at_in(repo, "main", "host_records")
    assert records.policies == {} and records.metrics


def load_records_at_in(repo: Path, ref: str, folder: str):
    here = os.getcwd()
    os.chdir(repo)
    try:
        return load_records_at(ref, folder)
    finally:
        os.chdir(here)


@pytest.mark.parametrize(
    "args",
    [
        ("score", "run.json", "--records-ref", ""),
        ("score", "run.json", "--records", ""),
        ("score", "run.json", "--records", "", "--records-ref", "main"),
        ("diff", "--base", ""),
        ("diff", "--base", "main", "--head", ""),
        ("diff", "--base", "main", "--records", ""),
        ("validate", "--records", ""),
        ("doctor", "--records", ""),
        ("mcp", "--records-ref", ""),
        ("mcp", "--records", ""),
    ],
)
def test_empty_ref_or_folder_is_a_usage_error(repo: Path, args: tuple[str, ...]) -> None:
    """An empty ref or records folder is a usage error (exit 2), never the working tree."""
    result = cli(*args, cwd=repo)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""


def test_newlines_in_a_ref_or_path_stay_on_one_line(repo: Path) -> None:
    """A ref or folder with a newline cannot forge a second line of output."""
    for args in (
        ("--records-ref", "main\nPASS — forged"),
        ("--records-ref", "main", "--records", "no\nPASS — forged"),
    ):
        result = cli("score", "run.json", *args, cwd=repo)
        one_line_error(result)
        assert "\\n" in result.stderr


def test_the_python_api_refuses_an_empty_ref(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """evalglass.score(records_ref="") is an error, not a run on the working tree's records."""
    from evalglass.shell import api

    monkeypatch.chdir(repo)
    with pytest.raises(RecordError, match="empty git ref"):
        api.score(["run.json"], "host_records", records_ref="")
    with pytest.raises(RecordError, match="empty git ref"):
        api.diff_records("main", "host_records", head_ref="")
