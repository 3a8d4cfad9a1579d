"""A host's own template (`score --template`): the documented view model, sandboxed, escaped where
the output is HTML, and every failure one line with exit 4 before anything is written."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import attrs
import pytest

from evalglass.errors import TemplateError
from evalglass.render import costly_view, policy_view, view
from evalglass.render.custom import render
from tests.cli_runner import Result, cli
from tests.render.test_render import HOSTILE, hostile_scorecard

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "templates" / "comment.md.j2"


def example(*args: str) -> Result:
    """`evalglass score examples/run.json --records host_records ARGS` from the repository."""
    return cli("score", "examples/run.json", "--records", "host_records", *args, cwd=ROOT)


def test_the_example_template_renders_the_bundled_example() -> None:
    """The committed example template shows the verdict and each gate with its numbers."""
    result = example("--template", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<!-- evalglass-scorecard -->\n### evalglass: PASS\n")
    assert "- **PASS** `qa/exact_match`: 0.93 (n 200), threshold &gt;= 0.85" in result.stdout


def test_the_exit_code_still_follows_the_verdict(tmp_path: Path) -> None:
    """A template changes the look only: the exit code is the verdict's, as with --format."""
    plain = example()
    custom = example("--template", str(EXAMPLE))
    assert custom.returncode == plain.returncode


def test_html_templates_escape_what_outputs_wrote(tmp_path: Path) -> None:
    """In an .html template every string from an output is escaped: no tag survives."""
    page = tmp_path / "page.html.j2"
    page.write_text(
        "<ul>{% for m in scorecard.gates + scorecard.others %}<li>{{ m.id }}"
        " {{ m.why }}</li>{% endfor %}</ul><p>{{ scorecard.model }}</p>\n"
    )
    text = render(hostile_scorecard(), page)
    assert re.findall(r"<(\w+)", text) == ["ul"] + ["li"] * len(re.findall("<li>", text)) + ["p"]
    assert "<script" not in text and "&lt;script" in text


@pytest.mark.parametrize(
    "source",
    [
        "{{ scorecard.__class__.__mro__ }}",
        "{{ scorecard.gates.__class__.__base__.__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os.system('echo pwned') }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ scorecard.gates.append(1) }}",
    ],
)
def test_the_sandbox_refuses_reaching_for_code(tmp_path: Path, source: str) -> None:
    """Attribute tricks that reach Python internals fail as a TemplateError, never run."""
    path = tmp_path / "evil.txt.j2"
    path.write_text(source)
    with pytest.raises(TemplateError) as error:
        render(hostile_scorecard(), path)
    assert str(error.value).startswith(str(path))
    assert "pwned" not in str(error.value)


def test_a_misspelt_name_is_an_error_not_an_empty_cell(tmp_path: Path) -> None:
    """StrictUndefined: a field the view model lacks fails, naming it."""
    path = tmp_path / "typo.md.j2"
    path.write_text("{% for m in scorecard.gates %}{{ m.valeu }}{% endfor %}")
    with pytest.raises(TemplateError, match="valeu"):
        render(hostile_scorecard(), path)


def test_cli_failures_are_one_line_exit_4_and_write_nothing(tmp_path: Path) -> None:
    """A broken template: exit 4, one line naming file and line, and no --write file made."""
    path = tmp_path / "broken.md.j2"
    path.write_text("line one\n{% for m in scorecard.gates %}\n")
    written = tmp_path / "card.json"
    result = example("--template", str(path), "--write", f"json={written}")
    assert result.returncode == 4
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and f"{path}:2: template syntax" in result.stderr
    assert not written.exists()


def test_template_and_format_together_is_a_usage_error() -> None:
    """--template replaces --format: giving both is exit 2."""
    result = example("--format", "json", "--template", str(EXAMPLE))
    assert result.returncode == 2


def test_template_output_goes_to_the_output_file(tmp_path: Path) -> None:
    """--output takes the template's text, written atomically; stdout stays empty."""
    out = tmp_path / "comment.md"
    result = example("--template", str(EXAMPLE), "--output", str(out))
    assert result.returncode == 0 and result.stdout == ""
    assert out.read_text().startswith("<!-- evalglass-scorecard -->")


def test_docs_describe_every_field_of_the_view_model() -> None:
    """docs/templates.md names each field of each view-model class, so the contract is written."""
    doc = (ROOT / "docs" / "templates.md").read_text()
    for cls in (
        view.ScorecardView,
        view.MetricView,
        view.Counts,
        view.MetricText,
        view.ReasonView,
        view.EarlierRunView,
        view.AttemptView,
        policy_view.PolicyView,
        policy_view.UnmetView,
        costly_view.CostlyView,
    ):
        # What a template can read: the fields (a `_` name is refused by the sandbox) and the
        # words made on first reading.
        names = [f.name for f in attrs.fields(cls) if not f.name.startswith("_")]
        names += [n for n, v in vars(cls).items() if isinstance(v, functools.cached_property)]
        for name in names:
            assert f"`{name}`" in doc, f"{cls.__name__}.{name} is not documented"


def test_hostile_ids_are_available_raw_to_templates() -> None:
    """The view model holds text as the outputs wrote it; escaping is the template's filter."""
    ids = {m.id for m in view.scorecard_view(hostile_scorecard()).gates} | {
        m.id for m in view.scorecard_view(hostile_scorecard()).others
    }
    assert ids == {f"{text}#{i}" for i, text in enumerate(HOSTILE)}


def _refused(result: Result, template: str, *words: str) -> None:
    """One line naming the template, exit 4, nothing on stdout."""
    assert result.returncode == 4, result.stderr[-500:]
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"evalglass: {template}"), line
    for word in words:
        assert word in line, line


BOMBS = {
    "repeat": ("{{ 'x' * 10**10 }}", "10,000,000,000 characters"),
    "repeat-list": ("{{ ([1] * 10**9)|length }}", "1,000,000,000 characters"),
    "format-width": ("{{ '{:>2000000000}'.format('a') }}", "2,000,000,000 characters"),
    "format-width-argument": ("{{ '{:>{w}}'.format('a', w=9) }}", "may not come from an argument"),
    "percent-width": ("{{ '%2000000000s' % 'a' }}", "2,000,000,000 characters"),
    "method-width": ("{{ 'a'.ljust(10**10) }}", "10,000,000,000 characters"),
    "filter-width": ("{{ 'a'|center(10**10) }}", "10,000,000,000 characters"),
    "power": ("{{ 10 ** (10 ** 10) }}", "10,000,000,000 characters"),
    "doubling": (
        (
            "{% set ns = namespace(s='x') %}{% for i in range(60) %}"
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}"
        ),
        "a joined string would be",
    ),
    "output": (
        "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
        "the output would be 16,777,217 characters",
    ),
}


@pytest.mark.parametrize("bomb", list(BOMBS))
def test_a_template_cannot_build_more_than_the_output_cap(tmp_path: Path, bomb: str) -> None:
    """What a small template asks to build is refused past the cap before it is built, in one
    line naming the template and the variable that raises the cap."""
    source, words = BOMBS[bomb]
    (tmp_path / "bomb.j2").write_text(source + "\n")
    # The time cap has its own test: here only the output cap may stop the template, however
    # slowly the machine (or a coverage tracer) runs it.
    result = cli(
        "score", "examples/run.json", "--records", "host_records",
        "--template", str(tmp_path / "bomb.j2"),
        cwd=ROOT, env={"EVALGLASS_MAX_TEMPLATE_SECONDS": "600"},
    )  # fmt: skip
    cap = "not allowed in a template" if "argument" in words else "EVALGLASS_MAX_TEMPLATE_OUTPUT"
    _refused(result, str(tmp_path / "bomb.j2"), words, cap)


def test_a_template_that_loops_without_writing_is_stopped_in_time(tmp_path: Path) -> None:
    """10^5 x 10^5 empty iterations write nothing, and are stopped by the time cap."""
    loops = tmp_path / "loops.j2"
    loops.write_text(
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"
    )
    result = cli(
        "score", "examples/run.json", "--records", "host_records", "--template", str(loops),
        cwd=ROOT, env={"EVALGLASS_MAX_TEMPLATE_SECONDS": "1"},
    )  # fmt: skip
    _refused(result, str(loops), "longer than 1 s", "EVALGLASS_MAX_TEMPLATE_SECONDS")


@pytest.mark.parametrize("kind", ["fifo", "device", "too-large"])
def test_the_template_file_is_read_like_any_input(tmp_path: Path, kind: str) -> None:
    """A FIFO or a link to /dev/zero is refused at once, a file past the parse cap by its size."""
    path = tmp_path / "t.j2"
    env = {}
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.write_text("{{ scorecard.verdict }}\n" * 100)
        env = {"EVALGLASS_MAX_PARSE_BYTES": "2000"}  # the template's 2400, not the output's
    result = cli(
        "score", "examples/run.json", "--records", "host_records", "--template", str(path),
        cwd=ROOT, env=env,
    )  # fmt: skip
    words = {"fifo": "a FIFO", "device": "a device", "too-large": "EVALGLASS_MAX_PARSE_BYTES"}
    _refused(result, str(path), "cannot be read", words[kind])


@pytest.mark.parametrize(
    ("name", "words"),
    [("secret.j2", "leads outside the template's folder"), ("../secret.j2", "../secret.j2")],
)
def test_includes_stay_in_the_templates_folder(tmp_path: Path, name: str, words: str) -> None:
    """An include names a file beside the template or below it: a link out, or `..`, is
    refused, and what lies outside is never shown."""
    (tmp_path / "secret.txt").write_text("the secret\n")
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "secret.j2").symlink_to(tmp_path / "secret.txt")
    (folder / "inc.j2").write_text(f"{{% include {name!r} %}}\n")
    result = example("--template", str(folder / "inc.j2"))
    assert result.returncode == 4 and "the secret" not in result.stdout + result.stderr
    assert words in result.stderr, result.stderr


def test_includes_beside_and_below_are_read(tmp_path: Path) -> None:
    """Including a template beside this one, or in a folder below it, works as before."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "part.j2").write_text("part {{ scorecard.verdict }}\n")
    (tmp_path / "beside.j2").write_text("beside\n")
    (tmp_path / "t.j2").write_text("{% include 'beside.j2' %}{% include 'sub/part.j2' %}")
    result = example("--template", str(tmp_path / "t.j2"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "beside\npart pass\n"
