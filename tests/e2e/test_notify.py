"""How each player hears of their turns, through the real bot process and the local Discord
server: one player on direct messages only, one with heads-ups, one on the channel; a turn
played from the direct message's panel; a digest at the set hour; quiet hours holding a direct
message back; a member who refuses direct messages, told once; and nothing sent twice across
a restart.

The bot's clock is moved by the test (``CASCADIA_TEST_CLOCK_FILE``), never waited for.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.attendance import notify, texts
from bot.attendance.presence import Presence
from bot.attendance.store import NotifySettings
from bot.game.messages import Player
from fakediscord import MessageRecord
from tests.e2e.harness import (
    MESSAGE_TIMEOUT,
    GameChannel,
    World,
    button,
    check_pngs,
    labels,
    poll_until,
)
from tests.e2e.test_absence import BotClock, is_reminder
from tests.e2e.test_panel import open_panel, tap_a_turn

DAY = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture
def clock(tmp_path: Path) -> BotClock:
    return BotClock(tmp_path / "clock.txt")


@pytest.fixture
def bot_env(clock: BotClock) -> dict[str, str]:
    return {
        "CASCADIA_REMINDER_CHECK_SECONDS": "0.05",
        "CASCADIA_TEST_CLOCK_FILE": str(clock.path),
    }


def dms(world: World, user: int) -> list[MessageRecord]:
    """The bot's direct messages to ``user`` (not the private answers to presses there)."""
    return [m for m in world.server.dm_messages(user) if not m.ephemeral]


async def dm_count(world: World, user: int, count: int, *, what: str) -> MessageRecord:
    """Wait until ``user``'s direct messages from the bot number ``count``; the last one."""
    found = await world.server.wait_for(
        lambda: (lambda sent: sent[-1] if len(sent) >= count else None)(dms(world, user)),
        timeout=MESSAGE_TIMEOUT,
        what=f"{what} ({count} direct messages to {world.name(user)})",
    )
    assert len(dms(world, user)) == count, [m.text for m in dms(world, user)]
    return found


def link(world: World, table: GameChannel, message: MessageRecord) -> str:
    return f"https://discord.com/channels/{world.guild}/{table.channel}/{message.id}"


def saved(settings: NotifySettings) -> str:
    """The answer to a change of ``/cascadia notify`` that leaves ``settings``."""
    return "\n".join(notify.change_lines(settings, None))


def check_turn_dm(world: World, table: GameChannel, dm: MessageRecord, turn: MessageRecord) -> None:
    """A direct message at a turn: where, who, the turn message's words, a link to it, the
    display and the player's own environment, **Play** for that turn; it pings nobody else."""
    user = table.to_move
    assert user is not None
    assert "**Cascadia Club**" in dm.text, dm.text
    assert f"(#{world.server.channels[table.channel].name})" in dm.text, dm.text
    assert all(f"**{name}**" in dm.text for name in table.names), dm.text
    called = rf"(\*\*{world.name(user)}\*\*|<@{user}>), it's your turn"
    assert re.search(called, dm.text), dm.text
    assert dm.text.endswith(f"[The turn message]({link(world, table, turn)})"), dm.text
    check_pngs(dm, expect=["display.png", f"{world.name(user)}.png"])
    assert all(a.description for a in dm.attachments), "a picture without words"
    assert labels(dm) == ["Play"]
    assert button(dm, "Play") == button(turn, "Play")
    assert dm.notified <= {user}
    assert dm.guild_id is None


async def test_three_players_each_hear_of_their_turns_their_own_way(
    world: World, clock: BotClock
) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    table = world.table()
    table.interleaved = is_reminder
    answer = await table.run(bob, "notify", {"dm": True, "channel_ping": False})
    on_dms = NotifySettings(bob, dm=True, channel_ping=False)
    assert answer.text == saved(on_dms)
    answer = await table.run(carol, "notify", {"heads_up": True})
    assert answer.text == saved(NotifySettings(carol, heads_up=True))
    answer = await table.run(world.dave, "notify", {"channel_ping": False})
    assert answer.text == saved(NotifySettings(world.dave, channel_ping=False))
    await table.refused(bob, "notify", {"digest_hour": 8, "clear": "digest"}, reason="not both")
    shown = await table.run(bob, "notify")
    lines = texts.presence_settings(Presence(), DAY) + notify.settings_lines(on_dms, None)
    assert shown.text.splitlines() == lines, shown.text

    table.named_only = {bob}
    await table.open(alice)
    await table.join(bob, carol)
    since = len(world.server.messages)
    turn = await table.start(alice)
    heard = {alice: 0, bob: 0, carol: 0}
    played_from_dm = False
    for played in range(8):
        to_move = table.to_move
        assert to_move is not None
        following = table.seats[(table.seats.index(to_move) + 1) % 3]
        if to_move == bob:
            heard[bob] += 1
            dm = await dm_count(world, bob, heard[bob], what="bob's direct message at his turn")
            check_turn_dm(world, table, dm, turn)
        if following == carol:
            heard[carol] += 1
            note = await dm_count(world, carol, heard[carol], what="carol's heads-up")
            players = [Player(u, world.name(u)) for u in table.seats]
            heads_up = notify.heads_up_direct(players, world.db.state(table.game_id))
            assert heads_up.text in note.text, note.text
            assert note.text.endswith(f"[The turn message]({link(world, table, turn)})")
            assert note.attachments == []
        await table.settled()
        assert dms(world, alice) == [], "alice is on the channel only"
        if played == 7:
            break
        since = len(world.server.messages)
        if to_move == bob and not played_from_dm:
            # Bob plays from the direct message's panel, as he would on his phone.
            panel = await open_panel(table, bob, dm)
            assert panel.message.channel_id == world.server.dm_channel(bob)
            await tap_a_turn(table, panel)
            turn = await table.turn_posted(since, bob)
            played_from_dm = True
        else:
            turn = await table.play()
    assert played_from_dm
    await table.settled()
    assert {u: len(dms(world, u)) for u in heard} == heard, "a message twice"


async def test_a_digest_at_the_set_hour_lists_the_games_waiting_once_a_day(
    world: World, clock: BotClock
) -> None:
    alice, bob = world.alice, world.bob
    clock.set(DAY.replace(hour=7, minute=30))
    tables = [world.table(), world.table(world.new_channel())]
    for table in tables:
        await table.setup([alice, bob])
        await table.run(alice, "settings", {"reminder_hours": 0})
        if table.to_move == bob:
            await table.play()
    for user in (alice, bob):
        answer = await tables[0].run(user, "notify", {"digest_hour": 8})
        assert answer.text == saved(NotifySettings(user, digest_hour=8))
    assert dms(world, alice) == []
    # The digest links each game's latest turn message once the bot has recorded posting it:
    # a message just posted but not yet recorded would be linked only in the next digest.
    await tables[0].settled()  # every channel's messages, both games'

    clock.set(DAY.replace(hour=8, second=1))
    digest = await dm_count(world, alice, 1, what="alice's digest at 08:00")
    assert digest.text.count(f"https://discord.com/channels/{world.guild}/") == 2, digest.text
    for table in tables:
        latest = table.public_messages()[-1]
        assert link(world, table, latest) in digest.text, digest.text
    assert labels(digest) == []

    # A restart the same day sends no second digest; the next day brings one again.
    await world.bot.restart()
    await tables[0].run(alice, "status")
    clock.set(DAY.replace(day=2, hour=8, second=1))
    again = await dm_count(world, alice, 2, what="alice's digest the next day")
    assert again.text.count(f"https://discord.com/channels/{world.guild}/") == 2, again.text
    await tables[0].settled()
    assert len(dms(world, alice)) == 2, [m.text[:80] for m in dms(world, alice)]
    assert dms(world, bob) == [], "a digest with nothing to do"


async def test_quiet_hours_hold_a_direct_message_back_until_they_end(
    world: World, clock: BotClock
) -> None:
    alice, bob = world.alice, world.bob
    clock.set(DAY.replace(hour=20))
    table = world.table()
    table.interleaved = lambda m: "your quiet hours are over" in m.text
    await table.run(bob, "notify", {"dm": True, "quiet_from": 22, "quiet_to": 8, "timezone": "UTC"})
    await table.setup([alice, bob])
    await table.run(alice, "settings", {"reminder_hours": 0})
    if table.to_move == bob:
        await dm_count(world, bob, 1, what="bob's direct message at the start, before 22:00")
        await table.play()
    await table.settled()
    before = len(dms(world, bob))
    clock.set(DAY.replace(hour=23))
    since = len(world.server.messages)
    move = await table.choose(alice)
    await table.run(alice, "play", move.options())
    turn = await table.next_post(since, what="the turn message in bob's quiet hours")
    assert turn.notified == frozenset()
    table.turns += 1
    table.to_move = bob
    await table.settled()
    assert len(dms(world, bob)) == before, "a direct message in quiet hours"

    clock.set(DAY.replace(day=2, hour=8, second=1))
    held = await dm_count(world, bob, before + 1, what="bob's direct message when quiet ends")
    assert held.text.endswith(f"[The turn message]({link(world, table, turn)})")
    assert labels(held) == ["Play"]
    await table.settled()
    assert len(dms(world, bob)) == before + 1
    await table.play(bob)


async def test_a_member_who_refuses_direct_messages_is_told_once_and_pinged_in_the_channel(
    world: World,
) -> None:
    alice, carol = world.alice, world.carol
    world.server.set_accepts_dms(carol, False)
    table = world.table()
    table.interleaved = lambda m: m.text == f"<@{carol}>, it's your turn in Cascadia."
    table.named_only = {carol}
    await table.run(carol, "notify", {"dm": True, "channel_ping": False})
    await table.setup([alice, carol])
    if table.to_move == alice:
        await table.play()
    assert table.to_move == carol
    ping = await world.server.wait_for(
        lambda: next((m for m in table.public_messages() if m.notified == {carol}), None),
        timeout=MESSAGE_TIMEOUT,
        what="the channel ping when carol's direct message is refused",
    )
    assert table.interleaved(ping)
    await table.settled()
    assert dms(world, carol) == []

    def notes() -> list[MessageRecord]:
        return [
            m
            for m in world.server.channel_messages(table.channel)
            if m.ephemeral and m.text == notify.refusal_note()
        ]

    # The first word cannot be sent (Discord refuses the follow-up): it is owed again.
    world.server.inject_fault("POST", "/webhooks/*", status=403)
    await table.run(carol, "help")
    await poll_until(
        lambda: "could not tell user" in world.bot.log_text(),
        timeout=MESSAGE_TIMEOUT,
        what="the bot to fail to send the word to carol",
        server=world.server,
    )
    assert notes() == []
    await table.run(carol, "status")
    await world.server.wait_for(notes, timeout=MESSAGE_TIMEOUT, what="the word to carol")
    shown = await table.run(carol, "notify")
    refused = NotifySettings(carol, dm=True, channel_ping=False, dms_refused_at=DAY)
    assert notify.settings_lines(refused, None)[0] in shown.text.splitlines(), shown.text
    await table.settled()
    assert len(notes()) == 1, "told twice"
    # Her turns are pinged in the channel from now on.
    table.named_only = set()
    await table.play(carol)
    await table.play(alice)
    assert dms(world, carol) == []


async def test_a_direct_message_is_sent_once_across_a_restart(world: World) -> None:
    alice, bob = world.alice, world.bob
    table = world.table()
    await table.run(bob, "notify", {"dm": True})
    await table.setup([alice, bob])
    if table.to_move == bob:
        await dm_count(world, bob, 1, what="bob's direct message at the start")
        await table.play()
    base = len(dms(world, bob))
    server = world.server
    hold = server.hold("POST", f"/channels/{server.dm_channel(bob)}/messages", after=True)
    since = len(server.messages)
    move = await table.choose(alice)
    # Not waited for: the answer follows the direct message, held until the bot is killed.
    await table.send(alice, "play", move.options())
    await server.wait_for(lambda: hold.held, what="the bot to send bob's direct message")
    turn = await table.turn_posted(since, alice)
    await world.bot.kill()
    await server.wait_for(lambda: hold.abandoned, what="the server to see the held request go")
    await world.bot.start()
    await table.settled()
    sent = dms(world, bob)
    assert len(sent) == base + 1, [m.text for m in sent]
    check_turn_dm(world, table, sent[-1], turn)
    assert re.search(r"cascadia:play:\d+:\d+", button(sent[-1], "Play"))
