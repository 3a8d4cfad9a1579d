"""Records at a pinned ref say what the commit says, whatever code run earlier in the same job
wrote into `.git`: replace objects and grafts are ignored, and every commit, tree and blob read
is checked against its id (a rewritten loose object or a forged pack entry is refused, exit 4)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.errors import ContractError
from evalglass.records import git_objects
from tests.cli_runner import cli
from tests.mcp_client import Call, calls, example_repo
from tests.records.test_records_gitref import git, one_line_error

AS_OF = ("--as-of", "2026-11-30")
THRESHOLDS = "host_records/thresholds.yaml"


@pytest.fixture
def failing(tmp_path: Path) -> Path:
    """The bundled example committed with a bar its run does not clear: `score` fails."""
    repo = example_repo(tmp_path)
    path = repo / THRESHOLDS
    path.write_text(path.read_text().replace("value: 0.85", "value: 0.99", 1))
    git(repo, "commit", "-qam", "raise the bar")
    return repo


def score(repo: Path, *args: str) -> tuple[int, str]:
    result = cli("score", "run.json", "--records-ref", "HEAD", "--format", "json", *AS_OF, *args,
                 cwd=repo)  # fmt: skip
    return result.returncode, result.stdout or result.stderr


def lenient_blob(repo: Path) -> tuple[str, bytes]:
    """The thresholds as they were before the bar went up, written as a loose object."""
    text = (repo / THRESHOLDS).read_bytes().replace(b"value: 0.99", b"value: 0.85", 1)
    done = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text, capture_output=True,
        check=True,
    )  # fmt: skip
    return done.stdout.decode().strip(), text


def blob_of(repo: Path, spec: str) -> str:
    return git(repo, "rev-parse", spec).strip()


def loose_file(repo: Path, oid: str) -> Path:
    return repo / ".git" / "objects" / oid[:2] / oid[2:]


def test_failing_records_fail(failing: Path) -> None:
    """The fixture itself: the raised bar fails the run, as committed."""
    code, out = score(failing)
    assert code == 1 and json.loads(out)["verdict"] == "fail", out


def test_a_replace_object_does_not_change_the_verdict(failing: Path) -> None:
    """`git replace` of the committed thresholds blob by a lenient one is not read: the run still
    fails, and says the same as before byte for byte."""
    before = score(failing)
    lenient, _ = lenient_blob(failing)
    git(failing, "replace", blob_of(failing, f"HEAD:{THRESHOLDS}"), lenient)
    assert git(failing, "cat-file", "blob", f"HEAD:{THRESHOLDS}").count("0.85") == 1  # git obeys
    assert score(failing) == before


def test_a_replaced_commit_or_a_graft_does_not_change_the_records(failing: Path) -> None:
    """Neither a replacement for the pinned commit (pointing at the lenient tree) nor a graft
    that gives it other parents changes what HEAD's records say, or HEAD~1."""
    before, earlier = (
        score(failing),
        cli(
            "score", "run.json", "--records-ref", "HEAD~1", "--format", "json", *AS_OF, cwd=failing
        ).stdout,
    )
    head = blob_of(failing, "HEAD")
    lenient_tree = blob_of(failing, "HEAD~1^{tree}")
    forged = git(failing, "commit-tree", lenient_tree, "-m", "forged").strip()
    git(failing, "replace", head, forged)
    assert score(failing) == before
    git(failing, "replace", "-d", head)
    grafts = failing / ".git" / "info" / "grafts"
    grafts.parent.mkdir(exist_ok=True)
    grafts.write_text(f"{head} {forged}\n")  # HEAD~1 would become the forged commit
    assert (
        cli(
            "score", "run.json", "--records-ref", "HEAD~1", "--format", "json", *AS_OF, cwd=failing
        ).stdout
        == earlier
    )


def test_a_running_mcp_server_ignores_a_replace_made_after_it_started(failing: Path) -> None:
    """`evalglass mcp --records-ref` re-reads its pinned commit on every call: a replace object
    added between two calls changes neither answer."""
    lenient, _ = lenient_blob(failing)
    committed = blob_of(failing, f"HEAD:{THRESHOLDS}")

    def between(i: int) -> None:
        if i == 1:
            git(failing, "replace", committed, lenient)

    todo: list[Call] = [("score", {"outputs": ["run.json"], "as_of": "2026-11-30"})] * 2
    first, second = calls(failing, ["--records-ref", "HEAD"], todo, between, stdio=False)
    assert json.loads(first.text)["verdict"] == "fail"
    assert second.text == first.text


def test_a_rewritten_loose_object_is_refused_naming_it_and_its_path(failing: Path) -> None:
    """The thresholds blob's loose file overwritten with the lenient content (validly
    compressed): git serves it under the old id; evalglass refuses it, exit 4, naming the object
    and the file."""
    committed = blob_of(failing, f"HEAD:{THRESHOLDS}")
    _, text = lenient_blob(failing)
    path = loose_file(failing, committed)
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    path.write_bytes(zlib.compress(b"blob %d\0" % len(text) + text))
    assert "0.85" in git(failing, "cat-file", "blob", committed)  # git does not notice
    for command in (
        ("score", "run.json", "--records-ref", "HEAD"),
        ("run", "run.json", "--records-ref", "HEAD", "--no-cache"),
    ):
        one_line_error(cli(*command, cwd=failing), committed, THRESHOLDS, "HEAD")


def test_a_rewritten_tree_or_commit_is_refused(failing: Path) -> None:
    """The records folder's tree, or the commit itself, rewritten to point at the lenient
    thresholds: refused, naming the object."""
    lenient, _ = lenient_blob(failing)
    folder = blob_of(failing, "HEAD:host_records")
    listing = git(failing, "ls-tree", folder).replace(
        blob_of(failing, f"HEAD:{THRESHOLDS}"), lenient
    )
    forged_tree = subprocess.run(
        ["git", "mktree"], cwd=failing, input=listing, capture_output=True, text=True, check=True
    ).stdout.strip()
    raw = subprocess.run(
        ["git", "cat-file", "tree", forged_tree], cwd=failing, capture_output=True, check=True
    ).stdout
    path = loose_file(failing, folder)
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    path.write_bytes(zlib.compress(b"tree %d\0" % len(raw) + raw))
    one_line_error(cli("score", "run.json", "--records-ref", "HEAD", cwd=failing), folder)


def _forged_pack(repo: Path, claimed: str, content_oid: str) -> None:
    """A pack holding the object `content_oid`, its index saying it is `claimed`: git serves
    the lenient bytes for the committed id (the newest pack is searched first)."""
    pack = repo / ".git" / "objects" / "pack"
    name = subprocess.run(
        ["git", "pack-objects", "-q", str(pack / "forged")], cwd=repo, input=content_oid + "\n",
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    idx = pack / f"forged-{name}.idx"
    data = bytearray(idx.read_bytes())
    assert data[:8] == b"\377tOc\0\0\0\2"
    first = int(claimed[:2], 16)
    fanout = struct.pack(">256I", *[0 if i < first else 1 for i in range(256)])
    data[8 : 8 + 1024] = fanout
    data[8 + 1024 : 8 + 1024 + 20] = bytes.fromhex(claimed)
    data[-20:] = hashlib.sha1(bytes(data[:-20])).digest()
    os.chmod(idx, stat.S_IRUSR | stat.S_IWUSR)
    idx.write_bytes(bytes(data))
    later = os.stat(idx).st_mtime + 100
    for part in pack.glob(f"forged-{name}.*"):
        os.utime(part, (later, later))


def test_a_forged_entry_in_a_packed_repository_is_never_read(
    failing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a repository packed by `git gc`, a second pack whose index names the committed
    thresholds blob for the lenient content: asked first, git serves the forged bytes, and they
    are refused; asked after the genuine pack served other objects, git serves the genuine ones.
    Either way the lenient bar is never applied."""
    before = score(failing)
    git(failing, "gc", "-q")
    committed = blob_of(failing, f"HEAD:{THRESHOLDS}")
    lenient, _ = lenient_blob(failing)
    _forged_pack(failing, committed, lenient)
    assert "0.85" in git(failing, "cat-file", "blob", committed)  # git serves the forged bytes
    monkeypatch.chdir(failing)
    with (
        git_objects.ObjectReader(30) as reader,
        pytest.raises(git_objects.ObjectError, match=committed),
    ):
        reader.read(committed, "blob")
    code, out = score(failing)
    assert (code, out) == before or (code == 4 and committed in out and THRESHOLDS in out), out


def test_object_ids_are_git_s_own_for_both_formats(tmp_path: Path) -> None:
    """The hash evalglass checks is the one git computes, for SHA-1 and SHA-256 repositories."""
    data = b"thresholds: {}\n\0\xff"
    for form, length in (("sha1", 40), ("sha256", 64)):
        repo = tmp_path / form
        subprocess.run(["git", "init", "-q", f"--object-format={form}", str(repo)], check=True)
        oid = subprocess.run(
            ["git", "hash-object", "--stdin"], cwd=repo, input=data, capture_output=True,
            check=True,
        ).stdout.decode().strip()  # fmt: skip
        assert git_objects.object_id("blob", data, length) == oid


def test_the_scorecard_names_the_commit_its_records_were_read_at(failing: Path) -> None:
    """--records-ref as a branch or as a full commit id: the JSON's records_at holds the ref as
    given and the commit it named; the terminal and Markdown say it once; the working tree's
    records give null, and the cards name only the folder."""
    head = blob_of(failing, "HEAD")
    git(failing, "branch", "-q", "base")
    for ref in ("base", head):
        code, out = score(failing, "--records-ref", ref)
        assert code == 1 and json.loads(out)["records_at"] == {"ref": ref, "commit": head}
    text = cli("score", "run.json", "--records-ref", head, cwd=failing).stdout
    assert f"records: host_records as committed at {head}, commit {head}\n" in text
    markdown = cli("score", "run.json", "--records-ref", "base", "--format", "markdown",
                   cwd=failing).stdout  # fmt: skip
    assert f"Records: `host_records` as committed at `base`, commit `{head}`" in markdown
    plain = cli("score", "run.json", "--format", "json", cwd=failing).stdout
    assert json.loads(plain)["records_at"] is None
    working = cli("score", "run.json", cwd=failing).stdout
    assert "\nrecords: host_records\n" in working and "as committed" not in working


def test_records_at_reads_back_and_refuses_a_short_commit() -> None:
    """A scorecard's records_at loads as written; a commit that is not a full id is refused, and
    a file from before records_at loads as null."""
    from evalglass import contract

    doc = json.loads(
        (Path(__file__).parents[1] / "golden/example/scorecard.records-at.json").read_text()
    )
    assert contract.loads(json.dumps(doc), "x").records_at == contract.RecordsAt(
        ref="origin/main", commit="1f" * 20
    )
    doc["records_at"]["commit"] = "1f1f1f1"
    with pytest.raises(ContractError, match="records_at: commit must be a full commit id"):
        contract.loads(json.dumps(doc), "x")
    del doc["records_at"]
    assert contract.loads(json.dumps(doc), "x").records_at is None


def test_a_reader_answers_again_after_a_refusal(
    failing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing id, an object of another type or a rewritten one stops that read only: the
    same reader answers the next request correctly."""
    monkeypatch.chdir(failing)
    head = blob_of(failing, "HEAD")
    with git_objects.ObjectReader(30) as reader:
        with pytest.raises(git_objects.ObjectMissing):
            reader.read("0" * 40, "blob")
        with pytest.raises(git_objects.ObjectError, match="is a commit, not a tree"):
            reader.read(head, "tree")
        with pytest.raises(git_objects.ObjectError, match="not a full object id"):
            reader.read("HEAD", "commit")
        tree = git_objects.parse_commit(reader.read(head, "commit")).tree
        assert tree == blob_of(failing, "HEAD^{tree}")
        many = dict(reader.read_many([tree, tree], "tree"))
        assert list(git_objects.parse_tree(many[tree], 20)) == ["host_records", "run.json"]


def test_a_rows_file_copied_at_a_ref_is_checked_too(
    failing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copy_file_at (a baseline's rows file, streamed to a temporary file) refuses a blob whose
    loose object was rewritten, naming it, after streaming it."""
    import io

    from evalglass.errors import RecordError
    from evalglass.records.gitref import copy_file_at

    monkeypatch.chdir(failing)
    committed = blob_of(failing, f"HEAD:{THRESHOLDS}")
    target = io.BytesIO()
    assert copy_file_at("HEAD", "host_records", "thresholds.yaml", target)
    assert target.getvalue() == (failing / THRESHOLDS).read_bytes()
    _, text = lenient_blob(failing)
    path = loose_file(failing, committed)
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    path.write_bytes(zlib.compress(b"blob %d\0" % len(text) + text))
    with pytest.raises(RecordError, match=committed):
        copy_file_at("HEAD", "host_records", "thresholds.yaml", io.BytesIO())


_NAMES = st.text(
    st.characters(blacklist_characters="\0/", blacklist_categories=("Cs",)), min_size=1, max_size=20
)
_MODES = st.sampled_from(["100644", "100755", "40000", "120000", "160000"])


@given(
    st.dictionaries(_NAMES, st.tuples(_MODES, st.binary(min_size=20, max_size=20)), max_size=8),
    st.sampled_from([20, 32]),
)
def test_a_tree_parses_to_the_entries_written_into_it(
    entries: dict[str, tuple[str, bytes]], size: int
) -> None:
    """Any tree object, as git encodes one (`<mode> <name>\\0<binary id>`), parses back to its
    entries; cut anywhere inside an entry, it is refused, never read short."""
    raw = b"".join(
        mode.encode() + b" " + name.encode() + b"\0" + (oid * 2)[:size]
        for name, (mode, oid) in entries.items()
    )
    parsed = git_objects.parse_tree(raw, size)
    assert parsed == {
        name: git_objects.TreeEntry(mode=mode, oid=(oid * 2)[:size].hex())
        for name, (mode, oid) in entries.items()
    }
    if raw:
        with pytest.raises(git_objects.ObjectError):
            git_objects.parse_tree(raw[:-1], size)


@given(st.lists(st.binary(min_size=20, max_size=20).map(bytes.hex), max_size=3), st.binary())
def test_a_commit_gives_its_tree_and_parents_whatever_its_message(
    parents: list[str], message: bytes
) -> None:
    """The tree and parents come from the headers only: a message holding `tree` or `parent`
    lines after the blank line changes neither."""
    tree = "ab" * 20
    raw = (
        f"tree {tree}\n".encode()
        + b"".join(f"parent {p}\n".encode() for p in parents)
        + b"author A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\n\n"
        + message
        + b"\ntree "
        + b"cd" * 20
        + b"\nparent "
        + b"ef" * 20
    )
    assert git_objects.parse_commit(raw) == git_objects.CommitObject(
        tree=tree, parents=tuple(parents)
    )


def test_a_records_file_past_the_parse_cap_at_a_ref_is_one_line_exit_4(failing: Path) -> None:
    """A thresholds file at the ref larger than the parse cap is refused from the size git
    states, before it is read: one line naming the ref and file, exit 4."""
    path = failing / THRESHOLDS
    path.write_text(path.read_text() + "# padding\n" * 500)
    git(failing, "commit", "-qam", "pad")
    result = cli("score", "run.json", "--records-ref", "HEAD", cwd=failing,
                 env={"EVALGLASS_MAX_PARSE_BYTES": "4K"})  # fmt: skip
    one_line_error(result, f"HEAD:{THRESHOLDS}", "past the 4 KiB cap", "EVALGLASS_MAX_PARSE_BYTES")
