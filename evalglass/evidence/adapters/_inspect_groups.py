"""Inspect's grouped() metrics: which samples a group's value was computed over.

Inspect writes one metric per group label with no count of its own (its `scored_samples` is the
whole scorer's); the group of each sample is only in the samples' metadata. A group whose samples
cannot be told is left without members, so its n is unknown rather than borrowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from evalglass.evidence.adapters import _common as c

_DEFAULT_TEMPLATE = "{group_name}"
_DEFAULT_ALL_LABEL = "all"


@attrs.frozen
class Group:
    """One value of a dict-valued metric, as the log describes it."""

    # The metadata key its samples are grouped by; None for a dict-valued metric other than
    # grouped(), whose parts cover samples the log does not say.
    key: str | None
    label: str
    metric: str | None  # the metric computed per group (accuracy, mean, ...)
    whole: bool  # the value over every sample (grouped()'s `all`)
    over_groups: bool  # that value is the mean of the group values (all="groups")
    template: str


def group_of(label: str, body: dict[str, Any]) -> Group | None:
    """The group a metric entry describes, or None for an ordinary metric."""
    if "group" not in body:
        return None
    params = c.section(body, "params")
    key = c.text(params.get("group_key"))
    inner = c.text(c.section(params, "metric").get("name"))
    every = params.get("all", "samples")
    whole = (
        key is not None
        and every is not False
        and label == (c.text(params.get("all_label")) or _DEFAULT_ALL_LABEL)
    )
    return Group(
        key=key,
        label=label,
        metric=inner,
        whole=whole,
        over_groups=whole and every == "groups",
        template=c.text(params.get("name_template")) or _DEFAULT_TEMPLATE,
    )


def members(group: Group, metadata: Mapping[str, Mapping[str, Any]]) -> frozenset[str] | None:
    """The ids of the samples in the group; None when the log cannot say which they are."""
    if group.key is None or not metadata:
        return None
    found = frozenset(
        sample_id
        for sample_id, values in metadata.items()
        if group.key in values
        and group.template.replace("{group_name}", str(values[group.key])) == group.label
    )
    return found or None
