"""`evalglass score --compare CARD.json`: each metric beside an earlier scorecard (its value there,
the change and the change's interval), in every format, display only, and stale cards labelled.
End to end through the real CLI on the bundled example and a run derived from it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalglass.core.regression import newcombe_paired
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS

PINNED = ("--as-of", "2026-11-30")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The example's records, its run saved as the earlier scorecard (samples kept), and a later
    run where ten exact-match answers went wrong and helpfulness rose to 0.85."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "before.json")
    run = json.loads(EXAMPLE_OUTPUT.read_text())
    scores = run["metrics"]["qa/exact_match"]["scores"]
    flipped = [i for i, s in enumerate(scores) if s == 1][:10]
    for i in flipped:
        scores[i] = 0
    run["metrics"]["qa/helpfulness"]["value"] = 0.85
    (tmp_path / "after.json").write_text(json.dumps(run))
    base = cli("score", "before.json", "--format", "json", "--keep-samples", *PINNED, cwd=tmp_path)
    assert base.returncode == 0, base.stderr
    (tmp_path / "base.json").write_text(base.stdout)
    return tmp_path


def comparison(work: Path, *extra: str) -> dict[str, object]:
    done = cli("score", "after.json", "--format", "json", "--compare", "base.json", *extra,
               *PINNED, cwd=work)  # fmt: skip
    doc: dict[str, object] = json.loads(done.stdout)["comparison"]
    return doc


def test_json_carries_the_earlier_value_and_the_paired_change(work: Path) -> None:
    """Per metric the earlier value and current − earlier; where both sides have samples the
    interval is the paired one (Newcombe, 200 pairs), otherwise unpaired from the stderrs."""
    doc = comparison(work)
    assert doc["source"] == "base.json" and doc["stale"] is None
    assert doc["evaluated_at"] == "2026-11-30T00:00:00Z"
    by_id = {m["id"]: m for m in doc["metrics"]}  # type: ignore[attr-defined]
    exact = by_id["qa/exact_match"]
    assert exact["earlier"] == 0.93
    assert exact["change"]["value"] == pytest.approx(-0.05)
    assert (exact["change"]["method"], exact["change"]["paired"]) == ("newcombe", 200)
    before = json.loads(EXAMPLE_OUTPUT.read_text())["metrics"]["qa/exact_match"]["scores"]
    after = json.loads((work / "after.json").read_text())["metrics"]["qa/exact_match"]["scores"]
    expected = newcombe_paired(list(zip(after, before, strict=True)), 0.95)
    assert exact["change"]["interval"] == pytest.approx([expected.low, expected.high])
    helpful = by_id["qa/helpfulness"]
    assert helpful["earlier"] == 0.81 and helpful["change"]["value"] == pytest.approx(0.04)
    assert (helpful["change"]["method"], helpful["change"]["paired"]) == ("normal", None)
    assert by_id["latency/p95_seconds"]["change"]["interval"] is None  # no stderr on either side


def test_a_comparison_changes_no_gate_verdict_or_exit_code(work: Path) -> None:
    """The later run fails its gate; with --compare the exit code, the verdict and every metric
    entry are exactly those without it."""
    plain = cli("score", "after.json", "--format", "json", *PINNED, cwd=work)
    compared = cli(
        "score", "after.json", "--format", "json", "--compare", "base.json", *PINNED, cwd=work
    )
    assert plain.returncode == compared.returncode == 1
    with_it = json.loads(compared.stdout)
    assert "comparison" not in json.loads(plain.stdout)
    del with_it["comparison"]
    assert with_it == json.loads(plain.stdout)


def test_every_format_shows_the_change(work: Path) -> None:
    """Terminal, Markdown, JUnit, GitHub and HTML each show the earlier value and the change."""
    line = "earlier 0.93, change -0.05"
    for fmt in ("terminal", "markdown", "junit", "github", "html"):
        done = cli("score", "after.json", "--format", fmt, "--compare", "base.json", *PINNED,
                   cwd=work)  # fmt: skip
        assert done.returncode == 1, (fmt, done.stderr)
        assert line in done.stdout, fmt
        assert "compared with base.json" in done.stdout.lower() or fmt == "github", fmt


def test_a_card_older_than_the_base_commit_is_labelled_stale(work: Path) -> None:
    """With --records-ref, an earlier scorecard evaluated before that commit was made is stale,
    and says so; one evaluated after it is not."""
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run([*GIT, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(work), "commit", "-qm", "records"], check=True)
    assert comparison(work, "--records-ref", "HEAD")["stale"] is True
    text = cli("score", "after.json", "--compare", "base.json", "--records-ref", "HEAD",
               *PINNED, cwd=work).stdout  # fmt: skip
    assert "STALE: evaluated before the base commit it stands for" in text
    fresh = cli("score", "before.json", "--format", "json", "--as-of", "2099-01-01", cwd=work)
    (work / "base.json").write_text(fresh.stdout)
    assert comparison(work, "--records-ref", "HEAD")["stale"] is False


def test_a_compare_file_that_is_not_a_scorecard_is_an_input_error(work: Path) -> None:
    """--compare on a file that is not a scorecard JSON: exit 4, one line naming it."""
    (work / "notes.json").write_text('{"hello": 1}')
    done = cli("score", "after.json", "--compare", "notes.json", cwd=work)
    assert done.returncode == 4 and done.stdout == ""
    assert done.stderr.startswith("evalglass: notes.json") and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("level", [0.9999999999999999, 1e-300])
@pytest.mark.parametrize("method", ["student_t", "normal", "clustered"])
def test_a_card_with_a_level_no_method_can_use_is_refused(
    work: Path, method: str, level: float
) -> None:
    """An earlier card whose interval has a level no method computes with (its quantile rounds
    to 1, or its critical value is 0) is an input error naming the field, exit 4: never 70."""
    card = json.loads((work / "base.json").read_text())
    entry = next(m for m in card["metrics"] if m["id"] == "qa/helpfulness")
    entry.update(method=method, level=level, clusters=20 if method == "clustered" else None)
    (work / "odd.json").write_text(json.dumps(card))
    done = cli("score", "after.json", "--compare", "odd.json", cwd=work)
    assert (done.returncode, done.stdout) == (4, "")
    assert done.stderr == (
        f"evalglass: odd.json: metrics[{card['metrics'].index(entry)}]: level must lie between "
        f"0.5 and 0.999, got {level!r}\n"
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    level=st.floats(min_value=0.5, max_value=0.999),
    method=st.sampled_from(["wilson", "student_t", "normal", "hoeffding", "clustered"]),
    value=st.floats(min_value=-1e300, max_value=1e300),
    n=st.integers(min_value=0, max_value=10**12),
)
def test_any_card_the_contract_accepts_compares_without_a_crash(
    work: Path, level: float, method: str, value: float, n: int
) -> None:
    """Whatever level, method, value and n an earlier card's entry has, once the contract
    accepts it the comparison is made (display only); nothing raises past the contract."""
    from evalglass.errors import EvalglassError
    from evalglass.shell import api

    card = json.loads((work / "base.json").read_text())
    for entry in card["metrics"]:
        if entry["value"] is not None:
            entry.update(method=method, level=level, value=value, n=n, clusters=3)
    (work / "odd.json").write_text(json.dumps(card))
    try:
        api.score([work / "after.json"], records=work / "host_records", compare=work / "odd.json")
    except EvalglassError:
        pass


def test_a_card_holding_more_samples_than_the_cap_is_refused_before_parsing(work: Path) -> None:
    """The samples an earlier card kept count against EVALGLASS_MAX_SAMPLE_MEMORY (at their
    measured cost, from the file's text before it is parsed): past it, exit 4 in one line
    naming the file and the variable; under it, the comparison is made."""
    card = json.loads((work / "base.json").read_text())
    kept = sum(len(m.get("samples") or ()) for m in card["metrics"])
    assert kept == 200
    tight = {"EVALGLASS_MAX_SAMPLE_MEMORY": str(kept * 560 - 1)}
    done = cli("score", "after.json", "--compare", "base.json", cwd=work, env=tight)
    assert (done.returncode, done.stdout) == (4, "")
    assert done.stderr.startswith("evalglass: base.json: the samples kept in one scorecard JSON ")
    assert done.stderr.rstrip().endswith("set EVALGLASS_MAX_SAMPLE_MEMORY to raise it")
    assert len(done.stderr.splitlines()) == 1
    enough = {"EVALGLASS_MAX_SAMPLE_MEMORY": str(kept * 560)}
    compared = cli("score", "after.json", "--compare", "base.json", cwd=work, env=enough)
    assert compared.returncode == 1 and "earlier 0.93" in compared.stdout  # the run's own FAIL


def test_each_metric_finds_its_earlier_entry_by_id(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Comparing and rendering look each metric up in an index of the card, never by scanning
    the whole card once per metric (10,000 metrics beside a card of 10,000 took 14-25 s)."""
    from evalglass import contract
    from evalglass.render import Format, render
    from evalglass.shell import api

    def scan(self: object, metric_id: str) -> None:
        raise AssertionError("the card was scanned for one metric")

    monkeypatch.setattr(contract.Scorecard, "metric", scan)
    compared = api.score(
        [work / "after.json"], records=work / "host_records", compare=work / "base.json"
    )
    assert compared.comparison is not None
    entry = compared.comparison.of("qa/exact_match")
    assert entry is not None and entry.earlier == 0.93
    assert "earlier 0.93" in render(compared, Format.MARKDOWN)
