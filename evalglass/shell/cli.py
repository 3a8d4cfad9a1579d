"""The command line: parse, call the library, render, exit. It decides nothing itself.

No command or flag writes host records or sets a status, an approval or a calibration. Every
message is one line: bad input exits 4, a bad command line 2, and anything evalglass did not
expect is reported as a bug in evalglass, exit 70, never as a verdict. The commands live in
`evalglass.shell.commands`, one module per group, and are registered here in the order `--help`
lists them. The library is imported inside each command that uses it, so `--help` and
a usage error do not pay for the records, evidence and scorecard machinery.
"""

from __future__ import annotations

import copy
import sys

import typer
from typer.main import get_command_name
from typer.models import CommandInfo

from evalglass.shell.commands import agents, analysis, records, scoring, setup
from evalglass.shell.commands.app import app
from evalglass.shell.commands.options import ListsFormats

__all__ = ["app", "main"]

# What each command's `--help` ends with: two or three examples, runnable as written on a project
# with host_records/ and eval outputs in logs/ (tests/project/test_docs_commands.py checks they parse).
EXAMPLES = {
    "score": ("evalglass score logs/", "evalglass score logs/ --format markdown --output card.md",
              "evalglass score logs/ --records-ref origin/main --require-gate"),
    "run": ("evalglass run --tier fast", "evalglass run logs/",
            "evalglass run logs/ --no-cache --write junit=checks.xml"),
    "demo": ("evalglass demo", "evalglass demo --format markdown"),
    "init": ("evalglass init", "evalglass init logs/", "evalglass init logs/ --records gate_records"),
    "metrics": ("evalglass metrics logs/", "evalglass metrics logs/ --skeleton"),
    "diff": ("evalglass diff --base origin/main logs/",
             "evalglass diff --base origin/main --fail-on-loosen --format markdown"),
    "explain": ("evalglass explain qa/exact_match logs/",
                "evalglass explain qa/exact_match logs/ --patch"),
    "plan": ("evalglass plan qa/exact_match --expect 0.9",
             "evalglass plan qa/exact_match --expect 0.9 --power 0.9 --format json"),
    "history": ("evalglass history qa/exact_match",
                "evalglass history qa/exact_match --since v0.1.0 --format markdown"),
    "doctor": ("evalglass doctor", "evalglass doctor logs/", "evalglass doctor --format json"),
    "trend": ("evalglass trend runs/*/card.json",
              "evalglass trend runs/*/card.json --format html --output trend.html"),
    "validate": ("evalglass validate", "evalglass validate --records gate_records"),
    "mcp": ("evalglass mcp", "evalglass mcp --records-ref origin/main --cwd ."),
    "schema": ("evalglass schema", "evalglass schema thresholds"),
    "calibrate": ("evalglass calibrate judged.jsonl labels.csv --judge grader-v2",
                  "evalglass calibrate judged.jsonl labels.csv --judge grader-v2 --out grader-v2.json"),
    "sql": ("evalglass sql --dialect duckdb --table scores",
            "evalglass sql --dialect postgres --table evals.scores"),
}  # fmt: skip


def _epilog(name: str) -> str:
    # "\b" keeps click from joining the examples into one paragraph.
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])


# Every command, in the order `--help` lists them.
app.command(cls=ListsFormats, epilog=_epilog("score"))(scoring.score)
app.command("run", cls=ListsFormats, epilog=_epilog("run"))(scoring.run_command)
app.command(cls=ListsFormats, epilog=_epilog("demo"))(scoring.demo)
app.command(cls=ListsFormats, epilog=_epilog("init"))(setup.init)
app.command(cls=ListsFormats, epilog=_epilog("metrics"))(records.metrics)
app.command(cls=ListsFormats, epilog=_epilog("diff"))(records.diff)
app.command(cls=ListsFormats, epilog=_epilog("explain"))(records.explain)
app.command(cls=ListsFormats, epilog=_epilog("plan"))(records.plan)
app.command(cls=ListsFormats, epilog=_epilog("history"))(records.history)
app.command(cls=ListsFormats, epilog=_epilog("doctor"))(records.doctor)
app.command(cls=ListsFormats, epilog=_epilog("trend"))(analysis.trend)
app.command(cls=ListsFormats, epilog=_epilog("validate"))(records.validate)
app.command("mcp", cls=ListsFormats, epilog=_epilog("mcp"))(agents.mcp_command)
app.command(cls=ListsFormats, epilog=_epilog("schema"))(records.schema)
app.command(cls=ListsFormats, epilog=_epilog("calibrate"))(analysis.calibrate)
app.command(cls=ListsFormats, epilog=_epilog("sql"))(analysis.sql)


def main() -> None:
    """Run the command line as `evalglass`; exits with the command's own code."""
    _for(sys.argv[1:2])(prog_name="evalglass")


def _for(first: list[str]) -> typer.Typer:
    """The app with only the command the first argument names, when it names one: typer builds
    every registered command's parameters from its signature before running any, a third of a
    `score`'s own time. Anything else (`--help`, `--version`, a typo to suggest a command for)
    gets the whole app."""
    chosen = [c for c in app.registered_commands if first == [_name(c)]]
    if not chosen:
        return app
    one = copy.copy(app)
    one.registered_commands = chosen
    return one


def _name(command: CommandInfo) -> str | None:
    if command.name is not None:
        return command.name
    return None if command.callback is None else get_command_name(command.callback.__name__)
