"""Progress while outputs are read: counted exactly, shown on stderr only, as a bar only on a
terminal and only after a second; one line per slow output in CI or when stderr is not a terminal.
Reading itself is unchanged."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from evalglass.errors import OutputError
from evalglass.evidence import progress
from evalglass.evidence.read import read_outputs
from evalglass.shell import progress as display

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
OUTPUTS = [
    ROOT / "examples" / "run.json",
    *sorted((FIXTURES / "inspect" / "logs" / "eval").glob("*.eval")),
    *sorted((FIXTURES / "inspect" / "logs" / "json").glob("*.json")),
    FIXTURES / "promptfoo" / "results" / "results.json",
]


class Recorder:
    """A watcher that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def started(self, shown: str) -> None:
        self.calls.append(("started", shown))

    def opened(self, size: int) -> None:
        self.calls.append(("opened", size))

    def read(self, count: int) -> None:
        self.calls.append(("read", count))

    def finished(self, read: bool) -> None:
        self.calls.append(("finished", read))

    def total(self, kind: str) -> int:
        return sum(n for k, n in self.calls if k == kind)  # type: ignore[misc]


@pytest.mark.parametrize("path", OUTPUTS, ids=lambda p: p.name)
def test_a_watched_read_gives_the_same_evidence_and_counts_the_file(path: Path) -> None:
    """Counting changes nothing read; each output is started, its bytes counted, then finished."""
    plain = read_outputs([path])
    recorder = Recorder()
    with progress.watched(recorder):
        counted = read_outputs([path])
    assert counted == plain
    kinds = [k for k, _ in recorder.calls]
    assert kinds[0] == "started" and kinds[-1] == "finished" and kinds.count("finished") == 1
    assert recorder.calls[-1] == ("finished", True)
    assert recorder.total("opened") == path.stat().st_size
    # A zip archive's directory is read before its members, so a few bytes count twice.
    slack = 1.25 if path.suffix == ".eval" else 1.0
    assert 0 < recorder.total("read") <= path.stat().st_size * slack


def test_a_whole_json_file_is_counted_to_its_last_byte() -> None:
    """A JSON output read whole is counted exactly: done equals the file's size."""
    recorder = Recorder()
    with progress.watched(recorder):
        read_outputs([ROOT / "examples" / "run.json"])
    assert recorder.total("read") == recorder.total("opened")


def test_a_file_read_beside_the_output_adds_to_its_size(tmp_path: Path) -> None:
    """lm-eval's samples file, opened beside its results, counts toward the same output."""
    folder = FIXTURES / "lm-eval" / "results"
    results = min(folder.rglob("results_*.json"))
    recorder = Recorder()
    with progress.watched(recorder):
        read_outputs([results])
    opened = [n for k, n in recorder.calls if k == "opened"]
    assert len(opened) > 1 and opened[0] == results.stat().st_size


def test_without_a_watcher_files_open_plainly(tmp_path: Path) -> None:
    """The library reads quietly: no watcher, no counting wrapper."""
    path = tmp_path / "x.txt"
    path.write_text("abc")
    with progress.open_binary(path) as stream:
        assert type(stream.raw) is io.FileIO  # type: ignore[attr-defined]
        assert stream.read() == b"abc"


def test_reading_an_unreadable_file_still_finishes() -> None:
    """An output that fails to read ends its progress too, so no bar is left behind."""
    recorder = Recorder()
    with progress.watched(recorder), pytest.raises(OutputError):
        read_outputs([FIXTURES / "inspect" / "README.txt"], "generic")
    assert recorder.calls[-1] == ("finished", False)


def test_the_numbers_say_share_bytes_rate_and_time_left() -> None:
    """Half of 2 GB read in 10 s: 50%, the sizes, 100 MB/s and 10 s left."""
    numbers = display.numbers_text(10**9, 2 * 10**9, 10.0)
    assert numbers == " 50%  1.0 GB of 2.0 GB  100.0 MB/s  10 s left"
    assert display.layout("logs/big.eval", numbers, 120) == ("logs/big.eval", 30, numbers)


def test_the_line_fits_the_terminal_by_shortening_the_name() -> None:
    """A long name is cut from the left, then the bar narrowed, to keep the line (name, bar
    and numbers, a space apart) within the width; the numbers are cut only when nothing else
    can give way."""
    name = "very/deep/" * 20 + "run.jsonl"
    numbers = display.numbers_text(5, 10, 1.0)
    for width in (40, 60, 80, 100):
        shown, cells, said = display.layout(name, numbers, width)
        assert shown.startswith("…") and shown.endswith("run.jsonl") and cells >= 10
        assert len(f"reading {shown} {'━' * cells} {said}") <= width - 1
        assert (said == numbers) is (width >= 80)


def test_after_the_last_byte_the_numbers_say_it_is_still_working() -> None:
    """Every byte read but the output not yet finished (parsing): no time left is guessed."""
    numbers = display.numbers_text(10, 10, 2.0)
    assert numbers.endswith("  reading done, working")
    assert " left" not in numbers and not any(u in numbers.split("B/s")[1] for u in (" s", "min"))
    # Before the last byte the same numbers do estimate the time left: the test above can fail.
    assert display.numbers_text(5, 10, 2.0).endswith("  2 s left")


def test_a_reader_that_counts_nothing_shows_time_only() -> None:
    """Files another library opens itself (Parquet through DuckDB) count no bytes: no rate is
    made up, only the time is shown."""
    assert display.numbers_text(0, 0, 3.0) == "3 s so far"
    assert display.done_line("a.parquet", 0, 61.0) == "evalglass: read a.parquet in 1 min 01 s"


def test_sizes_and_the_finished_line() -> None:
    """Bytes in decimal units; a finished output in one line with its size, time and rate."""
    assert [display.size(n) for n in (999, 1000, 123_456_789, 5 * 10**12)] == [
        "999 B",
        "1.0 kB",
        "123.5 MB",
        "5000.0 GB",
    ]
    assert display.done_line("a.jsonl", 80 * 10**6, 125.0) == (
        "evalglass: read a.jsonl: 80.0 MB in 2 min 05 s (640.0 kB/s)"
    )


def test_ci_or_no_terminal_is_not_interactive(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI set (to anything but false) or stderr not a terminal: no bar."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    assert display.interactive(Terminal()) and not display.interactive(io.StringIO())
    for value, expected in (("true", False), ("1", False), ("false", True), ("", True)):
        monkeypatch.setenv("CI", value)
        assert display.interactive(Terminal()) is expected, value


def test_off_a_terminal_one_line_per_slow_output_and_none_for_quick_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Quick outputs say nothing; each slow one (here: any, the delay set to 0) one line."""
    monkeypatch.delenv("CI", raising=False)
    quiet = io.StringIO()
    with display.shown(quiet):
        read_outputs(OUTPUTS[:2])
    assert quiet.getvalue() == ""
    monkeypatch.setattr(display, "DELAY", 0.0)
    lines = io.StringIO()
    with display.shown(lines):
        read_outputs(OUTPUTS[:2])
    assert [line.split(":")[1] for line in lines.getvalue().splitlines()] == [
        f" read {OUTPUTS[0]}",
        f" read {OUTPUTS[1]}",
    ]


# --- the real command, with stderr on a pseudo-terminal -------------------------------------

# Runs the CLI as `python -m evalglass` does, with the display's delay and refresh shortened so
# a few seconds of reading show the bar; everything else is the installed command's.
# It leaves the names of the modules the run imported in `modules.txt`.
_DRIVER = """
import runpy, sys
import evalglass.shell.progress as p
p.DELAY, p.REFRESH = float(sys.argv[1]), 0.01
sys.argv = ["evalglass", *sys.argv[2:]]
try:
    runpy.run_module("evalglass", run_name="__main__", alter_sys=True)
finally:
    with open("modules.txt", "w") as listing:
        listing.write("\\n".join(sorted(sys.modules)))
"""


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rows enough that reading them takes a good fraction of a second."""
    folder = tmp_path_factory.mktemp("big")
    with (folder / "big.jsonl").open("w") as stream:
        for i in range(150_000):
            stream.write(json.dumps({"sample_id": f"s{i}", "metric": f"m{i % 3}", "score": i % 2}))
            stream.write("\n")
    (folder / "host_records").mkdir()
    return folder


def on_terminal(
    folder: Path, delay: float, *args: str, ci: bool = False, tty: bool = True
) -> tuple[int, str, str]:
    """Exit code, stdout and what stderr (a pty, or a pipe) received."""
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", **({"CI": "true"} if ci else {})}
    command = [sys.executable, "-c", _DRIVER, str(delay), *args]
    if not tty:
        done = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    with subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=follower
    ) as child:
        os.close(follower)
        received = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            received += chunk
        os.close(leader)
        stdout = child.stdout.read().decode() if child.stdout else ""
        code = child.wait(timeout=120)
    return code, stdout, received.decode()


# How rich's transient display takes its line off the terminal when it stops: the cursor shown
# again, then up one line and that line erased.
_CLEARED = "\x1b[?25h\r\x1b[1A\x1b[2K"


def test_a_terminal_sees_a_bar_then_the_line_and_the_file_holds_none(big: Path) -> None:
    """On a pty: the bar redrawn in place, then one line; the written scorecard has no trace."""
    code, stdout, stderr = on_terminal(
        big, 0.0, "score", "big.jsonl", "--format", "json", "--output", "card.json"
    )
    assert code == 0 and stdout == ""
    assert "reading big.jsonl ━" in stderr and "/s" in stderr and "\r\x1b[2K" in stderr
    bars = [
        part.removeprefix("\x1b[2K").removeprefix("\x1b[?25l")
        for part in stderr.split(_CLEARED)[0].split("\r")
    ]
    bars = [bar for bar in bars if bar.startswith("reading")]
    assert bars and all(len(bar) < 80 for bar in bars)  # a bare pty counts as 80 wide
    final = stderr.rsplit(_CLEARED, 1)[1]
    assert final.startswith("evalglass: read big.jsonl: ") and final.endswith("\r\n")
    card = (big / "card.json").read_text()
    assert "reading" not in card and json.loads(card)["sources"] == ["big.jsonl"]
    assert "rich.progress" in (big / "modules.txt").read_text().split()


def test_in_ci_a_terminal_gets_one_line_and_no_bar(big: Path) -> None:
    """With CI set, even on a pty: no carriage return, no escape, one line for the file."""
    code, _, stderr = on_terminal(big, 0.0, "score", "big.jsonl", "--format", "json", ci=True)
    assert code == 0
    assert "\r\x1b" not in stderr and "\x1b" not in stderr and "[" not in stderr
    assert stderr.count("evalglass: read big.jsonl: ") == 1 and stderr.count("\n") == 1


def test_stderr_not_a_terminal_gets_one_line_and_no_bar(big: Path) -> None:
    """A pipe (a log file) gets the one line, never the bar."""
    code, stdout, stderr = on_terminal(
        big, 0.0, "score", "big.jsonl", "--format", "json", tty=False
    )
    assert code == 0 and json.loads(stdout)["sources"] == ["big.jsonl"]
    assert stderr.startswith("evalglass: read big.jsonl: ") and stderr.count("\n") == 1
    assert "\r" not in stderr


def test_a_quick_read_shows_nothing_even_on_a_terminal(big: Path) -> None:
    """With the real delay, the small bundled example prints nothing on stderr at all, and
    loads nothing to draw a bar with."""
    (big / "run.json").write_bytes((ROOT / "examples" / "run.json").read_bytes())
    code, stdout, stderr = on_terminal(big, display.DELAY, "score", "run.json")
    assert code == 0 and stdout.startswith("NO ACTIVE GATE")
    assert stderr == ""
    # No bar shown, so the library that draws it was never imported.
    assert not any(m.startswith("rich") for m in (big / "modules.txt").read_text().split())


@pytest.mark.parametrize("ci", [True, False], ids=["CI", "terminal"])
def test_a_slow_read_that_fails_leaves_only_its_error(big: Path, ci: bool) -> None:
    """A long read refused at its end (a malformed last row): stderr holds the one error line,
    no `read ...` line before it, and on a terminal the bar is cleared, not left above it."""
    broken = big / "broken.jsonl"
    broken.write_bytes((big / "big.jsonl").read_bytes() + b'{"metric": "m0", "score": [1]}\n')
    code, _, stderr = on_terminal(big, 0.0, "score", "broken.jsonl", ci=ci)
    assert code == 4
    shown = stderr.rsplit(_CLEARED, 1)[-1]
    assert shown.startswith("evalglass: broken.jsonl:150001: score: expected a number")
    assert shown.replace("\r\n", "\n").count("\n") == 1 and "read broken.jsonl" not in stderr
