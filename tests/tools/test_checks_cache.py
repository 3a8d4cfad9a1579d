"""The cache of passes cannot lie: every input of its key, changed, makes it miss; outside git,
with --no-cache or cache: no nothing is cached; a corrupt entry is a miss, not an error."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from evalglass.core.scope import Scope
from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.records.model import CheckRecord, HostRecords
from evalglass.tiers import Tier
from evalglass.tools.checks import cache
from evalglass.tools.checks.session import Settings, run_checks

CHECK = CheckRecord(run="true", timeout=60)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=root, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit: tracked.txt, a subfolder, an ignored pattern, and
    line endings normalised (`* text=auto`)."""
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    (root / ".gitattributes").write_text("* text=auto\n")
    (root / "tracked.txt").write_text("one\n")
    (root / "sub" / "kept.txt").write_text("kept\n")
    (root / ".gitignore").write_text("*.log\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    return root


def _key(root: Path, check: CheckRecord = CHECK, version: str = "1.0", where: str = ".") -> str:
    state = cache.repo_state(root / where)
    assert state is not None
    return cache.key(check, version, state)


# Each change to one input of the key; the key before and after must differ.
CHANGES: dict[str, Callable[[Path], dict[str, object]]] = {
    "command text": lambda root: {"check": CheckRecord(run="true --x", timeout=60)},
    "run or shell": lambda root: {"check": CheckRecord(shell="true", timeout=60)},
    "cwd": lambda root: {"check": CheckRecord(run="true", timeout=60, cwd="sub")},
    "timeout": lambda root: {"check": CheckRecord(run="true", timeout=61)},
    "expect_exit": lambda root: {"check": CheckRecord(run="true", timeout=60, expect_exit=1)},
    "evalglass version": lambda root: {"version": "1.1"},
    "HEAD commit": lambda root: (
        (root / "tracked.txt").write_text("two\n"),
        git(root, "commit", "-qam", "second"),
        {},
    )[-1],
    "a modified tracked file": lambda root: ((root / "tracked.txt").write_text("two\n"), {})[-1],
    "a deleted tracked file": lambda root: ((root / "tracked.txt").unlink(), {})[-1],
    "a new untracked file": lambda root: ((root / "new.py").write_text("x\n"), {})[-1],
    "a file in a new folder": lambda root: (
        (root / "new").mkdir(),
        (root / "new" / "x.py").write_text("x\n"),
        {},
    )[-1],
    "a staged file edited again": lambda root: (
        (root / "tracked.txt").write_text("two\n"),
        git(root, "add", "tracked.txt"),
        {},
    )[-1],
    "where in the repository the check runs": lambda root: {"where": "sub"},
    # git status hides both: the key reads the disk, not the index's word.
    "a file edited under assume-unchanged": lambda root: (
        git(root, "update-index", "--assume-unchanged", "tracked.txt"),
        (root / "tracked.txt").write_text("two\n"),
        {},
    )[-1],
    "a file edited under skip-worktree": lambda root: (
        git(root, "update-index", "--skip-worktree", "tracked.txt"),
        (root / "tracked.txt").write_text("two\n"),
        {},
    )[-1],
    "a file edited keeping its size and times": lambda root: _edit_keeping_stat(
        root / "tracked.txt", "six\n"
    ),
    # Through its filters git sees `one\n` both times; the bytes differ.
    "a line ending git normalises": lambda root: (
        (root / "tracked.txt").write_bytes(b"one\r\n"),
        {},
    )[-1],
}


def _edit_keeping_stat(path: Path, text: str) -> dict[str, object]:
    """An edit the index's stat data cannot see: same size, same times."""
    before = os.stat(path)
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    return {}


@pytest.mark.parametrize("change", list(CHANGES))
def test_each_input_of_the_key_changed_makes_it_miss(repo: Path, change: str) -> None:
    """The key covers the definition, the version, HEAD, where the cwd is, and every change."""
    if change == "a staged file edited again":
        # Staged and then edited once more: git's status line reads the same both times.
        (repo / "tracked.txt").write_text("staged\n")
        git(repo, "add", "tracked.txt")
    before = _key(repo)
    arguments = CHANGES[change](repo)
    after = _key(repo, **arguments)  # type: ignore[arg-type]
    assert before != after


def test_the_key_is_stable_when_nothing_changes(repo: Path) -> None:
    """The same check in the same repository state has the same key (so a pass is reused)."""
    (repo / "dirty.txt").write_text("x\n")
    assert _key(repo) == _key(repo)


def test_ignored_files_are_not_covered(repo: Path) -> None:
    """A documented limit: a change to an ignored file leaves the key as it was."""
    before = _key(repo)
    (repo / "build.log").write_text("anything\n")
    assert _key(repo) == before


def test_outside_a_git_repository_nothing_is_cached(tmp_path: Path) -> None:
    """No repository, no state: the session neither reads nor writes the cache."""
    work = tmp_path / "plain"
    work.mkdir()
    assert cache.repo_state(work) is None
    store = cache.Store(tmp_path / "cache")
    for _ in range(2):
        evidence = run_checks(
            HostRecords(checks={"c": CHECK}),
            Settings(
                scope=Scope(Tier.FULL), evaluated_on=dt.date(2026, 12, 1), base=work, store=store
            ),
        )
        assert evidence.measurements["check/c"].attempts[0].cached is None
    assert not (tmp_path / "cache").exists()


def _run(root: Path, store: cache.Store | None, check: CheckRecord = CHECK) -> Attempt:
    evidence = run_checks(
        HostRecords(checks={"c": check}),
        Settings(scope=Scope(Tier.FULL), evaluated_on=dt.date(2026, 12, 1), base=root, store=store),
    )
    return evidence.measurements["check/c"].attempts[0]


def test_a_pass_is_reused_and_says_where_it_was_recorded(repo: Path, tmp_path: Path) -> None:
    """The second run reads the pass: marked cached, with the commit and time it was recorded."""
    store = cache.Store(tmp_path / "cache")
    live = _run(repo, store)
    cached = _run(repo, store)
    assert (live.cached, live.outcome) == (None, AttemptOutcome.PASSED)
    assert cached.cached is not None
    assert cached.cached.commit == git(repo, "rev-parse", "HEAD")
    assert cached.cached.recorded.endswith("+00:00")
    assert (cached.command, cached.found, cached.exit_code) == (
        live.command,
        live.found,
        live.exit_code,
    )
    (repo / "new.py").write_text("x\n")
    assert _run(repo, store).cached is None  # a change: live again


def test_the_repository_is_the_one_holding_the_cwd(repo: Path, tmp_path: Path) -> None:
    """A check whose cwd is another repository is keyed on that repository's state, not on
    the one evalglass runs in."""
    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q")
    (outer / "x").write_text("x\n")
    git(outer, "add", ".")
    git(outer, "commit", "-qm", "outer")
    check = CheckRecord(run="true", timeout=60, cwd="../repo")
    store = cache.Store(tmp_path / "cache")
    assert _run(outer, store, check).cached is None
    assert _run(outer, store, check).cached is not None
    (repo / "tracked.txt").write_text("changed\n")
    assert _run(outer, store, check).cached is None


def test_failures_are_never_cached(repo: Path, tmp_path: Path) -> None:
    """Only passes are recorded: a failing check runs live every time."""
    store = cache.Store(tmp_path / "cache")
    failing = CheckRecord(run="false", timeout=60)
    evidence = run_checks(
        HostRecords(checks={"c": failing}),
        Settings(scope=Scope(Tier.FULL), evaluated_on=dt.date(2026, 12, 1), base=repo, store=store),
    )
    assert evidence.measurements["check/c"].attempts[0].outcome is AttemptOutcome.FAILED
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("how", ["no store (--no-cache)", "cache: no"])
def test_no_cache_and_cache_no_run_live(repo: Path, tmp_path: Path, how: str) -> None:
    """`--no-cache` (no store) and a check's `cache: no` read and write nothing."""
    store = None if how.startswith("no store") else cache.Store(tmp_path / "cache")
    check = attrs.evolve(CHECK, cache=how.startswith("no store"))
    assert [_run(repo, store, check).cached for _ in range(2)] == [None, None]
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize(
    "corruption",
    [b"", b"{not json", b"[]", b'{"schema": 1}', b'{"schema": 1, "key": "other"}'],
)
def test_a_corrupt_entry_is_a_miss(repo: Path, tmp_path: Path, corruption: bytes) -> None:
    """A damaged entry is not an error and not a pass: the check runs live and rewrites it."""
    store = cache.Store(tmp_path / "cache")
    _run(repo, store)
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.write_bytes(corruption)
    assert _run(repo, store).cached is None
    assert _run(repo, store).cached is not None


def test_entries_are_written_whole(repo: Path, tmp_path: Path) -> None:
    """Written through a temporary file and a rename: no temporary is left behind."""
    store = cache.Store(tmp_path / "cache")
    _run(repo, store)
    assert [p.name.startswith(".tmp-") for p in (tmp_path / "cache").rglob("*") if p.is_file()] == [
        False
    ]


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """$XDG_CACHE_HOME/evalglass, else ~/.cache/evalglass."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.default_folder() == tmp_path / "evalglass"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.default_folder() == tmp_path / "home" / ".cache" / "evalglass"


def test_a_large_untracked_file_is_hashed_in_chunks(repo: Path) -> None:
    """A 1.5 GiB untracked file is hashed in a process with 1 GiB of address space."""
    with open(repo / "big.bin", "wb") as stream:
        stream.truncate(3 << 29)
    probe = (
        "import resource, sys; from pathlib import Path;"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
        "from evalglass.tools.checks import cache;"
        "state = cache.repo_state(Path(sys.argv[1])); print(state is not None)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(repo)], capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr
