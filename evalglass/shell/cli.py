"""The command line: parse, call the library, render, exit. It decides nothing itself.

No command or flag writes host records or sets a status, an approval or a calibration. Every
message is one line: bad input exits 4, a bad command line 2, and anything evalglass did not
expect is reported as a bug in evalglass, exit 70, never as a verdict. The commands live in
`evalglass.shell.commands`, one module per group, and are registered here in the order `--help`
lists them. The library is imported inside each command that uses it, so `--help` and
a usage error do not pay for the records, evidence and scorecard machinery.
"""

from __future__ import annotations

from evalglass.shell.commands import agents, analysis, records, scoring
from evalglass.shell.commands.app import app

__all__ = ["app", "main"]

# Every command, in the order `--help` lists them.
app.command()(scoring.score)
app.command("run")(scoring.run_command)
app.command()(scoring.demo)
app.command()(records.metrics)
app.command()(records.diff)
app.command()(records.explain)
app.command()(records.plan)
app.command()(records.history)
app.command()(records.doctor)
app.command()(analysis.trend)
app.command()(records.validate)
app.command("mcp")(agents.mcp_command)
app.command()(records.schema)
app.command()(analysis.calibrate)
app.command()(analysis.sql)


def main() -> None:
    """Run the command line as `evalglass`; exits with the command's own code."""
    app(prog_name="evalglass")
