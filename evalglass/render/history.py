"""`evalglass history` for a terminal, a pull-request comment or a machine (the JSON shape is in
docs/history.md). Reads a History; decides nothing."""

from __future__ import annotations

from typing import Any

from evalglass.contract import json_text
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.tools.history import History

FORMATS = (Format.TERMINAL, Format.MARKDOWN, Format.JSON)
_TEMPLATES = {Format.TERMINAL: "history.txt.j2", Format.MARKDOWN: "history.md.j2"}


def render(history: History, fmt: Format) -> str:
    """The metric's history as terminal text, Markdown or JSON."""
    if fmt is Format.JSON:
        return json_text(to_json(history)) + "\n"
    name = _TEMPLATES.get(fmt)
    if name is None:
        raise ValueError(f"history has no {fmt.value} format")
    return environment().get_template(name).render(history=history)


def to_json(history: History) -> dict[str, Any]:
    """The history as the JSON document `history --format json` prints."""
    return {
        "schema_version": 1,
        "metric": history.metric,
        "records": history.folder,
        "since": history.since,
        "commits_read": history.commits_read,
        "cut_at": [c.id for c in history.cut_at],
        "commits": [
            {
                "commit": e.commit.id,
                "parents": list(e.commit.parents),
                "author": e.commit.author,
                "email": e.commit.email,
                "date": e.commit.date,
                "subject": e.commit.subject,
                "error": e.error,
                "changes": [
                    {
                        "file": c.file,
                        "record": c.record,
                        "field": c.field,
                        "old": c.old,
                        "new": c.new,
                    }
                    for c in e.changes
                ],
            }
            for e in history.entries
        ],
    }
