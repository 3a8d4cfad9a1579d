"""What the action's scripts say to the GitHub Actions runner: inputs read from the environment,
step outputs, workflow commands. Standard library only, and it never imports evalglass: the
install step runs before evalglass exists."""

from __future__ import annotations

import os
import secrets

USAGE_EXIT = 2  # an input the action cannot understand, as for a bad evalglass command line


class InputError(Exception):
    """An action input that cannot be read: the step stops before any work, exit 2."""


def env(name: str) -> str:
    """A variable the step's `env:` sets from an input, or the runner sets; absent reads as ''."""
    return os.environ.get(name, "")


def flag(name: str) -> bool:
    """A true/false input. Anything else stops the step: a typo must not silently disable a gate."""
    value = env(name).strip().lower()
    if value in ("true", "false"):
        return value == "true"
    raise InputError(f"{name}: expected true or false, got {env(name)!r}")


def escape_data(text: object) -> str:
    """A command's message, escaped as the runner unescapes it (`%` first)."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: object) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, title: str = "evalglass") -> None:
    """An annotation (error, warning, notice): one line on stdout, however hostile the text."""
    print(f"::{level} title={escape_property(title)}::{escape_data(message)}", flush=True)


def set_output(name: str, value: str) -> None:
    """A step output, in the multi-line form so that no value can end it early or add another."""
    path = env("GITHUB_OUTPUT")
    if not path:
        print(f"{name}={value}", flush=True)  # run by hand: show what would be set
        return
    delimiter = f"EVALGLASS_{secrets.token_hex(16)}"
    with open(path, "a", encoding="utf-8") as stream:
        stream.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def append_summary(markdown: str) -> None:
    """Add to the job summary, which every step of the job appends to: never replaced."""
    path = env("GITHUB_STEP_SUMMARY")
    if path and markdown:
        with open(path, "a", encoding="utf-8") as stream:
            stream.write(markdown if markdown.endswith("\n") else markdown + "\n")


def stop_on_bad_input(error: InputError) -> int:
    """A step that cannot go on without the input: the error, and exit 2."""
    command("error", str(error))
    return USAGE_EXIT
