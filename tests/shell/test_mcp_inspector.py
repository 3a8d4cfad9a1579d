"""`evalglass mcp` as the MCP Inspector's CLI (the reference client, from npm) reads it: every tool
listed with its input and output schemas, and a call answered with structured content beside the
text. Skipped, saying so, where the Inspector is not installed (.ci/run installs it where npm is)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from evalglass.shell.mcp_schemas import scorecard_schema
from tests.shell.test_cli import EVALGLASS, EXAMPLE_OUTPUT, EXAMPLE_RECORDS

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = Path(
    os.environ.get("EVALGLASS_MCP_INSPECTOR")
    or ROOT / ".inspector" / "node_modules" / ".bin" / "mcp-inspector"
)


def inspect(cwd: Path, *args: str) -> dict[str, object]:
    """One Inspector CLI request to `evalglass mcp` started in `cwd`; its JSON answer."""
    if not INSPECTOR.is_file() or shutil.which("node") is None:
        pytest.skip(
            f"the MCP Inspector CLI is not at {INSPECTOR} (or node is missing): .ci/run installs "
            "it with npm; set EVALGLASS_MCP_INSPECTOR to use another"
        )
    done = subprocess.run(
        [str(INSPECTOR), "--cli", str(EVALGLASS), "mcp", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    return tmp_path


def test_inspector_lists_every_tool_with_its_output_schema(work: Path) -> None:
    """tools/list: five tools, each with an object output schema; score's is the contract's."""
    listed = inspect(work, "--method", "tools/list")["tools"]
    assert isinstance(listed, list)
    schemas = {tool["name"]: tool["outputSchema"] for tool in listed}
    assert list(schemas) == ["score", "explain", "doctor", "metrics", "diff"]
    assert all(schema["type"] == "object" for schema in schemas.values())
    assert schemas["score"] == scorecard_schema()


def test_inspector_reads_a_score_as_structured_content_and_text(work: Path) -> None:
    """tools/call score: structuredContent is the scorecard, equal to the text block's JSON."""
    answer = inspect(
        work, "--method", "tools/call", "--tool-name", "score",
        "--tool-arg", 'outputs=["run.json"]', "--tool-arg", "as_of=2026-11-30",
    )  # fmt: skip
    assert answer.get("isError") in (None, False)
    [block] = answer["content"]  # type: ignore[misc]
    assert block["type"] == "text"
    assert answer["structuredContent"] == json.loads(block["text"])
    assert answer["structuredContent"]["verdict"] == "pass"  # type: ignore[index]
