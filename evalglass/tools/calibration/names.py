"""The closed vocabulary of calibration's statistic names, which each scale (in
`evalglass.calibration_evidence`, beside the document it describes) reports, and its defaults.

Statistic names are what an evidence file keys its numbers by and what a host's `min_agreement`
names, so they are a public contract: add names, never rename one.
"""

from __future__ import annotations

import enum

from evalglass.calibration_evidence import LabelScale


class Statistic(enum.Enum):
    """One agreement number. `*_humans` statistics are the human raters among themselves."""

    KAPPA = "kappa"
    WEIGHTED_KAPPA = "weighted_kappa"
    AC1 = "ac1"
    PERCENT_AGREEMENT = "percent_agreement"
    ALPHA = "alpha"
    SPEARMAN = "spearman"
    ICC = "icc"
    ALPHA_HUMANS = "alpha_humans"
    KAPPA_HUMANS = "kappa_humans"
    WEIGHTED_KAPPA_HUMANS = "weighted_kappa_humans"
    ICC_HUMANS = "icc_humans"

    @property
    def ceiling(self) -> bool:
        """True for the humans' own agreement: what a judge can hope to reach, not the judge."""
        return self.value.endswith("_humans")


# The judge's statistics on each scale, in the order reports list them; the humans' own
# agreement is added when several human raters exist.
JUDGE_STATISTICS: dict[LabelScale, tuple[Statistic, ...]] = {
    LabelScale.BINARY: (
        Statistic.KAPPA,
        Statistic.AC1,
        Statistic.PERCENT_AGREEMENT,
        Statistic.ALPHA,
    ),
    LabelScale.NOMINAL: (
        Statistic.KAPPA,
        Statistic.AC1,
        Statistic.PERCENT_AGREEMENT,
        Statistic.ALPHA,
    ),
    LabelScale.ORDINAL: (Statistic.WEIGHTED_KAPPA, Statistic.ALPHA),
    LabelScale.INTERVAL: (Statistic.ALPHA, Statistic.SPEARMAN, Statistic.ICC),
}

HUMAN_STATISTICS: dict[LabelScale, tuple[Statistic, ...]] = {
    LabelScale.BINARY: (Statistic.ALPHA_HUMANS, Statistic.KAPPA_HUMANS),
    LabelScale.NOMINAL: (Statistic.ALPHA_HUMANS, Statistic.KAPPA_HUMANS),
    LabelScale.ORDINAL: (Statistic.ALPHA_HUMANS, Statistic.WEIGHTED_KAPPA_HUMANS),
    LabelScale.INTERVAL: (Statistic.ALPHA_HUMANS, Statistic.ICC_HUMANS),
}

# The bootstrap's defaults: fixed, so the same files give the same evidence on every machine.
DEFAULT_SEED = 20_240_611
DEFAULT_RESAMPLES = 2_000
LEVEL = 0.95
