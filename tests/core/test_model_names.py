"""Model names: every spelling of one model is that model; different models stay different."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.model_names import grader_key, model_key, same_grader, same_model

# Real base names, and generated ones shaped like them (a family, a version, a variant).
BASES = (
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4o",
    "gpt-4o-mini",
    "gpt-4",
    "o1",
    "o3-mini",
    "claude-3-5-sonnet",
    "claude-3-opus",
    "claude-3-haiku",
    "llama3",
    "llama-3.1-70b-instruct",
    "mistral-large",
    "mistral-small",
    "gemini-1.5-pro",
    "gemini-1.5-flash",
    "qwen2.5-72b-instruct",
    "deepseek-v3",
    "model-x",
    "phi-3",
)
_family = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
_version = st.sampled_from(["", "-4", "-4.1", "2.5", "-3-5", "-1.5", "3"])
_variant = st.sampled_from(["", "-mini", "-turbo", "-pro", "-flash", "-instruct", "-70b", "-o"])
bases = st.sampled_from(BASES) | st.builds(lambda f, v, w: f + v + w, _family, _version, _variant)

PREFIXES = (
    "",
    "openai/",
    "openai:",
    "openai:chat:",
    "azure/openai/",
    "bedrock:",
    "vertex:",
    "openrouter:openai/",
    "ollama:chat:",
    "anthropic.",
    "us.anthropic.",
    "bedrock:us.anthropic.",
    "hf/org/",
    "/",
)
SNAPSHOTS = (
    "",
    "-2025-04-14",
    "-20241022",
    "@2025",
    "@20240620",
    ":latest",
    "-latest",
    "-v1:0",
    "-v2:0",
    ":70b",
    ":8b-instruct-q4_K_M",
    "-0613",
    "-preview",
    "-001",
    "-preview-05-06",
    "/",
    ":",
)
FORMAT_CHARACTERS = (
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u200e",
    "\u202e",
    "\u2066",
)
DASHES = ("\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212", "\ufe63", "\uff0d")
LOOKALIKES = {
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "c": "\u0441",
    "x": "\u0445",
    "y": "\u0443",
    "i": "\u0456",
}
SPACES = ("", " ", "\t", "\u00a0", "\u3000", " \n")


@st.composite
def spellings(draw: st.DrawFn, base: str) -> str:
    """`base` as some tool or person might write it."""
    name = draw(st.sampled_from(PREFIXES)) + base + draw(st.sampled_from(SNAPSHOTS))
    chars = []
    for ch in name:
        kind = draw(st.sampled_from(["same", "same", "upper", "wide", "look", "dash"]))
        if kind == "upper":
            ch = ch.upper()
        elif kind == "wide" and "!" <= ch <= "~":
            ch = chr(ord(ch) - 0x21 + 0xFF01)
        elif kind == "look":
            ch = LOOKALIKES.get(ch, ch)
        elif kind == "dash" and ch == "-":
            ch = draw(st.sampled_from(DASHES))
        chars.append(ch)
        if draw(st.integers(0, 5)) == 0:
            chars.append(draw(st.sampled_from(FORMAT_CHARACTERS)))
    return draw(st.sampled_from(SPACES)) + "".join(chars) + draw(st.sampled_from(SPACES))


@given(st.data())
def test_every_spelling_of_a_model_is_that_model(data: st.DataObject) -> None:
    """Provider prefixes, snapshots and tags, case, width, lookalike letters and dashes,
    invisible characters and spaces: any mix of them names the same model."""
    base = data.draw(bases)
    spelled = data.draw(spellings(base))
    assert same_model(spelled, base), (spelled, model_key(spelled), model_key(base))
    assert same_model(base, spelled)
    assert same_model(spelled, data.draw(spellings(base)))


@given(st.data())
def test_spellings_of_different_models_stay_different(data: st.DataObject) -> None:
    """Two different real models, each spelled any way, are never folded together."""
    a, b = data.draw(st.lists(st.sampled_from(BASES), min_size=2, max_size=2, unique=True))
    assert not same_model(data.draw(spellings(a)), data.draw(spellings(b))), (a, b)


# Against judge openai/gpt-4.1, each of these was once taken for an independent model.
SAME_AS_JUDGE = (
    "openai:gpt-4.1",
    "openai:chat:gpt-4.1",
    "openai/gpt-4.1/",
    "gpt-4.1-2025-04-14",
    "gpt-4.1@2025",
    "gpt-4.1:latest",
    "gpt\u200b-4.1",
    "gpt\u20114.1",
    "\uff47\uff50\uff54\uff0d\uff14\uff0e\uff11",
    "OpenAI/GPT-4.1",
    "azure/gpt-4.1",
    " gpt-4.1 ",
    "g\u0440t-4.1",
)


@pytest.mark.parametrize("name", SAME_AS_JUDGE)
def test_the_reported_spellings_are_the_judge(name: str) -> None:
    """Each spelling from the report is the same model as `openai/gpt-4.1`, both ways."""
    assert same_model(name, "openai/gpt-4.1") and same_model("openai/gpt-4.1", name)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("gpt-4.1", "gpt-4.1-mini"),
        ("gpt-4.1", "gpt-4o"),
        ("gpt-4.1-mini", "gpt-4o"),
        ("gpt-4o", "gpt-4o-mini"),
        ("gpt-4", "gpt-4.1"),
        ("claude-3-5-sonnet", "claude-3-opus"),
        ("claude-3-opus", "claude-3-haiku"),
        ("openai/gpt-4.1", "anthropic/claude-3-5-sonnet"),
        ("acme/model-x", "openai/gpt-4.1"),
        ("llama3", "llama3.1"),
        ("gemini-1.5-pro", "gemini-1.5-flash"),
        ("mistral-large", "mistral-small"),
        ("openai:gpt-4o-2024-08-06", "openai/gpt-4.1"),
        ("anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-opus-20240229"),
    ],
)
def test_different_models_stay_different(a: str, b: str) -> None:
    """A sibling, a smaller size or another family is another model, however spelled."""
    assert not same_model(a, b) and not same_model(b, a)


@pytest.mark.parametrize("blank", ["", "   ", "\u200b", "/", ":", "/:/"])
def test_a_name_that_folds_to_nothing_is_the_same_as_any(blank: str) -> None:
    """A name with nothing left after folding cannot show it is another model."""
    assert same_model(blank, "openai/gpt-4.1") and same_model("acme/x", blank)


@given(st.data())
def test_a_grader_in_any_spelling_is_the_judge(data: st.DataObject) -> None:
    """For matching the recorded judge, spelling and provider route are folded too."""
    base = data.draw(bases)
    prefix = data.draw(st.sampled_from([p for p in PREFIXES if "." not in p]))
    spelled = data.draw(st.sampled_from(SPACES)) + (prefix + base).upper() + "/"
    assert same_grader(spelled, base), (spelled, grader_key(spelled), grader_key(base))


@pytest.mark.parametrize(
    ("grader", "judge"),
    [
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("gpt-4.1", "gpt-4.1-2025-04-14"),
        ("gpt-4.1@2025", "gpt-4.1"),
        ("ollama:llama3:70b", "ollama:llama3:8b"),
        ("gpt-4.1-mini-2025-04-14", "openai:gpt-4.1-mini"),
        ("claude-3-5-sonnet-latest", "claude-3-5-sonnet"),
    ],
)
def test_another_snapshot_or_size_is_another_grader(grader: str, judge: str) -> None:
    """A judge calibrated on one snapshot or size does not vouch for another: not the same
    grader, though the same model for independence."""
    assert not same_grader(grader, judge)
    assert same_model(grader, judge)


def test_a_blank_grader_is_no_judge() -> None:
    """A grader name that folds to nothing matches no judge."""
    assert not same_grader("\u200b", "openai/gpt-4.1") and not same_grader("", "")
