"""Host records: the only source of authority. `load_records` reads a folder into `HostRecords`.

Names load on first use, so importing the record types does not pay for the loader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalglass.records.load import load_records
    from evalglass.records.model import HostRecords

_HOMES = {"HostRecords": "evalglass.records.model", "load_records": "evalglass.records.load"}

__all__ = ["HostRecords", "load_records"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'evalglass.records' has no attribute {name!r}")
