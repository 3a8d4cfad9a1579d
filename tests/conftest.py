"""How the suite's processes run: each keeps the bytecode it compiles, and pytest-xdist shares the
suite among its workers (pyproject.toml runs it on every core) test by test, except the files whose
module-scoped set-up must start only once."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's per-example deadline and its too-slow health check are timings, and a unit test
# holds no timing (speed lives in bench/): on a loaded machine both failed tests whose
# behaviour was right. Every other health check stays.
settings.register_profile("evalglass", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("evalglass")

# Some machines (this project's development machines among them) set PYTHONDONTWRITEBYTECODE.
# Then every process the suite starts (each xdist worker, and each evalglass and Action-script
# subprocess) compiles the checkout's modules from source again, and each worker rewrites every
# test module's asserts again. Bytecode changes nothing a test checks: Python recompiles a module
# whose source changed. Workers and subprocesses inherit this environment: it is set before they
# start.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Each runs whole on one worker, first: Spark's tests share one local session, whose JVM costs
# more to start than any test here takes; the progress tests share a file of 150,000 rows; the
# packaging tests share one build of the sdist and wheel (an isolated build, then a fresh venv).
WHOLE_FILES = frozenset(
    {"tests/shell/test_spark.py", "tests/shell/test_progress.py", "tests/project/test_packaging.py"}
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """For `--dist load`: xdist's load-by-scope scheduler with every test a scope of its own,
    but WHOLE_FILES one scope each. (`--dist loadgroup` would group them by a mark, but with
    pytest 9.2's node ids xdist 3.8 silently ignores the mark: pytest-xdist#1386.) Scopes go out
    largest first, so the grouped files start at once, and the rest a test at a time to whichever
    worker is free, so both finish together."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in WHOLE_FILES else nodeid

    return Scheduling(config, log)
