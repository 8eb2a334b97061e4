"""The bot's permissions in a channel: refused privately before a game starts where it could
not be played; taken away mid-game, the turn still calls the player and the players are told
what to fix; a refused post waits for the fix instead of being retried on a timer."""

from __future__ import annotations

import re

from fakediscord import (
    ATTACH_FILES,
    MANAGE_CHANNELS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    InteractionHandle,
)
from tests.e2e.harness import GameChannel, World, labels


def refused_posts(world: World, channel: int) -> int:
    """How many of the bot's posts in ``channel`` Discord refused for permissions."""
    path = f"/channels/{channel}/messages"
    posts = [r for r in world.server.requests if r.method == "POST" and r.path == path]
    return sum(1 for r in posts if r.status == 403)


async def private_texts(world: World, handle: InteractionHandle, needle: str) -> list[str]:
    """The private answers to ``handle`` once one of them contains ``needle``."""

    def texts() -> list[str]:
        found = [m.text for m in (handle.message, *handle.followup_messages) if m is not None]
        return found if any(needle in t for t in found) else []

    return await world.server.wait_for(texts, what=f"a private answer saying {needle!r}")


async def test_new_join_and_start_name_each_missing_permission(world: World) -> None:
    server, bot = world.server, world.server.bot_user_id
    table = world.table()

    server.set_overwrite(world.channel, bot, deny=ATTACH_FILES)
    answer = await table.refused(world.alice, "new", reason="Attach Files")
    assert "Send Messages" not in answer

    server.set_overwrite(world.channel, bot, deny=SEND_MESSAGES)
    answer = await table.refused(world.alice, "new", reason="Send Messages")
    # Without Send Messages, Discord allows no files either: both are named.
    assert "Attach Files" in answer

    server.set_overwrite(world.channel, bot, deny=VIEW_CHANNEL)
    answer = await table.refused(world.alice, "new", reason="View Channel")
    assert "Send Messages" in answer
    assert "Attach Files" in answer

    # In a thread the permission that counts is Send Messages in Threads.
    server.set_overwrite(world.channel, bot, deny=SEND_MESSAGES_IN_THREADS)
    thread = server.add_thread(world.channel, "cascadia-thread", owner=world.alice)
    in_thread = GameChannel(world, thread, table.rng)
    answer = await in_thread.refused(world.alice, "new", reason="Send Messages in Threads")

    # A lobby opened while all was well: joining and starting are refused once a permission
    # is gone, naming it.
    server.set_overwrite(world.channel, bot)
    await table.open(world.alice)
    await table.join(world.bob)
    server.set_overwrite(world.channel, bot, deny=ATTACH_FILES)
    await table.refused(world.carol, "join", reason="Attach Files")
    await table.refused(world.alice, "start", reason="Attach Files")
    server.set_overwrite(world.channel, bot)
    await table.start(world.alice, button=False)


async def test_attach_files_taken_away_mid_game(world: World) -> None:
    server = world.server
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.play()
    server.set_overwrite(world.channel, server.bot_user_id, deny=ATTACH_FILES)

    mover = table.to_move
    assert mover is not None
    waiting = table.seats[(table.seats.index(mover) + 1) % 2]
    move = await table.choose(mover)
    since = len(server.messages)
    answer = await table.run(mover, "play", move.options())
    assert "Turn played." in answer.text, answer.text
    assert "Attach Files" in answer.text, answer.text
    assert "will follow" not in answer.text, answer.text

    # The turn message goes out in words and still pings the next player.
    message = await table.next_post(since, what="the turn message without pictures")
    assert message.attachments == []
    assert message.notified == {waiting}, message.notified
    assert f"**{world.name(mover)}** took " in message.text, message.text
    assert "No pictures" in message.text, message.text
    # Still one container: the words and Play, no gallery.
    assert message.components_v2
    assert message.gallery == []
    assert "Play" in labels(message)
    table.turns += 1
    table.to_move = waiting

    # The other player's next private answer says what to fix.
    await private_texts(world, await table.send(waiting, "status"), "Attach Files")

    # Fixed: the pictures are back.
    server.set_overwrite(world.channel, server.bot_user_id)
    await table.play()


async def test_send_messages_taken_away_mid_game(world: World) -> None:
    server = world.server
    table = world.table()
    await table.setup([world.alice, world.bob])
    server.set_overwrite(world.channel, server.bot_user_id, deny=SEND_MESSAGES)

    mover = table.to_move
    assert mover is not None
    move = await table.choose(mover)
    public = len(table.public_messages())
    since = len(server.messages)
    answer = await table.run(mover, "play", move.options())
    # The move counts; the answer does not promise a message that cannot come.
    assert "Turn played." in answer.text, answer.text
    assert "could not be posted" in answer.text, answer.text
    assert "Send Messages" in answer.text, answer.text
    assert "Discord is slow" not in answer.text, answer.text
    assert len(world.db.moves(table.game_id)) == 1
    assert len(table.public_messages()) == public
    assert [kind for _, kind in world.db.unsent()] == ["turn"]
    # Tried with its pictures and in words alone, then it waits for the fix.
    assert refused_posts(world, world.channel) == 2

    # Someone fixes the channel: the turn message follows at once, pictures and ping.
    server.set_overwrite(world.channel, server.bot_user_id)
    await table.turn_posted(since, mover)
    assert refused_posts(world, world.channel) == 2
    await table.play()


async def test_without_read_message_history_a_restart_leaves_the_old_play(world: World) -> None:
    server = world.server
    table = world.table()
    start = await table.setup([world.alice, world.bob])
    await world.bot.restart()
    # After the restart the bot must read the start message back to edit it: it may not.
    server.set_overwrite(world.channel, server.bot_user_id, deny=READ_MESSAGE_HISTORY)
    message = await table.play()
    # The turn goes on in a new message; the old one keeps its Play, whose press is told
    # that the turn passed.
    assert "Play" in labels(message)
    assert "Play" in labels(start)
    assert start.edited_at is None
    refused = [r for r in server.requests if r.method == "GET" and r.status == 403]
    assert len(refused) == 1, refused
    await table.play()


async def test_end_skip_and_hand_over_ask_for_manage_channels_in_the_games_channel(
    world: World,
) -> None:
    """Eve manages another channel, not the game's. A message there carrying the game's End,
    Skip and Hand-over buttons (put there by the test: the bot posts them only in the game's
    channel) lends her nothing: what counts is Manage Channels where the game is."""
    table = world.table()
    await table.setup([world.alice, world.bob])
    game, turn = table.game_id, world.db.state(table.game_id).turn
    other = world.new_channel()
    world.server.set_overwrite(other, world.eve, allow=MANAGE_CHANNELS)
    presses = {
        f"cascadia:endgame:{game}": "only the host can end the game",
        f"cascadia:skipturn:{game}:{turn}": "only the host can skip a turn",
        f"cascadia:computer:{game}:1": "only the host can hand a seat to the computer",
    }
    row = [{"type": 2, "style": 4, "label": f"{n}", "custom_id": c} for n, c in enumerate(presses)]
    body = {"content": "passed on", "components": [{"type": 1, "components": row}]}
    elsewhere = world.server.world.messaging.create_message(other, world.server.bot_user_id, body)
    for custom_id, reason in presses.items():
        await table.settled()
        before = world.db.snapshot()
        answer = await table.reply(await world.server.click(world.eve, elsewhere, custom_id))
        assert answer.ephemeral, answer.text
        assert re.search(reason, answer.text, re.IGNORECASE), answer.text
        assert world.db.snapshot() == before, f"{custom_id} changed the database"

    # Manage Channels in the game's own channel is what counts, wherever the press comes from.
    world.server.set_overwrite(table.channel, world.eve, allow=MANAGE_CHANNELS)
    since = len(world.server.messages)
    custom_id = f"cascadia:computer:{game}:1"
    await table.reply(await world.server.click(world.eve, elsewhere, custom_id))
    handed = await table.next_post(since, what="the seat handed to the computer")
    assert "**eve**" in handed.text, handed.text
