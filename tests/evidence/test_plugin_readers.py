"""What a plugin's reader may return, in this process: entry points declared by hand (the
installed-package runs are in tests/shell/test_plugin_formats.py)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import attrs
import pytest

import evalglass
from evalglass.errors import PluginError
from evalglass.evidence import format_docs, plugins, registry
from evalglass.evidence.model import (
    Attempt,
    AttemptOutcome,
    EarlierAttempt,
    PairedSums,
    Reduction,
)

RETURNED: list[object] = []
from tests.proportion_reference import PROPORTION_METHODS


def _read(path: Path, shown: str) -> list[object]:
    return list(RETURNED)


READER = evalglass.Reader(
    recognises="a .mine file", sniff=lambda p, h: p.suffix == ".mine", read=_read
)
HERE = "tests.evidence.test_plugin_readers"


@pytest.fixture
def declare(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Declare entry points of the group for the test's duration."""

    def points(*declared: tuple[str, str]) -> None:
        found = tuple(EntryPoint(name, value, plugins.GROUP) for name, value in declared)
        monkeypatch.setattr(plugins, "declared", lambda: found)

    plugins.adapter.cache_clear()
    yield points
    plugins.adapter.cache_clear()
    RETURNED.clear()


def _reading(tmp_path: Path) -> tuple[evalglass.Measurement, ...]:
    path = tmp_path / "out.mine"
    path.write_text("{}")
    adapter = registry.detect(path, b"{}")
    assert adapter is not None and adapter.name == "mine"
    return adapter.read(path, "out.mine")


def test_a_measurement_keeps_only_what_an_output_may_say(tmp_path: Path, declare: object) -> None:
    """The source becomes the file read; run identity, evaluation, attempts, earlier runs,
    pairings and reductions are dropped; an interval is computed from the samples."""
    declare(("mine", f"{HERE}:READER"))  # type: ignore[operator]
    run = evalglass.Run(
        source="host_records/metrics.yaml", models=("m",), identity="x", evaluation="y",
        started="2026-11-01T00:00:00+00:00",
    )  # fmt: skip
    scores = tuple(evalglass.Sample(id=str(i), score=s) for i, s in enumerate([1, 1, 1, 0]))
    passed = Attempt(outcome=AttemptOutcome.PASSED, command="true", found="exit 0")
    RETURNED.append(
        evalglass.Measurement(
            id="mine/acc", run=run, value=0.75, n=4, samples=scores, attempts=(passed,),
            earlier=(EarlierAttempt(source="e", started=None, value=1.0, n=4),),
            paired=PairedSums(n=4, binary=True), reduction=Reduction(reducer="max", least=1, most=3),
        )
    )  # fmt: skip
    (m,) = _reading(tmp_path)
    assert (m.id, m.value, m.n, m.run.source, m.run.models) == (
        "mine/acc",
        0.75,
        4,
        "out.mine",
        ("m",),
    )
    assert (m.run.identity, m.run.evaluation, m.run.started) == (
        None,
        None,
        "2026-11-01T00:00:00+00:00",
    )
    assert (m.attempts, m.earlier, m.paired, m.reduction) == ((), (), None, None)
    assert m.interval is not None and m.interval.method in PROPORTION_METHODS


@pytest.mark.parametrize(
    ("returned", "said"),
    [
        ({"id": "a", "value": 1.0}, "returned dict, not an evalglass.Measurement"),
        ("text", "returned str, not an evalglass.Measurement"),
        (evalglass.Measurement(id="a", run=evalglass.Run(source="s"), value=1.0, n=-1), "returned measurement 'a': n that is not a whole number >= 0"),
        (evalglass.Measurement(id="a", run=evalglass.Run(source="s"), value=True, n=1), "returned measurement 'a' with a value that is not a number"),  # type: ignore[arg-type]
        (evalglass.Measurement(id="", run=evalglass.Run(source="s"), value=1.0, n=1), "returned a measurement without an id"),
        (
            evalglass.Measurement(
                id="a", run=evalglass.Run(source="s"), value=1.0, n=1,
                interval=evalglass.Interval(2.0, 1.0, 0.95, evalglass.Method.NORMAL),
            ),
            "returned measurement 'a' with an interval that is not finite bounds low <= high at a level in (0, 1)",
        ),
    ],
)  # fmt: skip
def test_what_is_not_a_sound_measurement_is_refused_naming_the_plugin(
    tmp_path: Path, declare: object, returned: object, said: str
) -> None:
    """Anything but a well-formed evalglass Measurement is one input error naming the plugin."""
    declare(("mine", f"{HERE}:READER"))  # type: ignore[operator]
    RETURNED.append(returned)
    with pytest.raises(PluginError) as caught:
        _reading(tmp_path)
    assert str(caught.value) == (
        f"out.mine: plugin format 'mine' (an unknown package, {HERE}:READER) {said}"
    )


def test_a_plugin_may_not_take_a_built_in_formats_name(tmp_path: Path, declare: object) -> None:
    """A plugin declaring `generic` is not listed twice and fails when files reach it."""
    declare(("generic", f"{HERE}:READER"))  # type: ignore[operator]
    assert registry.names().count("generic") == 1
    with pytest.raises(PluginError, match="cannot be used: 'generic' is a built-in format's name"):
        registry.detect(tmp_path / "out.mine", b"{}")


def test_an_entry_point_naming_no_reader_is_refused(tmp_path: Path, declare: object) -> None:
    """An entry point that names a function instead of an evalglass.Reader."""
    declare(("odd", "json:dumps"))  # type: ignore[operator]
    with pytest.raises(PluginError, match="names function, not an evalglass.Reader"):
        registry.detect(tmp_path / "out.mine", b"{}")


def test_plugins_are_offered_files_after_the_frameworks_and_before_the_generic_formats(
    declare: object,
) -> None:
    """The order of `--input-format`'s choices and of detection: frameworks, plugins, generic."""
    declare(("mine", f"{HERE}:READER"))  # type: ignore[operator]
    frameworks = [name for name, _ in registry.FRAMEWORKS]
    generic = [name for name, _ in registry.GENERIC]
    assert list(registry.names()) == [*frameworks, "mine", *generic]
    assert [a.name for a in registry.adapters()] == [*frameworks, "mine", *generic]


DOCUMENTED = evalglass.Reader(
    recognises="a .mine file",
    sniff=lambda p, h: p.suffix == ".mine",
    read=_read,
    docs=attrs.evolve(registry.builtin()[0].docs, label="mine"),
)


def test_a_plugin_says_what_its_numbers_mean_as_a_built_in_format_does(declare: Any) -> None:
    """A reader's `docs` travel with its format (and write its row of a format table); one
    without them has none."""
    declare(("mine", f"{HERE}:DOCUMENTED"), ("bare", f"{HERE}:READER"))
    mine, bare = registry.by_name("mine"), registry.by_name("bare")
    assert mine is not None and mine.docs is not None and mine.docs.label == "mine"
    assert format_docs.table("versions", [mine.docs]).splitlines()[2].startswith("| mine | ")
    assert bare is not None and bare.docs is None
