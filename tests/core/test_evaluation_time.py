"""The evaluation time: `--as-of` and the clock become one aware UTC instant to the second."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.evaluation_time import evaluation_time, parse_as_of
from evalglass.shell import api

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE, RECORDS = ROOT / "examples" / "run.json", ROOT / "host_records"
ZONES = st.sampled_from(
    [dt.UTC, dt.timezone(dt.timedelta(hours=5, minutes=30)), dt.timezone(dt.timedelta(hours=-8))]
)


@given(
    st.datetimes(
        min_value=dt.datetime(2, 1, 1),
        max_value=dt.datetime(9998, 1, 1),
        timezones=st.none() | ZONES,
    )
)
def test_any_time_becomes_the_same_instant_in_utc_to_the_second(moment: dt.datetime) -> None:
    """Aware times keep their instant, naive ones are read as UTC; microseconds are dropped."""
    when = evaluation_time(moment)
    assert when.tzinfo is dt.UTC and when.microsecond == 0
    aware = moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
    assert dt.timedelta(0) <= aware - when < dt.timedelta(seconds=1)
    assert evaluation_time(when) == when


@given(st.dates())
def test_a_date_is_its_midnight_utc(day: dt.date) -> None:
    """`--as-of 2026-11-30` evaluates at 2026-11-30T00:00:00Z, so its date is the date given."""
    when = evaluation_time(day)
    assert when == dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
    assert when.date() == day


@given(
    st.datetimes(
        min_value=dt.datetime(2, 1, 1),
        max_value=dt.datetime(9998, 1, 1),
        timezones=st.none() | ZONES,
    )
    | st.dates()
)
def test_the_evaluation_date_is_the_utc_date_of_the_evaluation_time(as_of: dt.date) -> None:
    """Approvals are dated by one date: the UTC date of `evaluated_at`, wherever the time was
    given (a date given is that date)."""
    day = evaluation_time(as_of).date()
    if isinstance(as_of, dt.datetime):
        aware = as_of if as_of.tzinfo else as_of.replace(tzinfo=dt.UTC)
        assert day == aware.astimezone(dt.UTC).date()
    else:
        assert day == as_of


ACCEPTED = {
    "2026-11-30": dt.date(2026, 11, 30),
    "2026-11-30T12:00": dt.datetime(2026, 11, 30, 12),
    "2026-11-30T12:00:05Z": dt.datetime(2026, 11, 30, 12, 0, 5, tzinfo=dt.UTC),
    "2026-11-30 12:00:05+02:00": dt.datetime(
        2026, 11, 30, 12, 0, 5, tzinfo=dt.timezone(dt.timedelta(hours=2))
    ),
}
REFUSED = [
    "",
    "yesterday",
    "20261130",
    "2026-W48-1",
    "2026-11-30T12",
    "30/11/2026",
    "2026-13-01",
    "2026-02-30",
    "2026-11-30T25:00Z",
    " 2026-11-30",
]


@pytest.mark.parametrize("text", sorted(ACCEPTED))
def test_as_of_accepts_a_date_or_a_time(text: str) -> None:
    """Exactly a date, or a date and time with an optional zone."""
    assert parse_as_of(text) == ACCEPTED[text]


@pytest.mark.parametrize("text", REFUSED)
def test_as_of_refuses_anything_else_saying_what_it_expects(text: str) -> None:
    """Other ISO spellings, other formats and impossible dates are refused in one line."""
    with pytest.raises(ValueError, match="expected a date YYYY-MM-DD or a time") as error:
        parse_as_of(text)
    assert "\n" not in str(error.value)


def test_score_records_as_of_and_defaults_to_now() -> None:
    """The API's `as_of` is the scorecard's evaluated_at; without it, the clock's UTC time."""
    day = api.score([EXAMPLE], RECORDS, as_of=dt.date(2026, 11, 30))
    assert day.evaluated_at == dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    now = api.score([EXAMPLE], RECORDS).evaluated_at
    assert before <= now <= dt.datetime.now(dt.UTC) and now.tzinfo is dt.UTC


def test_a_runs_inputs_fix_its_evaluation_time_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is read once a run, where its inputs are resolved: every step after (assembling
    the scorecard, explain's and doctor's evaluation date) takes that instant, however long the
    run takes; given `as_of`, no verb reads it at all."""
    from evalglass.shell.run_inputs import RunInputs

    inputs = RunInputs.of([EXAMPLE], RECORDS, as_of=dt.datetime(2026, 11, 30, 23, 59, 59, 900))
    assert inputs.evaluated_at == dt.datetime(2026, 11, 30, 23, 59, 59, tzinfo=dt.UTC)
    assert inputs.evaluated_on == dt.date(2026, 11, 30)
    read = []
    real = dt.datetime

    class Any(type):
        # Every datetime, made before or after the patch, is still one.
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, real)

    class Clock(real, metaclass=Any):
        @classmethod
        def now(cls, tz: dt.tzinfo | None = None) -> Clock:
            read.append(tz)
            return cls(2027, 1, 1, tzinfo=dt.UTC)

    monkeypatch.setattr(dt, "datetime", Clock)
    day = dt.date(2026, 11, 30)
    midnight = real(2026, 11, 30, tzinfo=dt.UTC)
    assert api.score([EXAMPLE], RECORDS, as_of=day).evaluated_at == midnight
    explained = api.explain("qa/exact_match", [EXAMPLE], RECORDS, as_of=day)
    assert explained.card.id == "qa/exact_match"
    assert api.doctor([EXAMPLE], RECORDS, as_of=day).exit_code in (0, 1)
    assert read == []
    assert api.score([EXAMPLE], RECORDS).evaluated_at == Clock(2027, 1, 1, tzinfo=dt.UTC)
    assert read == [dt.UTC]
