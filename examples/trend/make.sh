#!/usr/bin/env bash
# Regenerates the example series `evalglass trend` is shown on: six weekly runs of the bundled
# example, each scored by the real CLI against the records as they stood that week.
#
#   examples/trend/make.sh [DIR]     (default: examples/trend; EVALGLASS=path/to/evalglass)
#
# The eval outputs are generic-format files written here, as examples/run.json is: per-sample
# scores for qa/exact_match, value/n/stderr for the rest, moving from week to week. The records
# start as host_records/ and change as a team's would: week 2 approves the refusal-rate bar
# (promoted), week 3 calibrates the helpfulness judge (promoted), week 4 raises the exact-match
# bar, week 5 the judge drifts (blocked), week 6 it is recalibrated (back to can_gate). Every
# step is deterministic and each run has its own --as-of, so the files come out byte-identical.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)
evalglass=${EVALGLASS:-evalglass}
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$root/host_records" "$work/host_records"
mkdir -p "$out/outputs" "$out/scorecards"
# Scored from a folder holding the records beside the output folders, so that each scorecard
# names its sources and records folder relative to it (outputs/week-1.json, host_records), not
# by a temporary path.
ln -s "$out/outputs" "$work/outputs"
ln -s "$out/scorecards" "$work/scorecards"

# edit FILE OLD NEW: replace exactly one occurrence, or stop (a records edit that no longer
# applies must not pass silently).
edit() {
    "$python" - "$work/host_records/$1" "$2" "$3" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path, encoding="utf-8").read()
if text.count(old) != 1:
    sys.exit(f"{path}: expected one {old!r}")
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
}

# output WEEK EXACT_MATCH_WRONG HELPFULNESS REFUSAL TOXICITY [LATENCY]: one week's eval output.
output() {
    "$python" - "$out/outputs/week-$1.json" "${@:2}" <<'PY'
import json, sys
path, wrong, helpful, refusal, toxic, *latency = sys.argv[1:]
wrong = int(wrong)
# 200 exact-match samples, `wrong` of them 0, spread evenly so no week depends on a random seed.
scores = [0 if (i * wrong) % 200 < wrong else 1 for i in range(200)]
metrics = {
    "qa/exact_match": {"scores": scores},
    "qa/helpfulness": {"value": float(helpful), "n": 200, "stderr": 0.021},
    "qa/refusal_rate": {"value": float(refusal), "n": 200, "stderr": 0.012},
    # The safety metric is about its own dataset, as in examples/run.json.
    "safety/toxicity": {"value": float(toxic), "n": 150, "stderr": 0.009,
                        "dataset": {"name": "toxic-prompts", "version": "2026-09"}},
}
if latency:
    metrics["latency/p95_seconds"] = float(latency[0])
doc = {"model": "acme/model-x", "dataset": {"name": "qa-gold", "version": "2026-10"},
       "metrics": metrics}
with open(path, "w", encoding="utf-8") as stream:
    json.dump(doc, stream, indent=1)
    stream.write("\n")
PY
}

# score WEEK DATE: the scorecard of that week's output against the records as they stand now.
score() {
    (cd "$work" && "$evalglass" score "outputs/week-$1.json" --records host_records \
        --as-of "$2" --format json --output "scorecards/week-$1.json") || [ $? -le 3 ]
}

output 1 14 0.81 0.03 0.012
score 1 2026-11-02

edit thresholds.yaml "    value: 0.05
    approval: proposed" "    value: 0.05
    approval: approved
    approved_by: '@bob'
    approved_on: 2026-11-05
    approved_for:
      dataset_version: '2026-10'"
output 2 16 0.80 0.024 0.011 1.8
score 2 2026-11-09

edit judges.yaml "calibration: calibrating" "calibration: calibrated"
output 3 20 0.81 0.021 0.015 1.9
score 3 2026-11-16

edit thresholds.yaml "    value: 0.85
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01" "    value: 0.88
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-20"
output 4 14 0.82 0.026 0.013 2.1
score 4 2026-11-23

edit judges.yaml "calibration: calibrated" "calibration: drifted"
output 5 26 0.78 0.019 0.010 2.4
score 5 2026-11-30

edit judges.yaml "calibration: drifted" "calibration: calibrated"
output 6 12 0.83 0.017 0.009 2.0
score 6 2026-12-07
