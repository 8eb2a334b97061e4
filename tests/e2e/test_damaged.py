"""A game whose saved state text was damaged by hand, through the real bot: its commands are
refused privately with "saved state is damaged", the bot's log tells the host once, and the
other channel's game plays on."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from tests.e2e.harness import World


async def test_a_damaged_game_refuses_and_the_other_plays_on(world: World) -> None:
    hurt = world.table()
    await hurt.setup([world.alice, world.bob])
    whole = world.table(world.new_channel())
    await whole.setup([world.carol, world.dave])
    await hurt.settled()
    await whole.settled()
    mover = hurt.to_move
    assert mover is not None
    move = await hurt.choose(mover)
    with closing(sqlite3.connect(world.bot.db_path)) as db, db:
        db.execute("UPDATE games SET state = '{\"seats\": [' WHERE id = ?", (hurt.game_id,))

    for command, options in (("status", {}), ("board", {}), ("play", move.options())):
        await hurt.refused(mover, command, options, reason="saved state is damaged")
    detail = [line for line in world.bot.log_text().splitlines() if "saved state cannot" in line]
    assert len(detail) == 1, f"the log should tell of the damaged game once: {detail}"
    assert f"game {hurt.game_id}:" in detail[0]

    before = len(world.db.moves(whole.game_id))
    await whole.play()
    await whole.settled()
    assert len(world.db.moves(whole.game_id)) == before + 1
