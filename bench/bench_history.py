"""Times `evalglass history` on a repository of 5,000 commits that touch the records, beside the
target.

A plain script: prints median seconds and the command's peak memory, asserts nothing. Run it
with the repository on PYTHONPATH. Target: `evalglass history METRIC` end to end within 5 s, and
memory that does not grow with the number of commits: `--commits 100000` (with `--metrics 5` to
keep the repository small) must peak near the 5,000-commit figure, never past the cap below.

The repository is written with `git fast-import` (seconds, where 5,000 `git commit`s would take
minutes): records of 50 metrics on 10 datasets with 5 judges, every threshold approved for its
dataset's version and judge, and 5,000 commits each changing one file as a team's would: a bar
nudged, a dataset version bumped and the bars on it approved again, a judge recalibrated, a
metric's min_samples or status moved, a policy or baseline edited. One commit in a hundred
breaks a file, and the next repairs it.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

# Runs evalglass and reports its own peak resident memory (not git's) on stderr's last line.
_MEASURED = (
    "import resource, runpy, sys\n"
    "try:\n"
    "    runpy.run_module('evalglass', run_name='__main__')\n"
    "finally:\n"
    "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    sys.stderr.write(f'peak-kib {peak}\\n')\n"
)

COMMITS = int(sys.argv[sys.argv.index("--commits") + 1]) if "--commits" in sys.argv else 5_000
METRICS = int(sys.argv[sys.argv.index("--metrics") + 1]) if "--metrics" in sys.argv else 50
MEMORY_CAP_MIB = 200  # the peak of one history run, whatever the number of commits
DATASETS = 10
JUDGES = 5
REPEATS = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3
TARGET = 5.0
METRIC = "m007" if METRICS > 7 else "m001"  # judged: its trail crosses datasets and judges


class Team:
    """The records, as state the commits change; `files()` writes them."""

    def __init__(self) -> None:
        self.version = {d: 1 for d in range(DATASETS)}
        self.model = {j: 1 for j in range(JUDGES)}
        self.calibration = {j: "calibrated" for j in range(JUDGES)}
        self.bar = {m: 0.5 + (m % 10) / 100 for m in range(METRICS)}
        self.approved = {m: (1, 1) for m in range(METRICS)}  # (dataset version, judge model)
        self.day = {m: 1 for m in range(METRICS)}
        self.samples = {m: 100 for m in range(METRICS)}
        self.policy = {d: "permitted" for d in range(DATASETS)}
        self.baseline = {m: 0.6 for m in range(0, METRICS, 5)}

    def judge(self, m: int) -> int | None:
        return m % JUDGES if m % 3 == 1 else None

    def metrics(self) -> str:
        lines = ["metrics:"]
        for m in range(METRICS):
            lines += [
                f"  m{m:03d}:",
                "    status: gating",
                f"    dataset: d{m % DATASETS}",
                f"    min_samples: {self.samples[m]}",
            ]
            if self.judge(m) is not None:
                lines.append(f"    judge: j{self.judge(m)}")
        return "\n".join(lines) + "\n"

    def thresholds(self) -> str:
        lines = ["thresholds:"]
        for m in range(METRICS):
            version, model = self.approved[m]
            day = self.day[m]
            lines += [
                f"  m{m:03d}:",
                "    op: '>='",
                f"    value: {self.bar[m]:.4f}",
                "    approval: approved",
                f"    approved_by: '@owner{m % 4}'",
                (
                    f"    approved_on: {2020 + day // 300}-{1 + day // 28 % 12:02d}-"
                    f"{1 + day % 28:02d}"
                ),
                "    approved_for:",
                f"      dataset_version: 'v{version}'",
            ]
            if self.judge(m) is not None:
                lines.append(f"      judge_model: vendor/judge-{self.judge(m)}-{model}")
        return "\n".join(lines) + "\n"

    def datasets(self) -> str:
        lines = ["datasets:"]
        for d in range(DATASETS):
            lines += [f"  d{d}:", "    status: validated", f"    version: 'v{self.version[d]}'"]
        return "\n".join(lines) + "\n"

    def judges(self) -> str:
        lines = ["judges:"]
        for j in range(JUDGES):
            lines += [
                f"  j{j}:",
                f"    model: vendor/judge-{j}-{self.model[j]}",
                f"    calibration: {self.calibration[j]}",
            ]
        return "\n".join(lines) + "\n"

    def policies(self) -> str:
        lines = ["policies:"]
        for d in range(DATASETS):
            lines += [f"  d{d}:", f"    policy: {self.policy[d]}"]
        return "\n".join(lines) + "\n"

    def baselines(self) -> str:
        lines = ["baselines:"]
        for m, value in self.baseline.items():
            lines += [
                f"  m{m:03d}:",
                f"    value: {value:.4f}",
                "    n: 400",
                f"    dataset_version: 'v{self.version[m % DATASETS]}'",
            ]
        return "\n".join(lines) + "\n"

    def change(self, i: int) -> tuple[str, list[str]]:
        """Commit i's message and the files it changes."""
        m, d, j = (i * 7) % METRICS, i % DATASETS, i % JUDGES
        step = i % 10
        if step in (0, 1, 2):
            self.bar[m] = round(self.bar[m] + (0.001 if i % 2 else -0.001), 4)
            self.day[m] += 1
            return f"Move the bar of m{m:03d}", ["thresholds"]
        if step == 3:
            self.version[d] += 1
            for k in range(d, METRICS, DATASETS):
                self.approved[k] = (self.version[d], self.approved[k][1])
                self.day[k] += 1
            return f"Bump d{d} and approve its bars again", ["datasets", "thresholds"]
        if step == 4:
            self.calibration[j] = "drifted" if self.calibration[j] == "calibrated" else "calibrated"
            return f"Recalibrate j{j}", ["judges"]
        if step == 5:
            self.model[j] += 1
            for k in range(METRICS):
                if self.judge(k) == j:
                    self.approved[k] = (self.approved[k][0], self.model[j])
                    self.day[k] += 1
            return f"Move j{j} to a new model and approve again", ["judges", "thresholds"]
        if step in (6, 7):
            self.samples[m] += 1
            return f"Change min_samples of m{m:03d}", ["metrics"]
        if step == 8:
            self.policy[d] = "redacted" if self.policy[d] == "permitted" else "permitted"
            return f"Change the policy of d{d}", ["policies"]
        key = m - m % 5
        self.baseline[key] = round(self.baseline[key] + 0.001, 4)
        return f"New baseline for m{key:03d}", ["baselines"]


class _Stream:
    """fast-import's stdin, written as the commits are made: 100,000 of them do not fit."""

    def __init__(self, stdin: IO[bytes]) -> None:
        self.stdin = stdin

    def append(self, data: bytes) -> None:
        self.stdin.write(data)


def build(repo: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    team = Team()
    importer = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, stdin=subprocess.PIPE)
    assert importer.stdin is not None
    stream = _Stream(importer.stdin)

    def blob(path: str, text: str) -> None:
        data = text.encode("utf-8")
        stream.append(f"M 100644 inline host_records/{path}\ndata {len(data)}\n".encode())
        stream.append(data + b"\n")

    when = 1_700_000_000
    for i in range(COMMITS):
        if i == 0:
            message, kinds = (
                "Start the records",
                ["metrics", "thresholds", "datasets", "judges", "policies", "baselines"],
            )
        else:
            message, kinds = team.change(i)
        author = f"Person {i % 7} <p{i % 7}@example.com> {when + i * 3600} +0000"
        body = message.encode()
        stream.append(f"commit refs/heads/main\nauthor {author}\ncommitter {author}\n".encode())
        # Each commit on the branch follows the one before it: fast-import needs no `from`.
        stream.append(f"data {len(body)}\n".encode() + body + b"\n")
        broken = i % 100 == 50
        for kind in kinds:
            text = getattr(team, kind)()
            blob(
                f"{kind}.yaml",
                text.replace("status: gating", "status: gatin", 1)
                if broken and kind == "metrics"
                else text,
            )
        if broken and "metrics" not in kinds:
            blob("metrics.yaml", team.metrics().replace("status: gating", "status: gatin", 1))
        if i % 100 == 51:
            blob("metrics.yaml", team.metrics())
    importer.stdin.close()
    if importer.wait() != 0:
        sys.exit("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True)


def cpu() -> float:
    own, children = os.times(), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.user + own.system + children.ru_utime + children.ru_stime


def main() -> None:
    evalglass = [sys.executable, "-c", _MEASURED]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        start = time.perf_counter()
        build(repo)
        count = subprocess.run(
            ["git", "rev-list", "--count", "HEAD"],
            cwd=repo,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        touching = subprocess.run(
            ["git", "rev-list", "--count", "HEAD", "--", "host_records"],
            cwd=repo,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        print(
            f"repository: {count} commits, {touching.strip()} touching the records, {METRICS} "
            f"metrics, built in {time.perf_counter() - start:.1f} s"
        )
        walls, cpus, peaks = [], [], []
        for _ in range(REPEATS):
            start, used = time.perf_counter(), cpu()
            done = subprocess.run(
                [*evalglass, "history", METRIC, "--format", "json"],
                cwd=repo,
                capture_output=True,
                text=True,
                check=False,
            )
            walls.append(time.perf_counter() - start)
            cpus.append(cpu() - used)
            if done.returncode != 0:
                sys.exit(f"history failed: {done.stderr}")
            peaks.append(int(done.stderr.splitlines()[-1].split()[1]) / 1024)
        shown = done.stdout.count('"commit":')
        print(
            f"evalglass history {METRIC}: {statistics.median(walls):.2f} s wall, "
            f"{statistics.median(cpus):.2f} s CPU (median of {REPEATS}; {shown} commits shown)"
            f"   target: {TARGET:.1f} s"
        )
        print(
            f"peak memory of evalglass (not git): {max(peaks):.0f} MiB for {count} commits"
            f"   cap: {MEMORY_CAP_MIB} MiB, flat in the commit count"
        )
        floor_start = time.perf_counter()
        subprocess.run(
            ["git", "log", "--format=%H", "--", "host_records"],
            cwd=repo,
            capture_output=True,
            check=True,
        )
        print(f"floor: git log of the records alone: {time.perf_counter() - floor_start:.2f} s")


if __name__ == "__main__":
    main()
