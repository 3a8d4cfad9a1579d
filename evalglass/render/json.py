"""The JSON scorecard: the machine contract, byte-identical for the same inputs. Reads; never decides."""

from __future__ import annotations

import json

from evalglass.convert import scorecard_to_dict
from evalglass.scorecard import Scorecard


def render(scorecard: Scorecard, keep_samples: bool = False) -> str:
    doc = scorecard_to_dict(scorecard, keep_samples)
    return json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False) + "\n"
