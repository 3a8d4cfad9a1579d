"""What a command loads: each imports only the machinery it uses, so start-up stays short.

Behavioural, not timed: each test runs `python -m evalglass` in a fresh interpreter and looks at
which modules it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from evalglass import __version__

ROOT = Path(__file__).resolve().parents[2]

# Runs the command as `python -m evalglass` does, then lists every module it imported.
_DRIVER = """
import json, runpy, sys
listing, sys.argv = sys.argv[1], ["evalglass", *sys.argv[2:]]
try:
    runpy.run_module("evalglass", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    with open(listing, "w") as stream:
        json.dump(sorted(sys.modules), stream)
"""


def run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    listing = tmp_path / "modules.json"
    result = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(listing), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )
    return result, set(json.loads(listing.read_text()))


def loaded(modules: set[str], names: tuple[str, ...]) -> set[str]:
    """Which of `names` (or modules inside them) were imported."""
    return {m for m in modules for name in names if m == name or m.startswith(name + ".")}


def test_version_imports_neither_the_cli_framework_nor_the_library(tmp_path: Path) -> None:
    """`--version` prints the version without loading typer, the library or any heavy dependency."""
    result, modules = run(tmp_path, "--version")
    assert result.stdout == f"evalglass {__version__}\n"
    heavy = (
        "typer", "click", "pydantic", "rich", "jinja2", "strictyaml", "cattrs", "attrs", "attr",
        "zstandard", "evalglass.shell.cli", "evalglass.shell.api", "evalglass.core.scorecard", "evalglass.records",
        "evalglass.evidence", "evalglass.render",
    )  # fmt: skip
    assert loaded(modules, heavy) == set()


def test_version_after_a_command_is_still_the_clis_own(tmp_path: Path) -> None:
    """`--version` anywhere else on the line is typer's eager option, with the same output."""
    result, _ = run(tmp_path, "--version", "score")
    assert result.stdout == f"evalglass {__version__}\n"


def test_help_loads_no_library_machinery(tmp_path: Path) -> None:
    """`--help` builds the command line only: no records, evidence, scorecard or templates. Of
    the evidence layer it reads the registry's table of format names alone (for
    `--input-format`), which imports no adapter."""
    result, modules = run(tmp_path, "--help")
    assert result.returncode == 0
    assert "score" in result.stdout
    heavy = (
        "jinja2", "strictyaml", "cattrs", "zstandard", "evalglass.shell.api", "evalglass.core.scorecard",
        "evalglass.records", "evalglass.evidence", "evalglass.render.terminal",
    )  # fmt: skip
    assert loaded(modules, heavy) <= {"evalglass.evidence", "evalglass.evidence.registry"}


def test_json_scorecard_of_a_generic_output_loads_no_templates_or_archive_reader(
    tmp_path: Path,
) -> None:
    """Scoring a JSON output to JSON writes through the contract (cattrs) and needs neither
    jinja2, strictyaml, rich nor zstandard."""
    result, modules = run(
        tmp_path, "score", "examples/run.json", "--records", "host_records", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"] == "pass"
    assert "evalglass.contract" in modules
    assert loaded(modules, ("jinja2", "strictyaml", "rich", "zstandard")) == set()


def test_terminal_scorecard_loads_no_contract(tmp_path: Path) -> None:
    """The default `score` prints no JSON, so it loads neither the contract nor cattrs."""
    result, modules = run(tmp_path, "score", "examples/run.json", "--records", "host_records")
    assert result.returncode == 0, result.stderr
    assert loaded(modules, ("cattrs", "evalglass.contract")) == set()


def test_terminal_scorecard_loads_no_validation_library(tmp_path: Path) -> None:
    """The default `score` is every pull request's cost: its template, but no pydantic,
    strictyaml or decompressor."""
    result, modules = run(tmp_path, "score", "examples/run.json", "--records", "host_records")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS")
    assert "jinja2" in modules
    assert loaded(modules, ("pydantic", "strictyaml", "zstandard")) == set()


def test_every_adapter_module_declares_its_adapter() -> None:
    """The registry's FORMATS lists each public module of the adapters package once, and each
    declares one ADAPTER under the name FORMATS gives it."""
    import importlib
    import pkgutil

    from evalglass.evidence import adapters as package
    from evalglass.evidence.registry import FORMATS, adapters

    modules = {i.name for i in pkgutil.iter_modules(package.__path__) if not i.name.startswith("_")}
    assert sorted(module for _, module in FORMATS) == sorted(modules)
    for name, module in FORMATS:
        declared = importlib.import_module(f"{package.__name__}.{module}").ADAPTER
        assert declared.name == name
    assert [a.name for a in adapters()] == [name for name, _ in FORMATS]
    assert len({name for name, _ in FORMATS}) == len(FORMATS)


def test_a_generic_json_output_loads_no_archive_reader(tmp_path: Path) -> None:
    """Recognising a file loads only the adapters' declarations: scoring generic JSON loads no
    Inspect reader, zip archive, JSON streamer or decompressor."""
    result, modules = run(tmp_path, "score", "examples/run.json", "--records", "host_records")
    assert result.returncode == 0, result.stderr
    heavy = ("evalglass.evidence.adapters._inspect_log", "evalglass.evidence.adapters._zip",
             "evalglass.evidence.adapters._inspect_files", "evalglass.evidence.adapters._json_stream",
             "zstandard")  # fmt: skip
    assert loaded(modules, heavy) == set()


def test_recognising_a_file_loads_no_formats_reading_machinery(tmp_path: Path) -> None:
    """Every format's sniffer is asked about a generic JSON output, but no other format's reader
    loads: not the rows sums or engine, Parquet's queries, promptfoo's or lm-eval's readers, the
    SQL of partials nor the dataset fingerprints."""
    for fmt in ("terminal", "json"):
        result, modules = run(
            tmp_path, "score", "examples/run.json", "--records", "host_records", "--format", fmt
        )
        assert result.returncode == 0, result.stderr
        assert "evalglass.evidence.adapters.rows" in modules  # asked, as every format is
        private = {m.rsplit(".", 1)[1] for m in modules if m.startswith(_ADAPTERS + "._")}
        assert private == {"_common"}, fmt
        heavy = ("evalglass.evidence.sql", "evalglass.evidence.fingerprint", "duckdb")
        assert loaded(modules, heavy) == set(), fmt


_ADAPTERS = "evalglass.evidence.adapters"


def test_pull_request_comment_loads_no_contract_or_validation_library(tmp_path: Path) -> None:
    """What CI runs on every pull request, workflow commands plus the Markdown comment, loads its
    template but neither the JSON contract, pydantic nor strictyaml."""
    comment = tmp_path / "comment.md"
    result, modules = run(
        tmp_path, "score", "examples/run.json", "--records", "host_records", "--format", "github",
        "--write", f"markdown={comment}",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert comment.read_text(encoding="utf-8").startswith("<!-- evalglass-scorecard -->\n")
    assert loaded(modules, ("pydantic", "cattrs", "strictyaml")) == set()


MCP = ("mcp", "mcp_types", "pydantic", "anyio", "starlette", "uvicorn", "evalglass.shell.mcp_server",
       "evalglass.shell.mcp_tools")  # fmt: skip


def test_score_and_help_load_nothing_of_the_mcp_server(tmp_path: Path) -> None:
    """The MCP SDK is the `mcp` command's alone: `score` (terminal or JSON) and `--help` load
    neither it, its dependencies nor the server's own modules."""
    for args in (
        ("score", "examples/run.json", "--records", "host_records"),
        ("score", "examples/run.json", "--records", "host_records", "--format", "json"),
        ("--help",),
    ):
        result, modules = run(tmp_path, *args)
        assert result.returncode == 0, result.stderr
        assert loaded(modules, MCP) == set(), args


def test_help_names_every_input_format_the_registry_reads(tmp_path: Path) -> None:
    """`--input-format`'s help lists every format the registry reads, in its order, and
    `--help` imports no adapter to say so."""
    from evalglass.evidence.registry import names

    result, modules = run(tmp_path, "score", "--help")
    assert result.returncode == 0, result.stderr
    assert ", ".join(names()) in " ".join(result.stdout.split())
    assert {m for m in modules if m.startswith("evalglass.evidence.adapters")} == set()


def test_scoring_with_no_plugin_installed_never_imports_the_entry_point_machinery(
    tmp_path: Path,
) -> None:
    """A generic JSON output reaches the plugins' turn, but with no package declaring a reader
    `importlib.metadata` (slow to import) is never loaded."""
    result, modules = run(tmp_path, "score", "examples/run.json", "--records", "host_records")
    assert result.returncode == 0, result.stderr
    assert "evalglass.evidence.plugins" in modules
    assert loaded(modules, ("importlib.metadata",)) == set()


def test_terminal_scorecard_finds_its_templates_without_the_resource_readers(
    tmp_path: Path,
) -> None:
    """The templates are found beside the package's own files: rendering loads neither
    `importlib.resources` nor the zip reader it brings."""
    result, modules = run(tmp_path, "score", "examples/run.json", "--records", "host_records")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS")
    assert loaded(modules, ("importlib.resources", "importlib.readers", "zipfile")) == set()


def test_scoring_with_nothing_to_compare_loads_no_comparison_machinery(tmp_path: Path) -> None:
    """With no baseline in a threshold, no `--compare` and no gate stopped, `score` (terminal or
    JSON) loads neither the regression statistics, the saved baseline, the comparison of
    scorecards nor the costly samples: they load for a run that has them."""
    unused = ("evalglass.core.regression", "evalglass.core.saved_baseline",
              "evalglass.core.comparison", "evalglass.core.costly", "evalglass.render.costly_view")  # fmt: skip
    for fmt in ("terminal", "json"):
        result, modules = run(
            tmp_path, "score", "examples/run.json", "--records", "host_records", "--format", fmt
        )
        assert result.returncode == 0, result.stderr
        assert loaded(modules, unused) == set(), fmt
