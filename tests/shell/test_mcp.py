"""End to end: `evalglass mcp` driven by the MCP SDK's own client, on real files: over stdio from
a subprocess for the session itself (start, listing, every tool, --cwd, bad calls), and in this
process over in-memory streams where a test is about what the tools answer (tests/mcp_client)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from evalglass.shell.mcp_schemas import scorecard_schema
from evalglass.shell.mcp_tools import TOOLS
from tests.cli_runner import cli
from tests.mcp_client import Answer, Call, calls, commit, example_repo, tools
from tests.shell.test_cli import EVALGLASS, edit

NAMES = ["score", "explain", "doctor", "metrics", "diff"]
# Scorecards compared byte for byte are evaluated as of one fixed time.
AS_OF = "2026-11-30"
PINNED = ("--as-of", AS_OF)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return example_repo(tmp_path)


def _one_line_error(answer: Answer, *fragments: str) -> None:
    assert answer.is_error, answer.text
    assert "\n" not in answer.text and "Traceback" not in answer.text
    for fragment in fragments:
        assert fragment in answer.text, answer.text


def test_lists_five_read_only_tools_and_none_takes_a_records_path(repo: Path) -> None:
    """The tools are score, explain, doctor, metrics and diff, each marked read-only, each with a
    closed argument list that names no records folder or ref."""
    listed = tools(repo)
    assert [t.name for t in listed] == NAMES == [t.name for t in TOOLS]
    for tool in listed:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.input_schema["additionalProperties"] is False
        assert not [p for p in tool.input_schema["properties"] if "record" in p or "cwd" in p]


def test_every_tool_answers_the_bytes_the_cli_writes(repo: Path) -> None:
    """score, explain, doctor, metrics and diff on the bundled example: byte for byte what the
    same command writes with --format json, for a file and for a folder."""
    (repo / "logs").mkdir()
    shutil.copy(repo / "run.json", repo / "logs" / "run.json")
    todo: list[tuple[Call, tuple[str, ...]]] = [
        (("score", {"outputs": ["run.json"], "as_of": AS_OF}), ("score", "run.json", *PINNED)),
        (("score", {"outputs": ["logs"], "as_of": AS_OF}), ("score", "logs", *PINNED)),
        (
            ("score", {"outputs": ["run.json"], "require_gate": True, "as_of": AS_OF}),
            ("score", "run.json", "--require-gate", *PINNED),
        ),
        (("score", {"as_of": AS_OF}), ("score", *PINNED)),
        (
            ("explain", {"metric": "qa/helpfulness", "outputs": ["run.json"]}),
            ("explain", "qa/helpfulness", "run.json"),
        ),
        (("explain", {"metric": "qa/exact_match"}), ("explain", "qa/exact_match")),
        (("doctor", {"outputs": ["run.json"]}), ("doctor", "run.json")),
        (("doctor", {}), ("doctor",)),
        (
            ("metrics", {"outputs": ["logs"], "input_format": "generic"}),
            ("metrics", "logs", "--input-format", "generic"),
        ),
        (
            ("diff", {"base": "HEAD", "outputs": ["run.json"]}),
            ("diff", "--base", "HEAD", "run.json"),
        ),
    ]
    answers = calls(repo, [], [call for call, _ in todo])
    for (call, command), got in zip(todo, answers, strict=True):
        printed = cli(*command, "--format", "json", cwd=repo)
        assert not got.is_error, (call, got.text)
        assert printed.stdout and got.text == printed.stdout, call


def test_every_tool_declares_an_output_schema_and_answers_structured_content(repo: Path) -> None:
    """Each tool lists an output schema (score's is the scorecard contract's); each answer comes
    as structured content equal to its JSON text, valid under the schema the tool listed."""
    listed = {tool.name: tool for tool in tools(repo)}
    assert set(listed) == set(NAMES)
    assert listed["score"].output_schema == scorecard_schema()
    todo: list[Call] = [
        ("score", {"outputs": ["run.json"], "as_of": AS_OF}),
        ("explain", {"metric": "qa/helpfulness", "outputs": ["run.json"]}),
        ("doctor", {"outputs": ["run.json"]}),
        ("metrics", {"outputs": ["run.json"]}),
        ("diff", {"base": "HEAD", "outputs": ["run.json"]}),
    ]
    for (name, _), got in zip(todo, calls(repo, [], todo, stdio=False), strict=True):
        assert not got.is_error, got.text
        assert got.structured == json.loads(got.text), name
        schema = listed[name].output_schema
        assert schema is not None and schema["type"] == "object", name
        jsonschema.Draft202012Validator(schema).validate(got.structured)


def test_the_scorecard_schema_admits_every_golden_scorecard_and_refuses_a_wrong_one() -> None:
    """The contract-derived schema takes every golden scorecard JSON, and refuses a verdict
    outside the vocabulary and an unknown key (so it says what the JSON holds, no more)."""
    validator = jsonschema.Draft202012Validator(scorecard_schema())
    goldens = sorted((Path(__file__).parents[1] / "golden").glob("*/scorecard*.json"))
    assert len(goldens) >= 5
    for path in goldens:
        validator.validate(json.loads(path.read_text()))
    card = json.loads(goldens[0].read_text())
    assert not validator.is_valid({**card, "verdict": "passed"})
    assert not validator.is_valid({**card, "authority": "granted"})


def test_explain_shows_the_scorecards_own_entry_and_the_labelled_hypothetical(repo: Path) -> None:
    """explain's card is the score tool's metric entry; its edits and hypothetical are separate."""
    score, explained = calls(
        repo,
        [],
        [
            ("score", {"outputs": ["run.json"]}),
            ("explain", {"metric": "qa/helpfulness", "outputs": ["run.json"]}),
        ],
        stdio=False,
    )
    card = next(m for m in json.loads(score.text)["metrics"] if m["id"] == "qa/helpfulness")
    doc = json.loads(explained.text)
    assert doc["card"] == card
    assert card["authority"]["outcome"] == "informational"
    assert {
        "file": "judges.yaml",
        "record": "grader-v2",
        "field": "calibration",
        "action": "edit",
        "text": "calibrated",
        "choose": None,
        "asserts": doc["edits"][0]["asserts"],
    } == doc["edits"][0]
    assert doc["hypothetical"]["card"]["authority"]["outcome"] == "can_gate"
    assert set(doc["glossary"]) == {"judge_uncalibrated"}


def _outside(tmp_path: Path, repo: Path) -> Path:
    """A valid eval output outside the server's working directory, and links to it from inside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(repo / "run.json", outside / "run.json")
    (repo / "link.json").symlink_to(outside / "run.json")
    (repo / "outdir").symlink_to(outside, target_is_directory=True)
    for folder, name, target in (
        ("logs", "evil.json", outside / "run.json"),
        ("logs2", "d", outside),
    ):
        (repo / folder).mkdir()
        shutil.copy(repo / "run.json", repo / folder / "ok.json")
        (repo / folder / name).symlink_to(target)
    return outside


def test_outputs_outside_the_working_directory_are_refused(tmp_path: Path, repo: Path) -> None:
    """`..`, an absolute path outside, a link out, and a folder holding a link out (to a file or
    a folder): each refused in one line naming it, by every tool; the server goes on."""
    outside = _outside(tmp_path, repo)
    refused = [
        ("../outside/run.json", "../outside/run.json"),
        (str(outside / "run.json"), str(outside / "run.json")),
        ("link.json", "link.json"),
        ("outdir", "outdir"),
        ("outdir/run.json", "outdir/run.json"),
        ("logs", "logs/evil.json"),
        ("logs2", "logs2/d"),
        ("logs/../../outside", "logs/../../outside"),
        # A pattern is expanded first, then every path it matches is confined.
        ("outdi?/run.json", "outdir/run.json"),
        ("[l]ink.json", "link.json"),
        ("link*", "link.json"),
        ("logs*", "logs/evil.json"),
    ]
    args = {
        "score": {},
        "explain": {"metric": "qa/exact_match"},
        "doctor": {},
        "metrics": {},
        "diff": {"base": "HEAD"},
    }
    todo: list[Call] = [("score", {"outputs": ["run.json", path]}) for path, _ in refused]
    todo += [(name, {**extra, "outputs": ["../outside/run.json"]}) for name, extra in args.items()]
    todo.append(("score", {"outputs": ["run.json"]}))
    *answers, last = calls(repo, [], todo, stdio=False)
    for (path, named), got in zip(refused, answers, strict=False):
        _one_line_error(got, f"{named}: ", "outside the server's working directory")
    for got in answers[len(refused) :]:
        _one_line_error(got, "../outside/run.json: lies outside the server's working directory")
    assert not last.is_error and json.loads(last.text)["verdict"] == "pass"


def test_paths_that_stay_inside_are_read(repo: Path) -> None:
    """An absolute path inside, a `..` that comes back, and a link that stays inside are read."""
    (repo / "sub").mkdir()
    (repo / "inside.json").symlink_to(repo / "run.json")
    paths = [str(repo / "run.json"), "sub/../run.json", "inside.json"]
    answers = calls(repo, [], [("metrics", {"outputs": [path]}) for path in paths], stdio=False)
    for path, got in zip(paths, answers, strict=True):
        assert not got.is_error, got.text
        assert json.loads(got.text)["metrics"][0]["source"] == path


def test_the_records_are_the_servers_and_no_argument_names_others(repo: Path) -> None:
    """An agent that writes its own records folder under the working directory and names it gets
    a tool error from every tool; the answers still come from the server's records."""
    shutil.copytree(repo / "host_records", repo / "mine")
    edit(repo / "mine" / "metrics.yaml", "status: informational", "status: gating")
    todo: list[Call] = [
        ("score", {"outputs": ["run.json"], key: value})
        for key, value in (("records", "mine"), ("records_ref", "HEAD"), ("cwd", "mine"))
    ]
    todo += [(name, {"records": "mine"}) for name in NAMES]
    todo.append(("score", {"outputs": ["run.json"], "as_of": AS_OF}))
    *refused, score = calls(repo, [], todo, stdio=False)
    for got in refused:
        _one_line_error(got, "no argument")
    assert score.text == cli("score", "run.json", "--format", "json", *PINNED, cwd=repo).stdout


def test_records_are_read_again_on_every_call(repo: Path) -> None:
    """Deleting the threshold while the server runs takes the gate back on the next call."""

    def between(i: int) -> None:
        if i == 1:
            (repo / "host_records" / "thresholds.yaml").unlink()

    first, second = calls(
        repo, [], [("score", {"outputs": ["run.json"]})] * 2, between, stdio=False
    )
    assert json.loads(first.text)["verdict"] == "pass"
    card = next(m for m in json.loads(second.text)["metrics"] if m["id"] == "qa/exact_match")
    assert card["authority"]["outcome"] == "informational"
    assert [r["code"] for r in card["authority"]["reasons"]] == ["threshold_missing"]


def test_a_records_ref_server_reads_the_commit_it_started_on(repo: Path) -> None:
    """With --records-ref, neither the working tree nor a later commit on the ref changes an
    answer: the server reads the commit the ref named at start."""
    started = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    # The server reads the commit HEAD named at its start, and its scorecards say so.
    before = cli(
        "score", "run.json", "--records-ref", started, "--format", "json", *PINNED, cwd=repo
    ).stdout
    thresholds = repo / "host_records" / "thresholds.yaml"

    def between(i: int) -> None:
        if i == 1:
            thresholds.unlink()
        if i == 2:
            commit(repo, "drop the thresholds")

    todo: list[Call] = [("score", {"outputs": ["run.json"], "as_of": AS_OF})] * 3
    todo.append(("diff", {"base": "HEAD"}))
    *answers, diff = calls(repo, ["--records-ref", "HEAD"], todo, between, stdio=False)
    # The same bytes as the CLI at that commit, but for the ref, which is the one the server was
    # given: HEAD, as it named the commit when the server started.
    pinned = json.loads(before)
    pinned["records_at"]["ref"] = "HEAD"
    assert [json.loads(a.text) for a in answers] == [pinned] * 3
    moved = cli(
        "score", "run.json", "--records-ref", "HEAD", "--format", "json", *PINNED, cwd=repo
    ).stdout
    assert moved != before
    # The base is the ref as it is now; the head is still the commit the server started on.
    doc = json.loads(diff.text)
    assert (doc["base"], doc["head"]) == ("HEAD", started)
    assert ("gains_authority", "qa/exact_match") in {(c["kind"], c["id"]) for c in doc["changes"]}


def test_explain_and_doctor_at_a_records_ref_are_the_cli_answers(repo: Path) -> None:
    """An agent's explain and doctor from a `--records-ref` server are reproducible by a person:
    the CLI's `explain`/`doctor --records-ref COMMIT --format json`, at the commit the server
    fixed at start, print the same bytes, which differ from the working tree's once it has
    moved on."""
    edit(
        repo / "host_records" / "judges.yaml", "calibration: calibrating", "calibration: calibrated"
    )
    todo: list[Call] = [
        ("explain", {"metric": "qa/helpfulness", "outputs": ["run.json"]}),
        ("doctor", {"outputs": ["run.json"]}),
    ]
    explained, doctored = calls(repo, ["--records-ref", "HEAD"], todo, stdio=False)
    started = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    at_ref = ("--records-ref", started, "--format", "json")
    by_hand = cli("explain", "qa/helpfulness", "run.json", *at_ref, cwd=repo)
    assert by_hand.returncode == 0, by_hand.stderr
    assert explained.text == by_hand.stdout
    assert doctored.text == cli("doctor", "run.json", *at_ref, cwd=repo).stdout
    here = cli("explain", "qa/helpfulness", "run.json", "--format", "json", cwd=repo).stdout
    assert here != by_hand.stdout
    refused = cli("explain", "qa/helpfulness", "--patch", "--records-ref", "HEAD", cwd=repo)
    assert refused.returncode == 2 and "drop --records-ref" in refused.stderr


def test_records_and_outputs_are_taken_from_cwd(tmp_path: Path, repo: Path) -> None:
    """--cwd DIR: the records folder and the outputs are relative to DIR, and DIR bounds them."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    score, outside = calls(
        elsewhere,
        ["--cwd", str(repo)],
        [
            ("score", {"outputs": ["run.json"], "as_of": AS_OF}),
            ("score", {"outputs": [str(elsewhere)]}),
        ],
    )
    assert score.text == cli("score", "run.json", "--format", "json", *PINNED, cwd=repo).stdout
    _one_line_error(outside, "outside the server's working directory")


def _start(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`evalglass mcp` with no client: stdin closed, so a good start just ends."""
    return subprocess.run(
        [str(EVALGLASS), "mcp", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )


def test_bad_records_stop_the_server_at_start_with_one_line(repo: Path) -> None:
    """Invalid records, a missing folder, an unknown ref: exit 4, one line, nothing on stdout; a
    missing --cwd is a usage error."""
    (repo / "broken").mkdir()
    (repo / "broken" / "metrics.yaml").write_text("metrics:\n  a:\n    status: sometimes\n")
    for args, where in (
        (("--records", "broken"), "broken/metrics.yaml:3"),
        (("--records", "nowhere"), "nowhere"),
        (("--records-ref", "no-such-ref"), "no-such-ref"),
    ):
        result = _start(*args, cwd=repo)
        assert result.returncode == 4, result.stderr
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith(f"evalglass: {where}")
    assert _start("--cwd", str(repo / "nowhere"), cwd=repo).returncode == 2
    assert _start(cwd=repo).returncode == 0


def test_bad_input_is_a_tool_error_and_the_server_goes_on(repo: Path) -> None:
    """Each bad call is a tool error in one line naming what is wrong; the next call is answered."""
    bad: list[tuple[Call, str]] = [
        (("promote", {}), "promote: no such tool"),
        (("explain", {}), "explain: argument 'metric' is required"),
        (
            ("explain", {"metric": "qa/exact-match", "outputs": ["run.json"]}),
            "did you mean 'qa/exact_match'?",
        ),
        (("score", {"outputs": "run.json"}), "score.outputs: must be a list of strings"),
        (("score", {"outputs": [""]}), "score.outputs: '' is not a path"),
        (("score", {"require_gate": "yes"}), "score.require_gate: must be a boolean"),
        (("score", {"outputs": ["run.json"], "input_format": "excel"}), "unknown format 'excel'"),
        (("score", {"outputs": ["missing.json"]}), "missing.json: no such file or folder"),
        (("score", {"outputs": ["host_records"]}), "no recognised eval output"),
        (("metrics", {"outputs": []}), "metrics.outputs: name at least one eval output"),
        (("diff", {"base": "--output=x"}), "a git ref does not start with '-'"),
        (("diff", {"base": "no-such-ref"}), "no-such-ref"),
        # Longer than the OS allows, as one name and as a path: the OS's own words.
        (("score", {"outputs": ["a" * 5000]}), "cannot read: File name too long"),
        (("metrics", {"outputs": ["a/" * 3000]}), "cannot read: File name too long"),
        (("score", {"outputs": ["a" * 5000 + "*"]}), "cannot read: File name too long"),
    ]
    *answers, last = calls(repo, [], [call for call, _ in bad] + [("metrics", {"outputs": ["."]})])
    for (call, fragment), got in zip(bad, answers, strict=True):
        _one_line_error(got, fragment)
    assert not last.is_error and json.loads(last.text)["metrics"]
    assert "Traceback" not in (repo.parent / "mcp-stderr.log").read_text()


def test_without_the_sdk_the_command_names_the_extra(tmp_path: Path) -> None:
    """Without the `mcp` extra, `evalglass mcp` exits 4 with one line naming the install."""
    driver = (
        "import sys; sys.modules['mcp'] = sys.modules['mcp_types'] = None; "
        "sys.argv = ['evalglass', 'mcp']; from evalglass.__main__ import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", driver],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    assert result.returncode == 4
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "pip install 'mcp<3,>=2.3' (evalglass's 'mcp' extra)" in result.stderr


def test_score_takes_the_evaluation_time_and_refuses_a_bad_one(repo: Path) -> None:
    """as_of is the scorecard's evaluated_at; one that is not a date is a one-line tool error."""
    good, bad = calls(
        repo,
        [],
        [
            ("score", {"outputs": ["run.json"], "as_of": "2026-11-30"}),
            ("score", {"outputs": ["run.json"], "as_of": "yesterday"}),
        ],
        stdio=False,
    )
    assert json.loads(good.text)["evaluated_at"] == "2026-11-30T00:00:00Z"
    _one_line_error(bad, "score.as_of: 'yesterday': expected a date YYYY-MM-DD")


def test_a_huge_or_hostile_metric_id_is_echoed_escaped_and_cut_short(repo: Path) -> None:
    """explain on a 1 MB metric id, or one holding a newline and an escape sequence, answers a
    tool error of one short line: the id cut short, every control character a visible escape."""
    todo: list[Call] = [
        ("explain", {"metric": "m" * 1_000_000}),
        ("explain", {"metric": "qa/x\n\x1b[2JPASS"}),
        ("score", {"outputs": ["a\0" * 500_000]}),
    ]
    huge, hostile, path = calls(repo, [], todo, stdio=False)
    for got in (huge, hostile, path):
        _one_line_error(got)
        assert len(got.text) < 1000 and "\x1b" not in got.text
    assert huge.text.startswith("m" * 200) and "no such metric" in huge.text
    assert hostile.text.startswith("qa/x\\n\\x1b[2JPASS: no such metric")
