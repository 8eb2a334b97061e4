"""The reminder schedule: pure functions checked with fixed times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.attendance.reminders import (
    ReminderDue,
    catch_up,
    reminder_level,
)
from bot.game.hooks import ReminderLevel
from bot.game.kernel import next_reminder_time

TURN = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sent", "level"),
    [
        (0, ReminderLevel.GENTLE),
        (1, ReminderLevel.FIRMER),
        (2, ReminderLevel.FIRMEST),
        (7, ReminderLevel.FIRMEST),
    ],
)
def test_wording_gets_firmer(sent: int, level: ReminderLevel) -> None:
    assert reminder_level(sent) is level


@pytest.mark.parametrize(
    ("hours", "sent", "due"),
    [
        (24, 0, datetime(2024, 5, 2, 18, 0, tzinfo=UTC)),
        (24, 1, datetime(2024, 5, 3, 18, 0, tzinfo=UTC)),
        (24, 2, datetime(2024, 5, 4, 18, 0, tzinfo=UTC)),
        (6, 0, datetime(2024, 5, 2, 0, 0, tzinfo=UTC)),
        (0, 0, None),
        (0, 3, None),
    ],
)
def test_next_reminder_time(hours: int, sent: int, due: datetime | None) -> None:
    assert next_reminder_time(TURN, hours, sent) == due


def test_not_due_yet() -> None:
    due = TURN + timedelta(hours=24)
    assert catch_up(due - timedelta(seconds=1), due, 24, 0) is None


def test_due_exactly_on_time() -> None:
    due = TURN + timedelta(hours=24)
    assert catch_up(due, due, 24, 0) == ReminderDue(
        level=ReminderLevel.GENTLE, next_reminder_at=due + timedelta(hours=24)
    )


def test_one_catch_up_after_downtime_and_next_from_now() -> None:
    missed = TURN + timedelta(hours=24)
    now = missed + timedelta(days=3, hours=5)  # three more reminders would have fallen due
    due = catch_up(now, missed, 24, 1)
    assert due == ReminderDue(
        level=ReminderLevel.FIRMER, next_reminder_at=now + timedelta(hours=24)
    )
    assert due is not None
    # Right after sending it nothing else is due: no burst.
    assert catch_up(now, due.next_reminder_at, 24, 2) is None
    assert catch_up(now + timedelta(hours=23, minutes=59), due.next_reminder_at, 24, 2) is None


@pytest.mark.parametrize("next_at", [None, TURN])
def test_off_means_never(next_at: datetime | None) -> None:
    assert catch_up(TURN + timedelta(days=30), next_at, 0, 0) is None


def test_nothing_scheduled_means_nothing_due() -> None:
    assert catch_up(TURN + timedelta(days=30), None, 24, 0) is None


@pytest.mark.parametrize(("hours", "sent"), [(-1, 0), (24, -1)])
def test_negative_values_are_refused(hours: int, sent: int) -> None:
    with pytest.raises(ValueError, match="must be 0 or more"):
        next_reminder_time(TURN, hours, sent)
    with pytest.raises(ValueError, match="must be 0 or more"):
        catch_up(TURN, TURN, hours, sent)


@given(
    hours=st.integers(min_value=1, max_value=24 * 14),
    late=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=365)),
    sent=st.integers(min_value=0, max_value=50),
)
def test_a_due_reminder_is_followed_by_a_full_period(
    hours: int, late: timedelta, sent: int
) -> None:
    scheduled = TURN + timedelta(hours=hours)
    now = scheduled + late
    due = catch_up(now, scheduled, hours, sent)
    assert due is not None
    assert due.next_reminder_at - now == timedelta(hours=hours)
    assert due.level is reminder_level(sent)
