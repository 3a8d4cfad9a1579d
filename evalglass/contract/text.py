"""The scorecard JSON as text, both ways: written in the documented key order, and read with
one-line errors naming the file and the first field that is wrong, within the input caps."""

from __future__ import annotations

import json
import os
from typing import Any, Final, TypeVar

import cattrs
import orjson

from evalglass import _inputs
from evalglass.contract.converter import CONVERTER
from evalglass.contract.scorecard import Scorecard
from evalglass.contract.vocabulary import SCHEMA_VERSION
from evalglass.errors import ContractError

T = TypeVar("T")


def dumps(scorecard: Scorecard) -> str:
    """The scorecard as indented JSON text, keys in the documented order, ending in a newline."""
    doc = CONVERTER.unstructure(scorecard)
    try:
        # The standard library indents in pure Python, several times slower on a big scorecard.
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        # Only an integer beyond 64 bits or a lone surrogate gets here. Same document; json
        # spells a few small numbers differently (1e-05 where orjson writes 0.00001), which no
        # parser sees.
        text = json_text(doc, allow_nan=False)
    return text + "\n"


def json_text(doc: object, allow_nan: bool = True) -> str:
    """`doc` as indented JSON text that is always valid UTF-8: non-ASCII text as it is, unless the
    document holds a lone surrogate (a "\\ud800" escape in an eval output, a file name that was
    not UTF-8), which only an ASCII escape can carry."""
    text = json.dumps(doc, indent=2, allow_nan=allow_nan, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(doc, indent=2, allow_nan=allow_nan, ensure_ascii=True)
    return text


def loads(text: str | bytes, where: str) -> Scorecard:
    """Read a scorecard JSON; ContractError names `where` and the first field that is wrong."""
    try:
        _inputs.check_json_values(text)
        _check_samples(text)
        doc = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ContractError(where, f"not valid JSON: {exc}") from None
    except _inputs.TooLarge as exc:
        raise ContractError(where, str(exc)) from None
    if not isinstance(doc, dict) or "metrics" not in doc:
        raise ContractError(where, "is not an evalglass scorecard JSON (no 'metrics')")
    version = doc.get("schema_version")
    if version != SCHEMA_VERSION:
        shown = json.dumps(version)[:40]
        raise ContractError(
            where, f"schema_version {shown}: this evalglass reads schema_version {SCHEMA_VERSION}"
        )
    return _structure(doc, Scorecard, where)


# What one kept sample of a scorecard JSON takes while it is read: its text, the parsed object
# and its Sample, measured at once (a 94 MB card of 990,000 samples peaked at 609 MB).
SAMPLE_COST: Final = 560


def _check_samples(text: bytes | str) -> None:
    """Refuse a scorecard whose kept samples would take more than the sample memory cap, before
    it is parsed. Every sample has an `epoch` key, so counting the key bounds the samples
    (an id that spells it only makes the count stricter)."""
    marks = text.count(b'"epoch"') if isinstance(text, bytes) else text.count('"epoch"')
    _inputs.CARD_SAMPLE_MEMORY.check(marks * SAMPLE_COST)


def _structure(doc: object, cls: type[T], where: str) -> T:
    try:
        return CONVERTER.structure(doc, cls)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise ContractError(where, _first_problem(exc)) from None


def _first_problem(exc: BaseException) -> str:
    """cattrs's nested errors as one line: `metrics[3].level: what is wrong with it`."""
    if isinstance(exc, cattrs.BaseValidationError):
        messages = cattrs.transform_error(exc, format_exception=_describe)
    else:
        messages = [str(exc)]
    first = " ".join((messages[0] if messages else str(exc)).split())
    problem, at, path = first.rpartition(" @ $")
    if at:
        first = f"{path.removeprefix('.') or 'the document'}: {problem}"
    return first[:300]


def _describe(exc: BaseException, kind: Any) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, ValueError | TypeError) and str(exc):
        return str(exc)
    return cattrs.v.format_exception(exc, kind)


def load_scorecard(path: str | os.PathLike[str]) -> Scorecard:
    """Read the scorecard JSON at `path` (a file `evalglass score --format json` wrote).

    Raises ContractError (an EvalglassError) naming the file and the first field that is wrong."""
    where = os.fspath(path)
    try:
        data = _inputs.read_regular(where)
    except OSError as exc:
        raise ContractError(where, f"cannot be read: {exc.strerror or exc}") from None
    except _inputs.TooLarge as exc:
        raise ContractError(where, str(exc)) from None
    return loads(data, where)
