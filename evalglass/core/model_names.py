"""Whether two model names name the same model, however tools and people spell them.

Two comparisons, each erring the safe way for its use. `same_model` (is a judge or grader the
model under evaluation?) errs toward "same": a false "same" only blocks, a false "different"
grants. `same_grader` (is this grader the judge the records name?) is the stricter of the two,
since there a false "same" would grant. Pure: no table of known models, no I/O.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Dashes and hyphens that look like '-' (NFKC already folds the fullwidth and small forms).
_DASHES = dict.fromkeys(
    map(
        ord,
        "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u02d7\u207b\u208b\u2e3a\u2e3b"
        "\ufe58\ufe63\uff0d\u30fc\u2796",
    ),
    "-",
)
# Cyrillic and Greek letters drawn like Latin ones, after casefolding.
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁӏɡʏνοαιкмтвнκτρχυεьԛԝ",
    "aeopcyxijsdlgyvoaikmtbhktpxuebqw",
)
# Categories with nothing to see: format characters (zero-width space and joiners, soft
# hyphen...), controls, combining marks once decomposed, separators, unassigned code points.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zs", "Zl", "Zp"})
# A ':' segment that tags a variant of the model named before it: `latest`, a size or a date.
_TAG = re.compile(r"(latest|stable|default|\d.*)?")
# Bedrock's version suffix, `-v2:0`, before ':' is read as a separator.
_BEDROCK = re.compile(r"-v\d+:\d+$")
# Region and vendor prefixes (`us.anthropic.claude-...`): words of letters ending in '.'.
_VENDOR = re.compile(r"^(?:[a-z]+\.)+(?=[a-z])")
# Snapshot suffixes: a date, a build number, a preview or alias tag.
_SNAPSHOT = re.compile(
    r"[-_](?:latest|preview|exp|experimental|\d{4}-?\d{2}-?\d{2}|\d{2,4}-\d{2}|\d{3,})$"
)


def same_model(a: str, b: str) -> bool:
    """Same model, for independence: equal after folding every spelling of one model together
    (case, lookalikes, invisible characters, provider prefixes, snapshots and tags). A name that
    folds to nothing is the same as anything: it cannot show it is another model."""
    x, y = model_key(a), model_key(b)
    return not x or not y or x == y


def same_grader(a: str, b: str) -> bool:
    """Same grader, for matching the judge the records name: equal after folding spelling and
    provider route only, so a different snapshot, size or tag is a different grader."""
    x, y = grader_key(a), grader_key(b)
    return bool(x) and x == y


@functools.lru_cache(maxsize=4096)
def model_key(name: str) -> str:
    """The base model a name spells: `azure/openai/GPT‑4.1-2025-04-14` -> `gpt-4.1`."""
    text = _BEDROCK.sub("", _path_tail(_characters(name)))
    parts = text.split(":")
    while len(parts) > 1 and _TAG.fullmatch(parts[-1]):
        parts.pop()
    model = parts[-1] or parts[0]
    before, _, after = model.partition("@")
    model = _VENDOR.sub("", before or after)
    while True:
        shorter = _SNAPSHOT.sub("", model)
        if shorter == model or not shorter:
            return model
        model = shorter


@functools.lru_cache(maxsize=4096)
def grader_key(name: str) -> str:
    """A name with its spelling and provider route folded, its version kept:
    `openai:chat:gpt-4.1-mini` -> `gpt-4.1-mini`, `ollama:llama3:70b` -> `llama3:70b`."""
    parts = _path_tail(_characters(name)).split(":")
    last = len(parts) - 1
    while last > 0 and _TAG.fullmatch(parts[last]):
        last -= 1
    return _VENDOR.sub("", ":".join(parts[last:]))


def _characters(name: str) -> str:
    """Case, width, lookalike letters and dashes folded; invisible characters dropped."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _INVISIBLE)
    text = unicodedata.normalize("NFKC", text.casefold()).translate(_DASHES)
    return text.translate(_LOOKALIKES)


def _path_tail(text: str) -> str:
    """The last segment of a provider path (`azure/openai/gpt-4.1` -> `gpt-4.1`)."""
    segments = [s for s in text.split("/") if s]
    return segments[-1].strip(":") if segments else ""
