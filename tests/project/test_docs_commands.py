"""Every example in README.md and docs/ works as written: each `evalglass ...` command parses
against the real command line, the README's own commands run on a project laid out as they
assume, and every install line is a form that installs today (a clone or the git URL of the
project's metadata) or says it is for once evalglass is released."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.cli_runner import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
EXAMPLES = tuple(sorted((ROOT / "examples" / "ci").glob("*.yml")))
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
HOME = PROJECT["urls"]["Homepage"]
EXTRAS = set(PROJECT["optional-dependencies"])

# A command written as a synopsis (`[--since REF]`, `terminal|json`, `...`) is a form, not an
# example to run.
SYNOPSIS = re.compile(r"\[-|\||\.\.\.|\bN\b")


def _blocks(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each command line inside a fenced block, continuation lines joined. In a
    block that shows a session (`$ command`, then what it printed) only the prompted lines are
    commands, without their `$ `."""
    lines, block, inside, held, start = [], [], False, "", 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            if inside:
                session = any(text.startswith("$ ") for _, text in block)
                lines += [(n, t[2:]) for n, t in block if t.startswith("$ ")] if session else block
                block = []
            inside = not inside
            continue
        if not inside:
            continue
        if held:
            line, number = held + " " + line.strip(), start
            held = ""
        if line.endswith("\\"):
            held, start = line[:-1].rstrip(), number
            continue
        block.append((number, line))
    return lines


def _commands() -> list[tuple[str, list[str]]]:
    """Every `evalglass ...` example: in fenced blocks (a `run:` or `- ` of YAML too) and in
    inline code, as (place, argv without `evalglass`), comments and redirections cut off. An
    inline one's place ends in `(inline)`: prose may name a command without its arguments."""
    found: list[tuple[str, str]] = []
    for path in DOCS:
        name = path.relative_to(ROOT)
        for number, line in _blocks(path):
            text = re.sub(r"^\s*(?:- )?(?:run: )?", "", line)
            if text.startswith("evalglass "):
                found.append((f"{name}:{number}", text))
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(?<!`)`(evalglass [^`\n]+)`(?!`)", text):
            number = text.count("\n", 0, match.start()) + 1
            found.append((f"{name}:{number} (inline)", match.group(1)))
    commands = []
    for place, text in found:
        text = re.split(r"\s+#\s", text)[0]
        text = re.split(r"\s[>|]\s", text)[0]
        if SYNOPSIS.search(text) or "<" in text or "/path/to/" in text:
            continue
        argv = shlex.split(text)[1:]
        commands.append((place, argv))
    return commands


COMMANDS = _commands()


def test_the_docs_have_many_command_examples() -> None:
    """The extraction finds the examples (a broken pattern would pass every test below)."""
    assert len(COMMANDS) > 80
    assert any(argv[:1] == ["init"] for _, argv in COMMANDS)


@pytest.mark.parametrize(("place", "argv"), COMMANDS, ids=[p for p, _ in COMMANDS])
def test_every_command_example_parses(place: str, argv: list[str]) -> None:
    """The command exists and takes these options and values."""
    import typer.main

    from evalglass.shell.cli import app

    group = typer.main.get_command(app)
    if argv[:1] in (["--version"], ["--help"], []):
        return
    context = group.context_class(group, info_name="evalglass")
    command = group.get_command(context, argv[0])  # type: ignore[attr-defined]
    assert command is not None, f"{place}: no command {argv[0]!r}"
    try:
        command.make_context(argv[0], list(argv[1:]), parent=context)
    except Exception as exc:
        # Prose naming a command or an option (`evalglass doctor`, `evalglass score
        # --records-ref`) leaves its arguments out; nothing else may.
        missing = type(exc).__name__ == "MissingParameter" or "requires an argument" in str(exc)
        if not (place.endswith("(inline)") and missing):
            raise


def _readme_use_block() -> list[tuple[int, list[str]]]:
    """The README's block of examples under "## Use", as argv lists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Use\n")
    block = text[start:].split("```sh\n", 1)[1].split("```", 1)[0]
    first = text.count("\n", 0, text.index(block)) + 1
    examples = []
    for offset, line in enumerate(block.splitlines()):
        if line.startswith("evalglass "):
            examples.append((first + offset, shlex.split(re.split(r"\s+#\s", line)[0])[1:]))
    return examples


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project as the README's examples assume: host_records/, eval outputs in logs/, earlier
    scorecards in runs/ and main.json, a committed history with an `origin/main`."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(ROOT / "host_records", root / "host_records")
    (root / "logs").mkdir()
    (root / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "run.json", root / "logs" / "run.json")
    shutil.copy(ROOT / "examples" / "run.json", root / "examples" / "run.json")
    shutil.copy(ROOT / "examples" / "templates" / "comment.md.j2", root / "comment.md.j2")
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.com",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.com", "PATH": "/usr/bin:/bin"}  # fmt: skip
    for step in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "records"],
                 ["update-ref", "refs/remotes/origin/main", "HEAD"]):  # fmt: skip
        subprocess.run(["git", *step], cwd=root, env=env, check=True)
    for run in ("a", "b"):
        (root / "runs" / run).mkdir(parents=True)
        cli("score", "logs/", "--write", f"json=runs/{run}/card.json", cwd=root)
    # The scorecard of the base branch's run, that `--compare` reads.
    cli("score", "logs/", "--write", "json=main.json", cwd=root)
    return root


# Examples the project cannot run offline in a test: a server that waits for a client, and a
# command whose inputs (a judge's grades and people's labels) the README leaves to the reader.
NOT_RUN = {"mcp": "serves until its client leaves", "calibrate": "needs the reader's labels"}
# What a run may end in: a verdict's code (0, 1, 3, 5) or doctor's error count; never a usage
# error (2), an input error (4) or a bug (70).
RAN = {0, 1, 3, 5}


USE_BLOCK = _readme_use_block()
RUNNABLE = [(line, argv) for line, argv in USE_BLOCK if argv[0] not in NOT_RUN]


def test_only_the_server_and_calibrate_are_left_unrun() -> None:
    """Every README example is run below but those NOT_RUN names (which the parse test covers)."""
    assert {argv[0] for _, argv in USE_BLOCK} - {argv[0] for _, argv in RUNNABLE} == set(NOT_RUN)


@pytest.mark.parametrize(("line", "argv"), RUNNABLE, ids=lambda v: str(v))
def test_the_readme_examples_run(project: Path, line: int, argv: list[str]) -> None:
    """Each command of the README's "Use" block runs on such a project: no usage error, no
    input error, no bug."""
    expanded = [str(p.relative_to(project)) for arg in argv for p in sorted(project.glob(arg))] \
        if any("*" in a for a in argv) else argv  # fmt: skip
    if any("*" in a for a in argv):
        expanded = [argv[0]] + [a for a in expanded if a != argv[0]]
    work = project / "work" / str(line)
    shutil.copytree(project, work, ignore=shutil.ignore_patterns("work"))
    if argv[0] == "init":  # it starts a project that has no records yet
        shutil.rmtree(work / "host_records")
    result = cli(*expanded, cwd=work)
    assert result.returncode in RAN, f"README.md:{line}: {result.stderr}"


INSTALL = re.compile(r"pip install (?:-q |--quiet )?(?P<spec>'[^']*'|\S+)")


def _install_lines() -> list[tuple[str, str, str]]:
    """(place, spec, line) of every `pip install` of evalglass in README.md, docs/ and the
    example CI files."""
    found = []
    for path in (*DOCS, *EXAMPLES):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in INSTALL.finditer(line):
                spec = match["spec"].strip("'`")
                if spec.startswith(("evalglass", ".")):
                    found.append((f"{path.relative_to(ROOT)}:{number}", spec, line))
    return found


def test_every_install_line_installs_today_or_says_when() -> None:
    """A clone (`.`, `.[extra]`) or the git URL of the project's metadata installs now; the
    index form stands only on a line saying it is for once evalglass is released. Every extra
    named exists."""
    lines = _install_lines()
    assert len(lines) > 10
    for place, spec, line in lines:
        name, _, source = spec.partition(" @ ")
        extras = re.findall(r"\[([^\]]*)\]", name)
        for extra in ",".join(extras).split(","):
            assert not extra or extra in EXTRAS, f"{place}: no extra {extra!r}"
        if name.startswith("."):
            continue
        if source:
            assert source == f"git+{HOME}", f"{place}: {source}"
        else:
            assert "once released" in line or "released on PyPI" in line, f"{place}: {line}"


def test_no_placeholder_owner_is_left() -> None:
    """The Action, pre-commit and install lines name the project's real home, not `<owner>`."""
    for path in (*DOCS, *EXAMPLES, ROOT / "action.yml"):
        text = path.read_text(encoding="utf-8")
        assert "<owner>" not in text, path
        assert "<the evalglass repository>" not in text, path
        assert "<a release tag>" not in text, path


def test_add_to_your_project_follows_the_two_commands() -> None:
    """The README's first section after the two commands is how to add evalglass to a project:
    pip, the Action, pre-commit and the MCP server."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headings[0] == "Add evalglass to your project"
    section = text.split("## Add evalglass to your project\n", 1)[1].split("\n## ", 1)[0]
    for needed in (f"pip install 'evalglass @ git+{HOME}'", "uses: evalglass/evalglass@",
                   f"repo: {HOME}", "evalglass-doctor", "evalglass mcp"):  # fmt: skip
        assert needed in section, needed
