"""`evalglass doctor` for a terminal or a machine. Reads a Diagnosis; decides nothing."""

from __future__ import annotations

from evalglass.contract import json_text
from evalglass.render import Format
from evalglass.render._templates import environment
from evalglass.tools.diagnosis import Diagnosis


def render(diagnosis: Diagnosis, fmt: Format) -> str:
    """doctor's findings as the terminal report or a JSON document (schema_version 1). ValueError
    for any other format."""
    if fmt is Format.JSON:
        doc = {
            "schema_version": 1,
            "summary": diagnosis.summary,
            "exit_code": diagnosis.exit_code,
            "errors": diagnosis.errors,
            "warnings": diagnosis.warnings,
            "gating": diagnosis.gating,
            "unmeasured": diagnosis.unmeasured,
            "findings": [
                {
                    "severity": f.severity.value,
                    "code": f.problem.value,
                    "file": f.path,
                    "line": f.line,
                    "subject": f.subject,
                    "message": f.message,
                }
                for f in diagnosis.findings
            ],
        }
        return json_text(doc) + "\n"
    if fmt is not Format.TERMINAL:
        raise ValueError(f"doctor has no {fmt.value} format")
    return environment().get_template("doctor.txt.j2").render(diagnosis=diagnosis)
