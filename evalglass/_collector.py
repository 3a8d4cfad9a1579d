"""Pausing the cyclic garbage collector while large acyclic data is built.

Records, evidence and scorecards are trees of small objects, and so are their renderings: none
refers back to another. Building tens of thousands of them makes the collector rescan everything
alive, over and over, and free nothing; reference counting frees them as before.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside the block; the collector is as it was after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
