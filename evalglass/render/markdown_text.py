"""Untrusted text made inert in Markdown: escaped prose, or an inline code span.

Every string from an eval output or a record passes through one of these on its way into a
pull-request comment or an explain page: whitespace is flattened, and what is left that could act
on a terminal or reorder the text is escaped (safe_text) before Markdown's own escaping.
"""

from __future__ import annotations

import re

from evalglass.render.safe_text import escape

# Characters that would let untrusted text start emphasis, a link, an image or a table cell.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
# A zero-width space inside `://` and `www.` stops GitHub's autolinker without changing the look.
_AUTOLINK = re.compile(r"(:)(//)|(www)(\.)", re.IGNORECASE)


def markdown_escape(text: object) -> str:
    """Untrusted text as inert Markdown: one line, no HTML, no links, no mentions, no table breaks."""
    flat = escape(" ".join(str(text).split()))
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = _MARKDOWN_SPECIAL.sub(r"\\\1", flat)
    flat = _AUTOLINK.sub(lambda m: "\u200b".join(g for g in m.groups() if g), flat)
    # `@name` would notify a GitHub user; the entity renders the same without pinging.
    return flat.replace("@", "&#64;")


def markdown_code(text: object) -> str:
    """Untrusted text as an inline code span: nothing inside renders, links or pings.

    The fence is one backtick longer than any run inside; `|` stays escaped because GitHub
    splits table cells before it parses code spans."""
    flat = escape(" ".join(str(text).split())).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat else ""
    return f"{fence}{pad}{flat}{pad}{fence}"
