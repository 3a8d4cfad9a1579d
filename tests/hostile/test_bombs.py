"""Bounded memory and time on bombs: each runs the real CLI in a subprocess under a 1 GiB
address-space limit, so a bomb that is not refused fails the test instead of the machine. The
bombs are built here at test time; bench/bench_hostile.py runs them at full size with the
default caps and prints peak memory and time."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalglass import _inputs
from tests.hostile import bombs
from tests.hostile.harness import one_line_error, run

RECORDS = str(Path(__file__).resolve().parents[2] / "host_records")


def score(path: Path, **env: str) -> str:
    """Score one bomb under the address-space limit: the one-line refusal it must give."""
    return one_line_error(run("score", str(path), "--records", RECORDS, cwd=path.parent,
                              env=env, limited=True))


def test_a_3_gib_member_in_100_kb_is_refused_before_it_expands(tmp_path: Path) -> None:
    """A zstd header.json declaring 3 GiB (a hundred kilobytes on disk) is refused from the size
    the archive declares, naming the variable that raises the cap."""
    bomb = bombs.expanding_header(tmp_path / "bomb.eval", 3 << 30)
    assert bomb.stat().st_size < 200_000
    assert "EVALGLASS_MAX_ARCHIVE_BYTES" in score(bomb)


def test_a_member_that_expands_past_its_declared_size_is_refused(tmp_path: Path) -> None:
    """A member that declares a kilobyte and expands to 256 MiB stops at the declared size."""
    data, method, _, crc = bombs.zstd_member(b" " * (64 << 20), repeats=4)
    bomb = bombs.zip_archive(tmp_path / "liar.eval", {"header.json": (data, method, 1000, crc)})
    assert "longer than the archive directory says" in score(bomb)


def test_a_header_past_the_parse_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A header within the archive cap but too large to parse in one piece is refused at once."""
    bomb = bombs.expanding_header(tmp_path / "header.eval", 192 << 20)
    assert "EVALGLASS_MAX_PARSE_BYTES" in score(bomb)


@pytest.mark.parametrize("build", [bombs.many_summaries, bombs.many_reductions],
                         ids=["summaries", "reductions"])
def test_many_tiny_samples_are_refused_past_the_sample_memory_cap(tmp_path: Path, build) -> None:  # type: ignore[no-untyped-def]
    """Summaries or reductions of a few bytes each, past what their objects may take, are
    refused (the cap lowered here to keep the test fast; the default is exercised by the
    bench)."""
    bomb = build(tmp_path / "bomb.eval", 200_000)
    assert "EVALGLASS_MAX_SAMPLE_MEMORY" in score(bomb, EVALGLASS_MAX_SAMPLE_MEMORY="4M")


def test_a_2_gib_sparse_json_is_refused_from_its_size(tmp_path: Path) -> None:
    """A 2 GiB generic output that is almost all hole is refused before a byte is parsed."""
    bomb = bombs.sparse_json(tmp_path / "sparse.json", 2 << 30)
    assert "EVALGLASS_MAX_PARSE_BYTES" in score(bomb)


def test_a_json_of_millions_of_empty_objects_is_refused_before_parsing(tmp_path: Path) -> None:
    """Three bytes of text, seventy of memory each: counted from the text, refused unparsed."""
    bomb = bombs.dense_json(tmp_path / "dense.json", 4_000_000)
    assert "EVALGLASS_MAX_JSON_VALUES" in score(bomb)


def test_a_2_gib_sparse_records_file_is_refused(tmp_path: Path) -> None:
    """A records file past the parse cap is refused from its size, naming the file."""
    records = tmp_path / "host_records"
    records.mkdir()
    with (records / "metrics.yaml").open("wb") as stream:
        stream.write(b"metrics:\n")
        stream.truncate(2 << 30)
    (tmp_path / "run.json").write_text('{"metrics": {"a": 1}}')
    error = one_line_error(run("validate", "--records", "host_records", cwd=tmp_path,
                               limited=True))
    assert "metrics.yaml" in error and "EVALGLASS_MAX_PARSE_BYTES" in error


def test_a_cap_that_is_not_a_size_is_refused(tmp_path: Path) -> None:
    """A cap variable set to nonsense is an error naming it, never silently the default."""
    (tmp_path / "run.json").write_text('{"metrics": {"a": 1}}')
    error = score(tmp_path / "run.json", EVALGLASS_MAX_PARSE_BYTES="lots")
    assert "EVALGLASS_MAX_PARSE_BYTES" in error


def test_retries_of_one_metric_merge_in_one_pass(tmp_path: Path) -> None:
    """20,000 runs of one metric (each kept as an earlier attempt) are merged within the guard
    time; merging them pairwise took minutes."""
    log = bombs.retries(tmp_path / "retries.json", 20_000)
    result = run("score", str(log), "--records", RECORDS, "--format", "json", cwd=tmp_path,
                 limited=True)
    assert result.returncode == 3, result.stderr
    assert result.stdout.count('"source": "retries.json"') == 0  # shown by its path as given
    assert result.stdout.count('"started": "2026-01-01T00:00:00+00:00"') == 19_999


def test_the_default_caps_are_generous_for_real_logs() -> None:
    """The documented defaults: 2 GiB expanded, 128 MiB parsed whole, 4,000,000 JSON values,
    384 MiB of per-sample entries."""
    assert _inputs.ARCHIVE_BYTES.limit() == 2 << 30
    assert _inputs.PARSE_BYTES.limit() == 128 << 20
    assert _inputs.JSON_VALUES.limit() == 4_000_000
    assert _inputs.SAMPLE_MEMORY.limit() == 384 << 20
