"""The base's scorecard a pull request is shown beside (display only): found by what identifies
it, downloaded and unpacked within caps. Standard library only; it decides nothing, and every
failure is a line saying why there is no comparison, never an error of the job.

The card is the artifact of a run of this workflow, in this repository, on a `push` to the base
branch whose head commit is the pull request's base commit. Nothing else is the base's card: not
a pull request's run (a fork can name its branch `main`), not a run in another repository, not a
newer or older commit's run, not another workflow's.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

API_BYTES = 4 << 20  # one API answer (a page of runs or artifacts)
ARTIFACT_BYTES = 32 << 20  # the artifact's zip, as downloaded
CARD_BYTES = 64 << 20  # scorecard.json, unpacked
# How much larger scorecard.json may unpack than it is packed. JSON deflates well (about 10x),
# but a member that grows 100x is a bomb, whatever its declared size.
MAX_RATIO = 100
TIMEOUT = 30  # seconds per request
_PACKED = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)  # others expand a whole chunk at once
_CHUNK = 1 << 16


class NoCard(Exception):
    """Why there is no base scorecard to compare with: `str()` is the sentence's end."""


@dataclass(frozen=True)
class Base:
    """What identifies the base's card, from the runner's environment."""

    api: str  # GITHUB_API_URL
    repository: str  # owner/name
    repository_id: str  # GITHUB_REPOSITORY_ID: a fork has another
    workflow: str  # this workflow's file, `.github/workflows/ci.yml`
    branch: str  # the pull request's base branch
    commit: str  # the pull request's base commit
    artifact: str  # the artifact name this action uploads
    token: str


def workflow_path(workflow_ref: str, repository: str) -> str:
    """The workflow file from GITHUB_WORKFLOW_REF (`owner/name/.github/workflows/ci.yml@ref`);
    "" when it does not name one in `repository`."""
    path = workflow_ref.rpartition("@")[0]
    prefix = f"{repository}/"
    return path.removeprefix(prefix) if path.startswith(prefix) else ""


def find(base: Base, folder: Path) -> tuple[Path, str]:
    """scorecard.json of the base's run, written into `folder`, and a line naming that run.
    Raises NoCard with why there is none."""
    for field in ("api", "repository", "repository_id", "workflow", "commit"):
        if not getattr(base, field):
            raise NoCard(f"the runner does not say which {field.replace('_', ' ')} this is")
    name = urllib.parse.quote(base.workflow.rsplit("/", 1)[-1], safe="")
    query = urllib.parse.urlencode(
        {"event": "push", "branch": base.branch, "head_sha": base.commit, "per_page": 100}
    )
    runs = _json(base, f"/repos/{base.repository}/actions/workflows/{name}/runs?{query}")
    own = sorted(
        (r for r in _list(runs, "workflow_runs") if _is_base_run(r, base)),
        key=lambda r: (str(r.get("created_at", "")), _int(r.get("id"))),
        reverse=True,
    )
    if not own:
        raise NoCard(
            f"no run of this workflow on a push of `{base.commit[:12]}` to `{base.branch}` "
            "in this repository"
        )
    for run in own:
        found = _artifact(base, _int(run.get("id")))
        if found is not None:
            card = folder / "base-scorecard.json"
            card.write_bytes(_unpack(_download(base, found)))
            return card, (
                f"Compared with the scorecard of `{base.branch}` at `{base.commit[:12]}` "
                f"(run {_int(run.get('id'))}, artifact `{base.artifact}`); display only."
            )
    raise NoCard(
        f"no unexpired artifact `{base.artifact}` from the push run of `{base.commit[:12]}`"
    )


def _is_base_run(run: object, base: Base) -> bool:
    """A push run of this workflow, in this repository, of the base commit on the base branch."""
    if not isinstance(run, dict):
        return False
    head = run.get("head_repository")
    home = run.get("repository")
    return (
        run.get("event") == "push"
        and run.get("head_branch") == base.branch
        and run.get("head_sha") == base.commit
        and str(run.get("path", "")).partition("@")[0] == base.workflow
        and isinstance(head, dict)
        and str(head.get("id")) == base.repository_id
        and isinstance(home, dict)
        and str(home.get("id")) == base.repository_id
        and _int(run.get("id")) > 0
    )


def _artifact(base: Base, run_id: int) -> int | None:
    """The id of the run's unexpired artifact named `base.artifact` (the newest), or None."""
    query = urllib.parse.urlencode({"name": base.artifact, "per_page": 100})
    listed = _json(base, f"/repos/{base.repository}/actions/runs/{run_id}/artifacts?{query}")
    found = [
        a
        for a in _list(listed, "artifacts")
        if isinstance(a, dict)
        and a.get("name") == base.artifact
        and a.get("expired") is False
        and isinstance(a.get("workflow_run"), dict)
        and _int(a["workflow_run"].get("id")) == run_id
        and _int(a.get("id")) > 0
    ]
    if not found:
        return None
    newest = max(found, key=lambda a: (str(a.get("created_at", "")), _int(a.get("id"))))
    if _int(newest.get("size_in_bytes")) > ARTIFACT_BYTES:
        raise NoCard(f"the base's artifact declares {newest['size_in_bytes']} bytes, past the cap")
    return _int(newest["id"])


def _download(base: Base, artifact_id: int) -> bytes:
    """The artifact's zip; the API answers with a redirect to storage, which gets no token."""
    return get(
        base, f"/repos/{base.repository}/actions/artifacts/{artifact_id}/zip", ARTIFACT_BYTES
    )


def _unpack(data: bytes) -> bytes:
    """scorecard.json from the zip, refused past CARD_BYTES or MAX_RATIO, declared or actual."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as packed:
            info = packed.getinfo("scorecard.json")
            if info.compress_type not in _PACKED:
                raise NoCard("scorecard.json is packed with a method this action does not unpack")
            limit = min(CARD_BYTES, max(info.compress_size, 1) * MAX_RATIO)
            if info.file_size > limit:
                raise NoCard(f"scorecard.json unpacks to {info.file_size} bytes, past the cap")
            parts, total = [], 0
            with packed.open(info) as member:
                while chunk := member.read(_CHUNK):
                    total += len(chunk)
                    if total > limit:
                        raise NoCard("scorecard.json unpacks past the cap")
                    parts.append(chunk)
            return b"".join(parts)
    except KeyError:
        raise NoCard("the base's artifact holds no scorecard.json") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise NoCard(f"the base's artifact is not a readable zip ({exc})") from None


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows the API's redirect to the artifact's storage, over http(s) only. The token is an
    unredirected header, so it never reaches the storage host."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl).scheme not in ("http", "https"):
            raise NoCard("the API redirected the download off http(s)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def get(base: Base, path: str, cap: int) -> bytes:
    """GET `path` of the API, at most `cap` bytes; NoCard for any failure."""
    request = urllib.request.Request(base.api.rstrip("/") + path)
    request.add_header("Accept", "application/vnd.github+json")
    request.add_header("X-GitHub-Api-Version", "2022-11-28")
    if base.token:
        request.add_unredirected_header("Authorization", f"Bearer {base.token}")
    opener = urllib.request.build_opener(_Redirects)
    try:
        with opener.open(request, timeout=TIMEOUT) as answer:
            declared = answer.headers.get("Content-Length")
            if declared is not None and declared.isdigit() and int(declared) > cap:
                raise NoCard(f"the API's answer declares {declared} bytes, past the cap")
            data: bytes = answer.read(cap + 1)
    except urllib.error.HTTPError as exc:
        raise NoCard(f"the API answered {exc.code} to {path.partition('?')[0]}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise NoCard(f"the API could not be reached ({exc})") from None
    if len(data) > cap:
        raise NoCard(f"the API's answer to {path.partition('?')[0]} is past the {cap}-byte cap")
    return data


def _json(base: Base, path: str) -> object:
    try:
        return json.loads(get(base, path, API_BYTES))
    except (ValueError, RecursionError):
        raise NoCard(f"the API's answer to {path.partition('?')[0]} is not JSON") from None


def _list(doc: object, key: str) -> list[Any]:
    found = doc.get(key) if isinstance(doc, dict) else None
    return found if isinstance(found, list) else []


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
