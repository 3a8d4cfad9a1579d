"""A newcomer's first gate, end to end with the installed `evalglass` in a git repository, on a
real Inspect log and a real promptfoo export: `init`, `doctor` clean, the `explain` init suggests
with `--patch` piped to `git apply`, `validate`, then `score` in every format. The only edit is
the one the patch leaves to a person: who approved the bar, and when."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evalglass.render import Format
from tests.real_outputs import FIXTURES

EVALGLASS = Path(sys.executable).parent / "evalglass"
ENV = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "NO_COLOR": "1"}
# What the approver writes in place of the patch's placeholders.
APPROVAL = {
    "    approved_by: <who approved it>": "    approved_by: '@alice'",
    "    approved_on: <the date of approval, YYYY-MM-DD>": "    approved_on: 2026-11-01",
}


def sh(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A shell command line, as a newcomer types it (pipes included)."""
    return subprocess.run(
        command, shell=True, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    "output",
    [
        "inspect/logs/eval/2026-11-29T22-43-36-00-00_arith_KCmg8Bm4Msnz8Zkf4n9mxT.eval",
        "promptfoo/results/results.json",
    ],
)
def test_init_doctor_patch_validate_score_on_a_real_output(tmp_path: Path, output: str) -> None:
    """Every step exits as documented: doctor 0 after init and after the gate is promoted; the
    patch applies; validate names only the two placeholders, then loads; score gates the metric
    (can_gate, dataset verified) and renders it in every format."""
    source = FIXTURES / output
    (tmp_path / "logs").mkdir()
    shutil.copy(source, tmp_path / "logs" / source.name)
    assert sh("git init -q", tmp_path).returncode == 0
    made = sh(f"{EVALGLASS} init logs", tmp_path)
    assert made.returncode == 0, made.stderr
    doctor = sh(f"{EVALGLASS} doctor logs", tmp_path)
    assert doctor.returncode == 0, doctor.stdout
    # init's last suggestion: `evalglass explain METRIC logs`.
    explain = made.stdout.splitlines()[-1].strip()
    assert explain.startswith("evalglass explain ")
    metric = shlex.split(explain)[2]
    applied = sh(f"{EVALGLASS} {explain[10:]} --patch | git apply", tmp_path)
    assert applied.returncode == 0, applied.stderr
    thresholds = tmp_path / "host_records" / "thresholds.yaml"
    text = thresholds.read_text()
    at = text.split("\n").index("    approved_by: <who approved it>") + 1
    unfilled = sh(f"{EVALGLASS} validate", tmp_path)
    assert (unfilled.returncode, unfilled.stderr) == (
        4,
        (
            f"evalglass: host_records/thresholds.yaml:{at}: approved_by: <who approved it> is a "
            "placeholder: write the value in its place\n"
        ),
    )
    for placeholder, value in APPROVAL.items():
        assert placeholder in text
        text = text.replace(placeholder, value)
    thresholds.write_text(text)
    assert ": <" not in "".join(p.read_text() for p in (tmp_path / "host_records").glob("*.yaml"))
    validated = sh(f"{EVALGLASS} validate", tmp_path)
    assert validated.returncode == 0, validated.stderr
    doctor = sh(f"{EVALGLASS} doctor logs", tmp_path)
    assert doctor.returncode == 0, doctor.stdout
    scored = sh(f"{EVALGLASS} score logs --format json", tmp_path)
    card = json.loads(scored.stdout)
    gate = next(m for m in card["metrics"] if m["id"] == metric)
    assert gate["authority"]["outcome"] == "can_gate"
    assert gate["dataset"]["fingerprint_verified"] is True
    assert gate["gate"]["result"] in ("pass", "fail", "warn")
    assert scored.returncode == card["exit_code"]
    for fmt in Format:
        rendered = sh(f"{EVALGLASS} score logs --format {fmt.value}", tmp_path)
        assert rendered.returncode == card["exit_code"], (fmt, rendered.stderr)
        assert rendered.stderr == "", fmt
        assert metric in rendered.stdout, fmt
