"""Writes the worked example of docs/calibration.md: a judge's pass/fail grades and three people's
labels for 300 answers, and a later sample of 300 on which the judge has drifted. Seeded, stdlib
only: `python examples/calibration/generate.py` rewrites the same files byte for byte.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
RATERS = ("ana", "ben", "chloe")


def sample(
    rng: random.Random, first: int, items: int, judge_accuracy: float, judged: Path, labelled: Path
) -> None:
    """Each answer truly passes with probability 0.7; each person labels it right 90% of the
    time and skips 10% of answers (never all three); the judge is right `judge_accuracy`."""
    judgments, labels = [], []
    for number in range(first, first + items):
        sample_id = f"q{number:04d}"
        truth = rng.random() < 0.7
        right = rng.random() < judge_accuracy
        judgments.append({"sample_id": sample_id, "label": "pass" if truth == right else "fail"})
        skipped = {r for r in RATERS if rng.random() < 0.1}
        if skipped == set(RATERS):
            skipped = set()
        for rater in RATERS:
            if rater not in skipped:
                agrees = rng.random() < 0.9
                labels.append((sample_id, rater, "pass" if truth == agrees else "fail"))
    with judged.open("w", encoding="utf-8", newline="\n") as stream:
        for row in judgments:
            stream.write(json.dumps(row) + "\n")
    with labelled.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(("sample_id", "rater", "label"))
        writer.writerows(labels)


def main() -> None:
    rng = random.Random(16)
    sample(rng, 1, 300, 0.9, HERE / "judgments.jsonl", HERE / "labels.csv")
    sample(rng, 301, 300, 0.78, HERE / "later-judgments.jsonl", HERE / "later-labels.csv")


if __name__ == "__main__":
    main()
