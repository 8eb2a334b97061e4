"""The bot process is SIGKILLed at several points of a game and started again on the same
database: the game goes on, no move is lost or applied twice, every message is posted once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fakediscord import MessageRecord
from tests.e2e.harness import GameChannel, World, button, labels


async def kill_before_the_move_is_committed(world: World, table: GameChannel) -> None:
    """The bot is killed while acknowledging ``/cascadia play``: nothing was played, and the
    same move played again after the restart applies once."""
    server, db = world.server, world.db
    mover = table.to_move
    assert mover is not None
    move = await table.choose(mover)
    log = db.moves(table.game_id)
    hold = server.hold("POST", "/interactions/*/callback")
    await table.send(mover, "play", move.options())
    await server.wait_for(lambda: hold.held, what="the bot to acknowledge /cascadia play")
    await world.bot.kill()
    await server.wait_for(lambda: hold.abandoned, what="the server to see the held request go")
    await world.bot.start()
    assert db.moves(table.game_id) == log
    await table.play(mover, move)


async def kill_between_commit_and_post(
    world: World,
    table: GameChannel,
    *,
    after: bool,
    meanwhile: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """The move is committed and its message is on its way to Discord when the bot is killed.

    ``after`` false: Discord never saw the post. ``after`` true: Discord created the message
    but the bot never heard back; the post after the restart carries the same nonce, so
    Discord answers with the same message instead of a second one. ``meanwhile`` runs while
    the bot is down (another process's games going on, say).
    """
    server, db = world.server, world.db
    mover = table.to_move
    assert mover is not None
    move = await table.choose(mover)
    log = db.moves(table.game_id)
    hold = server.hold("POST", f"/channels/{table.channel}/messages", after=after)
    since = len(server.messages)
    await table.send(mover, "play", move.options())
    await server.wait_for(lambda: hold.held, what="the bot to post the turn message")
    assert len(db.moves(table.game_id)) == len(log) + 1, "the post went out before the commit"
    [(_, kind)] = db.unsent(table.channel)
    assert kind == "turn"
    await world.bot.kill()
    await server.wait_for(lambda: hold.abandoned, what="the server to see the held request go")
    assert len(db.moves(table.game_id)) == len(log) + 1
    assert bool(table.public_messages()[len(table.accounted) :]) == after
    if meanwhile is not None:
        await meanwhile()
    assert len(db.unsent(table.channel)) == 1, "the message was posted while its bot was down"

    replays = server.nonce_replays
    await world.bot.start()
    await table.turn_posted(since, mover)
    await table.settled()
    table.check_channel()
    assert server.nonce_replays == replays + after
    assert len(db.moves(table.game_id)) == len(log) + 1


async def test_sigkill_at_several_points_of_a_game(world: World) -> None:
    table = world.table()
    lobby = await table.open(world.alice)
    await world.bot.restart()  # in the lobby: its buttons work after the restart
    await table.join(world.bob)
    await world.bot.restart()
    assert lobby.custom_ids(), "the lobby lost its buttons"
    await table.start(world.alice)

    await table.play()
    await world.bot.restart()  # between turns
    await table.play()
    await kill_before_the_move_is_committed(world, table)
    await kill_between_commit_and_post(world, table, after=False)
    await table.play()
    await kill_between_commit_and_post(world, table, after=True)

    final = await table.play_to_end()
    table.check_final(final)
    assert world.bot.starts == 7
    moves = world.db.moves(table.game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, 41))
    table.check_channel()


async def test_the_end_and_leave_confirmations_answer_after_a_restart(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob, world.carol])
    await table.play()
    leaving = await table.run(world.bob, "leave")
    ending = await table.run(world.alice, "end")
    kept = await table.run(world.alice, "end")
    too_late = await table.run(world.alice, "end")
    await world.bot.restart()

    # Asked before the restart, answered after it: the buttons still act.
    await table.press(world.alice, kept, "Keep playing")
    await world.server.wait_for(
        lambda: "Nothing was changed" in kept.text, what="Keep playing to close its question"
    )
    since = len(world.server.messages)
    await table.press(world.bob, leaving, "Leave the game")
    left = await table.next_post(since, what="the message that bob left to the computer")
    assert "bob" in left.text, left.text
    if table.to_move == world.bob:
        # The computer takes bob's turn at once; its message may follow the leave's at any time.
        await table.turn_posted(since, world.bob)
    since = len(world.server.messages)
    await table.press(world.alice, ending, "End the game")
    ended = await table.next_post(since, what="the message that the game was ended")
    assert "The game was ended by **alice**" in ended.text, ended.text
    await world.server.wait_for(
        lambda: ending.text == "The game is ended.", what="the question to say it is done"
    )
    # A question whose game is over by now says so instead of failing.
    late = await world.server.click(world.alice, too_late, button(too_late, "End the game"))
    assert (await late).callback_type == 6
    [answer] = await world.server.wait_for(
        lambda: late.followup_messages, what="the answer to a press on an ended game"
    )
    assert "This game is over" in answer.text, answer.text
    assert answer.ephemeral


async def test_the_skip_confirmation_answers_after_a_restart_and_skips_once(world: World) -> None:
    server, db = world.server, world.db
    table = world.table()
    await table.setup([world.alice, world.bob])
    if table.to_move == world.alice:
        await table.play()
    assert table.to_move == world.bob
    skipping = await table.run(world.alice, "skip")
    kept = await table.run(world.alice, "skip")
    too_late = await table.run(world.alice, "skip")
    assert labels(skipping) == ["Skip the turn", "Keep waiting"]
    await world.bot.restart()

    await table.press(world.alice, kept, "Keep waiting")
    await server.wait_for(
        lambda: kept.text == "Nothing was changed." and not labels(kept),
        what="Keep waiting to close its question",
    )
    # Skip the turn, pressed again before the first press has closed the question (its edit
    # is held): one skipped turn, and the second press is told why it did nothing.
    moves = len(db.moves(table.game_id))
    closing = server.hold("PATCH", "/webhooks/*/messages/@original")
    since = len(server.messages)
    await table.press(world.alice, skipping, "Skip the turn")
    await server.wait_for(lambda: closing.held, what="the skip to close its question")
    turn = await table.next_post(since, what="the message of the skipped turn")
    assert "Played for **bob**, skipped by **alice**" in turn.text, turn.text
    table.turns += 1
    table.check_turn_message(turn, mover=world.bob)
    await table.refused(
        world.alice, "Skip the turn", press=skipping, reason="^That turn has been played meanwhile"
    )
    closing.release()
    await server.wait_for(
        lambda: "the computer played it" in skipping.text and not labels(skipping),
        what="the skip's question to say it is done",
    )
    played_for = db.rows("SELECT played_for FROM moves WHERE game_id = ?", table.game_id)
    assert len(played_for) == moves + 1
    assert [row["played_for"] for row in played_for].count("host") == 1
    await table.settled()
    table.check_channel()  # the skipped turn's message once, nothing else

    # A question whose game is over by now says so instead of failing.
    ending = await table.run(world.alice, "end")
    since = len(server.messages)
    await table.press(world.alice, ending, "End the game")
    await table.next_post(since, what="the message that the game was ended")
    await table.refused(world.alice, "Skip the turn", press=too_late, reason="This game is over")


async def test_the_choice_of_computer_answers_after_a_restart_and_seats_one(world: World) -> None:
    server, db = world.server, world.db
    table = world.table()
    lobby = await table.open(world.alice)

    def computers() -> list[str]:
        seats = db.rows("SELECT computer FROM seats WHERE game_id = ? ORDER BY seat", table.game_id)
        return [row["computer"] for row in seats if row["computer"] is not None]

    async def ask() -> MessageRecord:
        press = await server.click(world.alice, lobby, button(lobby, "Add computer"))
        asked = await table.reply(press)
        assert asked.ephemeral
        assert labels(asked) == ["fast", "strong"]
        return asked

    asked = await ask()
    await world.bot.restart()
    await table.join(world.bob)  # people joining meanwhile do not spoil the question
    # fast, and then both players again before the first press has closed the question (its
    # edit is held): one computer has a seat.
    closing = server.hold("PATCH", "/webhooks/*/messages/@original")
    await table.press(world.alice, asked, "fast")
    await server.wait_for(lambda: closing.held, what="the choice to close its question")
    await table.lobby_shows("**Computer (fast)**")
    for policy in ("fast", "strong"):
        await table.refused(world.alice, policy, press=asked, reason="already added")
    closing.release()
    await server.wait_for(
        lambda: "**Computer (fast)** has a seat" in asked.text and not labels(asked),
        what="the choice to say the computer has a seat",
    )
    assert computers() == ["fast"]

    # Four seats stay the limit.
    full = await ask()
    await table.join(world.carol)
    await table.refused(world.alice, "strong", press=full, reason="The lobby is full: 4 players")
    # Once the lobby is closed, a choice says so.
    ending = await table.run(world.alice, "end")
    since = len(server.messages)
    await table.press(world.alice, ending, "End the game")
    await table.next_post(since, what="the message that the lobby was ended")
    await table.refused(world.alice, "fast", press=full, reason="This lobby is closed")
    assert computers() == ["fast"]
    table.check_channel()
