"""`evalglass mcp`: the read-only tools served to an AI agent, records fixed at start."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from evalglass.errors import EvalglassError, install_hint
from evalglass.shell.commands.app import input_errors_exit
from evalglass.shell.commands.options import (
    folder,
    ref,
)


@input_errors_exit
def mcp_command(
    records: Annotated[
        Path,
        typer.Option(
            "--records",
            metavar="DIR",
            help="The host-records folder (relative to --cwd).",
            parser=folder,
        ),
    ] = Path("host_records"),
    records_ref: Annotated[
        str | None,
        typer.Option(
            "--records-ref",
            metavar="REF",
            parser=ref,
            help="Read the records as committed at this git ref, fixed to the commit it "
            "names at start.",
        ),
    ] = None,
    cwd: Annotated[
        Path | None,
        typer.Option(
            "--cwd",
            metavar="DIR",
            exists=True,
            file_okay=False,
            help="The working directory: outputs must lie under it (default: here).",
        ),
    ] = None,
) -> None:
    """Serve the read-only tools to an AI agent over MCP (stdio); the records are fixed at start."""
    from importlib.util import find_spec

    from evalglass.shell.mcp_tools import Bounds

    if find_spec("mcp") is None or find_spec("mcp_types") is None:
        raise EvalglassError("mcp", f"the MCP SDK 2.x is not installed; {install_hint('mcp')}")
    if cwd is not None:
        os.chdir(cwd)
    # Checked before the SDK loads, which is slow: bad records fail at once.
    bounds = Bounds.open(records, records_ref)
    try:
        from evalglass.shell import mcp_server
    except ImportError as exc:
        if (exc.name or "").startswith("evalglass"):
            raise
        said = f"the MCP SDK 2.x is not installed ({exc}); {install_hint('mcp')}"
        raise EvalglassError("mcp", said) from None
    mcp_server.serve(bounds)
