"""Reminders: the waiting player is pinged after ``reminder_hours``, again later, not at all
once they moved, and at most once after a restart that missed several reminders.

One "hour" lasts :data:`UNIT` seconds here, through the bot's test setting
``CASCADIA_REMINDER_UNIT_SECONDS`` (and ``CASCADIA_REMINDER_CHECK_SECONDS`` for how often it
looks for due reminders).
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest

from bot.game.hooks import ReminderLevel
from bot.game.messages import Player, reminder_message
from fakediscord import MessageRecord
from tests.e2e.harness import GameChannel, World, poll_until

UNIT = 0.6
"""Seconds per reminder "hour" in these tests."""
REMINDER = re.compile(r"friendly nudge|still waiting for your move|has been waiting since")


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {
        "CASCADIA_REMINDER_UNIT_SECONDS": str(UNIT),
        "CASCADIA_REMINDER_CHECK_SECONDS": "0.05",
    }


def is_reminder(message: MessageRecord) -> bool:
    return bool(REMINDER.search(message.text))


def at(message: MessageRecord) -> float:
    """When the server created the message, in seconds."""
    return datetime.fromisoformat(message.created_at).timestamp()


async def reminders(
    table: GameChannel, user: int, count: int, *, since: int
) -> list[MessageRecord]:
    """Wait for ``count`` reminders created at or after message order ``since``, each pinging
    ``user`` alone."""

    def found() -> list[MessageRecord] | None:
        sent = [m for m in table.public_messages() if m.order >= since and is_reminder(m)]
        return sent if len(sent) >= count else None

    sent = await table.server.wait_for(
        found, timeout=10 * UNIT * count, what=f"{count} reminder(s) for {table.world.name(user)}"
    )
    for message in sent:
        assert message.notified == {user}, (message.text, message.notified)
        assert message.mentions == [user]
    table.check_channel()
    return sent


def turn_started(world: World) -> float:
    """When the bot started the current turn (its reminder schedule counts from there)."""
    [row] = world.db.rows("SELECT turn_started_at FROM games")
    return datetime.fromisoformat(row[0]).timestamp()


def reminded(world: World, user: int, levels: list[ReminderLevel]) -> list[str]:
    """The reminders of the current turn to ``user``, at ``levels``."""
    since = datetime.fromtimestamp(turn_started(world), UTC)
    return [reminder_message(level, Player(user, world.name(user)), since) for level in levels]


def on_schedule(sent: list[MessageRecord], start: float) -> None:
    """The n-th reminder came no earlier than n intervals after ``start``."""
    for n, message in enumerate(sent, start=1):
        early = start + n * UNIT - at(message)
        assert early < 0.05 * UNIT, f"reminder {n} came {early:.2f}s early: {message.text!r}"


async def test_reminders_ping_the_waiting_player_until_they_move(world: World) -> None:
    server, db = world.server, world.db
    table = world.table()
    table.interleaved = is_reminder
    start = await table.setup([world.alice, world.bob])
    await table.run(world.alice, "settings", {"reminder_hours": 1})
    [(hours,)] = db.rows("SELECT reminder_hours FROM games WHERE id = ?", table.game_id)
    assert hours == 1
    waiting = table.to_move
    assert waiting is not None

    sent = await reminders(table, waiting, 2, since=start.order)
    on_schedule(sent, turn_started(world))
    levels = [ReminderLevel.GENTLE, ReminderLevel.FIRMER]
    assert [m.text for m in sent] == reminded(world, waiting, levels)

    # They move: from then on only the next player is reminded, on a schedule started afresh.
    moved = await table.play(waiting)
    mover, waiting = waiting, table.to_move
    assert waiting is not None
    later = await reminders(table, waiting, 2, since=moved.order)
    on_schedule(later, turn_started(world))
    assert [m.text for m in later] == reminded(world, waiting, levels), (
        "the count did not start again for a new turn"
    )
    assert all(mover not in m.notified for m in server.messages[moved.order + 1 :])

    # The bot is down while several reminders fall due: one reminder after the restart, the
    # next a whole interval later.
    await world.bot.kill()
    [row] = db.rows("SELECT next_reminder_at FROM games")
    due = datetime.fromisoformat(row[0]).timestamp()
    await poll_until(
        lambda: time.time() - due > 3 * UNIT,
        timeout=10 * UNIT,
        what="three reminder intervals to pass while the bot is down",
    )
    since, restarted = len(server.messages), time.time()
    await world.bot.start()
    catch_up, following = await reminders(table, waiting, 2, since=since)
    assert at(catch_up) >= restarted
    assert at(following) - restarted >= 0.95 * UNIT, "a burst of reminders after the restart"
    assert len(db.moves(table.game_id)) == 1
    table.check_channel()
