"""Games that never stall, through the real bot process: a deadline passes and the others vote
to skip (across a restart), the host skips, a move closes a vote, time away holds reminders
and the deadline, and quiet hours hold a ping to the minute across a daylight-saving change.

The bot's clock is moved by the test (``CASCADIA_TEST_CLOCK_FILE``), never waited for; one
"hour" of ``reminder_hours`` and ``deadline_hours`` lasts :data:`UNIT` seconds.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.attendance import texts
from bot.attendance.presence import Presence, SkipTally
from bot.attendance.quiet import QuietHours
from bot.game.hooks import AwayPeriod
from bot.game.messages import Player, away_text, computer_lead, settings_message
from fakediscord import MANAGE_CHANNELS, MessageRecord
from tests.e2e.harness import GameChannel, World, button, labels

UNIT = 0.5
"""Seconds per "hour" of reminders and deadlines in these tests."""
REMINDER = re.compile(r"friendly nudge|still waiting for your move|has been waiting since")
VOTE = "Vote to Skip"


class BotClock:
    """Moves the bot's clock: the bot adds the seconds in this file to the real time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def offset(self) -> float:
        """The seconds the bot's clock is moved by now."""
        text = self.path.read_text() if self.path.exists() else ""
        return float(text) if text.strip() else 0.0

    def set(self, moment: datetime) -> None:
        """From now on the bot's clock reads ``moment`` (and runs on from there)."""
        self.path.write_text(repr(moment.timestamp() - time.time()))

    def advance(self, seconds: float) -> None:
        """Move the bot's clock ``seconds`` ahead."""
        self.path.write_text(repr(self.offset + seconds))

    def bot_time(self, message: MessageRecord) -> datetime:
        """When the bot's clock read when the server created ``message``."""
        created = datetime.fromisoformat(message.created_at).timestamp()
        return datetime.fromtimestamp(created + self.offset, UTC)


@pytest.fixture
def clock(tmp_path: Path) -> BotClock:
    return BotClock(tmp_path / "clock.txt")


@pytest.fixture
def bot_env(clock: BotClock) -> dict[str, str]:
    return {
        "CASCADIA_REMINDER_UNIT_SECONDS": str(UNIT),
        "CASCADIA_REMINDER_CHECK_SECONDS": "0.05",
        "CASCADIA_TEST_CLOCK_FILE": str(clock.path),
    }


def is_reminder(message: MessageRecord) -> bool:
    return bool(REMINDER.search(message.text))


def player(world: World, user: int) -> Player:
    """The user as the bot's texts name them."""
    return Player(user, world.name(user))


def away(until: datetime, note: str | None = None) -> AwayPeriod:
    """Time away until ``until`` (the answers show only its end and note)."""
    return AwayPeriod(until - timedelta(days=1), until, note)


def presence_lines(quiet: QuietHours | None = None, period: AwayPeriod | None = None) -> set[str]:
    """The lines ``/cascadia notify`` shows about quiet hours and time away."""
    now = datetime(2026, 6, 1, tzinfo=UTC) if period is None else period.start
    presence = Presence(quiet=quiet, away=() if period is None else (period,))
    return set(texts.presence_settings(presence, now))


async def started(world: World, players: list[int], channel: int | None = None) -> GameChannel:
    table = world.table(channel)
    table.interleaved = is_reminder
    await table.setup(players)
    return table


async def vote_posted(table: GameChannel, since: int, absent: int) -> MessageRecord:
    vote = await table.next_post(since, what="the vote to skip")
    assert player(table.world, absent).shown in vote.text
    assert labels(vote) == [VOTE]
    assert vote.notified == frozenset()
    return vote


async def skipped_turn(table: GameChannel, since: int, absent: int, label: str) -> MessageRecord:
    """The turn message of a turn played for ``absent``: pings the next player only."""
    message = await table.next_post(since, what=f"the turn played for {table.world.name(absent)}")
    assert label in message.text, message.text
    table.turns += 1
    table.check_turn_message(message, mover=absent)
    return message


def others(table: GameChannel, user: int) -> list[int]:
    return [u for u in table.seats if u != user]


async def test_a_vote_skips_a_late_turn_once_even_across_a_restart(
    world: World, clock: BotClock
) -> None:
    table = await started(world, [world.alice, world.bob, world.carol])
    settings = await table.run(world.alice, "settings", {"deadline_hours": 10})
    [(reminder_hours, deadline_hours)] = world.db.rows(
        "SELECT reminder_hours, deadline_hours FROM games WHERE id = ?", table.game_id
    )
    assert deadline_hours == 10
    assert settings.text == settings_message(reminder_hours, changed=True, deadline_hours=10)
    absent = table.to_move
    assert absent is not None
    first, second = others(table, absent)
    status = await table.run(first, "status")
    assert re.search(r"Plays by <t:\d+:R>", status.text), status.text
    mine = await table.run(absent, "mygames")
    assert re.search(r"play by <t:\d+:R>", mine.text), mine.text

    since = len(world.server.messages)
    clock.advance(11 * UNIT)
    vote = await vote_posted(table, since, absent)

    await table.refused(absent, VOTE, press=vote, reason="your own turn.*does not skip")
    await table.refused(world.eve, VOTE, press=vote, reason="not in this game")
    tally = SkipTally.of({first, second}, {first})
    counted = await table.reply(await world.server.click(first, vote, button(vote, VOTE)))
    assert counted.text == texts.vote_answer(tally, counted=True, skipped=False)
    again = await table.reply(await world.server.click(first, vote, button(vote, VOTE)))
    assert again.text == texts.vote_answer(tally, counted=False, skipped=False)
    assert world.db.moves(table.game_id) == []

    await world.bot.restart()  # the vote and the vote cast survive it
    table.check_channel()
    since = len(world.server.messages)
    decided = await table.reply(await world.server.click(second, vote, button(vote, VOTE)))
    assert decided.text == texts.vote_answer(tally, counted=True, skipped=True)
    label = texts.skip_lead(player(world, absent), how="vote")
    turn = await skipped_turn(table, since, absent, label)
    assert re.search(r"plays by <t:\d+:R>", turn.text), turn.text
    [(_, user, _)] = world.db.moves(table.game_id)
    assert user == absent
    assert world.db.rows("SELECT played_for FROM moves")[0][0] == "vote"
    await table.refused(first, VOTE, press=vote, reason="this vote is over")
    await table.settled()
    table.check_channel()  # one vote message, one turn message: nothing twice


async def test_the_host_skips_at_once_after_a_confirmation(world: World) -> None:
    table = await started(world, [world.alice, world.bob])
    if table.to_move == world.alice:
        await table.play()
    assert table.to_move == world.bob
    await table.refused(world.bob, "skip", reason="only the host")
    question = await table.run(world.alice, "skip")
    assert question.text == texts.skip_question(player(world, world.bob))
    await table.press(world.alice, question, "Keep waiting")
    assert "Nothing was changed" in question.text
    moves = len(world.db.moves(table.game_id))

    question = await table.run(world.alice, "skip")
    since = len(world.server.messages)
    await table.press(world.alice, question, "Skip the turn")
    bob, alice = player(world, world.bob), player(world, world.alice)
    await skipped_turn(table, since, world.bob, texts.skip_lead(bob, how="host", by=alice))
    await world.server.wait_for(
        lambda: "the computer played it" in question.text, what="the confirmation's answer"
    )
    assert len(world.db.moves(table.game_id)) == moves + 1
    await table.play()  # the game goes on; Bob keeps the seat
    assert table.to_move == world.bob

    # Someone who is not playing may skip only when they manage the channel.
    await table.refused(world.eve, "skip", reason="only the host")
    world.server.set_overwrite(table.channel, world.eve, allow=MANAGE_CHANNELS)
    question = await table.run(world.eve, "skip")
    since = len(world.server.messages)
    await table.press(world.eve, question, "Skip the turn")
    eve = player(world, world.eve)
    await skipped_turn(table, since, world.bob, texts.skip_lead(bob, how="host", by=eve))


async def test_a_move_during_a_vote_closes_it(world: World, clock: BotClock) -> None:
    table = await started(world, [world.alice, world.bob])
    await table.run(world.alice, "settings", {"deadline_hours": 4})
    absent = table.to_move
    assert absent is not None
    [voter] = others(table, absent)
    since = len(world.server.messages)
    clock.advance(5 * UNIT)
    vote = await vote_posted(table, since, absent)
    await table.play(absent)
    await table.refused(voter, VOTE, press=vote, reason="this vote is over")
    assert world.db.rows("SELECT played_for FROM moves")[0][0] is None


async def test_time_away_holds_reminders_and_the_deadline(world: World, clock: BotClock) -> None:
    """Two games: Bob is away in the first; the second, where nobody is away, shows that the
    bot's checks ran meanwhile."""
    clock.set(datetime(2026, 6, 1, 12, tzinfo=UTC))
    table = await started(world, [world.alice, world.bob])
    if table.to_move == world.bob:
        await table.play()
    answer = await table.run(
        world.bob, "notify", {"away_until": "2026-06-03", "away_note": "hiking"}
    )
    hiking = away(datetime(2026, 6, 3, tzinfo=UTC), "hiking")
    assert answer.text == texts.away_answer(hiking)
    turn = await table.play(world.alice)  # Bob's turn, while he is away
    assert away_text(hiking) in turn.text
    status = await table.run(world.carol, "status")
    assert away_text(hiking) in status.text
    await table.run(world.alice, "settings", {"reminder_hours": 2, "deadline_hours": 4})

    control = await started(world, [world.carol, world.dave], world.new_channel())
    await control.run(world.carol, "settings", {"reminder_hours": 2, "deadline_hours": 4})
    waiting = control.to_move
    assert waiting is not None

    since = len(world.server.messages)
    clock.advance(5 * UNIT)  # past both games' reminders and deadlines
    await vote_posted(control, since, waiting)
    await control.settled()
    assert not [m for m in table.public_messages() if m.order >= since], (
        "the away player's game got a reminder or a vote"
    )

    # Back early: the reminder that waited comes now; the deadline counts on from here.
    since = len(world.server.messages)
    cleared = await table.run(world.bob, "notify", {"clear": "away"})
    assert cleared.text == texts.away_cleared(True)
    reminder = await world.server.wait_for_message(
        lambda m: m.channel_id == table.channel and is_reminder(m),
        since=since,
        timeout=10,
        what="the reminder held while Bob was away",
    )
    assert reminder.notified == {world.bob}
    table.check_channel()
    since = len(world.server.messages)
    clock.advance(4 * UNIT)
    await vote_posted(table, since, world.bob)


async def test_quiet_hours_hold_the_ping_to_the_minute_across_a_clock_change(
    world: World, clock: BotClock
) -> None:
    """25 October 2026: Berlin's clocks go back an hour at 03:00, in Bob's quiet hours; they
    end at 08:00 local time, 07:00 UTC (not 06:00, as a summer-time offset would say)."""
    clock.set(datetime(2026, 10, 24, 19, 0, tzinfo=UTC))  # 21:00 in Berlin
    table = await started(world, [world.alice, world.bob])
    if table.to_move == world.bob:
        await table.play()
    found = await world.server.autocomplete(
        world.bob, table.channel, "cascadia", "notify", options={"timezone": "berl"},
        focused="timezone",
    )  # fmt: skip
    assert [c["value"] for c in found] == ["Europe/Berlin"]
    await table.refused(
        world.bob,
        "notify",
        {"quiet_from": 22, "quiet_to": 8, "timezone": "Mars/Olympus"},
        reason="not a time zone I know",
    )
    answer = await table.run(
        world.bob, "notify", {"quiet_from": 22, "quiet_to": 8, "timezone": "Europe/Berlin"}
    )
    assert answer.text == texts.quiet_answer(QuietHours.parse(22, 8, "Europe/Berlin"))

    clock.set(datetime(2026, 10, 24, 20, 30, tzinfo=UTC))  # 22:30 in Berlin: quiet
    since = len(world.server.messages)
    move = await table.choose(world.alice)
    await table.run(world.alice, "play", move.options())
    turn = await table.next_post(since, what="the turn message in Bob's quiet hours")
    assert player(world, world.bob).shown in turn.text
    assert "<@" not in turn.text
    assert turn.notified == frozenset(), "a turn message in quiet hours pinged"
    table.turns += 1
    table.to_move = world.bob
    [(due,)] = world.db.rows("SELECT ping_due_at FROM games")
    assert datetime.fromisoformat(due) == datetime(2026, 10, 25, 7, tzinfo=UTC)

    # The bot is down when the quiet hours end; the ping still comes, once, after the restart.
    await world.bot.kill()
    clock.set(datetime(2026, 10, 25, 6, 59, 58, tzinfo=UTC))
    since = len(world.server.messages)
    await world.bot.start()
    ping = await table.next_post(since, what="the ping when Bob's quiet hours end")
    assert ping.text == texts.quiet_over_ping(player(world, world.bob))
    assert ping.notified == {world.bob}
    sent_at = clock.bot_time(ping)
    ends = datetime(2026, 10, 25, 7, tzinfo=UTC)
    assert ends <= sent_at < ends + timedelta(minutes=1), sent_at
    await table.settled()
    table.check_channel()
    await table.play(world.bob)


HAND_OVER = "Hand seat to computer"


async def test_after_two_skips_the_host_hands_the_seat_to_the_computer(world: World) -> None:
    table = await started(world, [world.alice, world.bob])
    if table.to_move == world.alice:
        await table.play()
    bob = player(world, world.bob)
    skipped = texts.skip_lead(bob, how="host", by=player(world, world.alice))
    for skips in (1, 2):
        question = await table.run(world.alice, "skip")
        since = len(world.server.messages)
        await table.press(world.alice, question, "Skip the turn")
        turn = await skipped_turn(table, since, world.bob, skipped)
        if skips == 1:
            assert HAND_OVER not in labels(turn), "offered after a single skip"
            await table.play(world.alice)
    assert texts.hand_over_offer(bob, 2) in turn.text
    assert HAND_OVER in labels(turn)
    await table.refused(world.bob, HAND_OVER, press=turn, reason="only the host")

    await world.bot.restart()  # the button is answered after a restart too
    await table.settled()
    since = len(world.server.messages)
    done = await table.reply(await world.server.click(world.alice, turn, button(turn, HAND_OVER)))
    assert "the computer plays that seat" in done.text
    news = await table.next_post(since, what="the news that the computer plays Bob's seat")
    assert news.text == texts.handed_over_message(bob, player(world, world.alice))
    assert news.notified == frozenset()
    await table.refused(world.alice, HAND_OVER, press=turn, reason="plays .*bob.* seat already")

    # Alice plays; Bob is no longer pinged, and the computer plays his turn by itself.
    since = len(world.server.messages)
    move = await table.choose(world.alice)
    await table.run(world.alice, "play", move.options())
    after = await table.next_post(since, what="the message after Alice's turn")
    assert after.notified == frozenset(), "the seat handed to the computer was pinged"
    computer = await table.next_post(since, what="the computer's turn for Bob")
    assert computer.text.startswith(computer_lead(bob)), computer.text
    assert computer.notified == {world.alice}
    [(played_for,)] = world.db.rows("SELECT played_for FROM moves ORDER BY seq DESC LIMIT 1")
    assert played_for == "computer"
    table.check_channel()


async def test_time_away_ends_by_itself_and_the_reminder_and_deadline_follow(
    world: World, clock: BotClock
) -> None:
    clock.set(datetime(2026, 6, 1, 12, tzinfo=UTC))
    table = await started(world, [world.alice, world.bob])
    if table.to_move == world.bob:
        await table.play()
    answer = await table.run(world.bob, "notify", {"away_until": "2026-06-02"})
    until_midnight = away(datetime(2026, 6, 2, tzinfo=UTC))
    assert answer.text == texts.away_answer(until_midnight)
    await table.play(world.alice)
    await table.run(world.alice, "settings", {"reminder_hours": 2, "deadline_hours": 4})

    # Bob's time away ends at midnight UTC without him doing anything: the reminder held
    # comes then, and the deadline counts from then (not from his turn's start at noon).
    back = datetime(2026, 6, 2, tzinfo=UTC)
    since = len(world.server.messages)
    clock.set(back)
    reminder = await world.server.wait_for_message(
        lambda m: m.channel_id == table.channel and is_reminder(m),
        since=since,
        timeout=10,
        what="the reminder held while Bob was away",
    )
    assert reminder.notified == {world.bob}
    assert clock.bot_time(reminder) >= back
    status = await table.run(world.alice, "status")
    assert away_text(until_midnight) not in status.text, status.text
    vote = await vote_posted(table, since, world.bob)
    assert clock.bot_time(vote) >= back + timedelta(seconds=4 * UNIT)


async def test_notify_shows_and_sets_both_and_a_refusal_changes_nothing(
    world: World, clock: BotClock
) -> None:
    """Quiet hours and time away share ``/cascadia notify``; with no options it shows them."""
    clock.set(datetime(2026, 6, 1, 12, tzinfo=UTC))
    table = await started(world, [world.alice, world.bob])
    shown = await table.run(world.bob, "notify")
    assert presence_lines() <= set(shown.text.splitlines())

    await table.refused(
        world.bob,
        "notify",
        {"quiet_from": 22, "timezone": "Europe/Berlin", "away_until": "2026-06-03"},
        reason="give all three for quiet hours",
    )
    await table.refused(
        world.bob, "notify", {"away_until": "2026-06-03", "clear": "away"}, reason="not both"
    )
    assert presence_lines() <= set((await table.run(world.bob, "notify")).text.splitlines())

    both = await table.run(
        world.bob,
        "notify",
        {"quiet_from": 23, "quiet_to": 7, "timezone": "Europe/Berlin", "away_until": "2026-06-03"},
    )
    quiet = QuietHours.parse(23, 7, "Europe/Berlin")
    period = away(datetime(2026, 6, 2, 22, tzinfo=UTC))  # midnight in Berlin
    assert both.text == f"{texts.quiet_answer(quiet)}\n{texts.away_answer(period)}"
    shown = await table.run(world.bob, "notify")
    assert presence_lines(quiet, period) <= set(shown.text.splitlines())

    await table.run(world.bob, "notify", {"clear": "quiet"})
    shown = await table.run(world.bob, "notify")
    assert presence_lines(None, period) <= set(shown.text.splitlines()), (
        "clearing quiet hours kept the time away"
    )
