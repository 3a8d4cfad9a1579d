"""The diff of baselines: a regression gate's baseline moved is a tightening or a loosening,
whether its value is written in baselines.yaml or read from the rows file it names."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import attrs
import pytest

from evalglass.records.model import HostRecords, Op
from evalglass.tools.records_diff import Kind
from tests import states as s
from tests.cli_runner import cli
from tests.records.test_records_gitref import commit, git
from tests.shell.test_baseline_rows import generated, write_parquet, write_records
from tests.tools.test_diff import diff

DROP = 0.05


def _records(op: Op, regression: bool, baseline: float, n: int = 200) -> HostRecords:
    records = s.records(s.State(requires_baseline=True, baseline="comparable"))
    threshold = attrs.evolve(
        records.thresholds[s.METRIC], op=op, max_drop=DROP if regression else None
    )
    moved = attrs.evolve(records.baselines[s.METRIC], value=baseline, n=n)
    return attrs.evolve(records, thresholds={s.METRIC: threshold}, baselines={s.METRIC: moved})


def lets_through_more(op: Op, old: float, new: float) -> bool:
    """Independent statement: with the allowed drop, does a run pass against `new` that failed
    against `old`? (Higher is better: it must stay above baseline − drop; lower, mirrored.)"""

    def passes(current: float, baseline: float) -> bool:
        change = current - baseline
        return change > -DROP if op.higher_is_better else change < DROP

    probes = [b + d + e for b in (old, new) for d in (-DROP, DROP) for e in (-1e-9, 1e-9)]
    return any(passes(x, new) and not passes(x, old) for x in probes)


@pytest.mark.parametrize(
    ("op", "regression", "new"),
    list(itertools.product(Op, (True, False), (0.7, 0.8, 0.9))),
    ids=str,
)
def test_baseline_move_table(op: Op, regression: bool, new: float) -> None:
    """Every op, with and without an allowed drop, the baseline lowered, kept or raised: a
    regression gate's baseline is loosened exactly when a run passes that failed before;
    without a regression bar, or with only n changed, it is a record change."""
    base = _records(op, regression, 0.8)
    head = _records(op, regression, new, n=200 if new != 0.8 else 300)
    (change,) = [c for c in diff(base, head).changes if c.file == "baselines.yaml"]
    if regression and new != 0.8:
        loosened = lets_through_more(op, 0.8, new)
        assert change.kind is (Kind.BASELINE_LOOSENED if loosened else Kind.BASELINE_TIGHTENED)
        assert (change in diff(base, head).loosening) is loosened
        assert change.detail == f"value: 0.8 → {new}"
    else:
        assert change.kind is Kind.RECORD_CHANGED
        assert change not in diff(base, head).loosening


def test_a_saved_scorecard_whose_samples_changed_is_summed_up() -> None:
    """Only what the file holds beyond the numbers changed: one short line, not the entry."""
    base = _records(Op.GE, True, 0.8)
    saved = attrs.evolve(base.baselines[s.METRIC], scorecard="base.json", sample_scores={"a": 1})
    head = attrs.evolve(
        base,
        baselines={s.METRIC: attrs.evolve(saved, sample_scores={"a": 0})},
    )
    base = attrs.evolve(base, baselines={s.METRIC: saved})
    (change,) = diff(base, head).changes
    assert change.kind is Kind.RECORD_CHANGED
    assert change.detail == (
        "what scorecard 'base.json' holds changed; its value, n and standard error did not"
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Records whose baselines name base.parquet (every metric at about 0.82, max drop 0.05),
    committed on main."""
    repo = tmp_path / "repo"
    records = write_records(repo / "rec", "baselines:\n" + "".join(
        f"  {m}:\n    rows: base.parquet\n    dataset_version: '1'\n"
        for m in ("qa/exact", "qa/graded", "qa/latency")
    ))  # fmt: skip
    write_parquet(records / "base.parquet", generated(2, range(500), 1, 0.82))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "records")
    return repo


def test_a_rows_file_swapped_for_a_weaker_one_is_a_loosening(repo: Path) -> None:
    """The same name, other rows: the diff reads both files, shows the values, and
    --fail-on-loosen refuses the lower baseline (working tree and --head alike)."""
    write_parquet(repo / "rec/base.parquet", generated(2, range(500), 1, 0.5))
    result = cli("diff", "--base", "main", "--records", "rec", "--fail-on-loosen", cwd=repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "baseline_loosened    baselines.yaml   qa/exact" in result.stdout
    assert "(read from rows 'base.parquet')" in result.stdout
    commit(repo, "weaker rows")
    at_head = cli(
        "diff", "--base", "main~1", "--head", "main", "--records", "rec", "--fail-on-loosen",
        cwd=repo,
    )  # fmt: skip
    assert (at_head.returncode, at_head.stdout) == (
        1,
        result.stdout.replace("main → working tree", "main~1 → main"),
    )


def test_a_rows_file_swapped_for_a_stronger_one_tightens(repo: Path) -> None:
    """A higher baseline for a higher-is-better gate stops more runs: not a loosening."""
    write_parquet(repo / "rec/base.parquet", generated(2, range(500), 1, 0.95))
    result = cli("diff", "--base", "main", "--records", "rec", "--fail-on-loosen", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "baseline_tightened" in result.stdout and "baseline_loosened" not in result.stdout


def test_the_same_rows_rewritten_is_no_change(repo: Path) -> None:
    """A rows file written again with the same rows: the baselines read alike, nothing shown."""
    write_parquet(repo / "rec/base.parquet", generated(2, range(500), 1, 0.82))
    result = cli("diff", "--base", "main", "--records", "rec", "--fail-on-loosen", cwd=repo)
    assert result.returncode == 0
    assert "no change to host records or authority" in result.stdout


def test_an_unreadable_rows_file_at_the_base_is_one_line(repo: Path) -> None:
    """The base's rows file is not Parquet: exit 4, one line naming the base's record."""
    (repo / "rec/base.parquet").write_text("not parquet\n")
    commit(repo, "broken rows")
    subprocess.run(["git", "branch", "broken"], cwd=repo, check=True)
    result = cli("diff", "--base", "broken", "--records", "rec", cwd=repo)
    assert result.returncode == 4 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' is not a Parquet file" in (
        result.stderr
    )


def test_a_baseline_built_without_a_value_is_a_record_change() -> None:
    """Records built in code may give a baseline no value: its move has no direction."""
    base = _records(Op.GE, True, 0.8)
    unvalued = attrs.evolve(base.baselines[s.METRIC], value=None)
    head = attrs.evolve(base, baselines={s.METRIC: unvalued})
    (change,) = diff(base, head).changes
    assert (change.kind, change.detail) == (Kind.RECORD_CHANGED, "value: 0.8 → None")
