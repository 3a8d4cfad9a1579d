"""Git LFS pointers: the parser takes exactly the spec's one encoding of a pointer and nothing
else, and an object is copied out of the local LFS store only when it is the one the pointer
names. Pointers and stores are written here by the spec (docs/spec.md of git-lfs), without
git-lfs."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from evalglass.records import lfs
from tests.records.test_records_gitref import git

V1 = "https://git-lfs.github.com/spec/v1"


def encoded(version: str, fields: dict[str, str]) -> bytes:
    """A pointer as the spec writes it: version first, then every other key sorted."""
    lines = [f"version {version}"] + [f"{k} {fields[k]}" for k in sorted(fields)]
    return "".join(line + "\n" for line in lines).encode("utf-8")


def pointer_to(data: bytes) -> bytes:
    """The pointer git-lfs writes for a file holding `data`."""
    return encoded(
        V1, {"oid": "sha256:" + hashlib.sha256(data).hexdigest(), "size": str(len(data))}
    )


def reencoded(p: lfs.Pointer) -> bytes:
    """The one encoding of what the parser read."""
    return encoded(p.version, {"oid": "sha256:" + p.oid, "size": str(p.size), **dict(p.others)})


def put_object(storage: Path, data: bytes) -> Path:
    """`data` stored as git-lfs stores an object: under its sha256, sharded by its first bytes."""
    oid = hashlib.sha256(data).hexdigest()
    path = storage / "objects" / oid[0:2] / oid[2:4] / oid
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


_OTHER_KEYS = st.from_regex(r"[a-z0-9.-]{1,12}", fullmatch=True).filter(
    lambda k: k not in ("version", "oid", "size")
)
_VALUES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
    min_size=1,
    max_size=250,
).filter(lambda v: not v.startswith(" "))


@st.composite
def pointers(draw: st.DrawFn) -> tuple[bytes, lfs.Pointer]:
    """A valid pointer's bytes, with the pointer they say: any version git-lfs reads, any
    oid and size, and other keys (extensions among them) that the spec lets a pointer carry."""
    oid = draw(st.from_regex(r"[0-9a-f]{64}", fullmatch=True))
    size = draw(st.integers(min_value=0, max_value=2**63 - 1))
    version = draw(st.sampled_from(sorted(lfs.VERSIONS)))
    others = draw(st.dictionaries(_OTHER_KEYS, _VALUES, max_size=4))
    data = encoded(version, {"oid": f"sha256:{oid}", "size": str(size), **others})
    pointer = lfs.Pointer(oid=oid, size=size, version=version, others=tuple(sorted(others.items())))
    return data, pointer


@given(pointers())
def test_a_pointer_written_by_the_spec_reads_back(case: tuple[bytes, lfs.Pointer]) -> None:
    """Every pointer the spec allows reads as the oid, size and keys it names, unless it is
    1024 bytes or more, which no pointer is."""
    data, pointer = case
    assert lfs.parse(data) == (pointer if len(data) < lfs.LIMIT else None)


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A valid pointer with a few bytes deleted, replaced or inserted."""
    data = bytearray(draw(pointers())[0])
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        byte = draw(st.sampled_from(b"\n\r :0aAf-z\x00\xff"))
        kind = draw(st.sampled_from(("delete", "replace", "insert")))
        if kind == "insert" or at == len(data):
            data.insert(at, byte)
        elif kind == "delete":
            del data[at]
        else:
            data[at] = byte
    return bytes(data)


@given(st.one_of(damaged(), st.binary(max_size=200)))
@example(pointer_to(b"PAR1").replace(b"\n", b"\r\n"))
@example(pointer_to(b"PAR1") + b"\n")
def test_only_the_one_encoding_of_a_pointer_is_a_pointer(data: bytes) -> None:
    """Whatever the parser takes as a pointer is byte for byte the spec's encoding of it: a
    pointer written any other way is the file's content, never read as a pointer."""
    pointer = lfs.parse(data)
    assert pointer is None or reencoded(pointer) == data


OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"
GOOD = f"version {V1}\noid sha256:{OID}\nsize 12345\n"


@pytest.mark.parametrize(
    "text",
    [
        "",
        GOOD.rstrip("\n"),  # no newline after the last line
        GOOD.replace("\n", "\r\n"),
        GOOD + "\n",  # a blank line
        " " + GOOD,
        GOOD.replace("size 12345", "size  12345"),  # two spaces
        GOOD.replace("size 12345", "size 12345 "),
        f"version {V1}\nkind  x\noid sha256:{OID}\nsize 12345\n",  # two spaces, another key
        f"version {V1}\nkind x\r\noid sha256:{OID}\nsize 12345\n",  # a return in a value
        GOOD.replace("size 12345", "size\t12345"),
        GOOD.replace(OID, OID.upper()),
        GOOD.replace(OID, OID[:-1]),
        GOOD.replace(OID, OID + "0"),
        GOOD.replace("sha256:", "sha1:"),
        GOOD.replace("sha256:", "SHA256:"),
        GOOD.replace("size 12345", "size -1"),
        GOOD.replace("size 12345", "size +1"),
        GOOD.replace("size 12345", "size 012345"),
        GOOD.replace("size 12345", "size 1.5"),
        GOOD.replace("size 12345", "size 1e3"),
        GOOD.replace("size 12345", "size"),
        GOOD.replace("size 12345\n", ""),  # no size
        GOOD.replace(f"oid sha256:{OID}\n", ""),  # no oid
        f"oid sha256:{OID}\nversion {V1}\nsize 12345\n",  # version not first
        f"version {V1}\nsize 12345\noid sha256:{OID}\n",  # keys out of order
        GOOD + "size 12345\n",  # a key twice
        GOOD + f"version {V1}\n",
        GOOD.replace(V1, "https://git-lfs.github.com/spec/v2"),
        GOOD.replace(V1, V1 + "/"),
        GOOD.replace(V1, V1.upper()),
        GOOD.replace("oid", "OID"),
        GOOD.replace("oid sha256", "o_d sha256"),
        f"version {V1}\nfoo\noid sha256:{OID}\nsize 12345\n",  # a line without a value
        "\ufeff" + GOOD,  # a byte order mark
        f"version {V1}\nnotes {'x' * 1024}\noid sha256:{OID}\nsize 12345\n",  # 1024 bytes or more
        "PAR1",
    ],
)
def test_a_malformed_pointer_is_not_a_pointer(text: str) -> None:
    """Each way a pointer can be written wrong is not a pointer: the file is its own content, so
    a rows file holding it is refused as not Parquet, as git-lfs leaves it unread."""
    assert lfs.parse(text.encode("utf-8")) is None


def test_a_pointer_of_1023_bytes_is_one_and_of_1024_is_not() -> None:
    """The size limit is the spec's: less than 1024 bytes, every line counted."""
    pad = "x" * (1023 - len(GOOD) - len("notes \n"))
    fits = f"version {V1}\nnotes {pad}\noid sha256:{OID}\nsize 12345\n".encode()
    assert len(fits) == 1023 and lfs.parse(fits) == lfs.Pointer(
        oid=OID, size=12345, others=(("notes", pad),)
    )
    assert lfs.parse(fits.replace(b"notes ", b"notes x")) is None


def test_not_a_pointer_in_utf8_is_not_one() -> None:
    """Bytes that are not UTF-8 are never a pointer."""
    assert lfs.parse(GOOD.replace("12345", "1").encode() + b"ext-0-x \xff\n") is None


def test_the_pointers_git_lfs_reads_are_read_with_their_keys() -> None:
    """The spec's example, its pre-release version, and a pointer with an extension and a key
    no one knows."""
    assert lfs.parse(GOOD.encode()) == lfs.Pointer(oid=OID, size=12345)
    hawser = GOOD.replace(V1, "https://hawser.github.com/spec/v1")
    assert lfs.parse(hawser.encode()) == lfs.Pointer(
        oid=OID, size=12345, version="https://hawser.github.com/spec/v1"
    )
    extended = f"version {V1}\next-0-foo sha256:{OID}\nkind x y\noid sha256:{OID}\nsize 1\n"
    pointer = lfs.parse(extended.encode())
    assert pointer is not None and pointer.extensions == ("ext-0-foo",)
    assert pointer.others == (("ext-0-foo", f"sha256:{OID}"), ("kind", "x y"))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty git repository."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


def _copied(data: bytes, where: Path | None, ref: str | None = None) -> tuple[str | None, bytes]:
    pointer = lfs.parse(pointer_to(data))
    assert pointer is not None
    target = io.BytesIO()
    problem = lfs.copy_object(pointer, where, target, ref)
    return problem, target.getvalue()


def test_an_object_in_the_store_is_copied_whole(repo: Path) -> None:
    """The object the pointer names, larger than one read, is copied byte for byte, from the
    repository's folder and from a folder below it."""
    data = bytes(range(256)) * 9000  # over 2 MiB, so the copy takes several reads
    put_object(repo / ".git" / "lfs", data)
    (repo / "rec" / "deep").mkdir(parents=True)
    for where in (repo, repo / "rec" / "deep"):
        assert _copied(data, where) == (None, data)


def test_a_missing_object_says_what_to_run(repo: Path) -> None:
    """No object: the problem names the fetch for the working tree or for the ref."""
    problem, _ = _copied(b"PAR1 rows", repo)
    assert problem is not None and problem.startswith(
        "is a Git LFS pointer whose object this clone does not have"
    )
    assert "run `git lfs pull`" in problem
    problem, _ = _copied(b"PAR1 rows", repo, ref="origin/main")
    assert problem is not None and "run `git lfs fetch origin origin/main`" in problem


@pytest.mark.parametrize(
    "stored",
    [b"PAR1 rowz", b"PAR1 rows!", b"PAR1 row", b"", b"PAR1 rows" * 300_000],
    ids=["same-size", "longer", "shorter", "empty", "much-longer"],
)
def test_an_object_that_is_not_the_pointers_is_corrupt(repo: Path, stored: bytes) -> None:
    """An object under the pointer's name whose bytes differ, in content or in length: refused
    as corrupt, and a much longer one is not read to its end."""
    data = b"PAR1 rows"
    oid = hashlib.sha256(data).hexdigest()
    path = repo / ".git" / "lfs" / "objects" / oid[0:2] / oid[2:4] / oid
    path.parent.mkdir(parents=True)
    path.write_bytes(stored)
    problem, copied = _copied(data, repo)
    assert problem is not None and "object in the local LFS store is corrupt" in problem
    assert "`git lfs fsck` moves it aside, then run `git lfs pull`" in problem
    assert len(copied) <= len(data) + (1 << 20)


def test_lfs_storage_moves_the_store(repo: Path, tmp_path: Path) -> None:
    """`lfs.storage` in git's config is honoured: absolute, or relative to git's directory."""
    data = b"PAR1 moved"
    git(repo, "config", "lfs.storage", str(tmp_path / "elsewhere"))
    put_object(tmp_path / "elsewhere", data)
    assert _copied(data, repo) == (None, data)
    git(repo, "config", "lfs.storage", "big")
    assert _copied(data, repo)[0] is not None  # no longer where the old setting put it
    put_object(repo / ".git" / "big", data)
    assert _copied(data, repo) == (None, data)


def test_a_linked_worktree_reads_the_common_store(repo: Path, tmp_path: Path) -> None:
    """In a worktree made by `git worktree add`, the store is the main repository's."""
    data = b"PAR1 shared"
    git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    put_object(repo / ".git" / "lfs", data)
    assert _copied(data, tmp_path / "linked") == (None, data)


def test_outside_a_repository_there_is_no_store(tmp_path: Path) -> None:
    """A folder in no git repository: refused, saying so."""
    problem, _ = _copied(b"PAR1", tmp_path)
    assert problem == (
        "is a Git LFS pointer, and the records folder is in no git repository whose LFS store "
        "could hold its object"
    )


def test_a_pointer_through_an_extension_is_refused(repo: Path) -> None:
    """An extension's output is not the file: refused before the store is looked at."""
    data = b"PAR1"
    put_object(repo / ".git" / "lfs", data)
    oid = hashlib.sha256(data).hexdigest()
    pointer = lfs.Pointer(oid=oid, size=4, others=(("ext-0-foo", f"sha256:{oid}"),))
    problem = lfs.copy_object(pointer, repo, io.BytesIO())
    assert problem is not None and "extension(s) ext-0-foo" in problem
