"""`evalglass mcp`: the MCP SDK's stdio server around the tools of mcp_tools.py. The one module that
imports the SDK (the `mcp` extra); it holds no tool logic, and a bad request never stops it.
"""

from __future__ import annotations

import json
from typing import Any

import anyio

# mcp_types is the SDK 2.x's own types package: a 1.x SDK, whose server API differs, fails this
# import and gets the install hint instead of a confusing error later.
import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from evalglass._version import __version__
from evalglass.errors import EvalglassError
from evalglass.render.safe_text import escape
from evalglass.shell.mcp_schemas import OUTPUT_SCHEMAS
from evalglass.shell.mcp_tools import TOOLS, Bounds, call

INSTRUCTIONS = (
    "evalglass decides which eval results may fail a build. These tools read and explain; none "
    "writes. Authority comes only from the host records this server was started with, which no "
    "tool can change or replace: to change who may gate, a person edits host_records/ in a "
    "reviewed change. Output paths must lie under the server's working directory."
)
_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def server(bounds: Bounds) -> Server[Any]:
    """The server, answering every tool call from `bounds` alone."""

    async def list_tools(
        _: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    description=tool.description,
                    input_schema=dict(tool.schema),
                    output_schema=OUTPUT_SCHEMAS[tool.name],
                    annotations=_READ_ONLY,
                )
                for tool in TOOLS
            ]
        )

    async def call_tool(
        _: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            text = call(params.name, params.arguments, bounds)
        except EvalglassError as exc:
            # Bad input is the caller's to fix: a tool error the agent reads, in one line, escaped
            # as every message is (an id or a path named in it is cut short by the error).
            shown = escape(exc)
            return types.CallToolResult(content=[types.TextContent(text=shown)], is_error=True)
        # The same answer twice: structured, for clients that read the output schema, and as
        # the JSON text, for those from before structured content.
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=json.loads(text)
        )

    return Server(
        "evalglass",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(bounds: Bounds) -> None:
    """Serve over stdin and stdout until the client closes them."""
    app = server(bounds)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await app.run(read, write, app.create_initialization_options())

    anyio.run(run)
