"""Achievements through the real bot process: two members play a game well to its end, its
final message names what they earned first on the server, and ``stats`` lists it with the
game and shows the badges."""

from __future__ import annotations

import io

from PIL import Image

from bot.achievements.catalogue import engine_earned
from bot.app import ACHIEVEMENTS
from bot.game.records import move_text
from engine import GameState, Move, choose, score_state
from tests.e2e.harness import Move as Played
from tests.e2e.harness import World, check_pngs


def _typed(move: Move) -> Played:
    """The options of ``/cascadia play`` that play ``move``."""
    return Played(
        pair=move.tile,
        tile_at=str(move.at),
        rotation=move.rotation,
        token_at="return" if move.token_at is None else str(move.token_at),
        token=move.token if move.free_choice else None,
    )


async def test_a_game_s_end_names_first_achievements_and_stats_shows_them(world: World) -> None:
    alice, bob = world.alice, world.bob
    table = world.table()
    await table.setup([alice, bob], cards="A")
    final: GameState | None = None
    message = None
    while table.to_move is not None:
        state = world.db.state(table.game_id)
        # The computer's moves, typed by the members: a game that earns something.
        move = Move.parse(move_text(choose(state, "fast", seed=1)))
        final = move.play(state, state.current)
        message = await table.play(move=_typed(move))
    assert final is not None
    assert message is not None
    table.check_final(message)
    earned = engine_earned(final, score_state(final, table.names))
    titles = [title for a, title in ACHIEVEMENTS.catalogue if a in earned[0]]
    assert titles, "alice earned something"
    # Of the score thresholds, the line names the highest reached.
    reached = [a for a in ACHIEVEMENTS.ids if a in earned[0] and a.startswith("score-")]
    named = ACHIEVEMENTS.title(reached[-1]) if reached else titles[0]
    assert f"First on the server: **alice** · {named}" in message.text, message.text

    mine = await table.run(alice, "stats")
    assert f"Achievements: {len(titles)} of 25: " in mine.text, mine.text
    for title in titles:
        assert f"{title} (game {table.game_id})" in mine.text
    check_pngs(mine, expect=["achievements.png"])
    [badges] = mine.attachments
    assert badges.description is not None
    assert badges.description == "Achievement badges, earned: " + ", ".join(titles)
    with Image.open(io.BytesIO(badges.data)) as image:
        assert image.width == 720

    server = await table.run(bob, "server")
    assert "Achievements, rarest first: " in server.text, server.text
