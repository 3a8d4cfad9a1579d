"""Which host checks a run starts: those of its tier under `evalglass run`, none under `evalglass
score`. Pure: the runner asks it what to start, the decision what a check not started means.
"""

from __future__ import annotations

import attrs

from evalglass.records.model import CheckRecord
from evalglass.tiers import Tier


@attrs.frozen
class CheckScope:
    """One check's metric as a run saw it: its definition (None when checks.yaml has none), and
    why the run did not start it ("" when it did)."""

    definition: CheckRecord | None
    not_started: str = ""

    @property
    def started(self) -> bool:
        """Whether the run started the check: checks.yaml defines it and the run's tier includes
        it."""
        return self.definition is not None and not self.not_started


@attrs.frozen
class Scope:
    """The run's tier; None for a run that starts no check (`evalglass score`)."""

    tier: Tier | None = None

    def includes(self, check: CheckRecord) -> bool:
        """Whether this run starts the check: a fast check runs in both tiers, a full one only in
        the full tier."""
        return self.tier is Tier.FULL or (self.tier is Tier.FAST and check.tier is Tier.FAST)

    def of(self, check: CheckRecord | None) -> CheckScope:
        """How this run sees `check`: started when the tier includes it, else with the reason it
        was not, which the scorecard shows."""
        if check is None or self.includes(check):
            return CheckScope(check)
        if self.tier is None:
            return CheckScope(
                check, "evalglass score starts no process (evalglass run runs checks)"
            )
        return CheckScope(
            check, f"a {check.tier.value}-tier check, and this run is the {self.tier.value} tier"
        )

    @property
    def leaves_out_unmeasured(self) -> str:
        """Why this run leaves out an eval metric no output given measured, or "" when it holds
        such a metric unsound. A fast-tier run (on every push) gates what it runs and reads; a
        metric it has no number for is measured by the full run, which holds a missing number
        unsound, as `evalglass score` does."""
        if self.tier is Tier.FAST:
            return "no output given to this fast-tier run measures it; the full run does"
        return ""


# What `evalglass score` (and every reader of saved outputs) runs: no check.
NO_CHECKS = Scope()
