"""The real framework outputs under tests/fixtures, and damaged inputs every adapter must refuse.

Shared by the per-framework adapter tests so each walks the same fixtures and the same damage.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.head import read_head
from evalglass.evidence.registry import FRAMEWORKS as REGISTERED
from evalglass.evidence.registry import by_name

FIXTURES = Path(__file__).parent / "fixtures"
# Every framework's own format, from the registry: its fixtures are in the folder of its name.
FRAMEWORKS = tuple(name for name, _ in REGISTERED)

# Files beside the outputs that no tool wrote as a result: how a fixture was made (its config/
# folder, run.sh) and what documents it (READMEs, package lists, console captures).
_MADE_BY = frozenset({"config"})
# The plugin packages the tests install: code, not outputs.
_PLUGINS = frozenset({"plugin_pkg", "plugin_broken"})
_DOCS = frozenset(
    {
        "run.sh",
        "pip-freeze.txt",
        "npm-ls.txt",
        "console.txt",
        "list_eval_logs.txt",
        "files-written.txt",
        "summaries.txt",
    }
)


# Files a framework writes beside its runs that hold no run: each format names them as such, and
# a folder read skips them with that note.
NOT_RUNS = {
    "logs.json": "inspect",
    "eval-set.json": "inspect",
    ".eval-set-id": "inspect",
    ".deepeval-cache.json": "deepeval",
    ".temp-deepeval-cache.json": "deepeval",
    ".temp_test_run_data.json": "deepeval",
    "deepeval.db": "deepeval",
    "results.junit.xml": "promptfoo",
}


def is_output(path: Path) -> bool:
    """Whether a fixture file is something an eval tool wrote, not an input or a document."""
    inside = path.relative_to(FIXTURES).parts[:-1]
    return not (
        _MADE_BY.intersection(inside)
        or _PLUGINS.intersection(inside)
        or path.name in _DOCS
        or path.name.startswith("pip-freeze")  # one per tool version a fixture was made with
        or path.name.startswith("README")
        or path.suffix == ".md"
    )


def outputs(under: Path = FIXTURES) -> list[Path]:
    """Every file an eval tool wrote below `under`, sorted."""
    return sorted(p for p in under.rglob("*") if p.is_file() and is_output(p))


def read_through_another(path: Path) -> bool:
    """Whether an output is read only through the file that names it (lm-eval's samples files,
    EEE's instance-level rows), never claimed on its own."""
    inside_eee = path.relative_to(FIXTURES).parts[0] == "eee"
    return "samples_" in path.name or (inside_eee and path.suffix == ".jsonl")


def files(framework: str) -> list[Path]:
    """Every file a framework wrote, sorted."""
    return outputs(FIXTURES / framework)


def others(framework: str) -> list[Path]:
    """Every fixture file of every other framework."""
    return [p for other in FRAMEWORKS if other != framework for p in files(other)]


def damaged(good: bytes) -> list[tuple[str, bytes]]:
    """Ways a real output arrives broken: empty, cut short at many points, noise."""
    rng = random.Random(20261129)
    cuts = sorted({1, 2, 10, 100, len(good) // 3, len(good) // 2, len(good) - 100, len(good) - 1})
    cases = [("empty", b""), ("whitespace", b"  \n\t"), ("nul bytes", bytes(4096))]
    cases += [(f"cut at {cut}", good[:cut]) for cut in cuts if 0 < cut < len(good)]
    cases += [(f"random {i}", rng.randbytes(rng.randint(1, 5000))) for i in range(5)]
    cases += [("random after a good start", good[:64] + rng.randbytes(4000))]
    cases += [("not UTF-8", b'{"results": "\xff\xfe"}')]
    return cases


def refuse(adapter: ModuleType, path: Path, shown: str) -> OutputError:
    """The adapter refuses the file with an OutputError naming it, and with nothing else."""
    with pytest.raises(OutputError) as caught:
        adapter.read(path, shown)
    error = caught.value
    assert error.path == shown
    assert str(error).startswith(shown)
    assert "\n" not in str(error)
    return error


def claims(framework: str, path: Path) -> tuple[bool, str | None]:
    """What a format makes of a file: whether it sniffs as a run, and its not-a-run note."""
    adapter = by_name(framework)
    assert adapter is not None
    with path.open("rb") as stream:
        head = read_head(stream)
    return adapter.sniff(path, head), adapter.not_a_run(path, head)


def eval_member(path: Path, name: str) -> object:
    """A JSON member of an Inspect `.eval` archive, read with zipfile and zstandard alone (not
    evalglass's reader), so a test's expected numbers are the log's own."""
    import json
    import struct
    import zipfile

    import zstandard

    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
        if info.compress_type != 93:
            return json.loads(archive.read(name))
        with path.open("rb") as raw:
            raw.seek(info.header_offset)
            local = raw.read(30)
            skip = struct.unpack("<HH", local[26:30])
            raw.seek(info.header_offset + 30 + skip[0] + skip[1])
            data = raw.read(info.compress_size)
    return json.loads(zstandard.ZstdDecompressor().decompressobj().decompress(data))
