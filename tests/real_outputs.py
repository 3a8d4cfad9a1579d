"""One folder of outputs per real run under tests/fixtures, each as a newcomer would point
`evalglass init` at it: every case a tool wrote that reads as one scorecard."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"

# Each reads alone (one model, one scoring of each run); the folders this leaves out are the
# multi-run cases whose reading is an input error by design (two models, a re-scored log).
RUNS = (
    "inspect/logs/eval",
    "inspect/logs/json",
    "inspect/logs-0.3.150/eval",
    "inspect/eval-set/logs/eval",
    "inspect/grouped/logs/json",
    "inspect/self-graded/logs/eval",
    "inspect/unscored/logs/eval",
    "promptfoo/results/results.json",
    "promptfoo/graders/results/results.json",
    "promptfoo/repeat/results/plain",
    "lm-eval/results",
    "deepeval/results",
    "deepeval/repeat/results/plain",
)
