"""Two submissions at the same moment: exactly one applies, the other is told why not."""

from __future__ import annotations

import re

from tests.e2e.harness import GameChannel, World, button

REFUSAL = (
    r"already played this turn|not your turn|changed at the same moment|already running"
    r"|lobby is full"
)


async def at_once(table: GameChannel, *calls: tuple[int, str, dict[str, object]]) -> list[str]:
    """Dispatch the commands back to back, before the bot answers any; returns the answers."""
    handles = [await table.send(user, command, options) for user, command, options in calls]
    answers = [await table.reply(handle) for handle in handles]
    assert all(a.ephemeral for a in answers), [a.text for a in answers]
    return [a.text for a in answers]


def one_applied(answers: list[str], success: str) -> None:
    applied = [a for a in answers if success in a]
    refused = [a for a in answers if re.search(REFUSAL, a)]
    assert len(applied) == 1, answers
    assert len(refused) == len(answers) - 1, answers


async def test_the_same_move_twice_at_once_applies_once(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    for _ in range(3):
        mover = table.to_move
        assert mover is not None
        move = await table.choose(mover)
        log = world.db.moves(table.game_id)
        since = len(world.server.messages)
        answers = await at_once(
            table, (mover, "play", move.options()), (mover, "play", move.options())
        )
        one_applied(answers, "Turn played")
        # The second copy was the same player's own move: not "someone was faster".
        assert sum("You already played this turn" in a for a in answers) == 1, answers
        await table.turn_posted(since, mover)
        assert len(world.db.moves(table.game_id)) == len(log) + 1
    table.check_channel()


async def test_two_players_at_once(world: World) -> None:
    # Two players open a game in the same channel at the same moment: one lobby.
    table = world.table()
    answers = await at_once(table, (world.alice, "new", {}), (world.bob, "new", {}))
    one_applied(answers, "lobby is open")
    assert len(world.db.rows("SELECT * FROM games")) == 1
    lobby = await table.next_post(0, what="the one lobby message")
    table.lobby = lobby
    host = int(world.db.rows("SELECT host_id FROM games")[0][0])
    others = [u for u in (world.alice, world.bob, world.carol) if u != host]
    await table.join(*others)

    # Two players take the last seat at the same moment: one is seated.
    answers = await at_once(table, (world.dave, "join", {}), (world.eve, "join", {}))
    one_applied(answers, "You have a seat")
    assert len(world.db.rows("SELECT * FROM seats")) == 4

    await table.start(host)
    await table.play()

    # Two players press Join for the last seat of another lobby at once: one is seated, the
    # other is told privately.
    second = world.table(world.new_channel())
    lobby = await second.open(world.alice)
    await second.join(world.bob, world.carol)
    custom_id = button(lobby, "Join")
    clicks = [await world.server.click(u, lobby, custom_id) for u in (world.dave, world.eve)]
    for click in clicks:
        assert (await click).callback_type == 6
    full = await world.server.wait_for(
        lambda: [c.record.user_id for c in clicks if c.followup_messages],
        what="the player who came second to be told the lobby is full",
    )
    [refused] = [c for c in clicks if c.followup_messages]
    [message] = refused.followup_messages
    assert message.ephemeral
    assert "lobby is full" in message.text
    rows = world.db.rows("SELECT user_id FROM seats WHERE game_id = ?", second.game_id)
    seated = {int(r[0]) for r in rows}
    assert len(seated) == 4
    assert {world.dave, world.eve} - seated == set(full)
    await second.lobby_shows("4/4 seated")
