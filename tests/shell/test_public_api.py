"""The public surface users depend on: a change here must show up as a visible diff."""

from __future__ import annotations

import evalglass
from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.reasons import AuthorityCode, GateCode, ValidityCode


def test_all_is_pinned_and_importable() -> None:
    """__all__ is sorted, pinned, and every name in it resolves."""
    assert evalglass.__all__ == [
        "Authority",
        "ContractError",
        "DatasetIdentity",
        "EvalglassError",
        "Evidence",
        "GateResult",
        "HostRecords",
        "Interval",
        "Measurement",
        "Method",
        "MetricCard",
        "Outcome",
        "OutputError",
        "PlanError",
        "PluginError",
        "Reader",
        "RecordError",
        "Result",
        "Run",
        "Sample",
        "Scorecard",
        "UnknownMetric",
        "Verdict",
        "__version__",
        "assemble",
        "decide",
        "diff_records",
        "doctor",
        "evidence_line",
        "explain",
        "history",
        "load_records",
        "load_scorecard",
        "plan",
        "read_outputs",
        "resolve",
        "run",
        "score",
        "trend",
        "validate",
    ]
    assert set(evalglass.__all__) == set(evalglass._HOMES) | {"__version__"}
    for name in evalglass.__all__:
        assert getattr(evalglass, name) is not None


def test_dir_lists_the_public_api_and_nothing_else() -> None:
    """`dir(evalglass)` (what an editor or a REPL completes) is __all__: no helper the package
    imports for itself (typing, importlib, the lazy loader's table)."""
    assert dir(evalglass) == sorted(evalglass.__all__)


def test_every_user_facing_error_is_an_evalglass_error_in_one_home() -> None:
    """Each exception a user can meet is an EvalglassError defined in evalglass/errors.py, and
    the tree its docstring draws names exactly those classes."""
    import inspect
    import pkgutil
    from importlib import import_module

    from evalglass import errors

    homes = {}
    for info in pkgutil.walk_packages(evalglass.__path__, "evalglass."):
        if info.name.startswith(("evalglass.render._compiled", "evalglass.spark")):
            continue
        try:
            module = import_module(info.name)
        except ImportError:  # an optional extra's module (the MCP server) without its extra
            continue
        for name, value in vars(module).items():
            raised = inspect.isclass(value) and issubclass(value, BaseException)
            if raised and value.__module__ == module.__name__ and not name.startswith("_"):
                homes[name] = module.__name__
    public = {n for n, m in homes.items() if m == "evalglass.errors"}
    assert set(homes) - public <= INTERNAL, set(homes) - public - INTERNAL
    assert all(issubclass(getattr(errors, n), errors.EvalglassError) for n in public)
    drawn = {
        line.split("── ")[1].split()[0] for line in errors.__doc__.splitlines() if "── " in line
    }
    assert drawn | {"EvalglassError"} == public


# Raised and caught inside their own module or layer, never shown to a user as they are.
INTERNAL = {"Conflict", "Duplicate", "Epochs", "GitFailed", "GitMissing", "NotARegularFile",
            "ObjectError", "ObjectMissing", "Refused", "TooLarge"}  # fmt: skip


def test_install_hints_name_the_extras_requirements() -> None:
    """A missing extra's hint installs exactly what pyproject.toml's extra lists, a command that
    works however evalglass was installed."""
    import tomllib
    from pathlib import Path

    from evalglass.errors import install_hint

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    for extra in ("mcp", "parquet", "calibrate", "yaml", "spark"):
        wanted = project["project"]["optional-dependencies"][extra]
        hint = install_hint(extra)
        assert hint.startswith("pip install ") and hint.endswith(f"(evalglass's '{extra}' extra)")
        named = [w.strip("'") for w in hint.removeprefix("pip install ").split(" (")[0].split()]
        assert sorted(n.replace(" ", "").lower() for n in named) == sorted(
            _normal(w) for w in wanted
        ), (extra, hint)


def _normal(requirement: str) -> str:
    from packaging.requirements import Requirement

    r = Requirement(requirement)
    return f"{r.name.lower()}{r.specifier}"


def test_vocabularies_are_pinned() -> None:
    """Outcomes, gate results, verdicts and reason codes are exactly the documented values."""
    assert [o.value for o in Outcome] == ["informational", "blocked", "can_gate"]
    assert [r.value for r in Result] == ["pass", "warn", "fail", "unsound", "not_enforced"]
    assert [v.value for v in Verdict] == ["fail", "blocked", "pass", "informational"]
    assert [c.value for c in AuthorityCode] == [
        "no_record",
        "metric_not_gating",
        "threshold_missing",
        "threshold_proposed",
        "dataset_proposed",
        "judge_uncalibrated",
        "dangling_reference",
        "policy_not_permitted",
        "dataset_retired",
        "dataset_mismatch",
        "dataset_unverifiable",
        "judge_drifted",
        "judge_retired",
        "judge_evidence_insufficient",
        "judge_not_independent",
        "judge_model_mismatch",
        "baseline_missing",
        "baseline_not_comparable",
        "approval_stale",
        "approval_expired",
    ]
    assert [c.value for c in ValidityCode] == [
        "value_missing",
        "value_not_finite",
        "value_out_of_range",
        "too_few_samples",
        "interval_unavailable",
        "interval_unreliable",
        "too_many_missing",
        "value_mismatch",
        "run_incomplete",
        "check_could_not_run",
    ]
    assert [c.value for c in GateCode] == ["passed_on_retry", "too_many_attempts", "not_run"]


_TWICE = """
import datetime as dt, os, subprocess, sys
import evalglass as e
records, output = "host_records", "examples/run.json"
for _ in range(2):
    card = e.score([output], records)
    assert e.explain("qa/exact_match", [output], records).card.id == "qa/exact_match"
    assert e.doctor([output], records).exit_code in (0, 1)
    assert e.validate(records) > 0
    assert e.run([output], records, use_cache=False).scope.tier is not None
    host = e.load_records(records)
    evidence = e.read_outputs([output])
    assert e.assemble(host, evidence, evaluated_at=card.evaluated_at).verdict is card.verdict
    m = evidence.measurements["qa/exact_match"]
    authority = e.resolve("qa/exact_match", host, m, evaluated_on=card.evaluated_at.date())
    assert isinstance(authority, e.Authority)
    assert e.diff_records("HEAD", records).base == "HEAD"
    path = sys.argv[1]
    from evalglass.render import Format, render
    open(path, "w").write(render(card, Format.JSON))
    assert e.load_scorecard(path).verdict == card.verdict.value
    assert [s.id for s in e.trend([path, path]).series] == [m.id for m in card.metrics]
    for name in e.__all__:
        value = getattr(e, name)
        assert not isinstance(value, type(os)), f"evalglass.{name} is a module"
print("ok")
"""


def test_every_exported_callable_works_twice_in_one_process(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Calling each API function twice in a fresh process: no name is shadowed by a submodule."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", _TWICE, str(tmp_path / "card.json")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"


def test_the_evidence_line_is_the_one_the_json_shows() -> None:
    """`evalglass.evidence_line(card)` is each metric's `gate.evidence` in the JSON, word for word:
    the gate carries numbers, and one renderer words them for every reader."""
    import json

    from evalglass.render import Format, render

    card = evalglass.score(["examples/run.json"], "host_records")
    doc = json.loads(render(card, Format.JSON))
    assert [m["gate"]["evidence"] for m in doc["metrics"]] == [
        evalglass.evidence_line(metric) for metric in card.metrics
    ]
    assert any(" >= " in m["gate"]["evidence"] for m in doc["metrics"])
