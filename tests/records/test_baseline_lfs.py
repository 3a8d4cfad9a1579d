"""Baselines whose Parquet rows file is kept in Git LFS, end to end through the real CLI: a
pointer whose object the local LFS store holds reads as the file itself, in the working tree and
at --records-ref; a missing or corrupt object is exit 4 in one line at the baseline's field.
The pointers and the store are written by the spec here: git-lfs is neither needed nor run."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from evalglass.records import lfs
from tests.cli_runner import Result, cli
from tests.records.test_records_gitref import commit, git
from tests.records.test_records_lfs import pointer_to, put_object
from tests.shell.test_baseline_rows import committed_repo, generated, write_parquet

SCORE = ("score", "now.parquet", "--records", "rec", "--format", "json", "--as-of", "2026-06-01")
AT_HEAD = (*SCORE, "--records-ref", "HEAD")


def into_lfs(repo: Path, path: Path) -> Path:
    """The file moved into the repository's LFS store, a pointer left in its place; the object's
    path."""
    data = path.read_bytes()
    path.write_bytes(pointer_to(data))
    return put_object(repo / ".git" / "lfs", data)


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    """The same records and rows committed twice: the rows file as itself, and through Git LFS
    (a pointer committed, as a clone made with git-lfs holds it, and its object stored)."""
    plain, _ = committed_repo(tmp_path / "plain")
    tracked, records = committed_repo(tmp_path / "lfs")
    (tracked / ".gitattributes").write_text("*.parquet filter=lfs diff=lfs merge=lfs -text\n")
    into_lfs(tracked, records / "base.parquet")
    commit(tracked, "rows in LFS")
    assert (records / "base.parquet").stat().st_size < 200  # the pointer is what is committed
    return plain, tracked


def said(stderr: str) -> list[str]:
    """What a run said on stderr, less the progress line any output that took a second to read
    gets (docs: "An output that takes more than a second to read..."): a loaded machine reads
    these files slowly enough to earn one."""
    return [
        line
        for line in stderr.splitlines()
        if not re.fullmatch(r"evalglass: read .+ in \d.*", line)
    ]


def one_line(result: Result) -> str:
    """The one line an input error prints, after checking it is exit 4 with nothing on stdout."""
    assert (result.returncode, result.stdout) == (4, ""), result.stdout + result.stderr
    (line,) = said(result.stderr)
    return line


def test_a_pointer_whose_object_is_stored_reads_as_the_file(repos: tuple[Path, Path]) -> None:
    """score (JSON and terminal) and doctor say exactly what they say of the plain file."""
    plain, tracked = repos
    for command in (SCORE, SCORE[:4], ("doctor", "--records", "rec", "now.parquet")):
        want, got = cli(*command, cwd=plain), cli(*command, cwd=tracked)
        assert want.returncode in (0, 1, 3), want.stderr
        assert (got.returncode, got.stdout, said(got.stderr)) == (want.returncode, want.stdout, [])
    assert "paired over" in cli(*SCORE[:4], cwd=tracked).stdout


def _at_any_commit(text: str) -> dict:
    doc = json.loads(text)
    assert doc.pop("records_at")["ref"] == "HEAD"
    return doc


def test_records_ref_reads_the_object_the_committed_pointer_names(
    repos: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At --records-ref the committed blob is the pointer: its object is read from the store, and
    the gates are those of the plain file at the same ref, whatever the working tree holds; the
    private copies are gone afterwards."""
    plain, tracked = repos
    write_parquet(tracked / "rec/base.parquet", generated(9, range(300), 1, 0.5))  # a checkout
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    want, got = cli(*AT_HEAD, cwd=plain), cli(*AT_HEAD, cwd=tracked)
    assert want.returncode in (0, 1, 3), want.stderr
    # The same scorecard but for the commit each repository's records were read at.
    assert got.returncode == want.returncode
    assert _at_any_commit(got.stdout) == _at_any_commit(want.stdout)
    assert got.stdout != cli(*SCORE, cwd=tracked).stdout  # the working tree's rows differ
    assert list(temporary.iterdir()) == []


def test_a_missing_object_is_one_line_saying_what_to_fetch(repos: tuple[Path, Path]) -> None:
    """A clone without the object: score and doctor refuse at the baseline's line and field,
    naming `git lfs pull`, or at --records-ref, the fetch of that ref's objects."""
    _, tracked = repos
    shutil.rmtree(tracked / ".git" / "lfs")
    short = pointer_in(tracked).oid[:12]
    for command in (SCORE, ("doctor", "--records", "rec")):
        assert one_line(cli(*command, cwd=tracked)) == (
            "evalglass: rec/baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' is a Git "
            f"LFS pointer whose object this clone does not have (sha256:{short}…); run `git lfs "
            "pull` (evalglass reads only the local LFS store)"
        )
    assert one_line(cli(*AT_HEAD, cwd=tracked)) == (
        "evalglass: HEAD:rec/baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' is a Git "
        f"LFS pointer whose object this clone does not have (sha256:{short}…); run `git lfs "
        "fetch origin HEAD` (evalglass reads only the local LFS store)"
    )


def pointer_in(repo: Path) -> lfs.Pointer:
    """The pointer the rows file is."""
    pointer = lfs.parse((repo / "rec/base.parquet").read_bytes())
    assert pointer is not None
    return pointer


def test_a_corrupt_object_is_refused(repos: tuple[Path, Path]) -> None:
    """An object whose bytes are not those the pointer names (another Parquet file, valid as
    Parquet) is never read as the baseline: exit 4, in the working tree and at the ref."""
    _, tracked = repos
    (stored,) = (tracked / ".git" / "lfs" / "objects").glob("*/*/*")
    write_parquet(stored, generated(9, range(300), 1, 0.5))
    pointer = pointer_in(tracked)
    short, size = pointer.oid[:12], pointer.size
    said = (
        "baseline 'qa/exact': rows 'base.parquet' is a Git LFS pointer whose object in the local "
        f"LFS store is corrupt (not the {size} bytes of sha256:{short}… it names); "
    )
    assert one_line(cli(*SCORE, cwd=tracked)) == (
        f"evalglass: rec/baselines.yaml:2: {said}`git lfs fsck` moves it aside, then run "
        "`git lfs pull`"
    )
    assert one_line(cli(*AT_HEAD, cwd=tracked)) == (
        f"evalglass: HEAD:rec/baselines.yaml:2: {said}`git lfs fsck HEAD` moves it aside, then "
        "run `git lfs fetch origin HEAD`"
    )


def test_a_pointer_outside_any_repository_is_refused(
    repos: tuple[Path, Path], tmp_path: Path
) -> None:
    """Records copied out of their clone, pointer and all: no store, so exit 4 saying so."""
    _, tracked = repos
    alone = tmp_path / "alone"
    shutil.copytree(tracked / "rec", alone / "rec")
    shutil.copy(tracked / "now.parquet", alone)
    assert one_line(cli(*SCORE, cwd=alone)) == (
        "evalglass: rec/baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' is a Git LFS "
        "pointer, and the records folder is in no git repository whose LFS store could hold its "
        "object"
    )


def test_a_malformed_pointer_is_not_a_parquet_file(repos: tuple[Path, Path]) -> None:
    """A pointer written wrong (here with Windows line ends) is the file's own content: not
    Parquet, even though its object is in the store."""
    _, tracked = repos
    path = tracked / "rec/base.parquet"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert one_line(cli(*SCORE, cwd=tracked)) == (
        "evalglass: rec/baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' is not a "
        "Parquet file"
    )


def test_diff_reads_each_sides_object(repos: tuple[Path, Path]) -> None:
    """A pointer changed to name a weaker object: diff shows the same loosening as for the plain
    file replaced by the same rows, in the working tree and between two commits."""
    plain, tracked = repos
    weaker = generated(2, range(500), 1, 0.5)
    write_parquet(plain / "rec/base.parquet", weaker)
    write_parquet(tracked / "rec/base.parquet", weaker)
    into_lfs(tracked, tracked / "rec/base.parquet")
    diff = ("diff", "--base", "main", "--records", "rec", "--fail-on-loosen")
    want, got = cli(*diff, cwd=plain), cli(*diff, cwd=tracked)
    assert want.returncode == 1 and "baseline_loosened" in want.stdout, want.stderr
    assert (got.returncode, got.stdout, said(got.stderr)) == (want.returncode, want.stdout, [])
    for repo in (plain, tracked):
        commit(repo, "weaker rows")
    between = ("diff", "--base", "main~1", "--head", "main", "--records", "rec")
    want, got = cli(*between, "--fail-on-loosen", cwd=plain), cli(*between, cwd=tracked)
    assert got.stdout == want.stdout and "baseline_loosened" in got.stdout
    assert git(tracked, "show", "main:rec/base.parquet").startswith("version https://git-lfs")
