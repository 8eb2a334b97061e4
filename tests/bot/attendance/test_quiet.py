"""Quiet hours on the wall clock of a time zone, across midnight and daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.attendance.quiet import QuietHours, UnknownZone, zone_choices, zone_named

BERLIN = ZoneInfo("Europe/Berlin")
NIGHT = QuietHours(22, 8, BERLIN)


def berlin(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("moment", "quiet"),
    [
        (berlin(2026, 6, 1, 21, 59), False),
        (berlin(2026, 6, 1, 22, 0), True),
        (berlin(2026, 6, 1, 23, 30), True),
        (berlin(2026, 6, 2, 0, 0), True),
        (berlin(2026, 6, 2, 7, 59), True),
        (berlin(2026, 6, 2, 8, 0), False),
        (berlin(2026, 6, 2, 12, 0), False),
    ],
)
def test_quiet_hours_cross_midnight(moment: datetime, quiet: bool) -> None:
    assert NIGHT.is_quiet(moment) is quiet
    assert NIGHT.is_quiet(moment.astimezone(UTC)) is quiet


def test_a_daytime_span_is_quiet_only_inside_it() -> None:
    nap = QuietHours(13, 15, BERLIN)
    assert not nap.is_quiet(berlin(2026, 6, 1, 12, 59))
    assert nap.is_quiet(berlin(2026, 6, 1, 13, 0))
    assert nap.is_quiet(berlin(2026, 6, 1, 14, 59))
    assert not nap.is_quiet(berlin(2026, 6, 1, 15, 0))
    assert not nap.is_quiet(berlin(2026, 6, 1, 23, 0))


def test_a_summer_night_ends_at_eight_local() -> None:
    moment = berlin(2026, 6, 1, 22, 30)
    assert NIGHT.spell_end(moment) == berlin(2026, 6, 2, 8, 0)
    assert NIGHT.spell_end(berlin(2026, 6, 2, 3, 0)) == berlin(2026, 6, 2, 8, 0)
    assert NIGHT.spell_end(moment) - moment == timedelta(hours=9, minutes=30)


def test_the_night_the_clocks_go_forward_is_an_hour_shorter() -> None:
    # 29 March 2026: at 02:00 CET Berlin's clocks jump to 03:00 CEST.
    moment = berlin(2026, 3, 28, 22, 0)
    end = NIGHT.spell_end(moment)
    assert end == datetime(2026, 3, 29, 6, 0, tzinfo=UTC)
    assert end.astimezone(BERLIN).hour == 8
    assert end - moment == timedelta(hours=9)
    assert NIGHT.is_quiet(end - timedelta(seconds=1))
    assert not NIGHT.is_quiet(end)


def test_the_night_the_clocks_go_back_is_an_hour_longer() -> None:
    # 25 October 2026: at 03:00 CEST Berlin's clocks go back to 02:00 CET.
    moment = berlin(2026, 10, 24, 22, 0)
    end = NIGHT.spell_end(moment)
    assert end == datetime(2026, 10, 25, 7, 0, tzinfo=UTC)
    assert end - moment == timedelta(hours=11)
    # The hour shown twice is quiet both times.
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)
    assert first.astimezone(BERLIN).hour == second.astimezone(BERLIN).hour == 2
    assert NIGHT.is_quiet(first)
    assert NIGHT.is_quiet(second)
    assert NIGHT.spell_end(second) == end


def test_an_end_hour_the_clock_skips_ends_right_after_the_gap() -> None:
    early = QuietHours(0, 2, BERLIN)
    moment = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # 01:30 CET
    end = early.spell_end(moment)
    assert end == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)  # 03:00 CEST, right after the gap
    assert end.astimezone(BERLIN).hour == 3
    assert not early.is_quiet(end)


def test_an_end_hour_the_clock_shows_twice_ends_at_its_first_showing() -> None:
    late = QuietHours(23, 2, BERLIN)
    end = late.spell_end(berlin(2026, 10, 24, 23, 30))
    assert end == datetime(2026, 10, 25, 0, 0, tzinfo=UTC)  # 02:00 CEST, the first 2 o'clock


def test_outside_quiet_hours_a_ping_goes_at_once() -> None:
    moment = berlin(2026, 6, 1, 12, 0)
    assert NIGHT.spell_end(moment) == moment
    assert NIGHT.next_allowed(moment) == moment


def test_zone_names_are_checked() -> None:
    assert zone_named("Europe/Berlin") == BERLIN
    assert zone_named(" europe/berlin ").key == "Europe/Berlin"
    for bad in ("Mars/Olympus", "", "../../etc/passwd", "/etc/localtime", "Europe/"):
        with pytest.raises(UnknownZone, match="not a time zone"):
            zone_named(bad)
    with pytest.raises(UnknownZone):
        QuietHours.parse(22, 8, "Atlantis")


@pytest.mark.parametrize(("start", "end"), [(-1, 8), (22, 24), (8, 8)])
def test_bad_hours_are_refused(start: int, end: int) -> None:
    with pytest.raises(ValueError, match=r"(?i)quiet hours"):
        QuietHours(start, end, BERLIN)


def test_zone_suggestions_put_prefixes_first_and_stay_short() -> None:
    assert zone_choices("Europe/Ber") == ["Europe/Berlin"]
    assert zone_choices("berlin") == ["Europe/Berlin"]
    assert zone_choices("new york") == ["America/New_York"]
    found = zone_choices("america")
    assert len(found) == 25
    assert all(name.startswith("America/") for name in found)
    assert zone_choices("") == sorted(zone_choices(""))
    assert zone_choices("zzzz") == []


ZONES = st.sampled_from(
    ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
)
MOMENTS = st.datetimes(
    min_value=datetime(2025, 1, 1), max_value=datetime(2028, 1, 1), timezones=st.just(UTC)
)


@given(zone=ZONES, start=st.integers(0, 23), end=st.integers(0, 23), moment=MOMENTS)
def test_the_next_allowed_moment_is_the_first_outside_quiet_hours(
    zone: str, start: int, end: int, moment: datetime
) -> None:
    if start == end:
        return
    quiet = QuietHours.parse(start, end, zone)
    allowed = quiet.next_allowed(moment)
    assert allowed >= moment
    assert not quiet.is_quiet(allowed)
    assert allowed - moment <= timedelta(hours=25)
    if allowed > moment:
        assert quiet.is_quiet(allowed - timedelta(microseconds=1))
        # Every whole minute in between is quiet: nothing was allowed sooner.
        step = moment
        while step < allowed:
            assert quiet.is_quiet(step)
            step += timedelta(minutes=30)


def test_the_quiet_spells_of_a_span_are_clipped_to_it_and_follow_the_wall_clock() -> None:
    # Saturday noon to Tuesday 09:00 in Berlin, over the night the clocks go back (25 Oct).
    spells = NIGHT.spells(berlin(2026, 10, 24, 12).astimezone(UTC), berlin(2026, 10, 27, 9))
    assert [(a.astimezone(BERLIN), b.astimezone(BERLIN)) for a, b in spells] == [
        (berlin(2026, 10, 24, 22), berlin(2026, 10, 25, 8)),
        (berlin(2026, 10, 25, 22), berlin(2026, 10, 26, 8)),
        (berlin(2026, 10, 26, 22), berlin(2026, 10, 27, 8)),
    ]
    assert spells[0][1] - spells[0][0] == timedelta(hours=11)  # the night with 25 hours
    inside = NIGHT.spells(berlin(2026, 6, 2, 1), berlin(2026, 6, 2, 3))
    assert inside == [(berlin(2026, 6, 2, 1), berlin(2026, 6, 2, 3))]
    assert NIGHT.spells(berlin(2026, 6, 2, 9), berlin(2026, 6, 2, 21)) == []
