"""evalglass: which eval results may fail a build — value, validity and authority, kept apart."""

from evalglass._version import __version__

__all__ = ["__version__"]
