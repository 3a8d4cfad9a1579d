"""Inspect `.eval` logs are read a sample at a time: in little memory, and with the same result,
or the same error, as reading the log whole."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.adapters import inspect_log
from tests.evidence.test_evidence_inspect import ARITH_JSON, load


def as_eval(tmp_path: Path, doc: dict[str, Any], indent: int | None = None, **written: str) -> Path:
    """The JSON log as Inspect would write it into a `.eval` archive; `summaries` or
    `reductions`, if given, are that member's JSON text as already written."""
    path = tmp_path / "log.eval"
    header = {k: v for k, v in doc.items() if k not in ("samples", "reductions")}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps(header))
        for member, key in (("summaries", "samples"), ("reductions", "reductions")):
            if member in written:
                archive.writestr(f"{member}.json", written[member])
            elif key in doc:
                archive.writestr(f"{member}.json", json.dumps(doc[key], indent=indent))
    return path


def outcome(path: Path) -> str:
    """What reading the log gives, the file's own name aside: measurements, or the error."""
    try:
        return repr(inspect_log.read(path, "log")).replace("log.eval", "log")
    except OutputError as error:
        return f"error: {error.message}"


def _clustered(doc: dict[str, Any]) -> None:
    for scorer in doc["eval"]["scorers"]:
        scorer["metrics"] = [
            {"name": "inspect_ai/accuracy"},
            {"name": "inspect_ai/stderr", "options": {"cluster": "category"}},
        ]


def _several_values(doc: dict[str, Any]) -> None:
    for sample in doc["samples"]:
        sample["scores"]["match"]["value"] = {"match": sample["scores"]["match"]["value"]}


def _without_sample_ids(doc: dict[str, Any]) -> None:
    del doc["eval"]["dataset"]["sample_ids"]


def _integer_ids(doc: dict[str, Any]) -> None:
    """Sample ids as Inspect writes a dataset's integer ids: numbers, in every part."""
    number = {sample["id"]: k for k, sample in enumerate(doc["samples"], 1)}
    for sample in doc["samples"]:
        sample["id"] = number[sample["id"]]
    for reduction in doc["reductions"]:
        for reduced in reduction["samples"]:
            reduced["sample_id"] = number[reduced["sample_id"]]
    ids = doc["eval"]["dataset"]["sample_ids"]
    doc["eval"]["dataset"]["sample_ids"] = [number.get(i, i) for i in ids]


EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "as written": lambda doc: None,
    "clustered stderr": _clustered,
    "a scorer with several values": _several_values,
    "no reductions": lambda doc: doc.pop("reductions"),
    "an errored sample": lambda doc: doc["samples"][0].update(error={"message": "boom"}),
    "a score that is no object": lambda doc: doc["samples"][1]["scores"].update(includes="C"),
    "scores that are no object": lambda doc: doc["samples"][4].update(scores=["x"]),
    "a sample without an id": lambda doc: doc["samples"][3].pop("id"),
    "integer sample ids": _integer_ids,
    "metadata that is no object": lambda doc: doc["samples"][0].update(metadata="x"),
    "a sample that is no object": lambda doc: doc["samples"].__setitem__(2, 5),
    "a sample that is no object, no sample ids": lambda doc: (
        _without_sample_ids(doc),
        doc["samples"].__setitem__(2, 5),
    ),
    "summaries that are no list": lambda doc: doc.update(samples={"x": 1}),
    "a reduction's samples that are no list": lambda doc: doc["reductions"][1].update(
        samples={"a": 1}
    ),
    "a reduced sample that is no object": lambda doc: doc["reductions"][0]["samples"].__setitem__(
        0, 7
    ),
    "a reduction nothing reads that is no object": lambda doc: doc["reductions"].append(3),
}


@pytest.mark.parametrize("indent", [None, 1])
@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_an_eval_log_reads_as_its_json_twin(tmp_path: Path, edit: str, indent: int | None) -> None:
    """Read a sample at a time from the archive, a log gives what the same log as one JSON
    document gives: the same measurements, or the same error, however its parts are shaped."""
    doc = copy.deepcopy(load(ARITH_JSON))
    EDITS[edit](doc)
    json_log = tmp_path / "log.json"
    json_log.write_text(json.dumps(doc))
    # The one message that names the part: the JSON log's "samples" is the archive's member.
    expected = outcome(json_log).replace("error: samples:", "error: summaries.json:")
    assert outcome(as_eval(tmp_path, doc, indent)) == expected


def test_a_json_log_read_whole_names_the_sample_it_cannot_read(tmp_path: Path) -> None:
    """A JSON log read whole (it opens with a byte-order mark) names a bad sample by its place
    in the list, as the log read a sample at a time does."""
    doc = copy.deepcopy(load(ARITH_JSON))
    doc["samples"][2] = 5
    streamed, whole = tmp_path / "streamed" / "log.json", tmp_path / "whole" / "log.json"
    for path, head in ((streamed, b""), (whole, "\ufeff".encode())):
        path.parent.mkdir()
        path.write_bytes(head + json.dumps(doc).encode())
    assert (
        outcome(whole)
        == outcome(streamed)
        == ("error: samples: sample 3: expected an object, got a number")
    )


# Reads the log named by argv[1]; prints the sample counts and how far the process's peak resident
# memory (the kernel's VmHWM) grew during the read, in bytes. A process's own ru_maxrss would not
# do: it keeps the peak of the pytest process it was forked from. Where there is no /proc,
# tracemalloc counts Python's allocations instead.
_PEAK_GROWTH = """
import json, sys, tracemalloc
from pathlib import Path
from evalglass.evidence.adapters import inspect_log
status = Path("/proc/self/status")
def peak():
    if not status.exists():
        return tracemalloc.get_traced_memory()[1]
    line = next(l for l in status.read_text().splitlines() if l.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024
if not status.exists():
    tracemalloc.start()
before = peak()
measurements = inspect_log.read(sys.argv[1], "large.eval")
print(json.dumps([sorted({len(m.samples or ()) for m in measurements}), peak() - before]))
"""


def test_a_large_log_is_read_in_a_fraction_of_its_size(tmp_path: Path) -> None:
    """5,000 samples, 4 scorers: reading never holds the summaries or reductions whole."""
    doc = load(ARITH_JSON)
    # Each of the log's samples written once, its id left to fill: json.dumps of 5,000 copies,
    # byte for byte, for a fraction of the time.
    unnamed = [json.dumps(dict(sample, id="\0")) for sample in doc["samples"]]
    summaries = (
        "["
        + ", ".join(
            unnamed[i % len(unnamed)].replace('"\\u0000"', json.dumps(f"s{i}")) for i in range(5000)
        )
        + "]"
    )
    reductions = [dict(r, samples=[]) for r in doc["reductions"]]
    for i in range(5000):
        for reduction, source in zip(reductions, doc["reductions"], strict=True):
            reduction["samples"].append(dict(source["samples"][i % 20], sample_id=f"s{i}"))
    doc = {**doc, "reductions": reductions}
    doc["eval"]["dataset"] = {**doc["eval"]["dataset"], "samples": 5000, "sample_ids": None}
    path = as_eval(tmp_path, doc, summaries=summaries)
    with zipfile.ZipFile(path) as archive:
        written = sum(archive.getinfo(n).file_size for n in ("summaries.json", "reductions.json"))
    # Measured in a process of its own, by the kernel: everything the read holds counts (zlib's
    # buffers too), and tracing every allocation would cost more than the read itself.
    measured = subprocess.run(
        [sys.executable, "-c", _PEAK_GROWTH, str(path)],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    samples, peak = json.loads(measured.stdout)
    assert samples == [5000]
    assert peak < written / 2
