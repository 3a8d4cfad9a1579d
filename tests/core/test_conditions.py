"""The authority conditions as rows: one row per authority code, in the table's order, each
with the words the docs and the glossary show. What each row decides is the exhaustive table's
to test (tests/core/test_authority.py), against an expectation written apart from these rows."""

from __future__ import annotations

from evalglass.core.conditions import AUTHORIZING, BY_CODE, CONDITIONS, SOUNDNESS, Stage
from evalglass.reasons import AuthorityCode as C
from evalglass.tools.glossary import PLAIN


def test_one_row_per_authority_code_in_the_codes_order() -> None:
    """The rows are the AuthorityCode vocabulary, in its order: stage 1's codes, then stage
    2's; no code without its row, and none twice."""
    assert [row.code for row in CONDITIONS] == list(C)
    stages = [row.stage for row in CONDITIONS]
    assert stages == sorted(stages, key=lambda s: s.value)
    assert BY_CODE[C.DANGLING_REFERENCE].stage is Stage.SOUND
    assert [r.code for r in AUTHORIZING] == list(C)[1 : 1 + len(AUTHORIZING)]
    assert [r.code for r in SOUNDNESS] == list(C)[1 + len(AUTHORIZING) :]


def test_every_row_says_what_holds_and_what_failing_means() -> None:
    """Each row has the docs' condition (one table cell: no line breaks, no pipe) and the
    glossary's explanation, and the glossary quotes it word for word."""
    for row in CONDITIONS:
        assert row.holds_when and "\n" not in row.holds_when and "|" not in row.holds_when
        assert row.plain.endswith(".") and PLAIN[row.code] == row.plain


def test_only_independence_waits_for_a_run() -> None:
    """Doctor leaves to the run what only a run can show: with no output, a judged metric
    cannot be shown independent. Every other condition is the records' to meet."""
    assert [row.code for row in CONDITIONS if row.about_run] == [C.JUDGE_NOT_INDEPENDENT]
