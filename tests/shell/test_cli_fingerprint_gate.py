"""A gate on an Inspect log, which names no dataset version: the dataset record pins the
fingerprint the log yields, the approval binds to it, and a matching fingerprint verifies the
data. Another fingerprint still blocks, and a record or approval that pins nothing is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import cli
from tests.real_outputs import FIXTURES
from tests.shell.test_cli_init_patch import fill, git

LOG = "2026-11-29T22-43-36-00-00_arith_KCmg8Bm4Msnz8Zkf4n9mxT.eval"
METRIC = "arith/match/accuracy"
SEEN = "sha256:1ba6ed46087e767613bbf26f2c39f6a8a9cd555a94adb5e2d02adbe99bec1b3a"
OTHER = "sha256:" + "0" * 64


@pytest.fixture
def gated(tmp_path: Path) -> Path:
    """A metric on the log with a proposed bar and no dataset record, explain's patch applied
    and its placeholders filled in."""
    (tmp_path / "logs").mkdir()
    shutil.copy(FIXTURES / "inspect" / "logs" / "eval" / LOG, tmp_path / "logs" / LOG)
    records = tmp_path / "host_records"
    records.mkdir()
    (records / "metrics.yaml").write_text(
        f"metrics:\n  {METRIC}:\n    status: informational\n    dataset: arith\n"
    )
    (records / "thresholds.yaml").write_text(
        f"thresholds:\n  {METRIC}:\n    op: '>='\n    value: 0.45\n    approval: proposed\n"
    )
    git(tmp_path, "init", "-q")
    printed = cli("explain", METRIC, "logs", "--patch", cwd=tmp_path)
    (tmp_path / "edits.patch").write_text(printed.stdout)
    assert git(tmp_path, "apply", "edits.patch").returncode == 0, printed.stdout
    fill(tmp_path / "host_records")
    return tmp_path


def _card(work: Path) -> dict[str, object]:
    scored = cli("score", "logs", "--format", "json", cwd=work)
    card: dict[str, object] = next(
        m for m in json.loads(scored.stdout)["metrics"] if m["id"] == METRIC
    )
    return card


def test_the_patch_pins_the_fingerprint_and_no_version(gated: Path) -> None:
    """The log names no version: the dataset record and the approval hold its fingerprint, and
    no version is asked for."""
    datasets = (gated / "host_records" / "datasets.yaml").read_text()
    thresholds = (gated / "host_records" / "thresholds.yaml").read_text()
    assert "version" not in datasets.split("datasets:\n", 1)[1]
    assert f"fingerprint: '{SEEN}'" in datasets
    assert f"    approved_for:\n      fingerprint: '{SEEN}'\n" in thresholds
    assert "dataset_version" not in thresholds


def test_a_matching_fingerprint_verifies_the_data(gated: Path) -> None:
    """The gate is decided, its dataset verified by the fingerprint: no 'not verified' line."""
    card = _card(gated)
    assert card["authority"] == {"outcome": "can_gate", "reasons": [], "notes": []}
    assert card["dataset"]["fingerprint_verified"] is True  # type: ignore[index]
    terminal = cli("score", "logs", cwd=gated).stdout
    assert "not verified" not in terminal
    assert "FAIL     arith/match/accuracy" in terminal


def test_another_fingerprint_still_blocks(gated: Path) -> None:
    """Record and approval pinned to other data: the log's samples are not those, so the gate
    is blocked (dataset_mismatch) and the run exits 3."""
    for name in ("datasets.yaml", "thresholds.yaml"):
        path = gated / "host_records" / name
        path.write_text(path.read_text().replace(SEEN, OTHER))
    card = _card(gated)
    assert card["authority"]["outcome"] == "blocked"  # type: ignore[index]
    assert [r["code"] for r in card["authority"]["reasons"]] == ["dataset_mismatch"]  # type: ignore[index]
    assert cli("score", "logs", cwd=gated).returncode == 3


def test_an_approval_bound_to_another_fingerprint_is_stale(gated: Path) -> None:
    """The data changed under the approval: the approval no longer describes it."""
    path = gated / "host_records" / "thresholds.yaml"
    path.write_text(path.read_text().replace(SEEN, OTHER))
    card = _card(gated)
    assert [r["code"] for r in card["authority"]["reasons"]] == ["approval_stale"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "old", "new", "refused"),
    [
        (
            "datasets.yaml", f"    fingerprint: '{SEEN}'\n", "",
            ("host_records/datasets.yaml:2: dataset 'arith' pins nothing to check an output "
            "against: give version, fingerprint or both (only a proposed dataset may give "
            "neither)"),
        ),
        (
            "thresholds.yaml", f"      fingerprint: '{SEEN}'\n", "      judge_model: x\n",
            ("host_records/thresholds.yaml:8: approved_for of threshold 'arith/match/accuracy' "
            "names no data: give dataset_version, fingerprint or both"),
        ),
        (
            "datasets.yaml", "    status: validated\n", "    status: validated\n    version: v1\n",
            ("host_records/thresholds.yaml:8: approved_for of threshold 'arith/match/accuracy' "
            "is missing required field 'dataset_version': dataset 'arith' has a version in "
            "datasets.yaml, so the approval must name the version it was given for; add "
            "dataset_version: below approved_for (the dataset's today is 'v1')"),
        ),
    ],
)  # fmt: skip
def test_records_that_pin_nothing_are_refused(
    gated: Path, name: str, old: str, new: str, refused: str
) -> None:
    """A validated dataset with neither version nor fingerprint, an approval naming neither, and
    an approval without the version its dataset has: exit 4, one line at the place."""
    path = gated / "host_records" / name
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    checked = cli("validate", cwd=gated)
    assert checked.returncode == 4
    assert checked.stderr == f"evalglass: {refused}\n"


def test_a_baseline_for_fingerprinted_data_names_the_fingerprint(tmp_path: Path) -> None:
    """A metric that requires a baseline, on data pinned by fingerprint alone: the patch gives
    the baseline the fingerprint (no version to name); filled in, it gates; a baseline measured
    on other samples is not comparable."""
    (tmp_path / "logs").mkdir()
    shutil.copy(FIXTURES / "inspect" / "logs" / "eval" / LOG, tmp_path / "logs" / LOG)
    records = tmp_path / "host_records"
    records.mkdir()
    (records / "metrics.yaml").write_text(
        f"metrics:\n  {METRIC}:\n    status: informational\n    dataset: arith\n"
        "    requires_baseline: yes\n"
    )
    git(tmp_path, "init", "-q")
    printed = cli("explain", METRIC, "logs", "--patch", cwd=tmp_path)
    assert f"+  {METRIC}:\n+    value: <" in printed.stdout.replace("'", "")
    assert (
        f"+    fingerprint: '{SEEN}'\n"
        in printed.stdout.split("+++ b/host_records/baselines.yaml")[1].split("diff --git")[0]
    )
    (tmp_path / "edits.patch").write_text(printed.stdout)
    assert git(tmp_path, "apply", "edits.patch").returncode == 0, printed.stdout
    fill(records)
    baselines = (records / "baselines.yaml").read_text()
    assert "dataset_version" not in baselines
    assert _card(tmp_path)["authority"]["outcome"] == "can_gate"  # type: ignore[index]
    (records / "baselines.yaml").write_text(baselines.replace(SEEN, OTHER))
    card = _card(tmp_path)
    assert [r["code"] for r in card["authority"]["reasons"]] == ["baseline_not_comparable"]  # type: ignore[index]
