"""The action's scoring step: `evalglass diff` against the base ref when there is one, then one
`evalglass score` run writing every format; the comment body, the step outputs, and the exit code
the gate step ends with. It decides nothing: every verdict and code is evalglass's own.

Inputs arrive as environment variables (never text pasted into a shell), so no input can run code.
"""

from __future__ import annotations

import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import _runner as runner
import base_card

MARKER = "<!-- evalglass-scorecard -->"  # the first line of evalglass's Markdown scorecard
COMMENT_LIMIT = 65_536  # characters in a GitHub pull-request comment
VERDICT_EXITS = (0, 1, 3, 5)  # evalglass's exit codes that carry a verdict
DIFF_LOOSENED_EXIT = 1  # `evalglass diff --fail-on-loosen` found a loosening
ERROR_LINES = 20  # of an error's stderr shown in the comment: a traceback's end says the most
EVALGLASS = [sys.executable, "-m", "evalglass"]  # the interpreter evalglass was installed into
WRITES = {  # every format in one score run; the terminal one is --format github, on stdout
    "markdown": "scorecard.md",
    "json": "scorecard.json",
    "junit": "evalglass.xml",
    "html": "scorecard.html",
}


@dataclass(frozen=True)
class Inputs:
    """The action's inputs, read and checked once: the outputs (globs expanded), the records
    folder and the ref to read them at, the two flags, and the extra score arguments, already
    split."""

    outputs: tuple[str, ...]
    records: str
    records_ref: str | None
    # Set when records_ref is the pull request's base (its commit, or its branch when the event
    # names no commit), to fetch if the checkout lacks it.
    base_branch: str | None
    fail_on_loosen: bool
    require_gate: bool
    args: tuple[str, ...]
    model: str | None = None  # `--model`: which model's outputs to score


@dataclass(frozen=True)
class Run:
    """What one evalglass command did: its exit code, and its stderr (already shown in the log)."""

    code: int
    stderr: str


def read_inputs() -> Inputs:
    """The inputs from the step's environment. Raises runner.InputError (the step then exits 2)
    when no output is given, `args` cannot be split, or a flag is not true or false."""
    outputs = expand(runner.env("INPUT_OUTPUTS"))
    if not outputs:
        raise runner.InputError("outputs: give at least one eval output path or glob")
    try:
        args = tuple(shlex.split(runner.env("INPUT_ARGS")))
    except ValueError as exc:
        raise runner.InputError(f"args: {exc}") from None
    ref, base = records_ref(
        runner.env("INPUT_RECORDS_REF"), runner.env("GITHUB_BASE_REF"), runner.env("BASE_SHA")
    )
    return Inputs(
        outputs=outputs,
        records=runner.env("INPUT_RECORDS").strip() or "host_records",
        records_ref=ref,
        base_branch=base,
        fail_on_loosen=runner.flag("INPUT_FAIL_ON_LOOSEN"),
        require_gate=runner.flag("INPUT_REQUIRE_GATE"),
        args=args,
        model=runner.env("INPUT_MODEL").strip() or None,
    )


def expand(spec: str) -> tuple[str, ...]:
    """One path or glob per line, so that paths with spaces need no quoting. A glob expands
    (sorted, `**` recursive, never into a linked folder) against the working directory; one that
    matches nothing is passed on as written, so evalglass names it in its one-line error and
    exits 4: never a silent pass."""
    paths: list[str] = []
    for line in spec.splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        is_glob = glob.escape(pattern) != pattern and not os.path.lexists(pattern)
        matches = sorted(set(_glob(pattern))) if is_glob else []
        paths.extend(path for path in matches or [pattern] if path not in paths)
    return tuple(paths)


def _glob(pattern: str) -> Iterator[str]:
    """What glob.glob(pattern, recursive=True) matches, except that `**` never descends through
    a symbolic link to a folder: two committed links `logs/a -> .` and `logs/b -> .` would
    otherwise make the walk endless (glob follows them, doubling at every level)."""
    parts = pattern.split("/")
    fixed = 0
    while fixed < len(parts) and glob.escape(parts[fixed]) == parts[fixed]:
        fixed += 1
    base = "/".join(parts[:fixed])
    if fixed and not base:
        base = "/"  # an absolute pattern
    if base and not os.path.isdir(base):
        return
    yield from (path for path in _walk(base, parts[fixed:]) if path)


def _walk(folder: str, rest: list[str]) -> Iterator[str]:
    if not rest:
        yield folder
        return
    segment, later = rest[0], rest[1:]
    try:
        with os.scandir(folder or ".") as found:
            entries = sorted(found, key=lambda e: e.name)
    except OSError:
        return
    # As glob: names starting with a dot match only a segment that starts with one.
    shown = [e for e in entries if segment.startswith(".") or not e.name.startswith(".")]
    if segment == "**":
        yield from _walk(folder, later)
        for entry in shown:
            if entry.is_dir(follow_symlinks=False):
                yield from _walk(os.path.join(folder, entry.name), rest)
            elif not later:
                yield os.path.join(folder, entry.name)
        return
    for entry in shown:
        if not fnmatch.fnmatchcase(entry.name, segment):
            continue
        path = os.path.join(folder, entry.name)
        if not later:
            yield path
        elif entry.is_dir():
            yield from _walk(path, later)


_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def records_ref(given: str, base_ref: str, base_sha: str = "") -> tuple[str | None, str | None]:
    """The ref the records are read at, and what to fetch if the checkout lacks it: the one
    given; else the pull request's base commit as the event names it (so a pull request cannot
    grant itself authority, and code run earlier in the job cannot move it as it can move a
    branch); else its base branch; else none: the working tree's records."""
    if given.strip():
        return given.strip(), None
    if _COMMIT.fullmatch(base_sha.strip()):
        return base_sha.strip(), base_sha.strip()
    if base_ref:
        return f"origin/{base_ref}", base_ref
    return None, None


def fetch_base(base: str) -> None:
    """A shallow pull-request checkout lacks the base commit (or branch): fetch it alone. A failed
    fetch is left to evalglass, whose error (exit 4) names the missing ref. Whatever the remote
    sends, evalglass checks each object it reads against the commit's ids."""
    commit = _COMMIT.fullmatch(base) is not None
    tracking = base if commit else f"refs/remotes/origin/{base}"
    try:
        present = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{tracking}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        if present.returncode != 0:
            spec = base if commit else f"+refs/heads/{base}:{tracking}"
            subprocess.run(["git", "fetch", "--no-tags", "--depth=1", "origin", spec], check=False)
    except OSError as exc:
        runner.command("warning", f"could not fetch the base {base!r}: {exc}")


def run(command: list[str], stdout: IO[str] | None = None, annotate: bool = True) -> Run:
    """Run evalglass; its stdout goes where asked (the log by default), its stderr to the log and
    into the result, so an error can also reach the comment (and, with `annotate`, an error
    annotation)."""
    sys.stdout.flush()
    result = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, check=False)
    sys.stderr.write(result.stderr)
    sys.stderr.flush()
    if annotate and not verdict_given(result.returncode, result.stderr) and result.stderr.strip():
        runner.command("error", result.stderr.strip().splitlines()[-1])
    return Run(result.returncode, result.stderr)


def verdict_given(code: int, stderr: str) -> bool:
    """Whether evalglass ended with a verdict's exit code (not an input error, not a crash)."""
    return code in VERDICT_EXITS and "Traceback (most recent call last)" not in stderr


def input_format(args: tuple[str, ...]) -> list[str]:
    """`--input-format` from the extra score arguments, which the diff needs too to read outputs."""
    for i, arg in enumerate(args):
        if arg == "--input-format" and i + 1 < len(args):
            return [arg, args[i + 1]]
        if arg.startswith("--input-format="):
            return [arg]
    return []


def model_option(inputs: Inputs) -> list[str]:
    """`--model NAME` when the `model` input names one: the score and the diff read one model."""
    return [] if inputs.model is None else ["--model", inputs.model]


def diff(inputs: Inputs, ref: str, target: Path) -> Run:
    """`evalglass diff` of the records at `ref` against the working tree's, its Markdown written
    to `target`. A loosening refused by `fail-on-loosen` is also an error annotation."""
    command = [
        *EVALGLASS,
        "diff",
        "--base",
        ref,
        "--records",
        inputs.records,
        "--format",
        "markdown",
        *input_format(inputs.args),
        *model_option(inputs),
    ]
    if inputs.fail_on_loosen:
        command.append("--fail-on-loosen")
    with target.open("w", encoding="utf-8") as stream:
        done = run([*command, "--", *inputs.outputs], stdout=stream)
    if done.code == DIFF_LOOSENED_EXIT:
        runner.command(
            "error",
            "the host records loosen a gate without a new approval "
            "(fail-on-loosen): the diff is in the job summary",
        )
    return done


def find_base_card(folder: Path) -> tuple[Path | None, str]:
    """The pull request's base scorecard (base_card.find), unpacked into `folder`, or None; and
    the line saying which run it came from or why there is none. Display only: any failure to
    find it is said and passed over."""
    repository = runner.env("GITHUB_REPOSITORY")
    base = base_card.Base(
        api=runner.env("GITHUB_API_URL") or "https://api.github.com",
        repository=repository,
        repository_id=runner.env("GITHUB_REPOSITORY_ID"),
        workflow=base_card.workflow_path(runner.env("GITHUB_WORKFLOW_REF"), repository),
        branch=runner.env("GITHUB_BASE_REF"),
        commit=runner.env("BASE_SHA").strip(),
        artifact=runner.env("INPUT_ARTIFACT_NAME") or "evalglass",
        token=runner.env("GH_TOKEN"),
    )
    try:
        return base_card.find(base, folder)
    except base_card.NoCard as why:
        return None, f"No earlier scorecard to compare with: {why}."
    except OSError as exc:  # the card could not be written into the runner's temporary folder
        return None, f"No earlier scorecard to compare with: {exc.strerror or exc}."


def score(
    inputs: Inputs,
    folder: Path,
    compare: Path | None = None,
    stdout: IO[str] | None = None,
    annotate: bool = True,
) -> Run:
    """`evalglass score` with the GitHub format on stdout (annotations and the job summary) and
    every format of WRITES written into `folder`; the user's `args` follow the action's own
    options."""
    command = [*EVALGLASS, "score", "--records", inputs.records, "--format", "github"]
    for fmt, name in WRITES.items():
        command += ["--write", f"{fmt}={folder / name}"]
    if inputs.records_ref:
        command += ["--records-ref", inputs.records_ref]
    if inputs.require_gate:
        command.append("--require-gate")
    if compare is not None:
        command += ["--compare", str(compare)]
    command += model_option(inputs)
    return run([*command, *inputs.args, "--", *inputs.outputs], stdout, annotate)


def score_beside(inputs: Inputs, folder: Path, card: Path | None, note: str) -> tuple[Run, str]:
    """The score beside the base's card, and the line about the comparison. The card is display
    only: when evalglass cannot use it (any exit but a verdict's), the run is scored again
    without it and the line says why, so the job's exit code and verdict are the run's alone,
    whatever the card holds. Its annotations reach the log only from the attempt that counts."""
    if card is None:
        return score(inputs, folder), note
    with (folder / "score-beside.log").open("w+", encoding="utf-8") as held:
        tried = score(inputs, folder, card, stdout=held, annotate=False)
        if verdict_given(tried.code, tried.stderr):
            held.seek(0)
            shutil.copyfileobj(held, sys.stdout)
            sys.stdout.flush()
            return tried, note
    alone = score(inputs, folder)
    if not verdict_given(alone.code, alone.stderr):
        return alone, "No comparison with the base's scorecard: this run could not be scored."
    why = (tried.stderr.strip().splitlines() or ["(no message)"])[-1]
    # In a code span, backticks out: the card's text cannot become Markdown in the comment.
    shown = why.replace("`", "'")[:300]
    return alone, (
        f"No comparison with the base's scorecard: evalglass could not use it (exit {tried.code}: "
        f"`{shown}`)."
    )


def exit_code(scored: Run, diffed: Run | None) -> int:
    """The score's code, so it matches the verdict; a score that passes (0) takes the diff's code
    when the diff failed, so the gate fails if either fails."""
    if scored.code == 0 and diffed is not None and diffed.code != 0:
        return diffed.code
    return scored.code


def fenced(text: str) -> str:
    """Text shown verbatim in Markdown: a fence longer than any run of backticks inside it."""
    longest = max((len(ticks) for ticks in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.strip()}\n{fence}\n"


def failure(what: str, done: Run) -> str:
    """Why a command gave no result, for the comment: its last lines of stderr, verbatim."""
    tail = "\n".join(done.stderr.strip().splitlines()[-ERROR_LINES:]) or "(no message)"
    return f"**{what} (exit {done.code})**\n\n{fenced(tail)}"


def diff_section(diffed: Run, text: str) -> str:
    """The diff's part of the comment: its Markdown, then a line saying that the diff fails the
    check (a loosening), or why it could not compare."""
    parts = [text] if text.strip() else []
    if diffed.code == DIFF_LOOSENED_EXIT:
        parts.append(
            "**This fails the check:** the host records loosen a gate without a new "
            "approval (`fail-on-loosen`).\n"
        )
    elif diffed.code != 0:
        parts.append(failure("evalglass diff could not compare the host records", diffed))
    return "\n".join(parts)


def verdict_word(verdict: str, code: int, scored: Run) -> str:
    """The job's result in one word: the score's verdict when the job ends with the score's code,
    else FAIL (the diff failed a passing score)."""
    if verdict and code == scored.code:
        return verdict.upper()
    return "PASS" if code == 0 else "FAIL"


def headline(verdict: str, scored: Run, diffed: Run | None, fail_on_loosen: bool) -> str:
    """The comment's first line: the job's verdict, from the score and the diff together, and
    what the diff found, so a loosening that fails a passing score is named before anything."""
    code = exit_code(scored, diffed)
    score = (
        f"score {verdict.upper()} (exit {scored.code})"
        if verdict
        else (f"the score could not run (exit {scored.code})")
    )
    if diffed is None:
        diff = "no records diff (no base ref)"
    elif diffed.code == DIFF_LOOSENED_EXIT:
        diff = "**the host records loosen a gate without a new approval** (`fail-on-loosen`)"
    elif diffed.code != 0:
        diff = f"the records diff could not compare (exit {diffed.code})"
    elif fail_on_loosen:
        diff = "the records diff loosens nothing"
    else:
        diff = "records diff shown below, not checked (`fail-on-loosen: false`)"
    return f"**evalglass check: {verdict_word(verdict, code, scored)} (exit {code})** — {score}; {diff}"


def artifacts_line(artifact: str) -> str:
    """Where the HTML, JSON and JUnit scorecards of this run are: its artifact, on the run's
    page; empty outside a workflow run (no run id to link to)."""
    server, repository, run_id = (
        runner.env("GITHUB_SERVER_URL").rstrip("/") or "https://github.com",
        runner.env("GITHUB_REPOSITORY"),
        runner.env("GITHUB_RUN_ID"),
    )
    if not (repository and run_id.isdigit()):
        return ""
    url = f"{server}/{repository}/actions/runs/{run_id}#artifacts"
    name = artifact.replace("`", "")
    return f"The HTML, JSON and JUnit scorecards are this run's artifact `{name}`: [artifacts]({url}).\n"


def comment(scorecard: str | None, scored: Run, extra: str, first: str = "", tail: str = "") -> str:
    """The sticky comment: the marker first, then `first` (the job's verdict), the scorecard (or
    why there is none), `tail` (where the artifacts are), then the records diff; a diff too long
    to fit is left to the job summary."""
    body = (
        scorecard.removeprefix(f"{MARKER}\n")
        if scorecard is not None
        else (failure("evalglass could not score this run", scored))
    )
    head = f"{MARKER}\n" + (f"{first}\n\n" if first else "") + body
    if tail:
        head = f"{head.rstrip()}\n\n{tail}"
    if not extra:
        return head
    whole = f"{head}\n{extra}"
    if len(whole) <= COMMENT_LIMIT:
        return whole
    return f"{head}\nThe host-records diff is too long for a comment: see the job summary.\n"


def main() -> int:
    """Run the diff and the score, write the comment body and the job summary, and publish every
    step output. Exits 0 even on a bad input: the gate step ends with the code published here, so
    the comment and the outputs exist whatever the verdict."""
    folder = Path(tempfile.mkdtemp(prefix="evalglass-", dir=runner.env("RUNNER_TEMP") or None))
    body = folder / "comment.md"
    try:
        inputs = read_inputs()
    except runner.InputError as error:
        # Still a comment and an exit code: an older comment must not stand as this run's result.
        runner.command("error", str(error))
        body.write_text(
            f"{MARKER}\n**The evalglass action could not run (exit {runner.USAGE_EXIT})**"
            f"\n\n{fenced(str(error))}",
            encoding="utf-8",
        )
        runner.append_summary(body.read_text(encoding="utf-8"))
        publish(exit_code=runner.USAGE_EXIT, comment_body=body)
        return 0
    if inputs.base_branch:
        fetch_base(inputs.base_branch)
    diffed = None
    if inputs.records_ref:
        diffed = diff(inputs, inputs.records_ref, folder / "records-diff.md")
    compared, compare_note = None, ""
    if _COMMIT.fullmatch(runner.env("BASE_SHA").strip()) and runner.env("GITHUB_BASE_REF"):
        compared, compare_note = find_base_card(folder)
    scored, compare_note = score_beside(inputs, folder, compared, compare_note)
    if compare_note:
        print(compare_note)
    written = {fmt: folder / name for fmt, name in WRITES.items() if (folder / name).is_file()}

    extra = ""
    if diffed is not None:
        extra = diff_section(diffed, (folder / "records-diff.md").read_text(encoding="utf-8"))
    scorecard = written["markdown"].read_text(encoding="utf-8") if "markdown" in written else None
    verdict = ""
    if "json" in written:
        verdict = json.loads(written["json"].read_text(encoding="utf-8"))["verdict"]
    first = headline(verdict, scored, diffed, inputs.fail_on_loosen)
    if compare_note:
        first += f"\n\n{compare_note}"
    uploaded = "json" in written  # the artifact step uploads only when the JSON was written
    tail = artifacts_line(runner.env("INPUT_ARTIFACT_NAME") or "evalglass") if uploaded else ""
    body.write_text(comment(scorecard, scored, extra, first, tail), encoding="utf-8")
    # evalglass appends the scorecard to the job summary itself (--format github): add the rest.
    runner.append_summary(
        f"{first}\n\n{extra}" if scorecard is not None else body.read_text(encoding="utf-8")
    )
    publish(
        exit_code=exit_code(scored, diffed),
        comment_body=body,
        verdict=verdict,
        score_exit_code=scored.code,
        diff_exit_code=None if diffed is None else diffed.code,
        written=written,
    )
    return 0


def publish(
    *,
    exit_code: int,
    comment_body: Path,
    verdict: str = "",
    score_exit_code: int | None = None,
    diff_exit_code: int | None = None,
    written: dict[str, Path] | None = None,
) -> None:
    """Every step output, each set even when empty, so a later step never reads a stale one."""
    files = written or {}
    outputs = {
        "verdict": verdict,
        "exit-code": str(exit_code),
        "score-exit-code": "" if score_exit_code is None else str(score_exit_code),
        "diff-exit-code": "" if diff_exit_code is None else str(diff_exit_code),
        "scorecard-json": str(files.get("json", "")),
        "scorecard-html": str(files.get("html", "")),
        "scorecard-markdown": str(files.get("markdown", "")),
        "junit-xml": str(files.get("junit", "")),
        "comment-body": str(comment_body),
    }
    for name, value in outputs.items():
        runner.set_output(name, value)


if __name__ == "__main__":
    sys.exit(main())
