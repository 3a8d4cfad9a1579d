"""The action's last step: end with the exit code the scoring step settled on, so the job fails
exactly when evalglass says it should, and the log's last line says why."""

from __future__ import annotations

import sys

import _runner as runner

INPUT_ERROR_EXIT = 4
MEANING = {
    "0": "pass, or nothing enforced",
    "1": "an enforced gate failed",
    "2": "a bad command line",
    "3": "blocked: an authorized gate cannot be decided",
    "4": "unreadable or invalid records or eval outputs",
    "5": "nothing could gate, under require-gate",
}


def main() -> int:
    """End the job with the code the scoring step settled on, after saying in the log what the
    score's and the diff's codes mean. A missing or non-numeric code exits 4: never a pass."""
    code = runner.env("EXIT_CODE")
    scored, diffed = runner.env("SCORE_EXIT_CODE"), runner.env("DIFF_EXIT_CODE")
    if not code.isdigit():
        # Fail closed: a scoring step that settled on nothing must not read as a pass.
        runner.command("error", "the scoring step gave no exit code")
        return INPUT_ERROR_EXIT
    if scored:
        print(f"evalglass score: exit {scored} ({MEANING.get(scored, 'unknown')})")
    else:
        print("evalglass did not run: an input of the action is invalid (the error is above)")
    if diffed == "1":
        print("evalglass diff: exit 1 (the host records loosen a gate without a new approval)")
    elif diffed:
        print(f"evalglass diff: exit {diffed} ({MEANING.get(diffed, 'unknown')})")
    print(f"exit {code}")
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
