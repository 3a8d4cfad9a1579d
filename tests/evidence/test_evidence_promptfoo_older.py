"""promptfoo exports older than version 3, written by promptfoo 0.24.2 and 0.91.3 themselves
(tests/fixtures/promptfoo-v2): refused in one line naming promptfoo, the export's version and
what to run instead, never the generic "not a recognised eval output"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from evalglass.errors import OutputError
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES

OLDER = FIXTURES / "promptfoo-v2/results"
FILES = sorted(p for p in OLDER.rglob("results.*"))
INSTEAD = (
    "run the eval again with promptfoo 0.92 or later (promptfoo eval -c CONFIG -o results.json)"
)


def refusal(path: Path) -> str:
    with pytest.raises(OutputError) as caught:
        read_outputs([path])
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(OLDER)))
def test_a_version_2_export_is_refused_naming_its_version_and_what_to_run(path: Path) -> None:
    """Each real version 2 export, JSON or YAML, with or without an evalId, is recognised as
    promptfoo's and refused with its version and the command that writes a version 3 export."""
    doc = yaml.safe_load(path.read_text())
    assert doc["results"]["version"] == 2
    message = refusal(path)
    assert message.startswith(f"{path}: a promptfoo export version 2 (results.version")
    assert INSTEAD in message


@pytest.mark.parametrize(("version", "said"), [(None, "with no version"), (1, "version 1")])
def test_exports_before_version_2_are_refused_the_same_way(
    tmp_path: Path, version: int | None, said: str
) -> None:
    """An export with no version or version 1 (promptfoo before 0.24.2, not installable here:
    the real 0.24.2 export with its version taken away or set to 1) is refused naming it."""
    text = (OLDER / "0.24.2/results.json").read_text()
    old = '"version": 2,'
    assert text.count(old) == 1
    path = tmp_path / "results.json"
    path.write_text(text.replace(old, "" if version is None else f'"version": {version},'))
    message = refusal(path)
    assert message.startswith(f"{path}: a promptfoo export {said} (results.version")
    assert INSTEAD in message
