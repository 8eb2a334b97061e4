"""Deadlines that stop while a player is away, the dates of time away, and skip votes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.attendance.presence import (
    BadAwayDate,
    Presence,
    SkipTally,
    away_at,
    away_end,
    deadline_at,
    parse_day,
    skips_in_a_row,
)
from bot.attendance.quiet import QuietHours
from bot.game.hooks import AwayPeriod

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


def away(start_hours: float, end_hours: float) -> AwayPeriod:
    return AwayPeriod(START + start_hours * H, START + end_hours * H)


def test_without_time_away_the_deadline_is_the_budget_after_the_turn_start() -> None:
    assert deadline_at(START, 24 * H, []) == START + 24 * H


@pytest.mark.parametrize(
    ("periods", "deadline_hours"),
    [
        ([away(-10, -2)], 24),  # over before the turn began
        ([away(30, 40)], 24),  # begins after the deadline
        ([away(-5, 3)], 27),  # away when the turn began: the clock starts at their return
        ([away(4, 10)], 30),  # away in the middle
        ([away(4, 10), away(8, 12)], 32),  # overlapping periods count once
        ([away(4, 10), away(12, 14)], 32),
        ([away(24, 30)], 24),  # begins exactly at the deadline: too late
        ([away(23, 30)], 31),
    ],
)
def test_the_deadline_clock_stops_while_away(
    periods: list[AwayPeriod], deadline_hours: float
) -> None:
    assert deadline_at(START, 24 * H, periods) == START + deadline_hours * H


def test_clearing_time_away_early_gives_the_time_back() -> None:
    planned = deadline_at(START, 24 * H, [away(2, 100)])
    cleared = deadline_at(START, 24 * H, [away(2, 5)])
    assert planned == START + 122 * H
    assert cleared == START + 27 * H


PERIODS = st.lists(
    st.tuples(st.integers(-50, 200), st.integers(0, 80)).map(lambda p: away(p[0], p[0] + p[1])),
    max_size=5,
)


@given(budget=st.integers(0, 100), periods=PERIODS)
def test_the_time_not_away_before_the_deadline_is_the_budget(
    budget: int, periods: list[AwayPeriod]
) -> None:
    deadline = deadline_at(START, budget * H, periods)
    # Count the hours (all period edges are whole hours) the player was not away.
    present = sum(
        1
        for hour in range(int((deadline - START) / H))
        if away_at(periods, START + hour * H) is None
    )
    assert present == budget
    assert deadline >= START + budget * H


def test_away_at_finds_the_period_that_covers_a_moment() -> None:
    first, second = away(0, 10), away(5, 20)
    assert away_at([first, second], START - H) is None
    assert away_at([first, second], START) == first
    assert away_at([first, second], START + 7 * H) == second
    assert away_at([first, second], START + 20 * H) is None


def test_a_period_cannot_end_before_it_starts() -> None:
    with pytest.raises(ValueError, match="ends before"):
        away(5, 4)


def test_days_are_read_strictly() -> None:
    assert parse_day(" 2026-12-05 ") == date(2026, 12, 5)
    for bad in ("5.12.2026", "2026-12-5", "tomorrow", ""):
        with pytest.raises(BadAwayDate, match="YYYY-MM-DD"):
            parse_day(bad)
    with pytest.raises(BadAwayDate, match="not a day"):
        parse_day("2026-02-30")


def test_time_away_ends_at_midnight_of_the_day_in_the_persons_zone() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    assert away_end(date(2026, 5, 3), None, START) == datetime(2026, 5, 3, tzinfo=UTC)
    assert away_end(date(2026, 5, 3), berlin, START) == datetime(2026, 5, 2, 22, tzinfo=UTC)
    with pytest.raises(BadAwayDate, match="already begun"):
        away_end(date(2026, 5, 1), None, START)
    with pytest.raises(BadAwayDate, match="at most 366 days"):
        away_end(date(2027, 6, 1), None, START)


@pytest.mark.parametrize(
    ("others", "needed"),
    [(1, 1), (2, 2), (3, 2)],
)
def test_a_majority_of_the_other_players_skips(others: int, needed: int) -> None:
    voters = list(range(2, 2 + others))
    assert SkipTally.of(voters, []).needed == needed
    assert not SkipTally.of(voters, voters[: needed - 1]).passed
    assert SkipTally.of(voters, voters[:needed]).passed


def test_only_the_other_players_votes_count() -> None:
    tally = SkipTally.of({2, 3, 4}, {1, 2, 99})
    assert tally.counted == 1
    assert not tally.passed
    assert not SkipTally.of(set(), {1}).passed


def test_skips_in_a_row_count_back_from_the_last_turn() -> None:
    assert skips_in_a_row([]) == 0
    assert skips_in_a_row([True, False]) == 0
    assert skips_in_a_row([True, False, True]) == 1
    assert skips_in_a_row([False, True, True]) == 2


def test_a_turn_s_counted_time_leaves_out_time_away_and_quiet_hours_once() -> None:
    # Quiet 22:00-08:00 UTC; START is 12:00. Away from 20:00 to 23:00 overlaps an hour of it.
    presence = Presence(quiet=QuietHours(22, 8, ZoneInfo("UTC")), away=(away(8, 11),))
    assert presence.counted_seconds(START, START + 9 * H) == 8 * 3600  # 20:00-21:00 away
    # 12:00 to 12:00 the next day: away 20-23 and quiet 22-08 leave out 20:00 to 08:00.
    assert presence.counted_seconds(START, START + 24 * H) == 12 * 3600
    assert presence.counted_seconds(START + 11 * H, START + 21 * H) == 1 * 3600
    assert Presence().counted_seconds(START, START + 2 * H) == 7200
    assert presence.counted_seconds(START + H, START) == 0


@given(
    st.floats(min_value=-48, max_value=48),
    st.floats(min_value=0, max_value=96),
    st.lists(st.tuples(st.floats(-48, 96), st.floats(0, 30)), max_size=4),
)
def test_counted_time_is_never_negative_nor_more_than_the_span(
    begin: float, length: float, periods: list[tuple[float, float]]
) -> None:
    presence = Presence(
        quiet=QuietHours(23, 7, ZoneInfo("Europe/Berlin")),
        away=tuple(away(s, s + d) for s, d in periods),
    )
    start = START + begin * H
    counted = presence.counted_seconds(start, start + length * H)
    assert 0 <= counted <= length * 3600 + 1e-6
