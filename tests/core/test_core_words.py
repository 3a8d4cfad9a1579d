"""The core carries numbers and codes: a gate's figures of what it would take, like the gate
itself, hold kinds and numbers, and each kind of gate is decided from one typed input."""

from __future__ import annotations

import inspect
import typing

import attrs

from evalglass.core import decision
from evalglass.core.needed import BaselineFixed, Fixed, Needed


def test_what_it_would_take_carries_no_sentence_of_its_own() -> None:
    """Needed, what it held fixed of the current run and what of a baseline are numbers and
    kinds: no field holds text for render to pass on."""
    hints = {
        **typing.get_type_hints(Needed),
        **typing.get_type_hints(Fixed),
        **typing.get_type_hints(BaselineFixed),
    }
    texts = {name for name, kind in hints.items() if kind is str or str in typing.get_args(kind)}
    assert texts == set()


def test_each_kind_of_gate_is_decided_from_one_typed_input() -> None:
    """decide, result_only and decide_check take one attrs value, left_out one reason: no mode
    flag, no list of ten parameters."""
    for function, kind in (
        (decision.decide, decision.GateInput),
        (decision.result_only, decision.GateInput),
        (decision.decide_check, decision.CheckInput),
    ):
        (parameter,) = inspect.signature(function).parameters.values()
        assert parameter.annotation in (kind, kind.__name__)
        assert attrs.has(kind)
    assert list(inspect.signature(decision.left_out).parameters) == ["why"]
