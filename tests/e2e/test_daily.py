"""The daily trek through the real bot process and the local Discord server: members of two
servers get the same deal, each plays it alone in a direct message (or, where DMs are
refused, a private thread), through a restart; the boards stay hidden until one has played;
the day's board goes to the server's daily channel once after the day ends, also when the
bot restarts across midnight; a finished attempt's **Share** posts one line in the daily
channel. The bot's commands are global here, as direct messages need."""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.daily.par import daily_par, finish_note
from bot.daily.service import NotPlayedYet, morning_text, streak_line
from bot.daily.store import DailyAttempt
from engine import Day
from engine.daily import daily_seed
from fakediscord import (
    CREATE_PRIVATE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    DiscordServer,
    MessageRecord,
)
from sandbox import BotProcess
from tests.e2e.conftest import body_failed, close_world, new_server
from tests.e2e.harness import (
    REPO_ROOT,
    Database,
    GameChannel,
    World,
    button,
    labels,
    ranking,
)
from tests.e2e.test_absence import BotClock
from tests.e2e.test_panel import open_panel, tap_a_turn

pytestmark = pytest.mark.e2e

MANAGE_GUILD = 1 << 5
MORNING = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
DAY = Day.parse("2026-12-02")


@dataclass
class Trek:
    """The world (its first server: alice, bob, carol, dave, eve) and a second server where
    eve and a newcomer, fay, play too."""

    world: World
    clock: BotClock
    guild2: int
    channel2: int
    fay: int

    @property
    def server(self) -> DiscordServer:
        return self.world.server

    async def ask(
        self, user: int, channel: int, options: dict[str, Any] | None = None
    ) -> MessageRecord:
        """``/cascadia daily`` in ``channel``, answered privately; returns the answer."""
        asker = GameChannel(self.world, channel, random.Random(0))
        return await asker.run(user, "daily", options)

    async def play_from(self, user: int, channel: int) -> tuple[GameChannel, MessageRecord]:
        """``/cascadia daily`` in a server's ``channel``: the attempt starts in the user's DM;
        returns the DM's table (its first message accounted for) and the start message."""
        since = len(self.server.messages)
        answer = await self.ask(user, channel)
        assert "in our direct messages" in answer.text, answer.text
        table = self.world.table(self.server.dm_channel(user))
        first, _ = await self.server.wait_for(
            lambda: _two_new(table, since), what="the daily trek's two first direct messages"
        )
        assert "your game follows here" in first.text, first.text
        table.accounted.append(first.id)
        return table, await started(table, user, since)


def _two_new(table: GameChannel, since: int) -> tuple[MessageRecord, MessageRecord] | None:
    fresh = [m for m in table.public_messages() if m.order >= since]
    return (fresh[0], fresh[1]) if len(fresh) >= 2 else None


async def started(table: GameChannel, user: int, since: int) -> MessageRecord:
    """The start message of an attempt in ``table``'s channel, which calls ``user``."""
    message = await table.next_post(since, what="the daily trek's start message")
    assert str(DAY) in message.text, message.text
    table.seats = [user]
    table.to_move = user
    table.check_turn_message(message, mover=None)
    assert "Play" in labels(message)
    return message


@pytest.fixture
def backend() -> str:
    """The bot's database (a test may parametrize this by name)."""
    return "sqlite"


@pytest.fixture
async def trek(request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> AsyncIterator[Trek]:
    clock = BotClock(tmp_path / "clock.txt")
    clock.set(MORNING)
    env = {"CASCADIA_REMINDER_CHECK_SECONDS": "0.1", "CASCADIA_TEST_CLOCK_FILE": str(clock.path)}
    if backend == "postgres":
        env["CASCADIA_DB"] = request.getfixturevalue("postgres_url")
        env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    server = await new_server().start()
    guild = server.add_guild("Cascadia Club")
    channel = server.add_channel(guild, "cascadia")
    alice, bob, carol, dave, eve = users = [
        server.add_user(n) for n in ("alice", "bob", "carol", "dave", "eve")
    ]
    for user in users:
        server.add_member(guild, user, permissions=MANAGE_GUILD if user == alice else 0)
    guild2 = server.add_guild("Trail Friends")
    channel2 = server.add_channel(guild2, "daily")
    fay = server.add_user("fay")
    for user in (eve, fay):
        server.add_member(guild2, user)
    db_path = tmp_path / "cascadia.sqlite3"
    bot = BotProcess(
        server, db_path=db_path, guild_id=None, log_path=tmp_path / "bot.log", env=env,
        cwd=REPO_ROOT,
    )  # fmt: skip
    seed = zlib.crc32(request.node.nodeid.encode())
    target = env.get("CASCADIA_DB") or db_path
    world = World(server, bot, Database(target), guild, channel, alice, bob, carol, dave, eve, seed)
    try:
        await bot.start()
    except BaseException:
        await close_world(world, failed=True)
        raise
    try:
        yield Trek(world, clock, guild2, channel2, fay)
    finally:
        await close_world(world, failed=body_failed(request))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_members_of_two_servers_play_the_same_deal_in_their_direct_messages(
    trek: Trek,
) -> None:
    world = trek.world
    alice, start = await trek.play_from(world.alice, world.channel)
    fay, _ = await trek.play_from(trek.fay, trek.channel2)
    assert world.db.state(alice.game_id) == world.db.state(fay.game_id)
    assert world.db.state(alice.game_id).seed == daily_seed(DAY)
    [(guild,)] = world.db.rows("SELECT guild_id FROM games WHERE id = ?", fay.game_id)
    assert guild == trek.guild2

    # In the direct messages only a daily trek's commands work.
    await alice.refused(world.alice, "new", reason="works in a server's channels")
    await alice.refused(world.alice, "daily", reason="played from a server")
    for options, reason in (
        ({"user": world.bob}, "`user:` goes with `action:show`"),
        ({"action": "show"}, "whose board"),
        ({"action": "play", "date": "2026-12-01"}, "`date:` goes with"),
    ):
        refused = await trek.ask(world.alice, world.channel, options)
        assert reason in refused.text, refused.text

    # One turn through the panel, the rest typed; the bot restarts in the middle.
    since = len(world.server.messages)
    panel = await open_panel(alice, world.alice, start)
    await tap_a_turn(alice, panel)
    await alice.turn_posted(since, world.alice)
    for _ in range(5):
        await alice.play()
    await world.bot.restart()
    busy = await trek.ask(world.alice, world.channel)
    assert "not finished yet: play it in our direct messages" in busy.text, busy.text
    late = await trek.ask(world.alice, world.channel, {"action": "board", "date": "2026-12-03"})
    assert "has not come yet" in late.text, late.text
    bad = await trek.ask(world.alice, world.channel, {"action": "board", "date": "banana"})
    assert "expected YYYY-MM-DD" in bad.text, bad.text
    # Typed in the server's channel, where she has no game, a turn plays her daily trek.
    here = GameChannel(world, world.channel, random.Random(1))
    move = await here.choose(world.alice)
    since = len(world.server.messages)
    answer = await here.run(world.alice, "play", move.options())
    assert "Turn played" in answer.text, answer.text
    await alice.turn_posted(since, world.alice)
    assert here.public_messages() == []
    final = await alice.play_to_end()
    assert alice.turns == 20
    record = alice.check_final(final)
    assert record["seed"] == daily_seed(DAY)
    [(_, total)] = ranking(final.text)
    counted = DailyAttempt(alice.game_id, world.alice, str(DAY), True, MORNING)
    assert finish_note(counted, total, daily_par(DAY)) in final.text, final.text

    exported = await alice.run(world.alice, "export")
    [attachment] = exported.attachments
    document = json.loads(attachment.data)
    assert {"table", "scores"} <= set(document), sorted(document)
    assert document["record"]["seed"] == daily_seed(DAY)

    # Fay has not finished: the boards are hidden from her, the ranks and scores are not.
    hidden = await trek.ask(trek.fay, trek.channel2, {"action": "show", "user": world.alice})
    assert hidden.text == str(NotPlayedYet(DAY)), hidden.text
    board = await trek.ask(trek.fay, trek.channel2, {"action": "board"})
    assert not re.search(r"^\d+\. ", board.text, re.M), "a place on the other server's board"
    theirs = await trek.ask(world.bob, world.channel, {"action": "board"})
    assert re.search(r"^1\. \*\*alice\*\*: \d+ points, largest corridor \d+", theirs.text, re.M)
    shown = await trek.ask(world.alice, world.channel, {"action": "show", "user": world.alice})
    assert {a.filename for a in shown.attachments} == {"scores.png", "environment.png"}
    mine = await trek.ask(world.alice, world.channel, {"action": "board"})
    assert "place 1 of 1 among every player" in mine.text, mine.text
    asker = GameChannel(world, world.channel, random.Random(0))
    stats = await asker.run(world.alice, "stats")
    assert streak_line(1) in stats.text, stats.text

    # A second go the same day is practice, in the same direct messages.
    since = len(world.server.messages)
    again = await trek.ask(world.alice, world.channel)
    assert "Practice (not counted)" in again.text, again.text
    first, _ = await world.server.wait_for(
        lambda: _two_new(alice, since), what="the practice's two first direct messages"
    )
    alice.accounted.append(first.id)
    await started(alice, world.alice, since)
    attempts = "SELECT counted FROM daily_attempts WHERE user_id = ? ORDER BY game_id"
    assert [bool(r[0]) for r in world.db.rows(attempts, world.alice)] == [True, False]


async def test_a_refused_direct_message_falls_back_to_a_private_thread(trek: Trek) -> None:
    world, server = trek.world, trek.server
    server.set_accepts_dms(world.bob, False)
    server.set_overwrite(world.channel, server.bot_user_id, deny=SEND_MESSAGES_IN_THREADS)
    before = world.db.snapshot()
    refused = await trek.ask(world.bob, world.channel)
    assert "Create Private Threads and Send Messages in Threads" in refused.text
    assert world.db.snapshot() == before, "a refused start changed the database"
    server.set_overwrite(
        world.channel,
        server.bot_user_id,
        allow=CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS,
    )
    since = len(server.messages)
    answer = await trek.ask(world.bob, world.channel)
    found = re.search(r"private thread <#(\d+)>", answer.text)
    assert found, answer.text
    thread = int(found[1])
    assert server.thread_members(thread) >= {world.bob, server.bot_user_id}
    table = world.table(thread)
    await started(table, world.bob, since)
    await table.play()
    await world.bot.restart()
    busy = await trek.ask(world.bob, world.channel)
    assert f"not finished yet: play it in <#{thread}> first" in busy.text, busy.text
    await table.play()
    assert len(world.db.moves(table.game_id)) == 2


async def _finish_an_attempt(trek: Trek, user: int) -> None:
    table, _ = await trek.play_from(user, trek.world.channel)
    final = await table.play_to_end()
    table.check_final(final)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_the_days_board_is_posted_once_after_the_day_even_across_midnight(
    trek: Trek,
) -> None:
    world, server = trek.world, trek.server
    daily = GameChannel(world, world.channel, random.Random(0))
    world.tables.append(daily)
    since = len(server.messages)
    named = await trek.ask(world.alice, world.channel, {"action": "channel"})
    assert "messages go to" in named.text, named.text
    morning = await daily.next_post(since, what="the morning message")
    assert morning.text == morning_text(DAY)
    refused = await trek.ask(world.bob, world.channel, {"action": "channel"})
    assert "Manage Server" in refused.text
    await _finish_an_attempt(trek, world.bob)

    # The bot is down when the day ends and comes back after midnight.
    await world.bot.stop()
    trek.clock.set(datetime(2026, 12, 3, 0, 5, tzinfo=UTC))
    since = len(server.messages)
    await world.bot.start()
    posts = [
        await daily.next_post(since, what="the next day's morning message or the board"),
        await daily.next_post(since, what="the next day's morning message or the board"),
    ]
    next_morning = morning_text(Day.parse("2026-12-03"))
    (board,) = [p for p in posts if p.text != next_morning]
    assert len(posts) == 2
    assert str(DAY) in board.text
    assert re.search(r"^1\. \*\*bob\*\*: \d+ points", board.text, re.M), board.text
    await world.bot.restart()
    await daily.settled()
    daily.check_channel()
    assert len(daily.public_messages()) == 3, "a daily post went out twice"


async def test_share_posts_one_line_in_the_daily_channel(trek: Trek) -> None:
    world, server = trek.world, trek.server
    daily = GameChannel(world, world.channel, random.Random(0))
    world.tables.append(daily)
    since = len(server.messages)
    await trek.ask(world.alice, world.channel, {"action": "channel"})
    await daily.next_post(since, what="the morning message")
    table, _ = await trek.play_from(world.bob, world.channel)
    final = await table.play_to_end()
    table.check_final(final)
    assert "Share" in labels(final)
    assert "Play again" not in labels(final)
    total = ranking(final.text)[0][1]

    since = len(server.messages)
    answer = await table.reply(await server.click(world.bob, final, button(final, "Share")))
    assert answer.ephemeral
    assert "Shared" in answer.text, answer.text
    line = await daily.next_post(since, what="the shared line")
    assert line.text.startswith(f"**bob**'s daily trek, {DAY}: {total} points, "), line.text
    assert "Bear " in line.text
    assert "\n" not in line.text, "one line"
    assert not line.attachments
    assert not line.components

    # Pressed again after a restart: a link to the same line, nothing posted.
    await world.bot.restart()
    again = await table.reply(await server.click(world.bob, final, button(final, "Share")))
    assert f"/{world.channel}/{line.id}" in again.text, again.text
    await daily.settled()
    daily.check_channel()
    table.check_channel()


async def test_a_german_member_plays_in_german_while_the_french_servers_channel_reads_french(
    trek: Trek,
) -> None:
    world, server = trek.world, trek.server
    server.texts = None  # the people here read German, French and English
    server.users[world.alice].locale = "en-US"
    server.guilds[world.guild].locale = "fr"
    greta = server.add_user("greta", locale="de")
    server.add_member(world.guild, greta)
    daily = GameChannel(world, world.channel, random.Random(0))
    world.tables.append(daily)
    since = len(server.messages)
    named = await trek.ask(world.alice, world.channel, {"action": "channel"})
    assert "messages go to" in named.text, "the answer is in its asker's language"
    morning = await daily.next_post(since, what="the morning message")
    assert morning.text.startswith(f"**La randonnée du {DAY}** est là"), morning.text

    since = len(server.messages)
    answer = await trek.ask(greta, world.channel)
    assert answer.text == (
        f"Die Tageswanderung vom {DAY}: Dein Versuch, der heute zählt, wartet in unseren"
        " Direktnachrichten."
    )
    table = world.table(server.dm_channel(greta))
    first, start = await server.wait_for(
        lambda: _two_new(table, since), what="the daily trek's two first direct messages"
    )
    table.accounted += [first.id, start.id]
    assert first.text == f"**Die Tageswanderung vom {DAY}**: deine Partie folgt hier."
    assert start.text.startswith(f"**Die Tageswanderung vom {DAY}**: dein Versuch, der heute")
    assert "Die Partie beginnt (Solo-Regeln)!" in start.text
    busy = await trek.ask(greta, world.channel)
    assert "ist noch nicht zu Ende" in busy.text, busy.text
