"""Places that go away, and members who want too much of them: a deleted channel ends its game
(heard from the gateway, or from Discord's "Unknown Channel" on a post), and one member may
keep only so many lobbies open in a server."""

from __future__ import annotations

import random

from tests.e2e.harness import MESSAGE_TIMEOUT, GameChannel, World, poll_until


def status_of(world: World, game_id: int) -> str:
    """The game's status as stored."""
    [row] = world.db.rows("SELECT status FROM games WHERE id = ?", game_id)
    return str(row[0])


def unsent_in(world: World, channel: int) -> int:
    """How many messages the bot still owes ``channel``."""
    rows = world.db.rows(
        "SELECT count(*) FROM outbox WHERE channel_id = ? AND sent_at IS NULL", channel
    )
    return int(rows[0][0])


async def test_a_deleted_channel_ends_its_game(world: World) -> None:
    server = world.server
    doomed = world.new_channel()
    # Not one of the world's tables: its channel is not there to check at the end.
    table = GameChannel(world, doomed, random.Random(world.seed))
    await table.setup([world.alice, world.bob])
    await table.play()
    game_id = table.game_id
    kept = world.table()
    await kept.setup([world.alice, world.carol])

    server.delete_channel(doomed)
    await poll_until(
        lambda: status_of(world, game_id) == "ended",
        timeout=MESSAGE_TIMEOUT,
        what="the deleted channel's game to end",
        server=server,
    )
    assert world.db.rows("SELECT next_reminder_at FROM games WHERE id = ?", game_id)[0][0] is None
    games = await kept.run(world.bob, "mygames")
    assert f"<#{doomed}>: ended" in games.text, games.text
    # The other game goes on.
    await kept.play()


async def test_a_channel_deleted_while_the_bot_was_away(world: World) -> None:
    server = world.server
    doomed = world.new_channel()
    table = GameChannel(world, doomed, random.Random(world.seed))
    await table.setup([world.alice, world.bob])
    game_id = table.game_id
    mover = table.to_move
    assert mover is not None
    move = await table.choose(mover)
    # The turn message is on its way when the bot dies; the channel goes meanwhile.
    hold = server.hold("POST", f"/channels/{doomed}/messages")
    await table.send(mover, "play", move.options())
    await server.wait_for(lambda: hold.held, what="the turn message to be in flight")
    await world.bot.kill()
    server.delete_channel(doomed)
    assert unsent_in(world, doomed) == 1

    # Back up, the bot learns of it from Discord's "Unknown Channel": the game ends, and
    # what it owed that channel is dropped instead of retried.
    await world.bot.start()
    await poll_until(
        lambda: status_of(world, game_id) == "ended" and unsent_in(world, doomed) == 0,
        timeout=MESSAGE_TIMEOUT,
        what="the game of the channel deleted meanwhile to end, its message dropped",
        server=server,
    )
    hold.release()
    games = await GameChannel(world, world.channel, table.rng).run(mover, "mygames")
    assert f"<#{doomed}>: ended" in games.text, games.text


async def test_five_lobbies_per_member_and_server(world: World) -> None:
    tables = [world.table(world.new_channel()) for _ in range(6)]
    for table in tables[:5]:
        await table.open(world.alice)
    answer = await tables[5].refused(world.alice, "new", reason="5 lobbies open in this server")
    assert "/cascadia end" in answer
    await tables[5].open(world.bob)


async def test_the_host_leaving_the_server_passes_the_host_role_on(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob, world.carol])
    await table.refused(world.bob, "end", reason="only the host")

    world.server.remove_member(world.guild, world.alice)
    after = table.seats.index(world.alice) + 1
    heir, other = [*table.seats[after:], *table.seats[:after]][:2]
    question = await table.run(heir, "end")
    assert "End this game for everyone" in question.text, question.text
    [row] = world.db.rows("SELECT host_id FROM games WHERE id = ?", table.game_id)
    assert int(row[0]) == heir
    await table.refused(other, "end", reason="only the host")
    since = len(world.server.messages)
    await table.press(heir, question, "End the game")
    ended = await table.next_post(since, what="the message that the new host ended the game")
    assert f"The game was ended by **{world.name(heir)}**" in ended.text, ended.text
