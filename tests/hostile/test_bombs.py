"""Bounded memory and time on bombs: the real CLI scores each one in a subprocess under a 1 GiB
address-space limit (all bombs in one subprocess, one interpreter start), so a bomb that is not
refused fails its test instead of the machine. The bombs are built here at test time;
bench/bench_hostile.py runs them at full size with the default caps and prints peak memory and
time."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalglass import _inputs
from tests.hostile import bombs
from tests.hostile.harness import Result, one_line_error, run, run_batch

RECORDS = str(Path(__file__).resolve().parents[2] / "host_records")


def _records_bomb(folder: Path) -> Path:
    records = folder / "sparse_records"
    records.mkdir()
    with (records / "metrics.yaml").open("wb") as stream:
        stream.write(b"metrics:\n")
        stream.truncate(2 << 30)
    return records


def _liar(folder: Path) -> Path:
    data, method, _, crc = bombs.zstd_member(b" " * (64 << 20), repeats=4)
    return bombs.zip_archive(folder / "liar.eval", {"header.json": (data, method, 1000, crc)})


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    """Every bomb, built and scored once."""
    folder = tmp_path_factory.mktemp("bombs")
    small = {"EVALGLASS_MAX_SAMPLE_MEMORY": "4M"}
    runs: dict[str, tuple[Path, dict[str, str]]] = {
        "3 GiB header": (bombs.expanding_header(folder / "bomb.eval", 3 << 30), {}),
        "liar": (_liar(folder), {}),
        "big header": (bombs.expanding_header(folder / "header.eval", 192 << 20), {}),
        "summaries": (bombs.many_summaries(folder / "summaries.eval", 200_000), small),
        "reductions": (bombs.many_reductions(folder / "reductions.eval", 200_000), small),
        "sparse": (bombs.sparse_json(folder / "sparse.json", 2 << 30), {}),
        "dense": (bombs.dense_json(folder / "dense.json", 4_000_000), {}),
        "bad cap": (
            bombs.dense_json(folder / "fine.json", 2),
            {"EVALGLASS_MAX_PARSE_BYTES": "lots"},
        ),
    }
    batch = {
        name: (["score", str(path), "--records", RECORDS, "--format", "json"], env)
        for name, (path, env) in runs.items()
    }
    batch["records"] = (["validate", "--records", str(_records_bomb(folder))], {})
    return run_batch(batch, folder)


def test_a_3_gib_member_in_100_kb_is_refused_before_it_expands(scored: dict[str, Result]) -> None:
    """A zstd header.json declaring 3 GiB (a hundred kilobytes on disk) is refused from the size
    the archive declares, naming the variable that raises the cap."""
    assert "EVALGLASS_MAX_ARCHIVE_BYTES" in one_line_error(scored["3 GiB header"])


def test_a_member_that_expands_past_its_declared_size_is_refused(
    scored: dict[str, Result],
) -> None:
    """A member that declares a kilobyte and expands to 256 MiB stops at the declared size."""
    assert "longer than the archive directory says" in one_line_error(scored["liar"])


def test_a_header_past_the_parse_cap_is_refused_before_it_is_read(
    scored: dict[str, Result],
) -> None:
    """A header within the archive cap but too large to parse in one piece is refused at once."""
    assert "EVALGLASS_MAX_PARSE_BYTES" in one_line_error(scored["big header"])


@pytest.mark.parametrize("bomb", ["summaries", "reductions"])
def test_many_tiny_samples_are_refused_past_the_sample_memory_cap(
    scored: dict[str, Result], bomb: str
) -> None:
    """Summaries or reduced values of a few bytes each, past what they would take in memory, are
    refused (the cap lowered here to keep the test fast; the bench runs the default)."""
    assert "EVALGLASS_MAX_SAMPLE_MEMORY" in one_line_error(scored[bomb])


def test_a_2_gib_sparse_json_is_refused_from_its_size(scored: dict[str, Result]) -> None:
    """A 2 GiB generic output that is almost all hole is refused before a byte is parsed."""
    assert "EVALGLASS_MAX_PARSE_BYTES" in one_line_error(scored["sparse"])


def test_a_json_of_millions_of_empty_objects_is_refused_before_parsing(
    scored: dict[str, Result],
) -> None:
    """Three bytes of text, seventy of memory each: counted from the text, refused unparsed."""
    assert "EVALGLASS_MAX_JSON_VALUES" in one_line_error(scored["dense"])


def test_a_2_gib_sparse_records_file_is_refused(scored: dict[str, Result]) -> None:
    """A records file past the parse cap is refused from its size, naming the file."""
    error = one_line_error(scored["records"])
    assert "metrics.yaml" in error and "EVALGLASS_MAX_PARSE_BYTES" in error


def test_a_cap_that_is_not_a_size_is_refused(scored: dict[str, Result]) -> None:
    """A cap variable set to nonsense is an error naming it, never silently the default."""
    assert "EVALGLASS_MAX_PARSE_BYTES" in one_line_error(scored["bad cap"])


def test_retries_of_one_metric_merge_in_one_pass(tmp_path: Path) -> None:
    """50,000 runs of one metric (each kept as an earlier attempt) are merged well within the
    guard time (a few seconds; merging them pairwise, each merge sorting all before it, takes
    many minutes)."""
    log = bombs.retries(tmp_path / "retries.json", 50_000)
    result = run(
        "score",
        str(log),
        "--records",
        RECORDS,
        "--format",
        "json",
        cwd=tmp_path,
        limited=True,
        timeout=30,
    )
    assert result.returncode == 3, result.stderr
    assert result.stdout.count('"started": "2026-01-01T00:00:00+00:00"') == 49_999


def test_the_default_caps_are_generous_for_real_logs() -> None:
    """The documented defaults: 2 GiB expanded, 128 MiB parsed whole, 4,000,000 JSON values,
    384 MiB of per-sample entries."""
    assert _inputs.ARCHIVE_BYTES.limit() == 2 << 30
    assert _inputs.PARSE_BYTES.limit() == 128 << 20
    assert _inputs.JSON_VALUES.limit() == 4_000_000
    assert _inputs.SAMPLE_MEMORY.limit() == 384 << 20
