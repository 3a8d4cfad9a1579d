"""The tools `evalglass mcp` serves, without the SDK: names, argument schemas, and answers.

Each answer is the JSON text the CLI writes for the same question. Every tool reads and none
writes, and no argument names a records folder: the records are the server's, fixed when it started.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from evalglass.errors import EvalglassError
from evalglass.records.model import HostRecords
from evalglass.records.source import RecordsSource
from evalglass.render import Format
from evalglass.shell.confine import confine


@attrs.frozen
class Bounds:
    """What the server is bound to from its start: `root`, the working directory every output
    must lie under, and where it reads the host records on every call: the folder, or with a
    ref that folder as committed at the commit the ref named when the server started (so
    moving the ref afterwards changes nothing)."""

    root: str
    source: RecordsSource

    @classmethod
    def open(cls, folder: str | os.PathLike[str], ref: str | None = None) -> Bounds:
        """Fix the places, from the current directory, and check that the records there load:
        RecordError (exit 4) when not."""
        bounds = cls(os.getcwd(), RecordsSource.pin(folder, ref))
        bounds.load()
        return bounds

    @property
    def by_commit(self) -> RecordsSource:
        """The records source named by the commit it pinned rather than the ref it was given,
        for answers that name where each record was read (doctor's `COMMIT:path`, diff's head):
        the ref may name another commit by now. The working tree's source is itself."""
        if self.source.commit is None:
            return self.source
        return attrs.evolve(self.source, ref=self.source.commit)

    def load(self) -> HostRecords:
        """The host records, read afresh on each call from the folder, or from it as committed at
        the commit fixed at start. RecordError when they do not load."""
        return self.source.load()


Arguments = Mapping[str, Any]


@attrs.frozen
class Tool:
    """One tool: `schema` is the JSON Schema of its arguments, the only ones `call` accepts."""

    name: str
    description: str
    schema: Mapping[str, Any]
    answer: Callable[[Bounds, Arguments], str]


def _outputs(required: bool) -> dict[str, Any]:
    return {
        "type": "array", "items": {"type": "string"}, "minItems": 1 if required else 0,
        "description": "Eval output files or folders, under the server's working directory.",
    }  # fmt: skip


_INPUT_FORMAT = {"type": "string", "description": "Read every output as this format."}
_MODEL = {
    "type": "string",
    "description": "Score only this model's outputs (as they name it); needed when outputs "
    "measure one metric for several models.",
}


def _schema(properties: dict[str, Any], *required: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _read(bounds: Bounds, args: Arguments) -> dict[str, Any]:
    """How the call reads its outputs, which lie under the server's root: the verbs' keywords."""
    return {
        "outputs": confine(list(args.get("outputs", [])), bounds.root),
        "input_format": args.get("input_format"),
        "model": args.get("model"),
    }


def _score(bounds: Bounds, args: Arguments) -> str:
    from evalglass.render import render
    from evalglass.shell import api

    require_gate = args.get("require_gate", False)
    # The records the server pinned when it started: the scorecard names the ref as given.
    scorecard = api.score(
        records=bounds.source, require_gate=require_gate, as_of=_as_of(args), **_read(bounds, args)
    )
    return render(scorecard, Format.JSON)


def _as_of(args: Arguments) -> dt.date | dt.datetime | None:
    from evalglass.core.evaluation_time import parse_as_of

    if "as_of" not in args:
        return None
    try:
        return parse_as_of(args["as_of"])
    except ValueError as exc:
        raise EvalglassError("score.as_of", str(exc)) from None


# explain, doctor and diff name where each record was read: by the commit the server pinned.


def _explain(bounds: Bounds, args: Arguments) -> str:
    from evalglass.render import explanation
    from evalglass.shell import api

    result = api.explain(args["metric"], records=bounds.by_commit, **_read(bounds, args))
    return explanation.render(result, Format.JSON)


def _doctor(bounds: Bounds, args: Arguments) -> str:
    from evalglass.render import diagnosis
    from evalglass.shell import api

    return diagnosis.render(
        api.doctor(records=bounds.by_commit, **_read(bounds, args)), Format.JSON
    )


def _metrics(bounds: Bounds, args: Arguments) -> str:
    from evalglass.evidence.read import read_outputs
    from evalglass.render import listing

    read = _read(bounds, args)
    evidence = read_outputs(read["outputs"], read["input_format"], read["model"])
    return listing.render(evidence, Format.JSON)


def _diff(bounds: Bounds, args: Arguments) -> str:
    from evalglass.render import records_diff
    from evalglass.shell import api

    base = args["base"]
    if base.startswith("-"):
        raise EvalglassError(base, "a git ref does not start with '-'")
    result = api.diff_records(base, bounds.by_commit, **_read(bounds, args))
    return records_diff.render(result, Format.JSON)


TOOLS: tuple[Tool, ...] = (
    Tool(
        "score",
        "Score eval outputs against the host records: the JSON scorecard `evalglass score "
        "--format json` writes (verdict, exit_code, and per metric its value, validity, authority "
        "and gate). Only the host records, fixed when the server started, grant authority.",
        _schema(
            {
                "outputs": _outputs(False),
                "input_format": _INPUT_FORMAT,
                "model": _MODEL,
                "require_gate": {
                    "type": "boolean",
                    "description": "exit_code 5 when no metric could gate.",
                },
                "as_of": {
                    "type": "string",
                    "description": "The evaluation time, YYYY-MM-DD (UTC) or "
                    "YYYY-MM-DDTHH:MM:SSZ; default: now.",
                },
            }
        ),
        _score,
    ),
    Tool(
        "explain",
        "Why one metric does or does not gate, and the host-records edits a person would make "
        "(never made by this server), with the hypothetical gate result when outputs are given.",
        _schema(
            {
                "metric": {"type": "string", "description": "The metric id."},
                "outputs": _outputs(False),
                "input_format": _INPUT_FORMAT,
                "model": _MODEL,
            },
            "metric",
        ),
        _explain,
    ),
    Tool(
        "doctor",
        "Every problem in the host records (and against the outputs given), at file:line: the "
        "JSON `evalglass doctor --format json` writes.",
        _schema({"outputs": _outputs(False), "input_format": _INPUT_FORMAT, "model": _MODEL}),
        _doctor,
    ),
    Tool(
        "metrics",
        "The metric ids eval outputs yield, with value, n, missing samples and source file.",
        _schema(
            {"outputs": _outputs(True), "input_format": _INPUT_FORMAT, "model": _MODEL}, "outputs"
        ),
        _metrics,
    ),
    Tool(
        "diff",
        "What the host records as they stand now change, against a git ref, in who may gate: the "
        "JSON `evalglass diff --base REF --format json` writes.",
        _schema(
            {
                "base": {"type": "string", "description": "The git ref of the records before."},
                "outputs": _outputs(False),
                "input_format": _INPUT_FORMAT,
                "model": _MODEL,
            },
            "base",
        ),
        _diff,
    ),
)
_BY_NAME = {tool.name: tool for tool in TOOLS}


def call(name: str, arguments: Arguments | None, bounds: Bounds) -> str:
    """The tool's answer; EvalglassError (one line) for an unknown tool or bad arguments."""
    tool = _BY_NAME.get(name)
    if tool is None:
        raise EvalglassError(name, f"no such tool; the tools are {', '.join(_BY_NAME)}")
    args = dict(arguments or {})
    _check(tool, args)
    return tool.answer(bounds, args)


_TYPES: dict[str, Callable[[object], bool]] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
}


def _check(tool: Tool, args: Arguments) -> None:
    """The arguments against the tool's own schema, so what it lists is what it accepts."""
    properties: Mapping[str, Any] = tool.schema["properties"]
    for key in args:
        if key not in properties:
            raise EvalglassError(
                tool.name, f"no argument {key!r}; it takes {', '.join(properties)}"
            )
    for key in tool.schema["required"]:
        if key not in args:
            raise EvalglassError(tool.name, f"argument {key!r} is required")
    for key, value in args.items():
        spec = properties[key]
        if not _TYPES[spec["type"]](value):
            kind = "a list of strings" if spec["type"] == "array" else f"a {spec['type']}"
            raise EvalglassError(f"{tool.name}.{key}", f"must be {kind}")
        if spec["type"] == "array":
            _check_paths(f"{tool.name}.{key}", value, spec["minItems"])
    if "input_format" in args:
        from evalglass.evidence.registry import names

        if args["input_format"] not in names():
            raise EvalglassError(
                f"{tool.name}.input_format",
                f"unknown format {args['input_format']!r}; known: {', '.join(names())}",
            )


def _check_paths(where: str, paths: Sequence[str], least: int) -> None:
    if len(paths) < least:
        raise EvalglassError(where, "name at least one eval output")
    for path in paths:
        if not path or "\0" in path:
            shown = path if len(path) <= 80 else path[:80] + "…"
            raise EvalglassError(where, f"{shown!r} is not a path")
