"""The JSON scorecard: the machine contract, byte-identical for the same inputs. Reads; never decides."""

from __future__ import annotations

import json

import orjson

from evalglass.core.scorecard import Scorecard
from evalglass.render.convert import scorecard_to_dict


def render(scorecard: Scorecard, keep_samples: bool = False) -> str:
    doc = scorecard_to_dict(scorecard, keep_samples)
    try:
        # The standard library indents in pure Python: 0.75 s of a 10,000-metric scorecard,
        # where orjson writes the same document in a tenth of that.
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        # Only an integer beyond 64 bits gets here. Same document; json spells a few small
        # numbers differently (1e-05 where orjson writes 0.00001), which no parser sees.
        text = json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False)
    return text + "\n"
