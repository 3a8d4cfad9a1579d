"""The tiers a host check belongs to, declared once: the records' `tier` field, `evalglass run
--tier` and the scorecard JSON's `tier` all read this enum. Imports nothing of evalglass, so the
command line names the choices without loading the records.
"""

from __future__ import annotations

import enum


class Tier(enum.StrEnum):
    """Which runs a check belongs to: `fast` runs in both tiers, `full` only in the full one."""

    FAST = "fast"
    FULL = "full"
