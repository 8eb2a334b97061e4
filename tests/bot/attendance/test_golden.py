"""Golden transcripts of attendance (see :mod:`tests.bot.golden`): a turn passing its
deadline, the vote, the skips and the seat handed to the computer; reminders, time away and
quiet hours; and how people hear of their turns by direct message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import game_service
from bot.attendance import notify, texts
from bot.attendance.notices import Notices
from bot.attendance.notify import NotifyChange
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance
from bot.game import messages
from bot.game.service import GameService, LoadedGame
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.golden import Table, Transcript, status_answer
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GUILD, CHANNEL, OTHER = 1, 10, 11
ADA, BOB, CY = 100, 200, 300
NAMES = {ADA: "Ada", BOB: "Bob", CY: "Cy"}
H = timedelta(hours=1)
START = datetime(2026, 6, 1, 12, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def settings(table: LoadedGame) -> str:
    """``/cascadia settings`` after a change, as the attendance cog words it."""
    game = table.game
    return messages.settings_message(
        game.reminder_hours, changed=True, deadline_hours=game.deadline_hours
    )


async def test_a_late_turn_is_voted_skipped_then_the_host_skips_and_hands_the_seat_over(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    attendance = Attendance(service)
    script = Transcript(
        sqlite_store,
        clock,
        title="Deadlines and votes: three players, seed 5, cards A, a turn deadline of 24 hours",
        source=request.node.nodeid,
    )
    table = Table(service, script, NAMES)
    loaded = await table.start(ADA, BOB, CY)
    script.step("Ada sets a deadline of 24 hours")
    await attendance.set_deadline_hours(CHANNEL, user_id=ADA, hours=24)
    loaded = await table.game()
    script.shown("answer to Ada: /cascadia settings deadline_hours:24", settings(loaded))
    absent = await table.to_move()
    first, second = (u for u in (ADA, BOB, CY) if u != absent)
    script.shown(
        f"answer to {NAMES[first]}: /cascadia status", await status_answer(service, loaded)
    )
    script.shown(
        f"answer to {NAMES[absent]}: /cascadia mygames",
        messages.my_games_message(await service.lookups.my_games(absent)),
    )

    clock.now = START + 24 * H - timedelta(seconds=1)
    script.step("the deadline check, a second before the deadline")
    await attendance.check()
    await script.posts()
    clock.now = START + 24 * H
    script.step("the deadline check at the deadline")
    await attendance.check()
    [vote] = await script.posts()
    assert vote.buttons, "the vote message has no button"
    turn = loaded.require_state().turn

    async def press(user: int) -> None:
        outcome = await attendance.vote(table.game_id, turn, user_id=user)
        answer = texts.vote_answer(
            outcome.tally,
            counted=outcome.counted,
            skipped=outcome.skipped is not None or outcome.decided,
        )
        script.shown(f"answer to {NAMES[user]}: Vote to Skip", answer)

    script.step(f"{NAMES[absent]}, {NAMES[first]}, {NAMES[first]} again and {NAMES[second]} vote")
    await script.refused(
        f"answer to {NAMES[absent]}: Vote to Skip",
        attendance.vote(table.game_id, turn, user_id=absent),
    )
    await press(first)
    await press(first)
    await press(second)
    await script.posts()
    await script.refused(
        f"answer to {NAMES[first]}: Vote to Skip, afterwards",
        attendance.vote(table.game_id, turn, user_id=first),
    )

    # Bob's next turn: the host skips it, his second skip in a row.
    loaded = await table.play_until(BOB)
    player = await attendance.check_can_skip(CHANNEL, user_id=ADA, can_manage=False)
    script.step("Ada asks to skip the turn")
    script.shown("answer to Ada: /cascadia skip", texts.skip_question(player))
    script.step("Ada presses Skip the turn")
    await attendance.skip(
        table.game_id, loaded.require_state().turn, user_id=ADA, name="Ada", can_manage=False
    )
    [skipped] = await script.posts()
    assert skipped.buttons, "no offer to hand the seat over after two skips"
    loaded = await table.play_until(BOB)

    script.step("Bob presses Hand seat to computer")
    await script.refused(
        "answer to Bob: Hand seat to computer",
        attendance.hand_over(table.game_id, 1, user_id=BOB, name="Bob", can_manage=False),
    )
    bob = loaded.seat_of(BOB)
    assert bob is not None
    script.step("Ada presses Hand seat to computer")
    await attendance.hand_over(table.game_id, bob, user_id=ADA, name="Ada", can_manage=False)
    await script.posts()
    await script.refused(
        "answer to Ada: Hand seat to computer, again",
        attendance.hand_over(table.game_id, bob, user_id=ADA, name="Ada", can_manage=False),
    )
    script.step("the deadline check plays Bob's seat")
    await attendance.check()
    await script.posts()
    assert_matches_golden(GOLDEN / "deadlines.txt", script.text())


async def notify_answer(service: GameService, user: int, change: NotifyChange | None = None) -> str:
    """``/cascadia notify`` as the attendance cog words it: the settings, or the change."""
    if change is None:
        presence = await Attendance(service).presence(user)
        lines = texts.presence_settings(presence, service.now())
        settings, zone = await Notices(service).settings(user)
        return "\n".join(lines + notify.settings_lines(settings, zone))
    return "\n".join(await Notices(service).change(user, change))


async def test_reminders_time_away_and_quiet_hours(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    attendance = Attendance(service)
    reminders = ReminderQueue(service)
    script = Transcript(
        sqlite_store,
        clock,
        title="Reminders, time away and quiet hours: two players, seed 5, cards A",
        source=request.node.nodeid,
    )
    table = Table(service, script, NAMES)
    await table.start(ADA, BOB)
    first = await table.to_move()
    [second] = (u for u in (ADA, BOB) if u != first)
    script.step("Ada sets reminders every 2 hours and a deadline of 7 hours")
    await reminders.set_reminder_hours(CHANNEL, user_id=ADA, hours=2)
    await attendance.set_deadline_hours(CHANNEL, user_id=ADA, hours=7)
    script.shown(
        "answer to Ada: /cascadia settings reminder_hours:2 deadline_hours:7",
        settings(await table.game()),
    )
    for hours in (2, 4, 6):
        clock.now = START + hours * H
        script.step("the reminder check")
        await reminders.queue_reminders()
        await script.posts()

    script.step(f"{NAMES[second]} is away until 2026-06-03, hiking in the *Alps*")
    period = await attendance.away(second, until="2026-06-03", note="hiking in the *Alps*")
    script.shown(
        f"answer to {NAMES[second]}: /cascadia notify away_until:", texts.away_answer(period)
    )
    script.shown(
        f"answer to {NAMES[second]}: /cascadia notify", await notify_answer(service, second)
    )
    loaded = await table.play()
    script.shown(
        f"answer to {NAMES[first]}: /cascadia status", await status_answer(service, loaded)
    )
    clock.advance(5 * H)
    script.step("the reminder and deadline checks, 5 hours later")
    await reminders.queue_reminders()
    await attendance.check()
    await script.posts()
    script.step(f"{NAMES[second]} is back")
    script.shown(
        f"answer to {NAMES[second]}: /cascadia notify clear:away",
        texts.away_cleared(await attendance.clear_away(second)),
    )
    script.shown(
        f"answer to {NAMES[second]}: /cascadia notify clear:away, again",
        texts.away_cleared(await attendance.clear_away(second)),
    )
    script.step("the reminder check")
    await reminders.queue_reminders()
    await script.posts()
    clock.advance(7 * H)
    script.step("the deadline check, 7 hours after the return")
    await attendance.check()
    await script.posts()
    script.step("Ada turns the deadline off")
    await attendance.set_deadline_hours(CHANNEL, user_id=ADA, hours=0)
    script.shown("answer to Ada: /cascadia settings deadline_hours:0", settings(await table.game()))

    script.step(f"{NAMES[first]} keeps quiet hours from 22 to 8 in Berlin")
    quiet = await attendance.quiet(first, start=22, end=8, zone="Europe/Berlin")
    script.shown(
        f"answer to {NAMES[first]}: /cascadia notify quiet_from:22 quiet_to:8",
        texts.quiet_answer(quiet),
    )
    clock.now = datetime(2026, 6, 2, 21, 30, tzinfo=UTC)  # 23:30 in Berlin
    await table.play()
    clock.now = datetime(2026, 6, 3, 6, tzinfo=UTC)  # 08:00 in Berlin
    script.step("the reminder and deadline checks as the quiet hours end")
    await reminders.queue_reminders()
    await attendance.check()
    await script.posts()
    clock.now += 2 * H
    script.step("the reminder check, 2 hours later")
    await reminders.queue_reminders()
    await script.posts()
    await attendance.clear_quiet(first)
    script.shown(f"answer to {NAMES[first]}: /cascadia notify clear:quiet", texts.quiet_cleared())
    script.step("Ada turns the reminders off")
    await reminders.set_reminder_hours(CHANNEL, user_id=ADA, hours=0)
    script.shown("answer to Ada: /cascadia settings reminder_hours:0", settings(await table.game()))
    assert_matches_golden(GOLDEN / "presence.txt", script.text())


async def test_direct_messages_heads_ups_a_refusal_and_the_digest(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    notices = Notices(service)
    attendance = Attendance(service)
    script = Transcript(
        sqlite_store,
        clock,
        title=(
            "Notifications: three players, seed 5, cards A; Bob on direct messages only, Cy"
            " with heads-ups, Ada with a daily digest"
        ),
        source=request.node.nodeid,
    )
    script.step("Ada, Bob and Cy set their notifications")
    script.shown("answer to Ada: /cascadia notify", await notify_answer(service, ADA))
    script.shown(
        "answer to Ada: /cascadia notify dm:False channel_ping:False",
        await notify_answer(service, ADA, NotifyChange(dm=False, channel_ping=False)),
    )
    script.shown(
        "answer to Ada: /cascadia notify channel_ping:True digest_hour:8",
        await notify_answer(service, ADA, NotifyChange(channel_ping=True, digest_hour=8)),
    )
    script.shown(
        "answer to Bob: /cascadia notify dm:True channel_ping:False reminder_hours:2",
        await notify_answer(
            service, BOB, NotifyChange(dm=True, channel_ping=False, reminder_hours=2)
        ),
    )
    script.shown(
        "answer to Cy: /cascadia notify heads_up:True reminder_hours:0",
        await notify_answer(service, CY, NotifyChange(heads_up=True, reminder_hours=0)),
    )
    table = Table(service, script, NAMES)
    await table.start(ADA, BOB, CY)
    await table.play_until(BOB)
    clock.advance(2 * H)
    script.step("the reminder check, 2 hours later")
    await ReminderQueue(service).queue_reminders()
    await script.posts()
    await table.play()

    script.step("Bob keeps quiet hours from 10 to 16 UTC")
    await attendance.quiet(BOB, start=10, end=16, zone="UTC")
    await table.play_until(BOB)
    clock.now = START.replace(hour=16)
    script.step("the deadline check as Bob's quiet hours end (it sends what they held)")
    await attendance.check()
    await script.posts()
    await table.play()

    script.step("Discord refuses Bob's direct messages from now on")
    script.refusing[BOB] = notices.refused
    await table.play_until(BOB)
    note = await notices.refusal_note(BOB)
    assert note is not None
    script.shown("answer to Bob at his next command (once)", note)
    script.shown("answer to Bob: /cascadia notify", await notify_answer(service, BOB))
    await table.play()

    script.step("Ada has a second game, with Cy, in #11")
    other = Table(service, script, NAMES, channel=OTHER)
    await other.start(ADA, CY)
    await other.play_until(ADA)
    await table.play_until(ADA)
    clock.now = datetime(2026, 6, 2, 8, tzinfo=UTC)
    script.step("the digest check at Ada's digest hour, the next day")
    await notices.check()
    await script.posts()
    assert_matches_golden(GOLDEN / "notify.txt", script.text())
