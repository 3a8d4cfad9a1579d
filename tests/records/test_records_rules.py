"""The rules between fields of one record, for the kinds that have them: each table in full, against
a reference written from docs/host-records.md, and the exact message for each broken rule."""

from __future__ import annotations

import itertools
import re

import pytest

from evalglass.errors import RecordError
from evalglass.records.load import records_from_text
from evalglass.records.model import CheckKind, CheckRecord, JudgeStatistic, SuccessPolicy


def loads(kind: str, text: str) -> bool:
    try:
        records_from_text(kind, text, f"{kind}.yaml")
    except RecordError:
        return False
    return True


def error(kind: str, text: str) -> str:
    with pytest.raises(RecordError) as info:
        records_from_text(kind, text, f"{kind}.yaml")
    return str(info.value)


# --- thresholds: approved_for and expires_on ------------------------------------------------

DATES = {"before": "2026-10-31", "same": "2026-11-01", "after": "2027-05-01"}


@pytest.mark.parametrize(
    ("approval", "approved_on", "expires", "approved_for"),
    list(itertools.product(("proposed", "approved"), (True, False), (None, *DATES), (False, True))),
)
def test_expiry_and_approved_for_on_every_kind_of_threshold(
    approval: str, approved_on: bool, expires: str | None, approved_for: bool
) -> None:
    """An approved threshold needs approved_on and approved_for; expires_on before approved_on
    is refused; same day or later, or either absent, loads; approved_for is allowed on a
    proposed threshold too (it says what is being proposed for)."""
    text = f"thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: {approval}\n"
    text += "    approved_by: '@alice'\n"
    text += "    approved_on: 2026-11-01\n" if approved_on else ""
    text += f"    expires_on: {DATES[expires]}\n" if expires else ""
    text += "    approved_for:\n      dataset_version: '2026-10'\n" if approved_for else ""
    needs_date = approval == "approved" and not approved_on
    needs_binding = approval == "approved" and not approved_for
    expires_early = approved_on and expires == "before"
    assert loads("thresholds", text) is not (needs_date or needs_binding or expires_early)
    if needs_binding and not needs_date:
        assert error("thresholds", text) == (
            "thresholds.yaml:2: threshold 'qa/x' is approved but is missing required field "
            "'approved_for': add approved_for: with, on indented lines below it, the "
            "dataset_version and the fingerprint approved, those the dataset record has (and the "
            "judge_model, when the metric names a judge)"
        )
    if expires_early and not (needs_date or needs_binding):
        assert error("thresholds", text) == (
            "thresholds.yaml:2: threshold 'qa/x' has expires_on 2026-10-31 before approved_on "
            "2026-11-01: an approval cannot expire before it is given"
        )


def test_approved_for_takes_a_version_or_a_fingerprint_and_optionally_a_judge() -> None:
    """approved_for names the data it saw by dataset_version, fingerprint or both (data pinned
    by fingerprint alone has no version to name); judge_model alone names no data."""
    head = "thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: proposed\n"
    for fields in itertools.product(
        (None, "dataset_version: v1"),
        (None, "fingerprint: sha:1"),
        (None, "judge_model: openai/gpt-4.1"),
    ):
        given = [f for f in fields if f]
        if not given:
            continue
        text = head + "    approved_for:\n" + "".join(f"      {f}\n" for f in given)
        assert loads("thresholds", text) is (fields[0] is not None or fields[1] is not None), text
    assert error("thresholds", head + "    approved_for:\n      judge_model: m\n") == (
        "thresholds.yaml:6: approved_for of threshold 'qa/x' names no data: give "
        "dataset_version, fingerprint or both"
    )
    assert error("thresholds", head + "    expires_on: 2027-02-30\n") == (
        "thresholds.yaml:6: expires_on: '2027-02-30' is not a date (write YYYY-MM-DD)"
    )


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            "      dataset_version: v1\n      judge: openai/gpt-4.1\n",
            (
                "thresholds.yaml:8: unknown field 'judge' in approved_for of threshold 'qa/x' (did you "
                "mean 'judge_model'?); allowed fields: dataset_version, fingerprint, judge_model"
            ),
        ),
        (
            "      dataset_version: v1\n      expires_on: 2027-01-01\n",
            (
                "thresholds.yaml:8: unknown field 'expires_on' in approved_for of threshold 'qa/x'; "
                "allowed fields: dataset_version, fingerprint, judge_model"
            ),
        ),
        (
            "      dataset_version: ''\n",
            (
                "thresholds.yaml:7: approved_for.dataset_version: must not be empty (leave the field out "
                "instead)"
            ),
        ),
        (
            "      dataset_version: v1\n      fingerprint: <the fingerprint>\n",
            (
                "thresholds.yaml:8: approved_for.fingerprint: <the fingerprint> is a placeholder: "
                "write the value in its place"
            ),
        ),
    ],
)
def test_approved_for_refuses_what_it_does_not_know(lines: str, message: str) -> None:
    """Under approved_for, an unknown key, an empty value or a placeholder is refused at its
    line, naming the threshold or the sub-field."""
    head = "thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: proposed\n"
    assert error("thresholds", head + "    approved_for:\n" + lines) == message


@pytest.mark.parametrize("field", ["approved_on", "expires_on"])
@pytest.mark.parametrize(
    "text", ["2026-13-01", "2026-11-1", "November 1", "2026/11/01", "''", "20261101"]
)
def test_a_date_that_is_not_a_date_is_refused(field: str, text: str) -> None:
    """approved_on and expires_on must be real dates written YYYY-MM-DD, each refused at its
    line otherwise."""
    head = (
        "thresholds:\n  qa/x:\n    op: '>='\n    value: 0.8\n    approval: approved\n"
        "    approved_by: '@alice'\n    approved_for:\n      dataset_version: v1\n"
    )
    other = "expires_on: 2027-01-01" if field == "approved_on" else "approved_on: 2026-11-01"
    message = error("thresholds", head + f"    {other}\n    {field}: {text}\n")
    shown = text.strip("'")
    assert message == (
        f"thresholds.yaml:10: {field}: '{shown}' is not a date (write YYYY-MM-DD)"
        if shown
        else f"thresholds.yaml:10: {field}: '' is not a date (write YYYY-MM-DD)"
    )


# --- judges: min_agreement needs evidence ---------------------------------------------------

JUDGE = "judges:\n  g:\n    model: openai/gpt-4.1\n    calibration: calibrated\n"


@pytest.mark.parametrize(
    ("evidence", "statistic", "bound"),
    list(
        itertools.product(
            (False, True),
            [None, *(s.value for s in JudgeStatistic)],
            ("-1", "0.6", "1", "-1.01", "1.01"),
        )
    ),
)
def test_min_agreement_needs_evidence_and_a_bound_in_range(
    evidence: bool, statistic: str | None, bound: str
) -> None:
    """Every statistic loads with a bound in [-1, 1] when evidence is named; never without it."""
    text = JUDGE + ("    evidence: calibration/g.json\n" if evidence else "")
    if statistic:
        text += f"    min_agreement:\n      statistic: {statistic}\n      lower_bound: {bound}\n"
    in_range = -1 <= float(bound) <= 1
    assert loads("judges", text) is (statistic is None or (evidence and in_range))
    if statistic and not evidence and in_range:
        assert error("judges", text) == (
            "judges.yaml:2: judge 'g' has min_agreement but is missing required field 'evidence'"
        )


def test_min_agreement_names_only_statistics_calibrate_writes_for_the_judge() -> None:
    """Each statistic a min_agreement may name is one `evalglass calibrate` reports for a judge
    (not the humans' own ceiling), so a bar can always be looked up in the evidence file."""
    from evalglass.tools.calibration.names import JUDGE_STATISTICS

    written = {s.value for scale in JUDGE_STATISTICS.values() for s in scale}
    assert {s.value for s in JudgeStatistic} == written


# --- checks ---------------------------------------------------------------------------------

KINDS_OF_CHECK = ("run", "shell", "file_exists", "regex")
VALUES = {
    "run": "python -m pytest -q", "shell": "'make docs && test -s site/index.html'",
    "file_exists": "docs/model_card.md", "regex": "'qa-gold (v|version )2026-10'",
    "timeout": "600", "cwd": ".", "expect_exit": "0", "cache": "no", "non_empty": "yes",
    "in_file": "docs/model_card.md", "tier": "fast",
}  # fmt: skip
OPTIONS = ("timeout", "cwd", "expect_exit", "cache", "non_empty", "in_file", "tier")


def check_is_valid(fields: set[str]) -> bool:
    """docs/host-records.md, checks.yaml, restated: exactly one of run, shell, file_exists,
    regex; timeout required for run and shell; timeout, cwd, expect_exit and cache only for them;
    non_empty only for file_exists; in_file required for regex, and only for it."""
    kinds = [k for k in KINDS_OF_CHECK if k in fields]
    if len(kinds) != 1:
        return False
    process = kinds[0] in ("run", "shell")
    if process != ("timeout" in fields):
        return False
    if not process and fields & {"cwd", "expect_exit", "cache"}:
        return False
    if "non_empty" in fields and kinds[0] != "file_exists":
        return False
    return ("in_file" in fields) == (kinds[0] == "regex")


def _combinations() -> list[tuple[str, ...]]:
    every = (*KINDS_OF_CHECK, *OPTIONS)
    return [
        tuple(name for name, given in zip(every, mask, strict=True) if given)
        for mask in itertools.product((False, True), repeat=len(every))
    ]


def test_every_combination_of_check_fields_loads_iff_the_rules_allow() -> None:
    """All 2^11 sets of check fields: each loads exactly when the documented rules allow it."""
    combinations = _combinations()
    assert len(combinations) == 2048
    valid = 0
    for fields in combinations:
        text = "checks:\n  c:\n" + "".join(f"    {name}: {VALUES[name]}\n" for name in fields)
        expected = check_is_valid(set(fields))
        assert loads("checks", text) is expected, fields
        valid += expected
    # run, shell: cwd, expect_exit, cache, tier each optional; file_exists: non_empty, tier; regex: tier
    assert valid == 16 + 16 + 4 + 2


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"tier": "fast"},
         "check 'c' needs one of run, shell, file_exists, regex to say what it checks"),
        ({"run": "x", "shell": "y", "timeout": "1"},
         "check 'c' gives both run and shell: give exactly one of run, shell, file_exists, regex"),
        ({"run": "x"}, "check 'c' runs a command but is missing required field 'timeout'"),
        ({"shell": "x"}, "check 'c' runs a shell command but is missing required field 'timeout'"),
        ({"regex": "x"}, "check 'c' has a regex but is missing required field 'in_file'"),
        ({"file_exists": "f", "timeout": "5"},
         "check 'c' gives timeout, which only a run or shell check takes"),
        ({"regex": "x", "in_file": "f", "cache": "no"},
         ("check 'c' gives cache, which only a run or shell check (file checks are never cached) "
         "takes")),
        ({"run": "x", "timeout": "1", "non_empty": "yes"},
         "check 'c' gives non_empty, which only a file_exists check takes"),
        ({"file_exists": "f", "in_file": "g"},
         "check 'c' gives in_file, which only a regex check takes"),
    ],
)  # fmt: skip
def test_each_broken_check_rule_says_which_at_the_checks_line(
    fields: dict[str, str], expected: str
) -> None:
    """A check that breaks a rule is refused at its name's line, saying which rule."""
    text = "checks:\n  c:\n" + "".join(f"    {k}: {v}\n" for k, v in fields.items())
    assert error("checks", text) == "checks.yaml:2: " + expected


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("timeout: 0", "4: timeout: '0' must be at least 1"),
        ("timeout: 1.5", "4: timeout: '1.5' is not an integer"),
        ("expect_exit: -1", "4: expect_exit: '-1' must be at least 0"),
        ("tier: quick", "4: tier: 'quick' is not one of fast, full"),
        ("cache: sometimes", "4: cache: 'sometimes' is not a boolean (write yes or no)"),
        (
            "retries: 2",
            (
                "4: unknown field 'retries' in check 'c'; allowed fields: run, shell, file_exists, regex, "
                "in_file, non_empty, timeout, cwd, expect_exit, tier, cache"
            ),
        ),
    ],
)
def test_check_field_values_are_checked(field: str, expected: str) -> None:
    """Out-of-range numbers, unknown tiers and unknown keys name the field and its line."""
    text = f"checks:\n  c:\n    run: x\n    {field}\n" + (
        "" if "timeout" in field else "    timeout: 5\n"
    )
    assert error("checks", text) == "checks.yaml:" + expected


def test_a_bad_pattern_is_refused_at_load_naming_the_check() -> None:
    """A regex that does not compile is an error on its line that names the check."""
    text = "checks:\n  card-names-dataset:\n    in_file: docs/card.md\n    regex: 'qa-gold (v'\n"
    assert error("checks", text) == (
        "checks.yaml:4: check 'card-names-dataset': regex: 'qa-gold (v' is not a valid regular "
        "expression (missing ), unterminated subpattern at position 8)"
    )


def test_a_pattern_python_warns_of_is_judged_by_whether_it_compiles() -> None:
    """'[[' (a possible nested set, which Python warns of) is refused for not compiling, in one
    line; the warning itself never reaches the user as an error."""
    text = "checks:\n  c:\n    in_file: f\n    regex: '[['\n"
    assert error("checks", text).startswith(
        "checks.yaml:4: check 'c': regex: '[[' is not a valid regular expression (unterminated"
    )


@pytest.mark.parametrize(
    "name", ["unit-tests", "build.docs", "model_card", "A1", "-", "x" * 80, "unit tests", "a/b",
             "é", "x:y", "a@b", "a\tb", "'quoted-ok'"],
)  # fmt: skip
def test_check_names_become_metric_ids_so_only_plain_characters(name: str) -> None:
    """A check name matches [A-Za-z0-9_.-]+ (it becomes check/NAME); others are refused."""
    written = name if name.startswith("'") else f'"{name}"'
    text = f"checks:\n  {written}:\n    file_exists: f\n"
    plain = name.strip("'")
    ok = re.fullmatch(r"[A-Za-z0-9_.-]+", plain) is not None
    assert loads("checks", text) is ok
    if not ok and name == "unit tests":
        assert error("checks", text) == (
            "checks.yaml:2: check name 'unit tests' may hold only letters, digits, '_', '.' and "
            "'-' (it becomes the metric id 'check/unit tests')"
        )


@pytest.mark.parametrize("kind", list(CheckKind))
def test_a_check_says_what_it_does(kind: CheckKind) -> None:
    """CheckRecord.kind names the one of run/shell/file_exists/regex given; target is its text."""
    check = CheckRecord(**{kind.value: "x"})  # type: ignore[arg-type]
    assert (check.kind, check.target) == (kind, "x")


# --- success.yaml -----------------------------------------------------------------------------

MODES = (None, "all", "percentage", "most")
RATES = (None, "0", "0.5", "1", "1.5", "-0.1")
MUST = (None, ("qa/x",), ("qa/x", "check/t"), ("qa/x", "qa/x"))
GATES = (None, "0", "2", "-1")
ATTEMPTS = (None, "1", "3", "0", "-2", "1.5", "two")


def success_is_valid(
    mode: str | None,
    rate: str | None,
    must: tuple[str, ...] | None,
    gates: str | None,
    attempts: str | None = None,
) -> bool:
    """docs/host-records.md, success.yaml, restated: mode all (default) or percentage;
    min_pass_rate in (0, 1], given iff mode is percentage; must_pass ids without repeats;
    min_gates an integer >= 0; max_attempts an integer >= 1."""
    if attempts is not None and not (attempts.lstrip("-").isdigit() and int(attempts) >= 1):
        return False
    if mode not in (None, "all", "percentage"):
        return False
    if (rate is not None) != (mode == "percentage"):
        return False
    if rate is not None and not 0 < float(rate) <= 1:
        return False
    if must is not None and len(set(must)) != len(must):
        return False
    return gates is None or int(gates) >= 0


@pytest.mark.parametrize(("mode", "rate"), list(itertools.product(MODES, RATES)))
def test_every_success_policy_loads_iff_the_rules_allow(mode: str | None, rate: str | None) -> None:
    """Each mode x rate, with every must_pass, min_gates and max_attempts: loads exactly when the
    docs say; max_attempts left out is 2, one retry."""
    for must, gates, attempts in itertools.product(MUST, GATES, ATTEMPTS):
        text = "success:\n"
        text += f"  mode: {mode}\n" if mode else ""
        text += f"  min_pass_rate: {rate}\n" if rate else ""
        text += "  must_pass:\n" + "".join(f"    - {m}\n" for m in must) if must else ""
        text += f"  min_gates: {gates}\n" if gates else ""
        text += f"  max_attempts: {attempts}\n" if attempts else ""
        expected = success_is_valid(mode, rate, must, gates, attempts)
        assert loads("success", text) is expected, text
        if expected:
            (policy,) = records_from_text("success", text).values()
            assert isinstance(policy, SuccessPolicy)
            assert policy.must_pass == (must or ())
            assert policy.min_pass_rate == (None if rate is None else float(rate))
            assert policy.max_attempts == (2 if attempts is None else int(attempts))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("success:\n  mode: percentage\n",
         ("1: the success policy is in percentage mode but is missing required field "
         "'min_pass_rate'")),
        ("success:\n  min_pass_rate: 0.9\n",
         "1: the success policy gives min_pass_rate, which only mode: percentage takes"),
        ("success:\n  mode: percentage\n  min_pass_rate: 0\n",
         "3: min_pass_rate: '0' must be above 0"),
        ("success:\n  mode: percentage\n  min_pass_rate: 1.01\n",
         "3: min_pass_rate: '1.01' must be at most 1"),
        ("success:\n  min_gates: -1\n", "2: min_gates: '-1' must be at least 0"),
        ("success:\n  max_attempts: 0\n", "2: max_attempts: '0' must be at least 1"),
    ],
)  # fmt: skip
def test_each_broken_success_rule_names_its_line(text: str, expected: str) -> None:
    """The policy's rules are refused at the policy's line, its fields' ranges at their own."""
    assert error("success", text) == "success.yaml:" + expected


# --- metrics: a check's metric gives status only; every other metric names its dataset -------

METRIC_FIELDS = {
    "dataset": "d",
    "judge": "g",
    "requires_baseline": "yes",
    "min_samples": "5",
    "decision": "point",
    "max_missing_fraction": "0.1",
    "interval_level": "0.9",
}


@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("extra", [None, *METRIC_FIELDS])
def test_a_check_metric_takes_status_alone_and_others_need_a_dataset(
    check: bool, extra: str | None
) -> None:
    """`check/NAME` loads with status and nothing else; any other metric loads iff it names its
    dataset, whatever else it gives."""
    metric_id = "check/unit-tests" if check else "qa/exact_match"
    fields = "    status: gating\n" + (f"    {extra}: {METRIC_FIELDS[extra]}\n" if extra else "")
    text = f"metrics:\n  {metric_id}:\n{fields}"
    assert loads("metrics", text) is ((extra is None) if check else (extra == "dataset"))


def test_each_broken_metric_rule_names_the_record_and_its_line() -> None:
    """The messages: a check's metric giving a dataset; another metric without one."""
    assert error(
        "metrics",
        "metrics:\n  x:\n    status: gating\n    dataset: d\n  check/t:\n"
        "    status: gating\n    dataset: d\n",
    ) == (
        "metrics.yaml:5: metric 'check/t' gives dataset, which a check's metric does not take "
        "(its definition in checks.yaml is its bar: give status only)"
    )
    assert error("metrics", "metrics:\n  qa/x:\n    status: gating\n") == (
        "metrics.yaml:2: metric 'qa/x' is missing required field 'dataset'"
    )
