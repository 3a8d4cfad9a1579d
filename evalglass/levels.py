"""The confidence levels an interval may have: those a metric record's `interval_level` may set,
and so the only ones a scorecard JSON may carry. Strictly between 0 and 1 is not enough: at
0.9999999999999999 a two-sided quantile's probability rounds to 1, and at 1e-300 the critical
value is 0, and no interval method computes with either. Imports nothing, so the records and the
contract both read it without loading each other.
"""

from __future__ import annotations

from typing import Final

MIN_LEVEL: Final = 0.5
MAX_LEVEL: Final = 0.999
