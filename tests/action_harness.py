"""Runs action.yml's steps the way the Actions runner does, on this machine: each `run:` step in
bash with the `env:` it declares (its `${{ }}` expressions evaluated from the inputs and earlier
steps' outputs), a GITHUB_OUTPUT file of its own, and later steps skipped after a failure unless
their `if:` says always(). A fake `gh` on PATH records every call and keeps the comments; the
base's scorecard is looked up through GITHUB_API_URL (tests/github_api.py stands in for it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import strictyaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
ACTION_YML = ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
REPOSITORY = "acme/evals"
REPOSITORY_ID = 1001
WORKFLOW = ".github/workflows/ci.yml"
PULL_REQUEST = 7
RUN_ID = "4242"

# The fake gh: `gh api` with --paginate lists the comments, page by page as gh prints them (JSON
# arrays back to back); --method POST/PATCH creates or edits one. Every call is logged.
FAKE_GH = """\
import json, os, sys
args = sys.argv[1:]
body = sys.stdin.read() if "--input" in args else None
with open(os.environ["FAKE_GH_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"args": args, "stdin": body}) + "\\n")
if os.environ.get("FAKE_GH_FAIL"):
    sys.stderr.write("HTTP 403: Resource not accessible by integration\\n")
    sys.exit(1)
# GET /user answers for a user's token; the workflow's GITHUB_TOKEN cannot ask it.
login = os.environ.get("FAKE_GH_USER", "")
if args == ["api", "user"]:
    if not login:
        sys.stderr.write("HTTP 403: Resource not accessible by integration\\n")
        sys.exit(1)
    sys.stdout.write(json.dumps({"login": login}))
    sys.exit(0)
store = os.environ["FAKE_GH_COMMENTS"]
pages = json.load(open(store, encoding="utf-8"))
if "--method" not in args:
    sys.stdout.write("".join(json.dumps(page) for page in pages))
    sys.exit(0)
at = args.index("--method")
method, path, text = args[at + 1], args[at + 2], json.loads(body)["body"]
if method == "POST":
    author = {"login": login or "github-actions[bot]"}
    comment = {"id": 1000 + sum(len(p) for p in pages), "body": text, "user": author}
    pages[-1].append(comment)
else:
    wanted = int(path.rsplit("/", 1)[1])
    comment = next(c for p in pages for c in p if c["id"] == wanted)
    comment["body"] = text
json.dump(pages, open(store, "w", encoding="utf-8"))
sys.stdout.write(json.dumps(comment))
"""


def action() -> dict[str, Any]:
    doc = strictyaml.dirty_load(ACTION_YML.read_text(), allow_flow_style=True)
    return doc.data  # type: ignore[no-any-return]


@dataclass
class GitHub:
    """A pull-request run's surroundings in a temporary folder: event, token, fake gh, files."""

    root: Path
    base_ref: str = ""
    event: dict[str, Any] = field(
        default_factory=lambda: {"pull_request": {"number": PULL_REQUEST}}
    )
    gh: bool = True  # put the fake gh on PATH
    gh_fails: bool = False
    token_user: str = ""  # GET /user's login; "" for the workflow's GITHUB_TOKEN (an app's)
    # The REST API the base's scorecard is looked up in: nothing listens on the discard port.
    api_url: str = "http://127.0.0.1:9"

    def __post_init__(self) -> None:
        (self.root / "bin").mkdir(parents=True, exist_ok=True)
        gh = self.root / "bin" / "gh"
        gh.write_text(f"#!{sys.executable}\n{FAKE_GH}")
        gh.chmod(0o755)
        if not self.comments_file.exists():
            self.set_comments([[]])
        (self.root / "runner temp").mkdir(exist_ok=True)  # a space, as on some self-hosted runners

    @property
    def comments_file(self) -> Path:
        return self.root / "comments.json"

    @property
    def log_file(self) -> Path:
        return self.root / "gh-calls.jsonl"

    @property
    def summary_file(self) -> Path:
        return self.root / "summary.md"

    def set_comments(self, pages: list[list[dict[str, Any]]]) -> None:
        self.comments_file.write_text(json.dumps(pages))

    def comments(self) -> list[dict[str, Any]]:
        return [c for page in json.loads(self.comments_file.read_text()) for c in page]

    def calls(self) -> list[dict[str, Any]]:
        if not self.log_file.exists():
            return []
        return [json.loads(line) for line in self.log_file.read_text().splitlines()]

    def env(self) -> dict[str, str]:
        event = self.root / "event.json"
        event.write_text(json.dumps(self.event))
        path = f"{self.root / 'bin'}:/usr/bin:/bin" if self.gh else "/usr/bin:/bin"
        env = {
            "PATH": path,
            "HOME": str(self.root),
            "NO_COLOR": "1",
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_REPOSITORY_ID": str(REPOSITORY_ID),
            "GITHUB_WORKFLOW_REF": f"{REPOSITORY}/{WORKFLOW}@refs/pull/{PULL_REQUEST}/merge",
            "GITHUB_API_URL": self.api_url,
            "GITHUB_EVENT_NAME": "pull_request" if "pull_request" in self.event else "push",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_BASE_REF": self.base_ref,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_RUN_ID": RUN_ID,
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_STEP_SUMMARY": str(self.summary_file),
            "RUNNER_TEMP": str(self.root / "runner temp"),
            "FAKE_GH_LOG": str(self.log_file),
            "FAKE_GH_COMMENTS": str(self.comments_file),
        }
        if self.gh_fails:
            env["FAKE_GH_FAIL"] = "1"
        if self.token_user:
            env["FAKE_GH_USER"] = self.token_user
        return env


@dataclass
class Result:
    code: int  # the action's: the first failing step's exit code, else 0
    log: str  # every step's stdout and stderr, in order
    outputs: dict[str, str]  # the action's outputs
    steps: dict[str, dict[str, str]]  # each step's outputs, by id
    ran: list[str]  # the names of the steps that ran
    uploaded: list[Path]  # what the artifact step would upload


def read_outputs(path: Path) -> dict[str, str]:
    """A GITHUB_OUTPUT file, both forms: `name=value` and `name<<DELIMITER` ... `DELIMITER`."""
    outputs: dict[str, str] = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines() if path.exists() else [])
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for part in lines:
                if part == delimiter:
                    break
                value.append(part)
            outputs[name] = "\n".join(value)
        else:
            name, _, value = line.partition("=")
            outputs[name] = value
    return outputs


def run_action(github: GitHub, cwd: Path, **inputs: str) -> Result:
    """The action's steps, on `cwd` (the workspace). Inputs are named as in action.yml, with `_`
    for `-`. setup-python and the install step are stood in for by this interpreter, which has
    evalglass installed (tests/project/test_action.py tests the install script on its own)."""
    spec = action()
    given = {name.replace("_", "-"): value for name, value in inputs.items()}
    unknown = set(given) - set(spec["inputs"])
    assert not unknown, f"not inputs of action.yml: {unknown}"
    values = {
        name: given.get(name, decl.get("default", "")) for name, decl in spec["inputs"].items()
    }
    for name, decl in spec["inputs"].items():
        assert decl.get("required") != "true" or name in given, f"input {name} is required"
    steps: dict[str, dict[str, str]] = {
        "python": {"python-path": sys.executable},
        "install": {"python": sys.executable},
    }

    def evaluate(expression: str) -> str:
        if expression == "github.token":
            return "fake-token"
        if match := re.fullmatch(r"inputs\.([\w-]+)", expression):
            return str(values[match[1]])
        if " || " in expression:  # the first operand that is not empty, as GitHub's `||`
            return next((v for v in map(evaluate, expression.split(" || ")) if v), "")
        if match := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
            return steps.get(match[1], {}).get(match[2], "")
        if match := re.fullmatch(r"github\.event((?:\.[\w-]+)+)", expression):
            found: Any = github.event
            for key in match[1].split(".")[1:]:
                found = found.get(key, "") if isinstance(found, dict) else ""
            return str(found)
        raise AssertionError(f"the harness cannot evaluate ${{{{ {expression} }}}}")

    def substitute(text: str) -> str:
        return EXPRESSION.sub(lambda m: evaluate(m[1]), text)

    def condition(text: str, failed: bool) -> bool:
        """`if:` as action.yml uses it: terms joined by &&, each always() or `X != ''`."""
        if not text:
            return not failed
        terms = [term.strip() for term in text.split("&&")]
        if "always()" not in terms and failed:
            return False
        for term in terms:
            if term != "always()":
                left, op, right = term.partition(" != ")
                assert op and right == "''", f"the harness cannot evaluate if: {text}"
                if evaluate(left) == "":
                    return False
        return True

    env = github.env()
    code, log, ran, uploaded = 0, [], [], []
    for number, step in enumerate(spec["runs"]["steps"]):
        if step.get("id") in ("python", "install") or not condition(step.get("if", ""), code != 0):
            continue
        ran.append(step["name"])
        if "uses" in step:
            assert step["uses"].startswith("actions/upload-artifact@"), step["uses"]
            paths = substitute(step["with"]["path"]).splitlines()
            uploaded = [Path(p) for p in paths if p.strip()]
            continue
        output = github.root / f"output-{number}"
        output.unlink(missing_ok=True)
        step_env = {name: substitute(value) for name, value in step.get("env", {}).items()}
        assert step["shell"] == "bash"
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=cwd,
            env={**env, **step_env, "GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        log.append(done.stdout + done.stderr)
        if "id" in step:
            steps[step["id"]] = read_outputs(output)
        if done.returncode != 0 and code == 0:
            code = done.returncode
    outputs = {name: substitute(decl["value"]) for name, decl in spec["outputs"].items()}
    return Result(code, "".join(log), outputs, steps, ran, uploaded)
