"""A stand-in for the part of GitHub's REST API the action reads to find the base's scorecard:
a workflow's runs, a run's artifacts, and an artifact's zip (a redirect to storage, as GitHub
answers). It listens on 127.0.0.1 only, on a port of its own, answers GET alone, and every
connection times out; it logs each request with whether it carried a token.

The runs list ignores the query's filters on purpose: the action must pick the base's run
itself, since what an API filter matches is not what identifies the base's card.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.action_harness import REPOSITORY, REPOSITORY_ID, WORKFLOW

FORK_ID = 2002  # another repository: a fork


@dataclass
class Api:
    """What the stand-in answers: runs, each run's artifacts, each artifact's zip bytes."""

    runs: list[dict[str, Any]] = field(default_factory=list)
    artifacts: list[dict[str, Any]] = field(default_factory=list)
    zips: dict[int, bytes] = field(default_factory=dict)
    requests: list[tuple[str, bool]] = field(default_factory=list)  # path, carried a token
    url: str = ""

    def downloads(self) -> list[int]:
        """The artifacts whose zip was fetched from storage, in order."""
        return [int(p.rsplit("/", 1)[1]) for p, _ in self.requests if p.startswith("/storage/")]


def run(
    run_id: int,
    sha: str,
    *,
    event: str = "push",
    branch: str = "main",
    repository_id: int = REPOSITORY_ID,
    workflow: str = WORKFLOW,
    created: str = "2026-11-01T00:00:00Z",
) -> dict[str, Any]:
    """A workflow run as the API lists it (the fields the action reads)."""
    return {
        "id": run_id, "event": event, "head_branch": branch, "head_sha": sha, "path": workflow,
        "created_at": created, "repository": {"id": REPOSITORY_ID, "full_name": REPOSITORY},
        "head_repository": {"id": repository_id},
    }  # fmt: skip


def artifact(
    artifact_id: int, run_id: int, *, expired: bool = False, size: int = 1000
) -> dict[str, Any]:
    """An artifact named `evalglass` of run `run_id`, as the API lists it."""
    return {
        "id": artifact_id, "name": "evalglass", "expired": expired, "size_in_bytes": size,
        "created_at": "2026-11-01T00:00:00Z", "workflow_run": {"id": run_id},
    }  # fmt: skip


_RUNS = re.compile(rf"/repos/{REPOSITORY}/actions/workflows/[^/]+/runs")
_ARTIFACTS = re.compile(rf"/repos/{REPOSITORY}/actions/runs/([0-9]+)/artifacts")
_ZIP = re.compile(rf"/repos/{REPOSITORY}/actions/artifacts/([0-9]+)/zip")
_STORAGE = re.compile(r"/storage/([0-9]+)")


def _handler(api: Api) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # seconds a connection may stay silent

        def do_GET(self) -> None:
            path = self.path.partition("?")[0]
            api.requests.append((path, "Authorization" in self.headers))
            if _RUNS.fullmatch(path):
                self._json({"total_count": len(api.runs), "workflow_runs": api.runs})
            elif found := _ARTIFACTS.fullmatch(path):
                mine = [a for a in api.artifacts if a["workflow_run"]["id"] == int(found[1])]
                self._json({"total_count": len(mine), "artifacts": mine})
            elif found := _ZIP.fullmatch(path):
                self.send_response(302)
                self.send_header("Location", f"{api.url}/storage/{found[1]}")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif (found := _STORAGE.fullmatch(path)) and int(found[1]) in api.zips:
                self._body(api.zips[int(found[1])], "application/zip")
            else:
                self.send_error(404)

        def _json(self, doc: object) -> None:
            self._body(json.dumps(doc).encode(), "application/json")

        def _body(self, data: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass  # the test reads api.requests

    return Handler


@contextmanager
def serving(api: Api) -> Iterator[Api]:
    """The stand-in answering on 127.0.0.1 while the block runs; `api.url` is its address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    server.daemon_threads = True
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
