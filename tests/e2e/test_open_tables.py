"""Many tables on one server, through the real bot: an admin names the role that hears of open
tables, a new lobby calls it once (never again, not after a restart, a join or its host
choosing not to), a player with no lobby in their channel sees the server's open tables and
joins one from the list, and a lobby nobody starts is told after two days that it closes and
closes after three (the bot's clock moved by the test, the bot restarted between), with one
word to its people, as their notification settings say."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from fakediscord import MessageRecord
from tests.e2e.harness import GameChannel, World, button, labels

MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10


@pytest.fixture
def clock_file(tmp_path: Path) -> Path:
    """The seconds the bot's clock is ahead of the real time (see :mod:`bot.ops.clock`)."""
    return tmp_path / "clock"


@pytest.fixture
def bot_env(clock_file: Path) -> dict[str, str]:
    return {"CASCADIA_TEST_CLOCK_FILE": str(clock_file), "CASCADIA_REMINDER_CHECK_SECONDS": "0.1"}


def move_clock(path: Path, ahead: timedelta) -> None:
    """Set the bot's clock ``ahead`` of the real time."""
    path.write_text(repr(ahead.total_seconds()))


async def open_table(
    table: GameChannel, host: int, options: dict[str, object] | None = None
) -> MessageRecord:
    """``/cascadia new`` with ``options``: the lobby message, with its buttons."""
    since = len(table.server.messages)
    answer = await table.run(host, "new", options)
    assert answer.notified == frozenset()
    lobby = await table.next_post(since, what="the lobby message")
    assert {"Join", "Leave", "Start"} <= set(labels(lobby)), lobby.components
    table.lobby = lobby
    return lobby


async def test_a_lobby_role_is_called_once_open_tables_are_listed_and_old_lobbies_close(
    world: World, clock_file: Path
) -> None:
    server, db = world.server, world.db
    role = server.add_role(world.guild, "looking-for-players")
    for user in (world.carol, world.dave):
        server.add_member(world.guild, user, roles=[role])
    server.add_member(world.guild, world.alice, permissions=MANAGE_GUILD)
    first, second = world.table(), world.table(world.new_channel())
    elsewhere, staff = world.table(world.new_channel()), world.table(world.new_channel())
    server.set_overwrite(staff.channel, world.guild, deny=VIEW_CHANNEL)
    for member in (server.bot_user_id, world.eve):
        server.set_overwrite(staff.channel, member, allow=VIEW_CHANNEL)

    await first.refused(world.bob, "server", {"lobby_role": role}, reason="needs Manage Server")
    saved = await first.run(world.alice, "server", {"lobby_role": role, "threads": False})
    assert saved.text == (
        f"Saved. Settings: open tables call <@&{role}>; new tables in threads: off."
    )
    shown = await first.run(world.bob, "server")
    assert f"Settings: open tables call <@&{role}>; new tables in threads: off." in (
        shown.text.splitlines()
    )

    lobby = await open_table(first, world.alice)
    assert lobby.mention_roles == [role]
    assert lobby.notified == {world.carol, world.dave}
    assert lobby.text.startswith(f"<@&{role}> a new table is open")
    quiet = await open_table(second, world.bob, {"ping": False})
    assert quiet.notified == frozenset()
    assert quiet.mention_roles == []
    hidden = await open_table(staff, world.eve, {"ping": False})
    assert hidden.notified == frozenset()

    await world.bot.restart()  # the lobbies' buttons and their call survive it, called once
    await first.join(world.eve)
    await first.settled()
    first.check_channel()
    assert lobby.notified == {world.carol, world.dave}
    assert f"<@&{role}>" not in lobby.text
    [(pinged,)] = db.rows("SELECT lobby_pinged_role FROM games WHERE id = ?", first.game_id)
    assert pinged == role

    listed = await elsewhere.run(world.dave, "join")
    lines = listed.text.splitlines()
    assert lines[0].startswith("There is no lobby in this channel."), listed.text
    assert re.match(
        r"1\. \*\*bob\*\*'s table, 1/4 seated, .*\]\(https://discord\.com/channels/", lines[1]
    )
    assert lines[1].endswith(f"/{second.channel}/{quiet.id})")
    assert lines[2].startswith("2. **alice**'s table, 2/4 seated")
    assert labels(listed) == ["Join 1", "Join 2"]  # not eve's table, in a channel dave cannot see
    assert "eve" not in listed.text
    handle = await server.click(world.dave, listed, button(listed, "Join 1"))
    seated = await elsewhere.reply(handle)
    assert seated.ephemeral
    assert seated.text == (
        f"You have a seat: [the lobby](https://discord.com/channels/{world.guild}/"
        f"{second.channel}/{quiet.id})."
    )
    await second.lobby_shows("**dave**")
    assert len(elsewhere.public_messages()) == 0

    await first.run(world.eve, "notify", {"channel_ping": False})
    since = len(server.messages)
    move_clock(clock_file, timedelta(days=2, minutes=1))
    for table, host in ((first, world.alice), (second, world.bob)):
        warned = await table.next_post(since, what="the word that the table closes in a day")
        assert warned.text == (
            f"This table closes in a day without a start. <@{host}>, press **Start** to play "
            "with those seated."
        )
        assert warned.notified == {host}
    warned = await staff.next_post(since, what="the word that the staff table closes in a day")
    assert warned.text.startswith("This table closes in a day without a start. **eve**, press")
    await world.bot.restart()  # between the warning and the closing: neither is said twice
    await first.settled()
    for table in (first, second, staff):
        table.check_channel()

    since = len(server.messages)
    move_clock(clock_file, timedelta(days=3, minutes=1))
    closed = await first.next_post(since, what="the word that the first table closed")
    assert closed.text == (
        f"This table closed after 3 days without a start: <@{world.alice}> **eve**. "
        "`/cascadia new` opens another."
    )
    assert closed.notified == {world.alice}
    gone = await second.next_post(since, what="the word that the second table closed")
    assert gone.text == (
        f"This table closed after 3 days without a start: <@{world.bob}> <@{world.dave}>. "
        "`/cascadia new` opens another."
    )
    assert gone.notified == {world.bob, world.dave}
    await staff.next_post(since, what="the word that the staff table closed")
    statuses = db.rows("SELECT status FROM games WHERE id IN (?, ?)", first.game_id, second.game_id)
    assert [row[0] for row in statuses] == ["ended", "ended"]

    await first.refused(world.carol, "Join", reason="This lobby is closed", press=lobby)
    await server.wait_for(
        lambda: "This lobby is closed" in lobby.text and not labels(lobby),
        what="the closed lobby's message to lose its buttons",
    )
    empty = await elsewhere.run(world.dave, "join")
    assert "no open table" in empty.text
    assert labels(empty) == []
    await world.bot.restart()  # nothing is said twice
    await first.settled()
    for table in (first, second, staff):
        table.check_channel()
