"""Run the checks a scope includes: each once (or its pass from the cache), a failed gating check
once more, live, and every attempt kept. Returns Evidence for the core to judge; `progress` hears
of each attempt as it starts and ends.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import attrs

from evalglass._version import __version__
from evalglass.core.authority import resolve
from evalglass.core.scope import Scope
from evalglass.evidence.model import Attempt, Evidence, Measurement
from evalglass.metric_ids import check_metric
from evalglass.records.model import CheckRecord, HostRecords
from evalglass.tools.checks import cache
from evalglass.tools.checks.attempts import attempt
from evalglass.tools.checks.results import measurement, should_retry


@attrs.frozen(kw_only=True)
class Progress:
    """Told of each attempt: `started(name, check, number)`, then `ended(name, attempt)`."""

    started: Callable[[str, CheckRecord, int], None]
    ended: Callable[[str, Attempt], None]


@attrs.frozen(kw_only=True)
class Settings:
    """How checks are run: the scope (which tier), the evaluation date, the folder their paths are
    relative to, the cache (None: none is read or written), and the evalglass version a cached
    pass is keyed by."""

    scope: Scope
    # The run's evaluation date, for the authority that decides whether a failure is retried.
    evaluated_on: dt.date
    base: Path = Path(".")  # where a check's cwd and files are relative to
    store: cache.Store | None = None  # None: nothing read from or written to a cache
    version: str = __version__


def run_checks(
    records: HostRecords, settings: Settings, progress: Progress | None = None
) -> Evidence:
    """Every check the scope includes, in name order, as `check/NAME` measurements."""
    measured: dict[str, Measurement] = {}
    for name, check in sorted(records.checks.items()):
        if settings.scope.includes(check):
            attempts = _attempts(name, check, records, settings, progress)
            measured[check_metric(name)] = measurement(name, check, attempts)
    return Evidence(measurements=measured)


def _attempts(
    name: str, check: CheckRecord, records: HostRecords, settings: Settings,
    progress: Progress | None,
) -> tuple[Attempt, ...]:  # fmt: skip
    state = key = None
    if settings.store is not None and cache.cacheable(check):
        state = cache.repo_state(settings.base / (check.cwd or "."))
        key = None if state is None else cache.key(check, settings.version, state)
    attempts: tuple[Attempt, ...] = (_once(name, check, settings, progress, 1, key),)
    authority = resolve(check_metric(name), records, None, evaluated_on=settings.evaluated_on)
    if should_retry(attempts, authority):
        # Live, never from the cache: the point is to see whether it fails again.
        attempts += (_once(name, check, settings, progress, 2, None),)
    elif settings.store is not None and key is not None and state is not None:
        # Only a first-time pass: one on the retry is a flaky gate, not to be replayed as clean.
        settings.store.put(key, attempts[0], state.head)
    return attempts


def _once(
    name: str, check: CheckRecord, settings: Settings, progress: Progress | None, number: int,
    key: str | None,
) -> Attempt:  # fmt: skip
    if progress is not None:
        progress.started(name, check, number)
    cached = None if key is None or settings.store is None else settings.store.get(key)
    result = cached or attempt(check, settings.base)
    if progress is not None:
        progress.ended(name, result)
    return result
