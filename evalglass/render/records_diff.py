"""The authority diff for a terminal, a pull-request comment, or a machine. Reads; never decides."""

from __future__ import annotations

from evalglass.contract import json_text
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.tools.records_diff import RecordsDiff

_TEMPLATES = {Format.TERMINAL: "diff.txt.j2", Format.MARKDOWN: "diff.md.j2"}


def render(result: RecordsDiff, fmt: Format) -> str:
    """A records diff as JSON, or from the template for `fmt`. ValueError for a format diff does
    not have."""
    if fmt is Format.JSON:
        doc = {
            "schema_version": 1,
            "base": result.base,
            "head": result.head,
            "loosening": len(result.loosening),
            "changes": [
                {
                    "kind": c.kind.value,
                    "file": c.file,
                    "id": c.id,
                    "detail": c.detail,
                    "unapproved": c.unapproved,
                }
                for c in result.changes
            ],
        }
        return json_text(doc) + "\n"
    template = _TEMPLATES.get(fmt)
    if template is None:
        raise ValueError(f"diff has no {fmt.value} format")
    return environment().get_template(template).render(diff=result)
