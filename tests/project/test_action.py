"""The GitHub Action (action.yml and its scripts under action/), run as the runner would: the real
evalglass on real records, a fake `gh`, and the GitHub environment variables set."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import strictyaml  # type: ignore[import-untyped]

from tests import github_api
from tests.action_harness import (
    EXPRESSION,
    PULL_REQUEST,
    REPOSITORY,
    REPOSITORY_ID,
    ROOT,
    RUN_ID,
    WORKFLOW,
    GitHub,
    action,
    run_action,
)
from tests.github_api import FORK_ID, Api, serving
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS, edit

MARKER = "<!-- evalglass-scorecard -->"
BOT = {"login": "github-actions[bot]"}  # who the workflow's GITHUB_TOKEN writes as
EXAMPLE = ROOT / "examples/ci/github-action.yml"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A workspace holding a copy of the bundled example: records and one eval output."""
    workspace = tmp_path / "workspace"
    shutil.copytree(EXAMPLE_RECORDS, workspace / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, workspace / "run.json")
    return workspace


@pytest.fixture
def github(tmp_path: Path) -> GitHub:
    return GitHub(tmp_path / "github")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def posted(github: GitHub) -> list[dict[str, Any]]:
    """The comment writes gh was asked for: method, path and the body sent."""
    return [
        {
            "method": c["args"][c["args"].index("--method") + 1],
            "path": c["args"][c["args"].index("--method") + 2],
            "body": json.loads(c["stdin"])["body"],
        }
        for c in github.calls()
        if "--method" in c["args"]
    ]


def load_script(name: str) -> ModuleType:
    """A script of action/ as a module, the way Python runs it: its folder first on sys.path."""
    sys.path.insert(0, str(ROOT / "action"))
    try:
        path = ROOT / "action" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"action_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "action"))


# -- the comment -----------------------------------------------------------------------------


def test_first_run_creates_the_comment_and_the_second_updates_it(
    work: Path, github: GitHub
) -> None:
    """One sticky comment: created with the marker and the scorecard, then edited in place."""
    first = run_action(github, work, outputs="run.json")
    assert first.code == 0, first.log
    [created] = posted(github)
    assert created["method"] == "POST"
    assert created["path"] == f"repos/{REPOSITORY}/issues/{PULL_REQUEST}/comments"
    assert created["body"].startswith(MARKER + "\n")
    assert "qa/exact_match" in created["body"] and "PASS" in created["body"]
    [comment] = github.comments()

    second = run_action(github, work, outputs="run.json")
    assert second.code == 0, second.log
    assert [p["method"] for p in posted(github)] == ["POST", "PATCH"]
    assert posted(github)[1]["path"] == f"repos/{REPOSITORY}/issues/comments/{comment['id']}"
    assert len(github.comments()) == 1


def test_update_finds_the_marker_on_a_later_page_and_ignores_quotes(
    work: Path, github: GitHub
) -> None:
    """Comments come a page at a time; a comment that only quotes the marker is not taken over."""
    github.set_comments(
        [
            [
                {"id": 1, "body": "looks good", "user": BOT},
                {"id": 2, "body": f"> quoting\n{MARKER}", "user": BOT},
            ],
            [{"id": 3, "body": f"{MARKER}\nold scorecard", "user": BOT}],
        ]
    )
    result = run_action(github, work, outputs="run.json")
    assert result.code == 0, result.log
    assert [(p["method"], p["path"]) for p in posted(github)] == [
        ("PATCH", f"repos/{REPOSITORY}/issues/comments/3")
    ]
    assert github.comments()[2]["body"].startswith(MARKER + "\n")
    assert github.comments()[1]["body"] == f"> quoting\n{MARKER}"


@pytest.mark.parametrize("token_user", ["", "release-bot"])
def test_a_comment_someone_else_wrote_is_never_updated(
    work: Path, tmp_path: Path, token_user: str
) -> None:
    """A comment that starts with the marker but was written by someone other than the token's
    own user (GET /user, or github-actions[bot] for the workflow's token) is left alone: the
    scorecard goes into the token's own comment, or a new one."""
    github = GitHub(tmp_path / "gh", token_user=token_user)
    own = {"login": token_user or "github-actions[bot]"}
    forged = f"{MARKER}\n### evalglass: PASS (written by a contributor)"
    github.set_comments(
        [[{"id": 1, "body": forged, "user": {"login": "contributor"}},
          {"id": 2, "body": f"{MARKER}\nold", "user": own}]]
    )  # fmt: skip
    result = run_action(github, work, outputs="run.json")
    assert result.code == 0, result.log
    assert [(p["method"], p["path"]) for p in posted(github)] == [
        ("PATCH", f"repos/{REPOSITORY}/issues/comments/2")
    ]
    assert github.comments()[0]["body"] == forged
    github.set_comments([[{"id": 1, "body": forged, "user": {"login": "contributor"}}]])
    again = run_action(github, work, outputs="run.json")
    assert again.code == 0, again.log
    assert [p["method"] for p in posted(github)][-1] == "POST"
    assert github.comments()[0]["body"] == forged


@pytest.mark.parametrize("broken", ["gh fails", "gh missing"])
@pytest.mark.parametrize(("threshold", "code"), [("0.85", 0), ("0.95", 1)])
def test_a_failed_comment_is_a_warning_not_a_gate_result(
    work: Path, github: GitHub, broken: str, threshold: str, code: int
) -> None:
    """A fork's read-only token or no gh at all: a warning, and the exit code stays evalglass's."""
    github.gh_fails, github.gh = broken == "gh fails", broken != "gh missing"
    edit(work / "host_records/thresholds.yaml", "value: 0.85", f"value: {threshold}")
    result = run_action(github, work, outputs="run.json")
    assert result.code == code, result.log
    assert result.outputs["exit-code"] == str(code)
    warning = next(line for line in result.log.splitlines() if "evalglass comment::" in line)
    assert warning.startswith(
        "::warning title=evalglass comment::the scorecard comment was not posted"
    )
    assert ("HTTP 403" if broken == "gh fails" else "gh command is not on PATH") in warning
    assert "Gate on evalglass's exit code" in result.ran


def test_no_comment_when_turned_off_or_not_a_pull_request(work: Path, github: GitHub) -> None:
    """comment: false, or a push event: gh is never called; the gate is unchanged."""
    assert run_action(github, work, outputs="run.json", comment="false").code == 0
    github.event = {"ref": "refs/heads/main"}
    result = run_action(github, work, outputs="run.json")
    assert result.code == 0
    assert "not a pull request: no comment" in result.log
    assert github.calls() == []


# -- exit codes and outputs --------------------------------------------------------------------

# What each records edit does to the bundled example, and the code the action must end with.
RETIRE_DATASET = (
    "datasets.yaml",
    "qa-gold:\n    status: validated",
    "qa-gold:\n    status: retired",
)
DEMOTE_GATE = (
    "metrics.yaml",
    "qa/exact_match:\n    status: gating",
    "qa/exact_match:\n    status: informational",
)
# The example's success policy asks for one gate and names qa/exact_match; these undo each.
NO_MIN_GATES = ("success.yaml", "min_gates: 1", "min_gates: 0")
NO_MUST_PASS = ("success.yaml", "  must_pass:\n    - qa/exact_match\n", "")
GATE_CASES = {  # records edits, require-gate, verdict, exit code
    "pass": ([], "false", "pass", 0),
    "fail": ([("thresholds.yaml", "value: 0.85", "value: 0.95")], "false", "fail", 1),
    "blocked": ([RETIRE_DATASET], "false", "blocked", 3),
    "must-pass not gating": ([DEMOTE_GATE], "false", "blocked", 3),
    "too few gates": ([DEMOTE_GATE, NO_MUST_PASS], "false", "informational", 5),
    "informational": ([DEMOTE_GATE, NO_MUST_PASS, NO_MIN_GATES], "false", "informational", 0),
    "no gate required": ([DEMOTE_GATE, NO_MUST_PASS, NO_MIN_GATES], "true", "informational", 5),
}


@pytest.mark.parametrize("case", sorted(GATE_CASES))
def test_the_action_exits_with_evalglass_exit_code(work: Path, github: GitHub, case: str) -> None:
    """pass 0, fail 1, blocked 3, informational 0, or 5 under require-gate or the success
    policy's min_gates: the action's exit code, its exit-code output, and the JSON scorecard's
    all agree."""
    edits, require_gate, verdict, code = GATE_CASES[case]
    for name, old, new in edits:
        edit(work / "host_records" / name, old, new)
    result = run_action(github, work, outputs="run.json", require_gate=require_gate)
    assert result.code == code, result.log
    assert result.outputs["verdict"] == verdict
    assert result.outputs["exit-code"] == result.outputs["score-exit-code"] == str(code)
    assert result.outputs["diff-exit-code"] == ""  # no base ref: no diff
    card = json.loads(Path(result.outputs["scorecard-json"]).read_text())
    assert (card["verdict"], card["exit_code"]) == (verdict, code)
    assert result.log.rstrip().endswith(f"exit {code}")


def test_outputs_name_every_scorecard_and_the_artifact_keeps_them(
    work: Path, github: GitHub
) -> None:
    """GITHUB_OUTPUT gets verdict, exit-code and the paths; JSON, HTML and JUnit are uploaded."""
    result = run_action(github, work, outputs="run.json")
    paths = {
        name: Path(result.outputs[name])
        for name in ("scorecard-json", "scorecard-html", "scorecard-markdown", "junit-xml")
    }
    assert all(path.is_file() for path in paths.values())
    assert paths["scorecard-markdown"].read_text().startswith(MARKER)
    assert paths["junit-xml"].read_text().startswith("<?xml")
    assert "<html" in paths["scorecard-html"].read_text()
    assert result.uploaded == [paths["scorecard-json"], paths["scorecard-html"], paths["junit-xml"]]
    assert str(github.root / "runner temp") in str(paths["scorecard-json"])


def test_annotations_reach_the_log_and_the_summary_holds_one_scorecard(
    work: Path, github: GitHub
) -> None:
    """--format github prints the annotations; the summary gets the scorecard once, not twice."""
    github.summary_file.write_text("an earlier step\n")
    result = run_action(github, work, outputs="run.json")
    assert "::notice title=evalglass::PASS — 1 gate enforced" in result.log
    summary = github.summary_file.read_text()
    assert summary.startswith("an earlier step\n")
    assert summary.count(MARKER) == 1 and "qa/exact_match" in summary


def test_an_input_error_fails_and_the_comment_says_why(work: Path, github: GitHub) -> None:
    """A glob that matches nothing: evalglass's exit 4, an error annotation, and the sticky
    comment replaced by the error rather than left showing an older result."""
    github.set_comments([[{"id": 5, "body": f"{MARKER}\nPASS from an earlier push", "user": BOT}]])
    result = run_action(github, work, outputs="logs/*.eval")
    assert result.code == 4, result.log
    assert result.outputs["verdict"] == "" and result.outputs["scorecard-json"] == ""
    assert "::error title=evalglass::evalglass: logs/*.eval: no such file or folder" in result.log
    assert "Keep the scorecards" not in result.ran  # nothing to upload
    [patch] = posted(github)
    assert patch["body"].splitlines()[:4] == [
        MARKER,
        (
            "**evalglass check: FAIL (exit 4)** — the score could not run (exit 4); no records "
            "diff (no base ref)"
        ),
        "",
        "**evalglass could not score this run (exit 4)**",
    ]
    assert "logs/*.eval: no such file or folder" in patch["body"]
    assert "artifact" not in patch["body"]  # nothing was uploaded
    assert "could not score" in github.summary_file.read_text()


def test_the_comment_links_to_the_runs_artifacts(work: Path, github: GitHub) -> None:
    """A scored run's comment says where its HTML, JSON and JUnit scorecards are: the
    artifact, by name, on the run's page; and opens with the job's verdict."""
    result = run_action(github, work, outputs="run.json", artifact_name="evals-py311")
    [created] = posted(github)
    body = created["body"]
    assert result.uploaded and body.splitlines()[1] == (
        "**evalglass check: PASS (exit 0)** — score PASS (exit 0); no records diff (no base ref)"
    )
    assert body.rstrip().endswith(
        "The HTML, JSON and JUnit scorecards are this run's artifact `evals-py311`: "
        f"[artifacts](https://github.com/{REPOSITORY}/actions/runs/{RUN_ID}#artifacts)."
    )


def test_a_failed_step_still_replaces_the_old_comment(work: Path, github: GitHub) -> None:
    """The comment step runs always(): when the scoring step itself crashes (here its temporary
    folder is gone), an earlier run's PASS is replaced by a comment saying this run did not
    finish, and the action still fails."""
    assert action()["runs"]["steps"][3]["if"] == "always()"
    github.set_comments([[{"id": 5, "body": f"{MARKER}\nPASS from an earlier push", "user": BOT}]])
    shutil.rmtree(github.root / "runner temp")
    result = run_action(github, work, outputs="run.json")
    assert result.code != 0
    assert "Create or update the sticky pull-request comment" in result.ran
    [patch] = posted(github)
    assert patch["path"] == f"repos/{REPOSITORY}/issues/comments/5"
    assert patch["body"] == (
        f"{MARKER}\n**evalglass check: did not finish** — a step of the evalglass action failed "
        "before it scored, so there is no result for this commit: see [this run's log]"
        f"(https://github.com/{REPOSITORY}/actions/runs/{RUN_ID}).\n"
    )


def test_a_misspelt_flag_fails_the_action_and_says_so(work: Path, github: GitHub) -> None:
    """true/false inputs take nothing else: a typo must not quietly turn a check off. The action
    fails (exit 2), and the sticky comment says why instead of showing an older result."""
    github.set_comments([[{"id": 5, "body": f"{MARKER}\nPASS from an earlier push", "user": BOT}]])
    result = run_action(github, work, outputs="run.json", fail_on_loosen="yes")
    assert result.code == 2, result.log
    assert "::error title=evalglass::INPUT_FAIL_ON_LOOSEN: expected true or false" in result.log
    assert result.outputs["exit-code"] == "2" and result.outputs["verdict"] == ""
    [patch] = posted(github)
    assert patch["body"].startswith(f"{MARKER}\n**The evalglass action could not run (exit 2)**")
    assert "INPUT_FAIL_ON_LOOSEN: expected true or false, got 'yes'" in patch["body"]


def test_a_misspelt_comment_flag_stops_before_the_gate(work: Path, github: GitHub) -> None:
    """comment: ture is an error too (exit 2), never read as false."""
    result = run_action(github, work, outputs="run.json", comment="ture")
    assert result.code == 2
    assert "::error title=evalglass::INPUT_COMMENT: expected true or false" in result.log
    assert github.calls() == []


def test_paths_with_spaces_globs_and_extra_args(tmp_path: Path, github: GitHub) -> None:
    """Outputs one per line, globs expanded (recursively), spaces intact; args reach score."""
    work = tmp_path / "my workspace"
    shutil.copytree(EXAMPLE_RECORDS, work / "host records")
    (work / "eval logs" / "day 1").mkdir(parents=True)
    shutil.copy(EXAMPLE_OUTPUT, work / "eval logs" / "day 1" / "run one.json")
    result = run_action(
        github,
        work,
        outputs="\n  eval logs/**/*.json  \n\n",
        records="host records",
        args="--input-format 'generic'",
    )
    assert result.code == 0, result.log
    card = json.loads(Path(result.outputs["scorecard-json"]).read_text())
    assert card["sources"] == ["eval logs/day 1/run one.json"]


def test_an_outputs_glob_does_not_follow_linked_folders(tmp_path: Path) -> None:
    """Two committed links back to their folder (`logs/a -> .`, `logs/b -> .`) leave `**` a
    short walk: it expands at once to the one real file, never through a link."""
    logs = tmp_path / "logs"
    (logs / "day").mkdir(parents=True)
    shutil.copy(EXAMPLE_OUTPUT, logs / "day" / "run.json")
    (logs / "a").symlink_to(".", target_is_directory=True)
    (logs / "b").symlink_to(".", target_is_directory=True)
    probe = (
        "import importlib.util, sys; sys.path.insert(0, sys.argv[1]);"
        "spec = importlib.util.spec_from_file_location('s', sys.argv[1] + '/score.py');"
        "m = importlib.util.module_from_spec(spec); sys.modules['s'] = m;"
        "spec.loader.exec_module(m); print(m.expand('logs/**/*.json'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "action")], cwd=tmp_path, capture_output=True,
        text=True, timeout=30, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "('logs/day/run.json',)\n"), done.stderr


PATTERNS = ["*.json", "**/*.json", "logs/**", "**", "logs/*/x?.json", "l*/[dx]*/*", ".h*/*",
            "logs/**/.*", "/ABS/logs/*/*.json", "**/day"]  # fmt: skip


@pytest.mark.parametrize("pattern", PATTERNS)
def test_an_outputs_glob_matches_what_glob_does_without_links(
    tmp_path: Path, pattern: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no link is involved the walk matches glob.glob(recursive=True), hidden names too."""
    import glob

    for name in ("top.json", "logs/day/x1.json", "logs/day/y.json", "logs/.hid/x2.json",
                 "logs/day/.dot.json", ".hidden/z.json", "logs/deep/er/x3.json"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    monkeypatch.chdir(tmp_path)
    pattern = pattern.replace("/ABS", str(tmp_path))
    score = load_script("score")
    expected = sorted({p.rstrip("/") for p in glob.glob(pattern, recursive=True)})
    assert sorted(set(score._glob(pattern))) == expected


# -- the records diff against the pull request's base -------------------------------------------


@pytest.fixture
def pull_request(work: Path) -> Path:
    """The workspace as a clone whose base branch `main` holds the example records."""
    git(work, "init", "-q", "-b", "main")
    git(work, "add", ".")
    git(work, "commit", "-qm", "base")
    git(work, "update-ref", "refs/remotes/origin/main", "HEAD")
    return work


@pytest.mark.parametrize(("fail_on_loosen", "code"), [("true", 1), ("false", 0)])
def test_a_loosened_threshold_fails_only_under_fail_on_loosen(
    pull_request: Path, github: GitHub, fail_on_loosen: str, code: int
) -> None:
    """The pull request lowers a bar: the score (with the base's records) passes; the diff's
    loosening fails the action when fail-on-loosen is true, and is shown either way."""
    github.base_ref = "main"
    on_pull_request(pull_request, github)
    edit(pull_request / "host_records/thresholds.yaml", "value: 0.85", "value: 0.8")
    result = run_action(github, pull_request, outputs="run.json", fail_on_loosen=fail_on_loosen)
    assert result.code == code, result.log
    assert result.outputs["verdict"] == "pass", result.log
    assert result.outputs["score-exit-code"] == "0"
    assert result.outputs["diff-exit-code"] == result.outputs["exit-code"] == str(code)
    [comment] = posted(github)
    # The job's verdict comes first, the loosening named in it, before the score's own headline.
    lines = comment["body"].splitlines()
    assert lines[0] == MARKER
    assert (
        lines[1]
        == {
            1: "**evalglass check: FAIL (exit 1)** — score PASS (exit 0); **the host records loosen "
            "a gate without a new approval** (`fail-on-loosen`)",
            0: "**evalglass check: PASS (exit 0)** — score PASS (exit 0); records diff shown below, "
            "not checked (`fail-on-loosen: false`)",
        }[code]
    )
    assert lines[3].startswith("No earlier scorecard to compare with")  # no base artifact
    assert lines[5].startswith("**PASS — 1 gate enforced")
    assert "| threshold\\_loosened | `thresholds.yaml` | `qa/exact_match` |" in comment["body"]
    assert ("**This fails the check:**" in comment["body"]) is (code == 1)
    assert ("::error title=evalglass::the host records loosen a gate" in result.log) is (code == 1)
    summary = github.summary_file.read_text()
    assert summary.count(MARKER) == 1 and "threshold\\_loosened" in summary


def base_card(cwd: Path, *extra: str) -> str:
    """A scorecard JSON of the example run, with its samples, as the base's run writes it."""
    done = subprocess.run(
        [sys.executable, "-m", "evalglass", "score", "run.json", "--format", "json", *extra],
        cwd=cwd, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.stdout, done.stderr
    return done.stdout


def zipped(members: dict[str, bytes | str]) -> bytes:
    """An artifact's zip holding `members`, deflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as packed:
        for name, data in members.items():
            packed.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def api(github: GitHub) -> Iterator[Api]:
    """The stand-in REST API, serving on 127.0.0.1 while the test runs; the action reads it."""
    with serving(Api()) as served:
        github.api_url = served.url
        yield served


def on_pull_request(repo: Path, github: GitHub) -> str:
    """The event of a pull request into `main` at `repo`'s HEAD, as the runner sets it (so
    BASE_SHA is set as action.yml sets it); the base commit."""
    sha = rev_parse(repo)
    github.base_ref = "main"
    github.event = {"pull_request": {"number": PULL_REQUEST, "base": {"sha": sha, "ref": "main"}}}
    return sha


def test_the_base_commits_push_run_is_the_card_compared_with(
    pull_request: Path, github: GitHub, api: Api
) -> None:
    """The card shown is the artifact of this workflow's push run of the base commit in this
    repository: never an older commit's run, a pull request's run, a fork's run on a branch it
    named `main`, another workflow's run, or an expired artifact; the verdict and exit code are
    the score's alone."""
    sha = on_pull_request(pull_request, github)
    older = "0" * 40
    api.runs = [
        github_api.run(11, older, created="2026-11-02T00:00:00Z"),
        github_api.run(12, sha),
        github_api.run(13, sha, event="pull_request", repository_id=FORK_ID),
        github_api.run(14, sha, repository_id=FORK_ID),  # a fork's push, named as ours
        github_api.run(15, sha, event="pull_request", branch="feature"),
        github_api.run(16, sha, workflow=".github/workflows/other.yml"),
        github_api.run(17, sha, created="2026-11-03T00:00:00Z"),  # only an expired artifact
    ]
    api.artifacts = [github_api.artifact(100 + r["id"], r["id"]) for r in api.runs[:-1]]
    api.artifacts.append(github_api.artifact(117, 17, expired=True))
    card = base_card(pull_request, "--keep-samples")
    planted = card.replace('"value": 0.93', '"value": 0.5')
    api.zips = {a["id"]: zipped({"scorecard.json": planted}) for a in api.artifacts}
    api.zips[112] = zipped({"scorecard.json": card})
    result = run_action(github, pull_request, outputs="run.json")
    assert result.code == 0, result.log
    assert api.downloads() == [112]
    assert all(token is (not path.startswith("/storage/")) for path, token in api.requests)
    [comment] = posted(github)
    assert comment["body"].splitlines()[3] == (
        f"Compared with the scorecard of `main` at `{sha[:12]}` (run 12, artifact `evalglass`);"
        " display only."
    )
    assert "earlier 0.93, change +0" in comment["body"]
    scorecard = json.loads(Path(result.outputs["scorecard-json"]).read_text())
    assert scorecard["comparison"]["stale"] is False and scorecard["verdict"] == "pass"


def test_only_a_forks_or_pull_requests_run_means_no_comparison(
    pull_request: Path, github: GitHub, api: Api
) -> None:
    """With BASE_SHA set, runs of the base commit from a fork or a pull request are all there
    is: nothing is downloaded and the comment says there is no base run to compare with."""
    sha = on_pull_request(pull_request, github)
    api.runs = [
        github_api.run(13, sha, event="pull_request", repository_id=FORK_ID),
        github_api.run(14, sha, repository_id=FORK_ID),
        github_api.run(15, sha, event="pull_request"),
    ]
    api.artifacts = [github_api.artifact(100 + r["id"], r["id"]) for r in api.runs]
    api.zips = {a["id"]: zipped({"scorecard.json": base_card(pull_request)}) for a in api.artifacts}
    result = run_action(github, pull_request, outputs="run.json")
    assert result.code == 0, result.log
    assert api.downloads() == []
    assert posted(github)[0]["body"].splitlines()[3] == (
        "No earlier scorecard to compare with: no run of this workflow on a push of "
        f"`{sha[:12]}` to `main` in this repository."
    )
    assert "comparison" not in json.loads(Path(result.outputs["scorecard-json"]).read_text())


def _bomb() -> bytes:
    """A 100 KB zip whose scorecard.json unpacks to 100 MiB."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as packed,
        packed.open("scorecard.json", "w", force_zip64=True) as member,
    ):
        for _ in range(100):
            member.write(b" " * (1 << 20))
    return buffer.getvalue()


BAD_CARDS: dict[str, tuple[Callable[[str], bytes], str]] = {
    "not a scorecard": (
        lambda card: zipped({"scorecard.json": '{"not": "a scorecard"}'}),
        "No comparison with the base's scorecard: evalglass could not use it (exit 4: `",
    ),
    "an extreme level": (
        lambda card: zipped({"scorecard.json": card.replace('"level": 0.95', '"level": 1e-300')}),
        "No comparison with the base's scorecard: evalglass could not use it (exit 4: `",
    ),
    "no scorecard.json": (
        lambda card: zipped({"other.json": card}),
        "No earlier scorecard to compare with: the base's artifact holds no scorecard.json.",
    ),
    "not a zip": (
        lambda card: b"PK\x03\x04 not really",
        "No earlier scorecard to compare with: the base's artifact is not a readable zip",
    ),
    "a zip bomb": (
        lambda card: _bomb(),
        (
            "No earlier scorecard to compare with: scorecard.json unpacks to 104857600 bytes, "
            "past the cap."
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_CARDS))
def test_a_bad_base_card_never_changes_the_job(
    pull_request: Path, github: GitHub, api: Api, case: str
) -> None:
    """Whatever the base's artifact holds, the job's exit code, verdict and annotations are
    those of the run alone: the comparison is dropped with one line saying why."""
    sha = on_pull_request(pull_request, github)
    make, said = BAD_CARDS[case]
    api.runs = [github_api.run(12, sha)]
    api.artifacts = [github_api.artifact(112, 12)]
    api.zips = {112: make(base_card(pull_request, "--keep-samples"))}
    result = run_action(github, pull_request, outputs="run.json")
    assert (result.code, result.outputs["verdict"], result.outputs["exit-code"]) == (0, "pass", "0")
    assert "::error" not in result.log
    line = posted(github)[0]["body"].splitlines()[3]
    assert line.startswith(said), line
    assert "comparison" not in json.loads(Path(result.outputs["scorecard-json"]).read_text())


def test_the_download_and_the_api_answers_are_capped(api: Api) -> None:
    """An artifact that declares more than the download cap is not fetched; an answer longer
    than its cap is cut off and refused."""
    module = load_script("base_card")
    base = module.Base(
        api=api.url, repository=REPOSITORY, repository_id=str(REPOSITORY_ID), workflow=WORKFLOW,
        branch="main", commit="a" * 40, artifact="evalglass", token="t",
    )  # fmt: skip
    api.runs = [github_api.run(12, "a" * 40)]
    api.artifacts = [github_api.artifact(112, 12, size=module.ARTIFACT_BYTES + 1)]
    with pytest.raises(module.NoCard, match="declares 33554433 bytes, past the cap"):
        module.find(base, Path("/nonexistent"))
    assert api.downloads() == []
    api.zips[5] = b"x" * 5000
    with pytest.raises(module.NoCard, match="5000 bytes, past the cap"):
        module.get(base, "/storage/5", 1000)


def test_a_failing_score_keeps_its_code_beside_a_loosening(
    pull_request: Path, github: GitHub
) -> None:
    """Both fail: the exit code is the score's (blocked, 3), so it matches the verdict."""
    github.base_ref = "main"
    edit(pull_request / "host_records" / RETIRE_DATASET[0], *RETIRE_DATASET[1:])
    git(pull_request, "commit", "-qam", "retire")
    git(pull_request, "update-ref", "refs/remotes/origin/main", "HEAD")
    edit(pull_request / "host_records/thresholds.yaml", "value: 0.85", "value: 0.8")
    result = run_action(github, pull_request, outputs="run.json")
    assert (result.code, result.outputs["diff-exit-code"], result.outputs["verdict"]) == (
        3,
        "1",
        "blocked",
    )


def test_records_come_from_the_base_fetched_into_a_shallow_clone(
    tmp_path: Path, work: Path, github: GitHub
) -> None:
    """A shallow checkout lacks origin/main: the action fetches it, and the pull request's own
    edit (calibrating its judge) does not grant authority: one gate, not two."""
    git(work, "init", "-q", "-b", "main")
    git(work, "add", ".")
    git(work, "commit", "-qm", "base")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", f"file://{work}", str(clone))
    git(clone, "update-ref", "-d", "refs/remotes/origin/main")
    edit(clone / "host_records/judges.yaml", "calibrating", "calibrated")
    github.base_ref = "main"
    result = run_action(github, clone, outputs="run.json", fail_on_loosen="false")
    assert result.code == 0, result.log
    assert "PASS — 1 gate enforced" in result.log
    assert result.outputs["diff-exit-code"] == "0"
    assert (
        "| gains\\_authority (no new approval) | `metrics.yaml` | `qa/helpfulness` |"
        in (posted(github)[0]["body"])
    )
    assert (
        subprocess.run(
            ["git", "rev-parse", "--verify", "origin/main"],
            cwd=clone,
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )


def rev_parse(repo: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_base_commit_from_the_event_is_read_even_if_the_branch_was_moved(
    pull_request: Path, github: GitHub
) -> None:
    """The event names the base commit: code run earlier in the job that points origin/main at a
    commit of its own (a calibrated judge, two gates) changes nothing, and the scorecard names
    the commit read."""
    base = rev_parse(pull_request)
    edit(pull_request / "host_records/judges.yaml", "calibrating", "calibrated")
    git(pull_request, "commit", "-qam", "calibrate")
    git(pull_request, "update-ref", "refs/remotes/origin/main", "HEAD")  # the branch, moved
    github.base_ref = "main"
    github.event = {"pull_request": {"number": PULL_REQUEST, "base": {"sha": base}}}
    result = run_action(github, pull_request, outputs="run.json", fail_on_loosen="false")
    assert result.code == 0, result.log
    assert "PASS — 1 gate enforced" in result.log
    card = json.loads(Path(result.outputs["scorecard-json"]).read_text())
    assert card["records_at"] == {"ref": base, "commit": base}
    assert f"commit `{base}`" in posted(github)[0]["body"]


def test_the_base_commit_is_fetched_into_a_shallow_clone(
    tmp_path: Path, work: Path, github: GitHub
) -> None:
    """A depth-1 checkout of the pull request lacks the base commit: the action fetches that
    commit alone, and reads the records there."""
    git(work, "init", "-q", "-b", "main")
    git(work, "add", ".")
    git(work, "commit", "-qm", "base")
    base = rev_parse(work)
    edit(work / "host_records/judges.yaml", "calibrating", "calibrated")
    git(work, "commit", "-qam", "the pull request")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", f"file://{work}", str(clone))
    github.event = {"pull_request": {"number": PULL_REQUEST, "base": {"sha": base}}}
    result = run_action(github, clone, outputs="run.json", fail_on_loosen="false")
    assert result.code == 0, result.log
    assert "PASS — 1 gate enforced" in result.log
    assert (
        json.loads(Path(result.outputs["scorecard-json"]).read_text())["records_at"]["commit"]
        == base
    )


@pytest.mark.parametrize(
    ("given", "base_ref", "sha", "expected"),
    [
        ("", "main", "a" * 40, ("a" * 40, "a" * 40)),
        ("", "main", "b" * 64, ("b" * 64, "b" * 64)),
        ("", "main", "", ("origin/main", "main")),
        ("", "main", "not-a-commit", ("origin/main", "main")),
        ("", "", "", (None, None)),
        ("v1.2", "main", "a" * 40, ("v1.2", None)),
    ],
)
def test_records_ref_prefers_the_given_ref_then_the_base_commit(
    given: str, base_ref: str, sha: str, expected: tuple[str | None, str | None]
) -> None:
    """records-ref as given wins; else the event's base commit when it is a full id; else the
    base branch; else the working tree."""
    assert load_script("score").records_ref(given, base_ref, sha) == expected


# -- the scripts on their own ------------------------------------------------------------------


def test_install_makes_a_venv_and_installs_the_action_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """install.py: a venv under RUNNER_TEMP, pip given the action's own folder (spaces intact),
    and the venv's python as the step output the later steps run."""
    install = load_script("install")
    calls: list[list[str]] = []
    monkeypatch.setattr(install.subprocess, "run", lambda cmd, check: calls.append(cmd))
    output = tmp_path / "output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path))
    monkeypatch.setenv("GITHUB_ACTION_PATH", "/home/runner/work/_actions/acme/eval glass/v1")
    assert install.main() == 0
    venv, pip, version = calls
    assert venv[:3] == [sys.executable, "-m", "venv"] and venv[3].startswith(str(tmp_path))
    python = str(Path(venv[3]) / "bin/python")
    assert pip == [
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "/home/runner/work/_actions/acme/eval glass/v1",
    ]
    assert version == [python, "-m", "evalglass", "--version"]
    assert python in output.read_text()


@pytest.mark.parametrize(
    ("given", "installed"),
    [
        ("", ""),
        ("parquet", "[parquet]"),
        (" parquet , yaml,parquet ", "[parquet,yaml]"),
    ],
)
def test_install_adds_the_extras_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str, installed: str
) -> None:
    """The `extras` input: each name once, in the order given, as pip's extras of the checkout."""
    install = load_script("install")
    calls: list[list[str]] = []
    monkeypatch.setattr(install.subprocess, "run", lambda cmd, check: calls.append(cmd))
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "output"))
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path))
    monkeypatch.setenv("GITHUB_ACTION_PATH", "/actions/eval glass/v1")
    monkeypatch.setenv("INPUT_EXTRAS", given)
    assert install.main() == 0
    assert calls[1][-1] == f"/actions/eval glass/v1{installed}"


@pytest.mark.parametrize("given", ["spark", "parquet,yml", "parquet]; rm -rf /"])
def test_an_unknown_extra_stops_before_anything_is_installed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """A name the action does not offer (a typo, an injection attempt): exit 2, one error
    annotation naming it and the choices, and no venv or pip run."""
    install = load_script("install")
    calls: list[list[str]] = []
    monkeypatch.setattr(install.subprocess, "run", lambda cmd, check: calls.append(cmd))
    monkeypatch.setenv("GITHUB_ACTION_PATH", "/actions/evalglass/v1")
    monkeypatch.setenv("INPUT_EXTRAS", given)
    assert install.main() == 2 and calls == []
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("::error title=evalglass::extras: no optional part ")
    assert line.endswith("choose from parquet, yaml")


def test_a_diff_too_long_for_a_comment_is_left_to_the_summary() -> None:
    """The comment never passes GitHub's limit: the scorecard stays, a huge diff is dropped."""
    score = load_script("score")
    scorecard = f"{MARKER}\nscorecard\n"
    ok = score.comment(scorecard, score.Run(0, ""), "diff\n")
    assert ok == f"{scorecard}\ndiff\n"
    long = score.comment(scorecard, score.Run(0, ""), "x" * score.COMMENT_LIMIT)
    assert long.startswith(scorecard) and len(long) < score.COMMENT_LIMIT
    assert "see the job summary" in long


def test_error_text_cannot_break_out_of_its_code_block() -> None:
    """Backticks in an error message get a longer fence, so the comment's layout holds."""
    score = load_script("score")
    block = score.fenced("bad ```` name")
    assert block.startswith("`````\n") and block.endswith("\n`````\n")


# -- action.yml itself -------------------------------------------------------------------------


def expressions(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [e for value in node.values() for e in expressions(value)]
    if isinstance(node, list):
        return [e for value in node for e in expressions(value)]
    return EXPRESSION.findall(str(node))


def test_action_yml_is_a_composite_action_whose_inputs_are_all_used() -> None:
    """Every declared input is read by a step, every expression names a declared input or a
    step that exists, and every action output comes from a step that sets it."""
    spec = action()
    assert spec["runs"]["using"] == "composite"
    used = set(re.findall(r"inputs\.([\w-]+)", " ".join(expressions(spec["runs"]))))
    assert used == set(spec["inputs"])
    ids = {step["id"] for step in spec["runs"]["steps"] if "id" in step}
    named = set(re.findall(r"steps\.([\w-]+)\.", " ".join(expressions(spec))))
    assert named <= ids
    assert spec["inputs"]["outputs"]["required"] == "true"


def test_every_step_script_exists_and_no_input_is_pasted_into_a_shell() -> None:
    """`run:` lines hold no ${{ }} (script injection): values arrive through env only; each
    names a script under action/ that exists, and each variable the script reads is set by its
    step's env: or by the runner."""
    runner_sets = {
        "GITHUB_EVENT_PATH",
        "GITHUB_REPOSITORY",
        "GITHUB_REPOSITORY_ID",
        "GITHUB_WORKFLOW_REF",
        "GITHUB_API_URL",
        "GITHUB_BASE_REF",
        "GITHUB_ACTION_PATH",
        "GITHUB_SERVER_URL",
        "GITHUB_RUN_ID",
        "RUNNER_TEMP",
        "GH_HOST",
    }
    scripts = []
    for step in action()["runs"]["steps"]:
        if "run" not in step:
            continue
        assert "${{" not in step["run"]
        [script] = re.findall(r'^"\$\w+" "\$GITHUB_ACTION_PATH/(action/\w+\.py)"$', step["run"])
        scripts.append(script)
        read = set(re.findall(r'runner\.(?:env|flag)\("([A-Z_]+)"\)', (ROOT / script).read_text()))
        assert read, script
        assert read <= runner_sets | set(step["env"]), script
    assert sorted(scripts) == [
        "action/comment.py",
        "action/gate.py",
        "action/install.py",
        "action/score.py",
    ]


def test_example_workflow_uses_the_action_with_its_real_inputs() -> None:
    """examples/ci/github-action.yml calls `uses: ./` with declared inputs, reads declared
    outputs, and docs/ci.md shows it with the published `uses:` line."""
    spec = action()
    doc = strictyaml.dirty_load(EXAMPLE.read_text(), allow_flow_style=True).data
    steps = [s for job in doc["jobs"].values() for s in job["steps"]]
    [step] = [s for s in steps if s.get("uses", "").startswith("./")]
    assert set(step["with"]) <= set(spec["inputs"]) and "outputs" in step["with"]
    read = re.findall(rf"steps\.{step['id']}\.outputs\.([\w-]+)", EXAMPLE.read_text())
    assert read and set(read) <= set(spec["outputs"])
    published = EXAMPLE.read_text().replace(
        "uses: ./  # in your workflow: evalglass/", "uses: evalglass/"
    )
    assert published != EXAMPLE.read_text()
    assert published in (ROOT / "docs/ci.md").read_text()


def test_docs_list_every_input_and_output() -> None:
    """docs/ci.md's tables name every input and output action.yml declares, with its default."""
    spec, docs = action(), (ROOT / "docs/ci.md").read_text()
    for name, decl in spec["inputs"].items():
        row = next((line for line in docs.splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, name
        assert decl.get("default", "") == "" or f"`{decl['default']}`" in row, row
    for name in spec["outputs"]:
        assert f"| `{name}` |" in docs


def test_the_model_input_scores_one_model_of_several(tmp_path: Path, github: GitHub) -> None:
    """Outputs of two models measuring one metric are an input error (exit 4); the `model`
    input scores the one named and skips the other (Inspect's own logs, `--model a,b`)."""
    work = tmp_path / "work"
    shutil.copytree(EXAMPLE_RECORDS, work / "host_records")
    logs = Path(__file__).parents[1] / "fixtures/inspect/runs/logs/two-models"
    shutil.copytree(logs, work / "logs")
    refused = run_action(github, work, outputs="logs")
    assert refused.code == 4, refused.log
    chosen = run_action(github, work, outputs="logs", model="mockllm/weak")
    assert chosen.code != 4, chosen.log
    card = json.loads(Path(chosen.outputs["scorecard-json"]).read_text())
    assert card["model"] == "mockllm/weak"
    assert [s["reason"] for s in card["skipped"]] == [
        "measures model mockllm/strong, not --model mockllm/weak"
    ]
