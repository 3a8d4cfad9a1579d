"""The verdict line names the tier of a run that ran checks, worded in render from the tier the
scorecard carries, and names none for a run that starts no check."""

from __future__ import annotations

from evalglass.core.scope import NO_CHECKS, Scope
from evalglass.core.scorecard import assemble
from evalglass.evidence.model import Evidence
from evalglass.records.model import HostRecords
from evalglass.render.words import headline
from evalglass.tiers import Tier
from tests.render_cases import WHEN


def test_the_headline_names_each_tier_and_none_without_one() -> None:
    """`fast tier: ` and `full tier: ` follow the verdict word; `evalglass score` names none."""
    expected = {tier: f"NO ACTIVE GATE — {tier.value} tier: " for tier in Tier}
    for tier, start in expected.items():
        card = assemble(HostRecords(), Evidence(), evaluated_at=WHEN, scope=Scope(tier))
        assert headline(card).startswith(start)
    plain = headline(assemble(HostRecords(), Evidence(), evaluated_at=WHEN, scope=NO_CHECKS))
    assert plain.startswith("NO ACTIVE GATE — ") and " tier" not in plain
