"""Many tables in one channel: a game in a thread of its own for each, the channel's lines
that point at them, and **Play again** at the end of a game."""

from __future__ import annotations

import random
import re

from fakediscord import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS, MessageRecord
from tests.e2e.harness import MESSAGE_TIMEOUT, GameChannel, World, button, labels, poll_until

PUBLIC_THREAD = 11
MANAGE_GUILD = 1 << 5
WEEK, HOUR = 10080, 60
"""Discord's longest auto-archive, and its shortest, in minutes."""
THREADS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
"""What the bot needs in the channel to open tables in threads."""


def allow_threads(world: World) -> None:
    """Let the bot open threads in the game channel and post in them."""
    world.server.set_overwrite(world.channel, world.server.bot_user_id, allow=THREADS)


async def open_in_thread(
    channel: GameChannel,
    host: int,
    *,
    cards: str | None = None,
    options: dict[str, object] | None = None,
) -> tuple[GameChannel, MessageRecord]:
    """``/cascadia new thread:True`` (or with ``options``) in ``channel``: returns the driver
    of the new thread's game, its lobby message read, and the channel's line pointing at it."""
    world = channel.world
    since = len(world.server.messages)
    options = {"thread": True} if options is None else options
    if cards is not None:
        options["cards"] = cards
    answer = await channel.run(host, "new", options)
    line = await channel.next_post(since, what="the channel's line for the new table")
    found = re.search(r"<#(\d+)>", line.text)
    assert found, line.text
    thread_id = int(found[1])
    assert f"<#{thread_id}>" in answer.text, answer.text
    thread = world.server.world.channels[thread_id]
    assert (thread.type, thread.parent_id) == (PUBLIC_THREAD, world.channel)
    assert thread.auto_archive_duration == WEEK, "a table's thread waits a week for its players"
    assert labels(line) == ["Join"], line.components
    table = GameChannel(world, thread_id, random.Random(world.seed + thread_id))
    world.tables.append(table)
    lobby = await table.next_post(since, what="the lobby message in the thread")
    assert {"Join", "Leave", "Start"} <= set(labels(lobby)), lobby.components
    assert f"**{world.name(host)}** (host)" in lobby.text
    table.lobby = lobby
    return table, line


async def test_two_tables_play_at_once_in_threads_of_one_channel(world: World) -> None:
    allow_threads(world)
    channel = world.table()
    first, first_line = await open_in_thread(channel, world.alice, cards="A")
    second, second_line = await open_in_thread(channel, world.carol)
    assert first.channel != second.channel

    # Join from the thread, and from the channel's line, which seats in that thread's lobby.
    await first.join(world.bob)
    await first.press(world.dave, second_line, "Join")
    await second.lobby_shows(f"**{world.name(world.dave)}**")
    await first.start(world.alice)
    # Typed in the thread, the commands act on the thread's game.
    await second.start(world.carol, button=False)

    # Turns alternate between the two tables; each is played in its own thread.
    while first.to_move is not None or second.to_move is not None:
        for table in (first, second):
            if table.to_move is not None:
                message = await table.play()
                if table.to_move is None:
                    table.check_final(message)
                    assert "Play again" in labels(message), labels(message)
    assert (first.turns, second.turns) == (40, 40)

    # The channel holds the two lines that opened the tables and one result line for each:
    # no turn message of a thread's game is posted there.
    await channel.settled()
    shown = channel.public_messages()
    channel.accounted.extend(m.id for m in shown[2:])
    texts = [m.text for m in shown]
    assert len(texts) == 4, texts
    assert texts[:2] == [first_line.text, second_line.text]
    for table in (first, second):
        # Once over, the thread is to close an hour after its last message.
        assert world.server.world.channels[table.channel].auto_archive_duration == HOUR
        [result] = [t for t in texts[2:] if f"<#{table.channel}>" in t]
        assert result.startswith(f"A table finished in <#{table.channel}>: 1. "), result
        for name in table.names:
            assert f"**{name}**" in result, result


async def test_no_thread_is_made_without_the_permission_to_make_it(world: World) -> None:
    server = world.server
    channel = world.table()
    server.set_overwrite(world.channel, server.bot_user_id, allow=SEND_MESSAGES_IN_THREADS)
    answer = await channel.refused(
        world.alice, "new", {"thread": True}, reason="Create Public Threads"
    )
    assert "thread:False" in answer
    assert not [c for c in server.world.channels.values() if c.parent_id == world.channel]

    server.set_overwrite(
        world.channel,
        server.bot_user_id,
        allow=CREATE_PUBLIC_THREADS,
        deny=SEND_MESSAGES_IN_THREADS,
    )
    await channel.refused(world.alice, "new", {"thread": True}, reason="Send Messages in Threads")
    assert not [c for c in server.world.channels.values() if c.parent_id == world.channel]


async def test_play_again_seats_everyone_with_the_first_seat_moved_on(world: World) -> None:
    allow_threads(world)
    channel = world.table()
    table, _ = await open_in_thread(channel, world.alice, cards="A")
    await table.join(world.bob)
    lobby = table.lobby
    assert lobby is not None
    question = await table.reply(
        await world.server.click(world.alice, lobby, button(lobby, "Add computer"))
    )
    await table.press(world.alice, question, "fast")
    await table.lobby_shows("**Computer (fast)**")
    await table.press(world.alice, lobby, "Start")
    message = await table.next_post(0, what="the message that starts the game")
    names = re.search(r"Players: (.+?)\. ", message.text)
    assert names, message.text
    seated = re.findall(r"\*\*(.+?)\*\*", names[1])
    assert seated == ["alice", "bob", "Computer (fast)"]
    while "The game is over" not in message.text:
        if message.notified:
            [mover] = message.notified
            move = await table.choose(mover)
            answer = await table.run(mover, "play", move.options())
            assert "Turn played" in answer.text, answer.text
        message = await table.next_post(0, what="the next turn's message")
    final = message
    assert "Play again" in labels(final)
    result = await channel.next_post(0, what="the channel's line with the result")
    assert result.text.startswith(f"A table finished in <#{table.channel}>"), result.text

    # Someone who did not play may not; a player may, and everyone is seated again.
    await table.refused(world.eve, "Play again", press=final, reason="this game's players")
    first = table.game_id
    await table.press(world.bob, final, "Play again")
    again = await table.next_post(0, what="the lobby of the next game")
    assert {"Join", "Leave", "Start"} <= set(labels(again)), again.components
    rows = re.findall(r"^\d\. \*\*(.+?)\*\*", again.text, re.M)
    assert rows == ["bob", "Computer (fast)", "alice"], again.text
    assert f"the next game after game {first}" in again.text
    assert world.db.game_id(table.channel) != first
    # The thread waits a week for its players again.
    thread = world.server.world.channels[table.channel]
    await world.server.wait_for(
        lambda: thread.auto_archive_duration == WEEK, what="the thread to wait a week again"
    )
    continues = world.db.rows("SELECT continues FROM games WHERE id = ?", table.game_id)
    assert [r["continues"] for r in continues] == [first]

    # A second press finds the lobby open already (once the first has noted its message).
    await poll_until(
        lambda: world.db.rows("SELECT lobby_message_id FROM games WHERE id = ?", table.game_id)[0][
            "lobby_message_id"
        ],
        timeout=MESSAGE_TIMEOUT,
        what="the new lobby's message to be noted",
    )
    await table.refused(world.alice, "Play again", press=final, reason="open already")

    # Anyone may leave before the start; bob, who pressed, hosts and starts.
    table.lobby = again
    await table.press(world.alice, again, "Leave")
    await world.server.wait_for(
        lambda: "**alice**" not in again.text, what="alice to leave the new lobby"
    )
    assert "1. **bob** (host)" in again.text
    await table.press(world.bob, again, "Start")
    start = await table.next_post(0, what="the next game's start")
    assert "Players: **bob**, **Computer (fast)**." in start.text, start.text
    # The computer may move first and at once: its turn follows the start in the thread.
    table.interleaved = lambda message: message.order > start.order


async def test_a_thread_archived_while_idle_is_reopened_by_the_next_turn(world: World) -> None:
    allow_threads(world)
    table, _ = await open_in_thread(world.table(), world.alice)
    await table.join(world.bob)
    await table.start(world.alice)
    await table.play()

    # A week passes without a move: Discord archives the thread.
    world.server.archive_idle(table.channel)
    thread = world.server.world.channels[table.channel]
    assert thread.archived
    message = await table.play()
    assert not thread.archived, "the turn message did not reopen the thread"
    assert message.channel_id == table.channel


async def test_restarts_in_the_middle_of_a_table_in_a_thread(world: World) -> None:
    allow_threads(world)
    channel = world.table()
    table, line = await open_in_thread(channel, world.alice)
    await world.bot.restart()  # in the lobby: the channel line's Join still seats
    await table.press(world.bob, line, "Join")
    await table.lobby_shows(f"**{world.name(world.bob)}**")
    await table.start(world.alice)
    await table.play()
    await world.bot.restart()  # between turns: commands typed in the thread still act there
    final = await table.play_to_end()
    table.check_final(final)
    await world.bot.restart()  # after the end: Play again still opens the next lobby
    await table.press(world.bob, final, "Play again")
    again = await table.next_post(0, what="the lobby of the next game")
    assert "the next game after game" in again.text
    result = await channel.next_post(0, what="the channel's line with the result")
    assert f"<#{table.channel}>" in result.text


async def test_a_server_that_plays_in_threads_calls_its_role_in_the_channel_line(
    world: World,
) -> None:
    server = world.server
    allow_threads(world)
    role = server.add_role(world.guild, "looking-for-players")
    server.add_member(world.guild, world.carol, roles=[role])
    server.add_member(world.guild, world.alice, permissions=MANAGE_GUILD)
    channel = world.table()
    await channel.run(world.alice, "server", {"threads": True, "lobby_role": role})

    # Without the option, new follows the server: the table opens in a thread, and the role
    # is called once, in the channel's line that the role's members read.
    table, line = await open_in_thread(channel, world.bob, options={})
    assert line.mention_roles == [role]
    assert line.notified == {world.carol}
    assert table.lobby is not None
    assert table.lobby.notified == frozenset()
    assert f"<@&{role}>" not in table.lobby.text

    # thread:False still opens a table in the channel itself.
    since = len(server.messages)
    await channel.run(world.dave, "new", {"thread": False, "ping": False})
    lobby = await channel.next_post(since, what="the lobby in the channel itself")
    assert "Join" in labels(lobby)
    assert lobby.notified == frozenset()
