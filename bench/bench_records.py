"""Times the host-records loader against its targets, beside the floor and strictyaml itself.

A plain script: prints median seconds, asserts nothing. Run it with the repository on PYTHONPATH.
"""

from __future__ import annotations

import functools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evalglass.records.load import load_records
from evalglass.records.reference import strictyaml_schema

REPEATS = 7


def write_folder(folder: Path, n: int) -> None:
    """n metric records with a threshold, dataset and policy each, written as a host would: each
    threshold says what it was approved for (a block mapping), as an approved one must."""
    files: dict[str, list[str]] = {
        kind: [f"{kind}:"] for kind in ("metrics", "thresholds", "datasets", "policies")
    }
    for i in range(n):
        metric, dataset = f"task{i}/match/accuracy", f"data-{i}"
        files["metrics"] += [
            f"  {metric}:",
            "    status: gating            # promoted after review",
            f"    dataset: {dataset}",
            "    judge: grader-v2",
            "    requires_baseline: no",
            "    min_samples: 100",
            "    decision: bound",
            "    max_missing_fraction: 0.05",
            "",
        ]
        files["thresholds"] += [
            f"  {metric}:",
            "    op: '>='",
            "    value: 0.85",
            "    approval: approved",
            "    approved_by: '@alice'",
            "    approved_on: 2026-11-01",
            "    approved_for:",
            "      dataset_version: '2026-10'",
            "      judge_model: openai/gpt-4.1",
        ]
        files["datasets"] += [f"  {dataset}:", "    status: validated", "    version: '2026-10'"]
        files["policies"] += [f"  {dataset}:", "    policy: permitted"]
    for kind, lines in files.items():
        (folder / f"{kind}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def median_seconds(run: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read_texts(folder: Path) -> None:
    for path in sorted(folder.glob("*.yaml")):
        path.read_text(encoding="utf-8")


def main() -> None:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    print(f"floor: python -c pass (wall)                  {time.perf_counter() - start:8.4f} s")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (100, 10_000):
            folder = Path(tmp) / f"records-{n}"
            folder.mkdir()
            write_folder(folder, n)
            lines = sum(len(p.read_text().splitlines()) for p in folder.glob("*.yaml"))
            raw = median_seconds(functools.partial(read_texts, folder))
            loaded = median_seconds(functools.partial(load_records, folder))
            print(
                f"{n:>6} metrics + thresholds, datasets, policies ({lines} lines), "
                f"median of {REPEATS}"
            )
            print(f"         read the text only                   {raw:8.4f} s")
            print(f"         load_records                         {loaded:8.4f} s")
        # Imported late so that its import cannot touch the numbers above.
        import strictyaml  # type: ignore[import-untyped]

        schema = strictyaml_schema("metrics")
        for n in (100, 400, 800):
            folder = Path(tmp) / f"strictyaml-{n}"
            folder.mkdir()
            write_folder(folder, n)
            text = (folder / "metrics.yaml").read_text(encoding="utf-8")
            # strictyaml is quadratic: one run of the larger files takes tens of seconds.
            reference = median_seconds(
                functools.partial(strictyaml.load, text, schema), repeats=1 if n > 100 else 3
            )
            ours = median_seconds(functools.partial(load_records, folder))
            print(
                f"{n:>6} metrics.yaml: strictyaml.load {reference:8.4f} s;"
                f" load_records of all four files {ours:8.4f} s"
            )


if __name__ == "__main__":
    main()
