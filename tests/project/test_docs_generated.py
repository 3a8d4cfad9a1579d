"""The docs that restate the code are generated from it, and the suite fails when they drift:
the authority tables from the conditions, the format lists and tables from the registry and the
formats' own declarations."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "docs.py"


def _docs(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("img"))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def test_the_generated_docs_are_current() -> None:
    """`scripts/docs.py --check` on this checkout finds nothing to regenerate."""
    result = _docs(ROOT, "--check")
    assert result.returncode == 0, result.stderr


def test_a_hand_edit_inside_a_block_fails_the_check_and_is_regenerated(tmp_path: Path) -> None:
    """A row edited (or a code renamed) by hand in docs/authority.md: --check exits 1 naming
    the file and changes nothing; a plain run writes the generated text back."""
    root = _copy(tmp_path)
    page = root / "docs" / "authority.md"
    original = page.read_text(encoding="utf-8")
    page.write_text(original.replace("`approval_expired` |", "`approval_lapsed` |"))
    checked = _docs(root, "--check")
    assert checked.returncode == 1
    assert checked.stderr == (
        f"{page}: generated docs are out of date; run python scripts/docs.py\n"
    )
    assert "`approval_lapsed` |" in page.read_text(encoding="utf-8")
    assert _docs(root).returncode == 0
    assert page.read_text(encoding="utf-8") == original


def test_a_block_removed_from_its_page_is_an_error(tmp_path: Path) -> None:
    """A generated block whose markers were deleted is not silently skipped."""
    root = _copy(tmp_path)
    page = root / "docs" / "formats.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("<!-- generated: input-formats -->\n", ""))
    result = _docs(root, "--check")
    assert result.returncode != 0
    assert "missing generated block(s): input-formats" in result.stderr


def test_the_exit_code_table_lists_every_exit_code_the_scorecard_commands_use() -> None:
    """docs/ci.md's exit-code table has a row for each code core/exits.py holds for a run's
    verdict, bad usage, bad input and evalglass's own bugs, and no other."""
    import re

    from evalglass.core import exits

    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    table = text.split("| exit | meaning | a pipeline should |", 1)[1].split("\n\n", 1)[0]
    documented = {int(m) for m in re.findall(r"^\| (\d+) \|", table, re.MULTILINE)}
    codes = {
        *exits.VERDICT_EXIT.values(),
        exits.NO_GATE_REQUIRED_EXIT,
        exits.USAGE_EXIT,
        exits.INPUT_ERROR_EXIT,
        exits.INTERNAL_ERROR_EXIT,
    }
    assert documented == codes


def test_each_records_file_documents_exactly_its_fields() -> None:
    """docs/host-records.md's field table under each `## KIND.yaml` heading has a row for each
    field the schema gives that kind, and no other: a field added to the schema and not to the
    docs (or left in the docs after it went) fails here."""
    from evalglass.records.schema import KINDS

    text = (ROOT / "docs" / "host-records.md").read_text(encoding="utf-8")
    for spec in KINDS.values():
        section = text.split(f"\n## {spec.filename}\n", 1)[1].split("\n## ", 1)[0]
        table = section.split(
            "| field | required | values | meaning | loosens when |\n|---|---|---|---|---|\n", 1
        )
        assert len(table) == 2, f"no field table under ## {spec.filename}"
        rows = table[1].split("<!-- end generated -->", 1)[0].splitlines()
        documented = [row.split("|")[1].strip() for row in rows]
        assert len(set(documented)) == len(documented), spec.filename
        assert set(documented) == {field.name for field in spec.fields}, spec.filename


def test_every_docs_page_named_in_the_project_exists() -> None:
    """A `docs/NAME.md` named in the code, the templates or the docs is a page of this
    repository: a renamed or never-written page fails here, not in a reader's browser. (A host's
    own files in an example, in a fenced block or quoted, are not ours.)"""
    import re

    root = Path(__file__).resolve().parents[2]
    named = set()
    for path in [*root.glob("evalglass/**/*.py"), *root.glob("templates/*.j2"),
                 *root.glob("docs/*.md"), root / "README.md", root / "action.yml"]:  # fmt: skip
        text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.MULTILINE | re.DOTALL)
        named.update(re.findall(r"(?<!')\bdocs/([a-z_-]+\.md)", text))
    assert named
    assert sorted(n for n in named if not (root / "docs" / n).is_file()) == []


def test_the_walkthroughs_console_excerpts_are_what_the_commands_print() -> None:
    """docs/promoting-a-gate.md's `metrics`, `doctor` and re-approval sessions are generated by
    running them (so --check fails when an output changes): every dataset the example names is
    in §1's table, and the re-approval's explain keeps its last line, its cut marked `...`."""
    page = (ROOT / "docs" / "promoting-a-gate.md").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"<!-- generated: ([a-z0-9-]+) -->\n(.*?)<!-- end generated -->",
                             page, re.DOTALL))  # fmt: skip
    assert {"promote-metrics", "promote-doctor", "promote-reapproval"} <= set(blocks)
    assert "\nqa-gold        2026-10" in blocks["promote-metrics"]
    assert "\ntoxic-prompts  2026-09" in blocks["promote-metrics"]
    explain = blocks["promote-reapproval"].split(
        "\n$ evalglass explain qa/exact_match run.json --patch"
    )[0]
    assert explain.splitlines()[1:3] == ["$ evalglass explain qa/exact_match run.json", "..."]
    assert explain.rstrip().splitlines()[-1].startswith("  would pass: ")


def _docs_script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """scripts/docs.py imported, writing only the pages the formats' blocks live on (the
    walkthrough's sessions, which run the CLI, are left out)."""
    spec = importlib.util.spec_from_file_location("evalglass_docs_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pages = {"docs/formats.md", "docs/plugins.md", "README.md"}
    blocks = {name: block for name, block in module.BLOCKS.items() if block[0] in pages}
    monkeypatch.setattr(module, "BLOCKS", blocks)
    return module


def test_a_format_declaration_the_docs_do_not_match_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adapter whose declared n changes (the docs untouched): --check exits 1 naming
    docs/formats.md, and a plain run writes the new words into its row."""
    import attrs

    from evalglass.evidence import registry

    root = _copy(tmp_path)
    script = _docs_script(monkeypatch)
    changed = tuple(
        attrs.evolve(a, docs=attrs.evolve(a.docs, counting=attrs.evolve(
            a.docs.counting, n="documents, counted again")))
        if a.name == "lm-eval" and a.docs is not None else a
        for a in registry.builtin()
    )  # fmt: skip
    monkeypatch.setattr(script.registry, "builtin", lambda: changed)
    assert script.main(["--check", "--root", str(root)]) == 1
    assert script.main(["--root", str(root)]) == 0
    page = (root / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "| lm-eval | documents, counted again | 0 |" in page


def test_a_new_format_gets_a_row_in_every_table_and_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A framework format added to the registry, with its declaration and no hand edit to the
    docs: every format table has its row, and the README, the detection order and the plugin
    page name it; until regenerated, --check fails."""
    import attrs

    from evalglass.evidence import registry

    root = _copy(tmp_path)
    script = _docs_script(monkeypatch)
    inspect = registry.by_name("inspect")
    assert inspect is not None and inspect.docs is not None
    added = attrs.evolve(
        inspect,
        name="newfw",
        docs=attrs.evolve(inspect.docs, label="NewFW", reads="NewFW results", versions="1.0"),
    )
    frameworks = len(registry.FRAMEWORKS)
    builtin = registry.builtin()
    monkeypatch.setattr(script.registry, "FRAMEWORKS", (*registry.FRAMEWORKS, ("newfw", "newfw")))
    monkeypatch.setattr(
        script.registry, "builtin", lambda: (*builtin[:frameworks], added, *builtin[frameworks:])
    )
    assert script.main(["--check", "--root", str(root)]) == 1
    assert script.main(["--root", str(root)]) == 0
    formats = (root / "docs" / "formats.md").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"<!-- generated: (format-[a-z]+) -->\n(.*?)<!-- end generated -->",
                             formats, re.DOTALL))  # fmt: skip
    assert set(blocks) == {"format-order", "format-counting", "format-versions", "format-runs",
                           "format-datasets"}  # fmt: skip
    for name, block in blocks.items():
        if name != "format-order":
            assert "\n| NewFW | " in block or "\n| NewFW, " in block or ", NewFW |" in block, name
    assert " and NewFW; then the formats installed plugins add" in formats
    assert "NewFW results, and a generic" in (root / "README.md").read_text(encoding="utf-8")
    assert " and NewFW) **and before the generic ones**" in (
        root / "docs" / "plugins.md"
    ).read_text("utf-8")
