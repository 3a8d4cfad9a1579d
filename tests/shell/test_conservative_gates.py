"""End to end: a gate compares the conservative end of an honest interval. No reported stderr,
rounding error, impossible value or earlier attempt lets a gate pass that its own method, on
the same evidence, would fail: the real CLI on generic and lm-eval files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import cli


def host(
    folder: Path,
    op: str,
    value: float | None,
    *,
    metric: str = "",
    threshold: str = "",
    baseline: str = "",
    success: str = "",
) -> Path:
    """A records folder where metric `m` gates on `op value` (extra YAML lines for the metric,
    the threshold, its baseline and the success policy), approved on dataset `d`."""
    records = folder / "host_records"
    records.mkdir()
    bar = "" if value is None else f"    value: {value}\n"
    (records / "metrics.yaml").write_text(
        f"metrics:\n  m:\n    status: gating\n    dataset: d\n{metric}"
    )
    (records / "thresholds.yaml").write_text(
        f"thresholds:\n  m:\n    op: '{op}'\n{bar}{threshold}    approval: approved\n"
        "    approved_by: '@a'\n    approved_on: 2026-01-01\n"
        "    approved_for:\n      dataset_version: '1'\n"
    )
    (records / "datasets.yaml").write_text(
        "datasets:\n  d:\n    status: validated\n    version: '1'\n"
    )
    (records / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
    if baseline:
        (records / "baselines.yaml").write_text(
            f"baselines:\n  m:\n{baseline}    dataset_version: '1'\n"
        )
    if success:
        (records / "success.yaml").write_text(f"success:\n{success}")
    return folder


def generic(folder: Path, entry: object, name: str = "run.json") -> str:
    """A generic JSON output with metric `m` as `entry`."""
    (folder / name).write_text(json.dumps({"model": "acme/x", "metrics": {"m": entry}}))
    return name


def score(folder: Path, *outputs: str) -> dict:
    """The scorecard JSON's entry for `m`, with the run's exit code."""
    done = cli("score", *outputs, "--format", "json", cwd=folder)
    doc = json.loads(done.stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "m")
    return {"exit": done.returncode, **entry}


def test_no_successes_never_clears_a_bar_of_zero(tmp_path: Path) -> None:
    """Ten scores of 0 gated `> 0` fail: Wilson's lower bound is exactly 0, not 2.8e-17."""
    work = host(tmp_path, ">", 0)
    got = score(work, generic(work, {"scores": [0] * 10}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    assert got["interval"][0] == 0


def test_no_failures_never_clears_a_bar_of_one(tmp_path: Path) -> None:
    """Fifteen scores of 1 gated `< 1` fail: Wilson's upper bound is exactly 1."""
    work = host(tmp_path, "<", 1)
    got = score(work, generic(work, {"scores": [1] * 15}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    assert got["interval"][1] == 1


def test_a_proportion_against_a_baseline_with_a_stderr_is_still_newcombe(tmp_path: Path) -> None:
    """100 scores of 0 against a baseline of 0.01 of 2,000 that records its stderr, `<=` with a
    max_drop of 0.02: Newcombe's upper bound 0.0272 fails it (a normal interval passed, its
    current side 0 wide)."""
    work = host(
        tmp_path, "<=", None, threshold="    max_drop: 0.02\n",
        baseline="    value: 0.01\n    n: 2000\n    stderr: 0.002225\n",
    )  # fmt: skip
    got = score(work, generic(work, {"scores": [0] * 100}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    change = got["gate"]["change"]
    assert change["method"] == "newcombe"
    assert round(change["interval"][1], 4) == 0.0272


def test_a_proportion_against_a_baseline_that_varies_more_keeps_its_own_limits(
    tmp_path: Path,
) -> None:
    """The same 100 scores of 0 against a baseline whose stderr (0.0045) is twice its binomial
    one, as a cluster-robust stderr would be: the baseline keeps its normal limits, the current
    side its proportion limits (Newcombe's hybrid, the MOVER construction), and the gate fails;
    a normal interval on the difference passed it (upper −0.0012), its current side 0 wide."""
    work = host(
        tmp_path, "<=", None, threshold="    max_drop: 0.02\n",
        baseline="    value: 0.01\n    n: 2000\n    stderr: 0.0045\n",
    )  # fmt: skip
    got = score(work, generic(work, {"scores": [0] * 100}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    change = got["gate"]["change"]
    assert change["method"] == "newcombe"
    # −0.01 + √(u₁² + (1.96·0.0045)²), u₁ the 95% Wilson upper bound of 0 of 100.
    assert 0.027 < change["interval"][1] < 0.029


def test_a_reported_stderr_of_zero_never_makes_a_zero_width_pass(tmp_path: Path) -> None:
    """value 1.0, n 10, stderr 0 gated `>= 0.99`: the stderr is the binomial one of 10 of 10,
    so the interval is a proportion's (at n 10 Clopper–Pearson's, lower 0.025^(1/10) = 0.6915,
    below Wilson's 0.7225) and the gate fails, not [1, 1] passing."""
    work = host(tmp_path, ">=", 0.99)
    got = score(work, generic(work, {"value": 1.0, "n": 10, "stderr": 0}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    assert (got["method"], got["method_basis"]) == ("clopper_pearson", "inferred_proportion")
    assert round(got["interval"][0], 4) == 0.6915 and got["interval"][1] == 1


def test_a_stderr_of_zero_for_a_mean_of_unknown_range_gives_no_interval(tmp_path: Path) -> None:
    """A mean of 3.7 with a stderr of 0: not a share, and nothing says how far the mean may
    be, so a bound gate is unsound (`interval_unavailable`), never a zero-width pass."""
    work = host(tmp_path, ">=", 3)
    got = score(work, generic(work, {"value": 3.7, "n": 50, "stderr": 0}))
    assert got["exit"] == 3 and got["gate"]["result"] == "unsound"
    assert [r["code"] for r in got["gate"]["reasons"]] == ["interval_unavailable"]


def test_a_binomial_stderr_makes_a_generic_value_a_proportion(tmp_path: Path) -> None:
    """value 0.95 of n 40 with its binomial stderr √(p(1−p)/(n−1)), gated `>= 0.85`: a
    proportion's lower bound (with 2 failures, Clopper–Pearson's 0.8308; Wilson's would be
    0.835) fails it, where value ± z·stderr (0.882) passed."""
    work = host(tmp_path, ">=", 0.85)
    stderr = (0.95 * 0.05 / 39) ** 0.5
    got = score(work, generic(work, {"value": 0.95, "n": 40, "stderr": stderr}))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail"
    assert (got["method"], got["method_basis"]) == ("clopper_pearson", "inferred_proportion")
    assert round(got["interval"][0], 4) == 0.8308


def test_a_mean_with_its_own_stderr_keeps_the_normal_interval(tmp_path: Path) -> None:
    """A value whose stderr is not the binomial one keeps value ± z·stderr, and says why."""
    work = host(tmp_path, ">=", 0.85)
    got = score(work, generic(work, {"value": 0.95, "n": 30, "stderr": 0.01}))
    assert (got["method"], got["method_basis"]) == ("normal", "reported_stderr")
    assert got["gate"]["result"] == "pass"


def test_a_declared_proportion_says_its_scale_chose_the_method(tmp_path: Path) -> None:
    """`scale: proportion` turns a normal interval from a stderr into a proportion's (with 1.5
    failures of 30, Clopper–Pearson's): `declared_scale`."""
    work = host(tmp_path, ">=", 0.85, metric="    scale: proportion\n")
    got = score(work, generic(work, {"value": 0.95, "n": 30, "stderr": 0.01}))
    assert (got["method"], got["method_basis"]) == ("clopper_pearson", "declared_scale")


def test_a_value_outside_its_declared_scale_is_unsound_not_clipped(tmp_path: Path) -> None:
    """`scale: proportion` with value 1.2 (n 30, stderr 0.01) gated `>= 0.9`: unsound
    (`value_out_of_range`), exit 3, never clipped to [1, 1] and passed."""
    work = host(tmp_path, ">=", 0.9, metric="    scale: proportion\n")
    got = score(work, generic(work, {"value": 1.2, "n": 30, "stderr": 0.01}))
    assert got["exit"] == 3 and got["gate"]["result"] == "unsound"
    assert [r["code"] for r in got["gate"]["reasons"]] == ["value_out_of_range"]
    assert got["interval"][1] > 1


def rows(folder: Path, scores: list[float], clusters: list[str] | None = None) -> str:
    """A generic rows file of metric `m`: one row per sample, in a cluster when given."""
    lines = []
    for i, score_ in enumerate(scores):
        row: dict[str, object] = {"metric": "m", "score": score_, "sample_id": f"s{i}"}
        if clusters is not None:
            row["cluster"] = clusters[i]
        lines.append(json.dumps(row))
    (folder / "rows.jsonl").write_text("\n".join(lines) + "\n")
    return "rows.jsonl"


# A latency: most runs near half a second, one far out, as a lognormal sample of 12 looks.
_LATENCY = [0.2, 0.3, 0.3, 0.4, 0.5, 0.5, 0.6, 0.7, 0.8, 1.0, 1.2, 9.0]


def test_scores_skewed_toward_the_bound_make_the_gate_unsound(tmp_path: Path) -> None:
    """Latencies of unknown range reaching 7.7 above their mean and 1.1 below, gated `<= 5`:
    Student-t's upper bound (2.8) would pass, where such skew passes a metric at its bar far
    more often than 2.5%; the gate is unsound (`interval_unreliable`), from the rows' range."""
    work = host(tmp_path, "<=", 5)
    got = score(work, rows(work, _LATENCY))
    assert got["method"] == "student_t" and got["interval"][1] < 5
    assert got["exit"] == 3 and got["gate"]["result"] == "unsound"
    assert [r["code"] for r in got["gate"]["reasons"]] == ["interval_unreliable"]


def test_skew_away_from_the_bound_still_gates(tmp_path: Path) -> None:
    """The same latencies gated `>= 0.1`: the long tail is on the side the lower bound does not
    look at, so the gate decides (its lower bound is below 0.1: it fails)."""
    work = host(tmp_path, ">=", 0.1)
    got = score(work, rows(work, _LATENCY))
    assert got["exit"] == 1 and got["gate"]["result"] == "fail" and not got["gate"]["reasons"]


def _clustered(clusters: int) -> tuple[list[float], list[str]]:
    """0/1 scores in clusters of 5, passing 5, 4 and 3 of 5 in turn."""
    scores = [float(i % 5 < 5 - c % 3) for c in range(clusters) for i in range(5)]
    return scores, [f"c{i // 5}" for i in range(5 * clusters)]


def test_a_cluster_robust_bound_over_few_clusters_is_unsound(tmp_path: Path) -> None:
    """0/1 scores in 6 clusters of 5 gated `>= 0.5`: below 10 clusters the cluster-robust
    interval was not shown to hold its level, so the gate is unsound; at 10 it decides."""
    for clusters, result, code in ((6, "unsound", 3), (10, "pass", 0)):
        work = tmp_path / str(clusters)
        work.mkdir()
        host(work, ">=", 0.5)
        got = score(work, rows(work, *_clustered(clusters)))
        assert got["method"] == "clustered_effective_n"
        assert got["gate"]["result"] == result and got["exit"] == code
        said = [r["code"] for r in got["gate"]["reasons"]]
        assert said == (["interval_unreliable"] if clusters < 10 else [])


def _graded(shift: float = 0.0) -> list[float]:
    """Sixty scores in [0, 1], not all 0 or 1 (mean 0.725 − shift)."""
    return [round(0.5 + 0.05 * (i % 10) - shift, 4) for i in range(60)]


def test_a_saved_scorecard_of_graded_scores_is_a_sound_baseline(tmp_path: Path) -> None:
    """A baseline saved as a scorecard without --keep-samples, of scores in [0, 1] (its interval
    at an effective n, which is not value ± q·se): the change's interval is Newcombe's hybrid of
    the two runs' own limits, so the same scores pass `max_drop 0.08` and scores 0.1 lower fail
    (there was no interval for the change: the gate was unsound)."""
    work = host(tmp_path, ">=", None, threshold="    max_drop: 0.08\n")
    generic(work, {"scores": _graded()}, "base_run.json")
    saved = cli("score", "base_run.json", "--format", "json", "--output", "base.json", cwd=work)
    assert saved.returncode == 3  # no baseline yet: blocked, and the scorecard is written
    (work / "base.json").rename(work / "host_records/base.json")
    base = json.loads((work / "host_records/base.json").read_text())["metrics"][0]
    assert base["method"] == "effective_n" and "samples" not in base
    (work / "host_records/baselines.yaml").write_text(
        "baselines:\n  m:\n    scorecard: base.json\n    dataset_version: '1'\n"
    )
    same = score(work, generic(work, {"scores": _graded()}))
    assert same["gate"]["change"]["method"] == "newcombe"
    assert same["exit"] == 0 and same["gate"]["result"] == "pass"
    low, high = same["gate"]["change"]["interval"]
    # Each side's own limits, combined: wider than either side's alone, never 0 wide.
    assert -0.08 < low < -(base["value"] - base["interval"][0]) and high > 0
    worse = score(work, generic(work, {"scores": _graded(0.1)}, "worse.json"))
    assert worse["exit"] == 1 and worse["gate"]["result"] == "fail"
