"""How people hear of their turns, through the service, the outbox and a real database on a
clock the tests move by hand: direct messages at a turn and heads-ups, the channel ping turned
off, a digest once a day, quiet hours holding a direct message back, a person's own reminder
interval, and a refused direct message. What they say is in the golden transcript
``tests/bot/attendance/golden/notify.txt``."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.attendance import notify
from bot.attendance.notices import Notices
from bot.attendance.notify import BadNotifySetting, NotifyChange
from bot.attendance.presence import Presence
from bot.attendance.quiet import QuietHours
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance
from bot.attendance.store import NotifySettings
from bot.daily.service import DailyTrek
from bot.game.captions import Attachment
from bot.game.outbox import Announcement, DirectRefused, Outbox, Picture, Post
from bot.game.records import move_text
from bot.game.rows import OutboxRow
from bot.game.service import GameService, LoadedGame
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock

GUILD, CHANNEL, OTHER = 1, 10, 11
ADA, BOB, CY = 100, 200, 300
H = timedelta(hours=1)
START = datetime(2026, 6, 1, 12, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def notices(service: GameService) -> Notices:
    return Notices(service)


async def started(service: GameService, *users: int, channel: int = CHANNEL) -> LoadedGame:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    await service.lobby.start(table.game.id, user_id=users[0])
    return await service.game(channel)


def to_move(table: LoadedGame) -> int:
    return table.players[table.require_state().current].user_id


async def play(
    service: GameService, table: LoadedGame, clock: FakeClock | None = None
) -> LoadedGame:
    """The player to move plays the ``fast`` player's choice (a minute later, with ``clock``:
    a move at the very moment its turn began counts as part of that turn)."""
    if clock is not None:
        clock.advance(timedelta(minutes=1))
    turn = Move.parse(move_text(choose(table.require_state(), "fast", seed=1)))
    await service.turns.play(table.game.channel_id, user_id=to_move(table), move=turn)
    return await service.game(table.game.channel_id)


async def play_last(service: GameService, table: LoadedGame) -> None:
    """The last turn of the game, as :func:`play` (the game is over after it)."""
    turn = Move.parse(move_text(choose(table.require_state(), "fast", seed=1)))
    assert turn.play(table.require_state(), table.require_state().current).is_over
    await service.turns.play(table.game.channel_id, user_id=to_move(table), move=turn)


async def sent(store: Store) -> list[OutboxRow]:
    """The unsent rows, now marked sent."""
    rows = await store.pending(500)
    for row in rows:
        await store.mark_sent(row.id, 1_000 + row.id)
    return rows


def direct(rows: list[OutboxRow], user_id: int, kind: str) -> list[Announcement]:
    return [Announcement.from_row(r) for r in rows if r.channel_id == user_id and r.kind == kind]


async def settle(store: Store, user_id: int, **fields: Any) -> None:
    settings = await store.notify_settings(user_id)
    await store.save_notify_settings(dataclasses.replace(settings, **fields))


# --- the options ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (NotifyChange(digest_hour=24), "0-23"),
        (NotifyChange(reminder_hours=721), "0 \\(none\\) to 720"),
        (NotifyChange(digest_hour=8, clear_digest=True), "not both"),
        (NotifyChange(reminder_hours=3, clear_reminders=True), "not both"),
    ],
)
async def test_a_bad_option_is_refused_and_changes_nothing(
    notices: Notices, store: Store, change: NotifyChange, reason: str
) -> None:
    with pytest.raises(BadNotifySetting, match=reason):
        await notices.change(BOB, change)
    assert await store.notify_settings(BOB) == NotifySettings(BOB)


async def test_turning_everything_off_warns(notices: Notices) -> None:
    settings, zone = await notices.settings(BOB)
    assert notify.UNHEARD not in notify.settings_lines(settings, zone)
    answer = await notices.change(BOB, NotifyChange(dm=False, channel_ping=False))
    assert notify.UNHEARD in answer
    answer = await notices.change(BOB, NotifyChange(dm=True, digest_hour=8, reminder_hours=0))
    assert notify.UNHEARD not in answer


# --- at a turn ------------------------------------------------------------------------------


async def test_a_player_on_direct_messages_only_is_named_in_the_channel_and_messaged(
    service: GameService, store: Store
) -> None:
    table = await started(service, ADA, BOB, CY)
    await sent(store)
    seat = table.require_state().current
    first, second, third = (table.players[(seat + n) % 3].user_id for n in range(3))
    await settle(store, second, dm=True, channel_ping=False)
    await settle(store, third, heads_up=True)
    table = await play(service, table)
    rows = await sent(store)
    [turn] = [Announcement.from_row(r) for r in rows if r.kind == "turn"]
    assert turn.mentions == ()
    assert f"<@{second}>" not in turn.text
    [dm] = direct(rows, second, "direct_turn")
    assert turn.text in dm.text
    assert dm.mentions == ()
    assert dm.pictures == (Picture.DISPLAY, Picture.TO_MOVE)
    assert dm.buttons == (("Play", f"cascadia:play:{table.game.id}:1"),)
    assert len(direct(rows, third, "direct_next")) == 1
    assert {r.channel_id for r in rows} == {CHANNEL, second, third}, "nobody else hears"
    assert first not in {r.channel_id for r in rows}


async def test_the_final_message_names_a_player_who_turned_the_channel_ping_off(
    service: GameService, store: Store
) -> None:
    table = await started(service, ADA, BOB)
    await settle(store, BOB, channel_ping=False)
    for _ in range(39):
        table = await play(service, table)
    await play_last(service, table)
    [final] = [Announcement.from_row(r) for r in await sent(store) if r.kind == "finish"]
    assert final.mentions == (ADA,)
    assert f"<@{BOB}>" not in final.text
    assert "**u200**" in final.text.split("**The game is over.**")[1].splitlines()[0]


async def test_the_start_calls_the_first_player_by_direct_message_too(
    service: GameService, store: Store
) -> None:
    for user in (ADA, BOB):
        await settle(store, user, dm=True, heads_up=True)
    table = await started(service, ADA, BOB)
    rows = await sent(store)
    first = to_move(table)
    second = next(p.user_id for p in table.players if p.user_id != first)
    [start] = [Announcement.from_row(r) for r in rows if r.kind == "start"]
    assert start.mentions == (first,), "the channel ping stays on"
    assert len(direct(rows, first, "direct_turn")) == 1
    assert len(direct(rows, second, "direct_next")) == 1


async def test_quiet_hours_hold_a_direct_message_back_until_they_end(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    await sent(store)
    nxt = next(p.user_id for p in table.players if p.user_id != to_move(table))
    await service.store_as(Store).set_quiet(nxt, start=10, end=16, zone="UTC")
    await settle(store, nxt, dm=True, channel_ping=False)
    table = await play(service, table, clock)
    rows = await sent(store)
    assert direct(rows, nxt, "direct_turn") == [], "a direct message in quiet hours"
    attendance = Attendance(service)
    clock.now = START.replace(hour=15, minute=59)
    assert await attendance.check() == []
    clock.now = START.replace(hour=16)
    assert len(await attendance.check()) == 1
    rows = await sent(store)
    [held] = direct(rows, nxt, "direct_turn")
    assert held.state == table.state
    assert [r.kind for r in rows] == ["direct_turn"], "no channel ping for a DM-only player"
    assert await attendance.check() == []


async def test_a_persons_own_reminder_interval_replaces_the_games(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    await sent(store)
    nxt = next(p.user_id for p in table.players if p.user_id != to_move(table))
    await settle(store, nxt, reminder_hours=2, dm=True, channel_ping=False)
    await play(service, table)
    await sent(store)
    clock.advance(2 * H)
    assert len(await ReminderQueue(service).queue_reminders()) == 1
    [row] = await sent(store)
    assert row.kind == "direct_reminder"
    assert row.channel_id == nxt


# --- the digest ------------------------------------------------------------------------------


async def test_the_digest_lists_the_games_waiting_once_a_day_at_the_hour(
    service: GameService, notices: Notices, store: Store, clock: FakeClock
) -> None:
    clock.now = START.replace(hour=6)
    tables = [await started(service, ADA, BOB), await started(service, ADA, CY, channel=OTHER)]
    for n, table in enumerate(tables):
        if to_move(table) != ADA:
            tables[n] = await play(service, table)
    await sent(store)
    await notices.change(ADA, NotifyChange(digest_hour=8))
    await store.set_quiet(ADA, start=22, end=7, zone="Europe/Berlin")  # 08:00 there is 06:00 UTC
    clock.now = START.replace(hour=5, minute=59)
    assert await notices.check() == []
    clock.now = START.replace(hour=6)
    assert len(await notices.check()) == 1
    assert await notices.check() == [], "a second digest the same day"
    [digest] = direct(await sent(store), ADA, "direct_digest")
    links = re.findall(rf"https://discord.com/channels/{GUILD}/(\d+)/\d+", digest.text)
    assert sorted(int(c) for c in links) == [CHANNEL, OTHER]
    # The next day, with nothing to do: no digest, and the day is done.
    for table in tables:
        await play(service, table)
    await sent(store)
    clock.advance(24 * H)
    assert await notices.check() == []
    assert (await store.notify_settings(ADA)).digest_day == "2026-06-02"
    assert await sent(store) == []


def test_a_digest_hour_in_quiet_hours_waits_for_their_end() -> None:
    settings = NotifySettings(ADA, digest_hour=7)
    quiet = Presence(quiet=QuietHours.parse(22, 9, "UTC"))
    day = datetime(2026, 6, 1, tzinfo=UTC)
    assert notify.digest_due(settings, quiet, day.replace(hour=8)) is None
    assert notify.digest_due(settings, quiet, day.replace(hour=9)) == "2026-06-01"
    done = NotifySettings(ADA, digest_hour=7, digest_day="2026-06-01")
    assert notify.digest_due(done, quiet, day.replace(hour=12)) is None
    assert notify.digest_due(settings, Presence(), day.replace(hour=7)) == "2026-06-01"
    assert notify.digest_due(NotifySettings(ADA), Presence(), day.replace(hour=7)) is None


async def test_a_digest_hour_already_past_today_starts_tomorrow(
    notices: Notices, store: Store, clock: FakeClock
) -> None:
    await notices.change(ADA, NotifyChange(digest_hour=8))
    assert (await store.notify_settings(ADA)).digest_day == "2026-06-01"
    assert await notices.check() == []


# --- the outbox and a refusal ------------------------------------------------------------------


@dataclass
class FakeDirect:
    """Records direct messages; refuses the users in ``refusing``."""

    refusing: set[int] = field(default_factory=set)
    posts: list[tuple[int, int, Post]] = field(default_factory=list)
    channel: list[Post] = field(default_factory=list)
    refused: list[OutboxRow] = field(default_factory=list)

    async def send(self, channel_id: int, post: Post) -> int:
        self.channel.append(post)
        return 5_000 + len(self.channel)

    async def send_direct(self, user_id: int, channel_id: int, post: Post) -> int:
        if user_id in self.refusing:
            raise DirectRefused("403 50007")
        self.posts.append((user_id, channel_id, post))
        return 7_000 + len(self.posts)

    async def on_refused(self, row: OutboxRow) -> None:
        self.refused.append(row)


def pictures(announcement: Announcement) -> list[Attachment]:
    return [Attachment(f"{p.value}.png", b"png") for p in announcement.pictures]


async def test_a_direct_message_links_to_its_turn_message_once_that_is_posted(
    service: GameService, store: Store
) -> None:
    table = await started(service, ADA, BOB)
    nxt = next(p.user_id for p in table.players if p.user_id != to_move(table))
    await settle(store, nxt, dm=True)
    fake = FakeDirect()
    outbox = Outbox(
        store,
        fake.send,
        render=pictures,
        send_direct=fake.send_direct,
        direct_refused=fake.on_refused,
    )
    await outbox.drain()
    await play(service, table)
    assert not await outbox.drain({nxt}), "the direct message went before its turn message"
    await outbox.drain()
    [(user, channel, post)] = fake.posts
    assert (user, channel) == (nxt, CHANNEL)
    turn = await store.latest_turn_message(table.game.id)
    assert turn is not None
    link = f"https://discord.com/channels/{GUILD}/{CHANNEL}/{turn.message_id}"
    assert post.text.endswith(f"[The turn message]({link})")
    assert [a.name for a in post.attachments] == ["display.png", "to_move.png"]
    assert post.buttons == (("Play", f"cascadia:play:{table.game.id}:1"),)
    assert not await outbox.drain(), "sent twice"


async def test_a_refused_direct_message_pings_in_the_channel_and_is_told_once(
    service: GameService, notices: Notices, store: Store
) -> None:
    table = await started(service, ADA, BOB)
    await sent(store)
    nxt = next(p.user_id for p in table.players if p.user_id != to_move(table))
    await settle(store, nxt, dm=True, channel_ping=False)
    fake = FakeDirect(refusing={nxt})
    outbox = Outbox(
        store,
        fake.send,
        render=pictures,
        send_direct=fake.send_direct,
        direct_refused=fake.on_refused,
    )
    await play(service, table)
    await outbox.drain()
    [row] = fake.refused
    assert fake.posts == []
    turn = fake.channel[-1]
    assert turn.mentions == (), "the turn message named them"
    ids = await notices.refused(row)
    assert len(ids) == 1
    await outbox.drain()
    ping = fake.channel[-1]
    assert ping.mentions == (nxt,)
    assert await store.pending() == []
    assert await notices.refusal_note(nxt) == notify.refusal_note()
    assert await notices.refusal_note(nxt) is None, "told twice"
    # From now on the channel pings them, and no direct message is tried.
    assert notify.reach_of(await store.notify_settings(nxt)) == notify.Reach(True, False)
    # Turning direct messages on again tries them again.
    await notices.change(nxt, NotifyChange(dm=True))
    assert notify.reach_of(await store.notify_settings(nxt)) == notify.Reach(False, True)


async def test_a_daily_trek_brings_no_direct_message_reminder_or_digest(
    service: GameService, notices: Notices, store: Store, clock: FakeClock
) -> None:
    """A daily attempt is played in the person's own direct messages, without reminders."""
    await notices.change(ADA, NotifyChange(dm=True, digest_hour=13, reminder_hours=1))
    started = await DailyTrek(service).start(
        guild_id=GUILD, channel_id=9_000, user_id=ADA, name="Ada"
    )
    clock.advance(timedelta(minutes=1))
    table = await service.game(9_000)
    await play(service, table)
    rows = await sent(store)
    assert {r.kind for r in rows} == {"start", "turn"}, [r.kind for r in rows]
    game = await store.get_game(started.game.id)
    assert game is not None
    assert game.next_reminder_at is None
    clock.now = START.replace(hour=13)
    assert await notices.check() == [], "a digest of the daily trek"
