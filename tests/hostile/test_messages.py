"""Messages: every error is one line, whatever the path, ref or file content it names, and a file
that is not records is not echoed back."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.cli_runner import cli
from tests.hostile.harness import FUZZ, copy_example, one_line_error


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


@pytest.mark.parametrize(
    "args",
    [
        ("score", "no\nsuch\x1b[2K.json"),
        ("score", "run.json", "--records", "recs\nPASS"),
        ("score", "run.json", "--records-ref", "main\n\x1b[32mPASS"),
        ("explain", "qa/\nnope", "run.json"),
    ],
    ids=["an output path", "a records folder", "a git ref", "a metric id"],
)
def test_a_newline_or_escape_in_what_an_error_names_stays_on_its_line(
    work: Path, args: tuple[str, ...]
) -> None:
    """The one line on stderr shows the newline and the escape as escapes."""
    error = one_line_error(cli(*args, cwd=work))
    assert "\x1b" not in error and "\\n" in error


@FUZZ
@given(text=st.text(min_size=1, max_size=300))
def test_a_records_file_that_is_not_records_is_never_echoed(text: str) -> None:
    """Whatever a metrics.yaml that does not start with `metrics:` holds, the error neither
    shows its first line nor runs past one line."""
    from evalglass.errors import RecordError
    from evalglass.records.load import records_from_text

    first = text.split("\n")[0].strip()
    if not first or first.startswith(("metrics", "#", "---", "'metrics", '"metrics')):
        return
    try:
        records_from_text("metrics", text, "metrics.yaml")
    except RecordError as exc:
        shown = str(exc)
        assert "\n" not in shown
        if len(first) > 12 and not first.startswith(("{", "[", "-", "?")):
            assert first not in shown, shown
