"""The file checks: file_exists and regex, looked at afresh on every run."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalglass.core.decision import Result
from evalglass.evidence.model import AttemptOutcome
from evalglass.records.load import load_records
from evalglass.shell import api
from evalglass.tools.checks.attempts import attempt

PASSED, FAILED, UNRUN = AttemptOutcome.PASSED, AttemptOutcome.FAILED, AttemptOutcome.COULD_NOT_RUN


def _records(folder: Path, checks: str, metrics: str) -> Path:
    records = folder / "host_records"
    records.mkdir()
    (records / "checks.yaml").write_text("checks:\n" + checks)
    (records / "metrics.yaml").write_text("metrics:\n" + metrics)
    return records


@pytest.mark.parametrize(
    ("content", "non_empty", "outcome", "found"),
    [
        (None, False, FAILED, "absent: no file 'card.md'"),
        (None, True, FAILED, "absent: no file 'card.md'"),
        (b"", False, PASSED, "empty: 'card.md' has 0 bytes"),
        (b"", True, FAILED, "empty: 'card.md' has 0 bytes"),
        (b"x" * 1234, True, PASSED, "present: 'card.md', 1,234 bytes"),
    ],
)
def test_file_exists_tells_absent_empty_and_present_apart(
    tmp_path: Path, content: bytes | None, non_empty: bool, outcome: AttemptOutcome, found: str
) -> None:
    """Absent fails; empty fails only with non_empty; present says its size."""
    if content is not None:
        (tmp_path / "card.md").write_bytes(content)
    records = _records(
        tmp_path,
        f"  c:\n    file_exists: card.md\n    non_empty: {non_empty}\n",
        "  check/c:\n    status: gating\n",
    )
    result = attempt(load_records(records).checks["c"], tmp_path)
    assert (result.outcome, result.found) == (outcome, found)
    assert result.command == "file_exists card.md" + (" (non_empty)" if non_empty else "")


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    """file_exists on a directory fails, saying so."""
    (tmp_path / "card.md").mkdir()
    records = _records(tmp_path, "  c:\n    file_exists: card.md\n", "")
    result = attempt(load_records(records).checks["c"], tmp_path)
    assert (result.outcome, result.found) == (FAILED, "'card.md' is a directory, not a file")


@pytest.mark.parametrize(
    ("text", "outcome", "found"),
    [
        ("# Card\nTrained on qa-gold version 2026-10.\n", PASSED,
         "matches in 'card.md' on line 2: 'qa-gold version 2026-10'"),
        ("# Card\nTrained on qa-gold v2025-01.\n", FAILED, "no match in 'card.md' (2 lines)"),
        (None, FAILED, "file not found: 'card.md'"),
    ],
)  # fmt: skip
def test_regex_matches_or_fails_and_a_missing_file_is_no_match(
    tmp_path: Path, text: str | None, outcome: AttemptOutcome, found: str
) -> None:
    """A regex passes where it matches (naming the line); a missing file fails, not vacuously."""
    if text is not None:
        (tmp_path / "card.md").write_text(text)
    records = _records(
        tmp_path, "  c:\n    regex: 'qa-gold (v|version )2026-10'\n    in_file: card.md\n", ""
    )
    result = attempt(load_records(records).checks["c"], tmp_path)
    assert (result.outcome, result.found) == (outcome, found)


def test_a_file_that_cannot_be_read_could_not_run(tmp_path: Path) -> None:
    """A regex over a file that is not text could not run: no pass, no plain fail."""
    (tmp_path / "card.md").write_bytes(b"\xff\xfe\x00binary")
    records = _records(tmp_path, "  c:\n    regex: x\n    in_file: card.md\n", "")
    result = attempt(load_records(records).checks["c"], tmp_path)
    assert (result.outcome, result.found) == (UNRUN, "cannot read 'card.md': not UTF-8 text")


def test_a_folder_where_the_file_should_be_could_not_run(tmp_path: Path) -> None:
    """A regex's in_file that is a folder cannot be read: could not run."""
    (tmp_path / "card.md").mkdir()
    records = _records(tmp_path, "  c:\n    regex: x\n    in_file: card.md\n", "")
    result = attempt(load_records(records).checks["c"], tmp_path)
    assert result.outcome is UNRUN
    assert result.found.startswith("cannot read 'card.md': ")


def test_deleting_a_file_takes_its_pass_back_on_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revocation: a file_exists gate passes, the file is deleted, the very next run fails it
    (file checks are never cached, and evaluation keeps no memory between runs)."""
    monkeypatch.chdir(tmp_path)
    records = _records(
        tmp_path, "  card:\n    file_exists: card.md\n", "  check/card:\n    status: gating\n"
    )
    (tmp_path / "card.md").write_text("model card")
    cache = tmp_path / "cache"
    first = api.run([], records, cache_dir=cache)
    (tmp_path / "card.md").unlink()
    second = api.run([], records, cache_dir=cache)
    assert [(c.id, c.gate.result) for c in first.metrics] == [("check/card", Result.PASS)]
    assert first.exit_code == 0
    # Failed, and failed once more on its retry: the deletion is seen at once.
    assert [(c.id, c.gate.result) for c in second.metrics] == [("check/card", Result.FAIL)]
    card = second.metrics[0]
    assert card.measurement is not None
    assert [a.found for a in card.measurement.attempts] == ["absent: no file 'card.md'"] * 2
    assert second.exit_code == 1
    assert not cache.exists() or not any(cache.rglob("*.json"))


@pytest.mark.parametrize(
    ("kind", "found"),
    [
        ("device", "cannot read 'card.md': not a regular file (a device)"),
        ("fifo", "cannot read 'card.md': not a regular file (a FIFO)"),
        ("too-large", "cannot read 'card.md': the text to parse in one piece is"),
    ],
)
def test_a_regex_file_that_is_not_a_bounded_file_could_not_run(
    tmp_path: Path, kind: str, found: str
) -> None:
    """A committed link to /dev/zero, a FIFO, or a file past the parse cap is refused at once
    (could not run), never read for ever or waited on: run under 1 GiB and a time limit."""
    import os
    import subprocess
    import sys

    card = tmp_path / "card.md"
    if kind == "device":
        card.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(card)
    else:
        with open(card, "wb") as stream:
            stream.truncate(3 << 29)
    records = _records(tmp_path, "  c:\n    regex: x\n    in_file: card.md\n", "")
    probe = (
        "import resource, sys; from pathlib import Path;"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
        "from evalglass.records.load import load_records;"
        "from evalglass.tools.checks.attempts import attempt;"
        "r = attempt(load_records(sys.argv[1]).checks['c'], Path(sys.argv[2]));"
        "print(r.outcome.value); print(r.found)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(records), str(tmp_path)], capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    outcome, shown = done.stdout.splitlines()
    assert outcome == UNRUN.value, done.stderr
    assert shown.startswith(found), shown
