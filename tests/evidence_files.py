"""The real framework outputs under tests/fixtures, and damaged inputs every adapter must refuse.

Shared by the per-framework adapter tests so each walks the same fixtures and the same damage.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from evalglass.errors import OutputError

FIXTURES = Path(__file__).parent / "fixtures"
FRAMEWORKS = ("inspect", "lm-eval", "promptfoo", "deepeval")


def files(framework: str) -> list[Path]:
    """Every file a framework wrote (and its README), sorted."""
    return sorted(p for p in (FIXTURES / framework).rglob("*") if p.is_file())


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
