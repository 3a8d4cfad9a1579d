"""Baselines given as a Parquet rows file (`rows:`), end to end through the real CLI: the baseline's
numbers are those of scoring its file, the current Parquet rows pair with it inside DuckDB and
give the interval today's paired path gives, and a bad file is one line at the baseline's line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pytest

from evalglass.core.regression import difference
from evalglass.evidence import stats
from evalglass.evidence.model import Measurement, Run, Sample
from evalglass.records.model import BaselineRecord
from evalglass.render.evidence_line import evidence_line
from tests.cli_runner import cli
from tests.core.test_regression_sums import paired_sums
from tests.records.test_records_gitref import commit, git

Row = dict[str, object]
METRICS = ("qa/exact", "qa/graded", "qa/latency")
_COLUMNS = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR", "cluster": "VARCHAR"}


def generated(seed: int, ids: range, epochs: int, skill: float) -> list[Row]:
    """Three metrics (0/1, graded in [0, 1], unbounded), clusters, missing scores, `epochs`
    rows a sample, and a few rows that name no sample id (they cannot pair)."""
    rng = random.Random(seed)
    rows: list[Row] = []
    for i in ids:
        cluster = f"doc-{i % 23}"
        for epoch in range(1, epochs + 1):
            base: Row = {"sample_id": f"s{i}", "cluster": cluster, "epoch": epoch}
            exact = None if rng.random() < 0.03 else int(rng.random() < skill)
            rows.append({**base, "metric": "qa/exact", "score": exact})
            graded = round(min(1.0, rng.random() * 0.4 + skill * 0.6), 3)
            rows.append({**base, "metric": "qa/graded", "score": graded})
            rows.append({**base, "metric": "qa/latency", "score": rng.lognormvariate(3, 1)})
    for k in range(5):
        rows.append({"metric": "qa/graded", "score": rng.random(), "sample_id": None,
                     "cluster": None, "epoch": None})  # fmt: skip
    return rows


def write_parquet(path: Path, rows: list[Row]) -> Path:
    """The rows as Parquet, written by DuckDB (an epoch column when any row names one)."""
    columns = dict(_COLUMNS)
    if any("epoch" in r for r in rows):
        columns["epoch"] = "BIGINT"
    source = path.with_suffix(".source.jsonl")
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    listed = ", ".join(f"'{k}': '{v}'" for k, v in columns.items())
    duckdb.connect().execute(
        f"COPY (SELECT * FROM read_json('{source}', columns={{{listed}}})) TO '{path}' "
        "(FORMAT parquet)"
    )
    source.unlink()
    return path


def write_records(folder: Path, baselines: str, metrics: Sequence[str] = METRICS) -> Path:
    """Gating metrics on one dataset, each with an approved max_drop of 0.05, and `baselines`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "metrics.yaml").write_text(
        "metrics:\n"
        + "".join(
            f"  {m}:\n    status: gating\n    dataset: d\n    max_missing_fraction: 0.2\n"
            for m in metrics
        )
    )
    (folder / "datasets.yaml").write_text(
        "datasets:\n  d:\n    status: validated\n    version: '1'\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
    (folder / "thresholds.yaml").write_text(
        "thresholds:\n"
        + "".join(
            f"  {m}:\n    op: '>='\n    max_drop: 0.05\n    approval: approved\n"
            "    approved_by: '@lead'\n    approved_on: 2026-01-01\n    approved_for:\n"
            "      dataset_version: '1'\n"
            for m in metrics
        )
    )
    (folder / "baselines.yaml").write_text(baselines)
    return folder


def rows_baselines(name: str = "base.parquet", metrics: Sequence[str] = METRICS) -> str:
    return "baselines:\n" + "".join(
        f"  {m}:\n    rows: {name}\n    dataset_version: '1'\n" for m in metrics
    )


def cards(*args: str, cwd: Path) -> dict[str, dict[str, object]]:
    """The JSON scorecard's metrics by id, from the real CLI."""
    result = cli("score", *args, "--format", "json", "--as-of", "2026-06-01", cwd=cwd)
    assert result.returncode in (0, 1, 3), result.stderr  # pass, fail, blocked
    return {m["id"]: m for m in json.loads(result.stdout)["metrics"]}


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def test_parquet_pairs_as_the_saved_scorecard_path_does(tmp_path: Path) -> None:
    """Parquet current + rows baseline gives the change, interval, method, pairs and result that
    today's paired path gives on the same scores (a generic output with per-sample scores and a
    --keep-samples scorecard baseline), on 0/1 and graded metrics with partly shared ids."""
    rng = random.Random(7)
    now = {"qa/exact": [float(rng.random() < 0.8) for _ in range(400)],
           "qa/graded": [rng.randrange(9) / 8 for _ in range(400)]}  # fmt: skip
    then = {"qa/exact": [float(rng.random() < 0.82) for _ in range(300)],
            "qa/graded": [rng.randrange(9) / 8 for _ in range(450)]}  # fmt: skip
    metrics = tuple(now)
    for name, scores in (("now", now), ("then", then)):
        doc = {"metrics": {m: {"scores": s} for m, s in scores.items()}}
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
        write_parquet(
            tmp_path / f"{name}.parquet",
            [{"metric": m, "score": x, "sample_id": str(i)}
             for m, s in scores.items() for i, x in enumerate(s)],
        )  # fmt: skip
    saved = write_records(tmp_path / "saved", "", metrics)
    (tmp_path / "empty").mkdir()
    kept = cli("score", "then.json", "--records", str(tmp_path / "empty"), "--format", "json",
               "--keep-samples", "--output", str(saved / "base.json"), cwd=tmp_path)  # fmt: skip
    assert kept.returncode == 0, kept.stderr
    (saved / "baselines.yaml").write_text(
        "baselines:\n"
        + "".join(f"  {m}:\n    scorecard: base.json\n    dataset_version: '1'\n" for m in metrics)
    )
    (tmp_path / "parquet").mkdir()
    (tmp_path / "then.parquet").rename(tmp_path / "parquet" / "base.parquet")
    write_records(tmp_path / "parquet", rows_baselines(metrics=metrics), metrics)
    oracle = cards("now.json", "--records", "saved", cwd=tmp_path)
    got = cards("now.parquet", "--records", "parquet", cwd=tmp_path)
    for m in metrics:
        want, have = oracle[m]["gate"], got[m]["gate"]
        assert have["result"] == want["result"] and have["result"] in ("pass", "fail")
        change, expected = have["change"], want["change"]
        assert change["paired"] == expected["paired"] == min(len(now[m]), len(then[m]))
        assert change["method"] == expected["method"]
        assert change["value"] == expected["value"]
        assert all(map(close, change["interval"], expected["interval"]))
    assert got["qa/exact"]["gate"]["change"]["method"] == "newcombe"
    assert got["qa/graded"]["gate"]["change"]["method"] == "paired_t"


def _by_sample(rows: list[Row], metric: str) -> dict[str, float]:
    """Each sample id's scored epochs averaged, as today's pairing does."""
    scores: dict[str, list[float]] = {}
    for r in rows:
        if r["metric"] == metric and r["sample_id"] and r["score"] is not None:
            scores.setdefault(str(r["sample_id"]), []).append(float(r["score"]))  # type: ignore[arg-type]
    return {k: stats.mean(v) for k, v in scores.items()}


def test_epochs_clusters_and_missing_scores_pair_as_the_pairs_path_does(tmp_path: Path) -> None:
    """With epochs, clusters, missing scores, rows without ids and partial overlap, the CLI's
    paired change is the core's list-of-pairs interval on the same samples, its baseline value
    is that of scoring the baseline file itself, and the text says how many samples paired."""
    now_rows = generated(1, range(500), 2, 0.8)
    then_rows = generated(2, range(120, 700), 3, 0.82)
    write_parquet(tmp_path / "now.parquet", now_rows)
    records = write_records(tmp_path / "rec", rows_baselines())
    write_parquet(records / "base.parquet", then_rows)
    write_records(tmp_path / "plain", "")
    got = cards("now.parquet", "--records", "rec", cwd=tmp_path)
    baseline = cards("rec/base.parquet", "--records", "plain", cwd=tmp_path)
    for m in METRICS:
        change = got[m]["gate"]["change"]
        now_value, then_value = got[m]["value"], baseline[m]["value"]
        assert change["value"] == now_value - then_value
        now, then = _by_sample(now_rows, m), _by_sample(then_rows, m)
        current = Measurement(
            id=m, run=Run(source="now"), value=now_value, n=len(now),
            samples=tuple(Sample(id=k, score=v) for k, v in now.items()),
        )  # fmt: skip
        record = BaselineRecord(dataset_version="1", value=then_value, sample_scores=then)
        oracle = difference(current, record, 0.95)
        assert oracle is not None and oracle.interval is not None
        assert change["paired"] == oracle.paired == len(now.keys() & then.keys()) == 380
        assert change["method"] == oracle.interval.method.value
        assert close(change["interval"][0], oracle.interval.low)
        assert close(change["interval"][1], oracle.interval.high)
    text = cli("score", "now.parquet", "--records", "rec", cwd=tmp_path).stdout
    assert text.count("paired over 380 samples") == len(METRICS)


def test_a_current_output_that_is_not_parquet_compares_unpaired(tmp_path: Path) -> None:
    """A JSON output against a rows baseline: unpaired, from the baseline file's own numbers."""
    scores = [float(i % 5 != 0) for i in range(300)]
    (tmp_path / "now.json").write_text(json.dumps({"metrics": {"qa/exact": {"scores": scores}}}))
    records = write_records(tmp_path / "rec", rows_baselines(metrics=["qa/exact"]), ["qa/exact"])
    # Every score of a cluster alike: the baseline's cluster-robust standard error is far
    # larger than a share's binomial one, which Newcombe's interval would leave out.
    clustered = [
        {**r, "score": float(int(str(r["cluster"]).split("-")[1]) % 4 != 0)}
        if r["metric"] == "qa/exact" and r["score"] is not None else r
        for r in generated(3, range(400), 1, 0.85)
    ]  # fmt: skip
    widths = []
    for baseline in ([{**r, "cluster": None} for r in clustered], clustered):
        write_parquet(records / "base.parquet", baseline)
        change = cards("now.json", "--records", "rec", cwd=tmp_path)["qa/exact"]["gate"]["change"]
        # Two proportions; then the current share's limits with the baseline's own normal ones.
        assert change["paired"] is None and change["method"] == "newcombe"
        widths.append(change["interval"][1] - change["interval"][0])
    # The baseline's cluster-robust standard error is kept: the change is less certain.
    assert widths[1] > widths[0]


def test_rows_baseline_without_duckdb_names_the_extra(tmp_path: Path) -> None:
    """Without DuckDB, a baseline naming rows is exit 4 with one line naming the extra."""
    (tmp_path / "now.json").write_text(json.dumps({"metrics": {"qa/exact": {"scores": [1, 0]}}}))
    records = write_records(tmp_path / "rec", rows_baselines(metrics=["qa/exact"]), ["qa/exact"])
    write_parquet(records / "base.parquet", generated(3, range(40), 1, 0.85))
    hide = (
        "import sys; sys.modules['duckdb'] = None; from evalglass.__main__ import main; "
        "sys.argv = ['evalglass', 'score', 'now.json', '--records', 'rec']; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", hide], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 4 and result.stdout == ""
    said = (
        "evalglass: rec/baselines.yaml:2: baseline 'qa/exact': rows 'base.parquet' cannot be "
        "read: reading Parquet needs DuckDB: pip install 'duckdb>=1.1' (evalglass's 'parquet' extra)"
    )
    assert result.stderr.splitlines() == [said]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ("rows: ../base.parquet", "rows '../base.parquet' is outside the records folder"),
        ("rows: /tmp/base.parquet", "rows '/tmp/base.parquet' is outside the records folder"),
        ("rows: gone.parquet", "rows 'gone.parquet' not found next to the records"),
        ("rows: parts", "is a directory, not a file"),
        ("rows: notes.parquet", "rows 'notes.parquet' is not a Parquet file"),
        ("rows: unnamed.parquet", "cannot be read: Parquet rows lack column(s) metric"),
        ("rows: base.parquet\n    scorecard: base.json", "gives both scorecard and rows"),
        ("rows: base.parquet\n    value: 0.8\n    n: 100", "gives both rows and value and n"),
    ],
)
def test_a_bad_rows_baseline_is_one_line_at_its_field(
    tmp_path: Path, fields: str, said: str
) -> None:
    """A rows file outside the records, missing, not Parquet, or given with another source of
    the numbers: exit 4, one line naming baselines.yaml, the baseline's line and the field."""
    (tmp_path / "now.json").write_text(json.dumps({"metrics": {"qa/exact": {"scores": [1, 0]}}}))
    baselines = f"baselines:\n  qa/exact:\n    {fields}\n    dataset_version: '1'\n"
    records = write_records(tmp_path / "rec", baselines, ["qa/exact"])
    write_parquet(records / "base.parquet", generated(3, range(40), 1, 0.85))
    write_parquet(tmp_path / "base.parquet", generated(3, range(40), 1, 0.85))
    (records / "notes.parquet").write_text("not parquet\n")
    (records / "parts").mkdir()
    unnamed = records / "unnamed.parquet"  # rows with no metric column
    duckdb.connect().execute(f"COPY (SELECT 's1' AS sample_id, 1.0 AS score) TO '{unnamed}'")
    commands = [
        ["score", "now.json", "--records", "rec"],
        ["doctor", "--records", "rec"],
        ["validate", "--records", "rec"],
    ]
    if "Parquet" in said:
        commands.pop()  # validate reads no eval output, a baseline's rows included
    for command in commands:
        result = cli(*command, cwd=tmp_path)
        assert result.returncode == 4 and result.stdout == "", result.stderr
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("evalglass: rec/baselines.yaml:2: baseline 'qa/exact'")
        assert said in result.stderr


def committed_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A git repository (branch main, one commit) of records whose baselines name base.parquet,
    and a current now.parquet: the repository and its records folder."""
    repo = tmp_path / "repo"
    records = write_records(repo / "rec", rows_baselines())
    write_parquet(records / "base.parquet", generated(2, range(100, 600), 1, 0.82))
    write_parquet(repo / "now.parquet", generated(1, range(500), 1, 0.8))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "records")
    return repo, records


def test_records_ref_reads_the_committed_rows_file(tmp_path: Path) -> None:
    """With --records-ref HEAD the baseline rows are the committed file, not the working tree's,
    copied to a private temporary file that is gone afterwards."""
    repo, records = committed_repo(tmp_path)
    committed = cards("now.parquet", "--records", "rec", cwd=repo)
    write_parquet(records / "base.parquet", generated(9, range(300), 1, 0.5))
    working = cards("now.parquet", "--records", "rec", cwd=repo)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary)}
    result = subprocess.run(
        [str(Path(sys.executable).parent / "evalglass"), "score", "now.parquet", "--records",
         "rec", "--records-ref", "HEAD", "--format", "json", "--as-of", "2026-06-01"],
        cwd=repo, capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert result.returncode in (0, 1, 3), result.stderr
    at_ref = {m["id"]: m for m in json.loads(result.stdout)["metrics"]}
    for m in METRICS:
        assert at_ref[m]["gate"] == committed[m]["gate"] != working[m]["gate"]
    assert list(temporary.iterdir()) == []


def test_records_and_rows_come_from_one_commit_when_the_ref_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The branch moves after the records are read and before the rows file is: the rows still
    come from the commit the records came from, never from the one the branch moved to."""
    import evalglass
    from evalglass.records import gitref

    repo, records = committed_repo(tmp_path)
    monkeypatch.chdir(repo)
    first = evalglass.score(["now.parquet"], "rec", records_ref="main")
    write_parquet(records / "base.parquet", generated(9, range(300), 1, 0.5))
    commit(repo, "other rows")
    moved = evalglass.score(["now.parquet"], "rec", records_ref="main")
    git(repo, "checkout", "-q", "-b", "pinned", "HEAD~1")
    load = gitref.load_records_at

    def then_move(*args: object, **kwargs: object) -> object:
        loaded = load(*args, **kwargs)  # type: ignore[arg-type]
        git(repo, "update-ref", "refs/heads/pinned", "main")
        return loaded

    monkeypatch.setattr(gitref, "load_records_at", then_move)
    raced = evalglass.score(["now.parquet"], "rec", records_ref="pinned")
    gates = {
        name: {m.id: evidence_line(m) for m in card.metrics if m.id in METRICS}
        for name, card in (("first", first), ("moved", moved), ("raced", raced))
    }
    assert gates["raced"] == gates["first"] != gates["moved"]
    assert git_head(repo, "pinned") == git_head(repo, "main")


def git_head(repo: Path, branch: str) -> str:
    done = subprocess.run(
        ["git", "rev-parse", branch], cwd=repo, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_duckdb_join_sums_exactly_what_the_core_sums(tmp_path: Path) -> None:
    """Without epochs, DuckDB's paired sums equal the core's sums of the same pairs exactly,
    for 0/1, graded, negative and large scores, ids as integers on one side and text on the
    other, and rows without an id or a score left unpaired."""
    from evalglass.evidence.adapters import parquet

    rng = random.Random(5)
    makers = {
        "m/binary": lambda: float(rng.random() < 0.7),
        "m/graded": lambda: rng.randrange(1001) / 1000,
        "m/wide": lambda: rng.uniform(-3e6, 3e6) * rng.choice([1e-9, 1.0, 1e5]),
    }
    now: dict[str, dict[int, float]] = {m: {} for m in makers}
    then: dict[str, dict[int, float]] = {m: {} for m in makers}
    now_rows: list[Row] = []
    then_rows: list[Row] = []
    for metric, make in makers.items():
        for i in range(300):
            score = None if i % 17 == 0 else make()
            now_rows.append({"metric": metric, "score": score, "sample_id": str(i)})
            if score is not None:
                now[metric][i] = score
        for i in range(150, 420):
            score = make()
            then_rows.append({"metric": metric, "score": score, "sample_id": i})
            then[metric][i] = score
        now_rows.append({"metric": metric, "score": make(), "sample_id": None})
    write_parquet(tmp_path / "now.parquet", now_rows)
    source = tmp_path / "then.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in then_rows))
    duckdb.connect().execute(
        f"COPY (SELECT * FROM read_json('{source}', columns={{'metric': 'VARCHAR', "
        f"'score': 'DOUBLE', 'sample_id': 'BIGINT'}})) TO '{tmp_path / 'then.parquet'}' "
        "(FORMAT parquet)"
    )
    _, sums = parquet.with_baseline(
        (tmp_path / "then.parquet", "then"), [(tmp_path / "now.parquet", "now")], list(makers)
    )
    for metric in makers:
        shared = sorted(now[metric].keys() & then[metric].keys())
        want = paired_sums([(now[metric][i], then[metric][i]) for i in shared])
        assert sums[metric] == want
    assert sums["m/binary"].binary and not sums["m/wide"].bounded and sums["m/graded"].bounded
