"""Answers that cannot come in time: an autocomplete while the database holds the game's rows
offers nothing within Discord's three seconds (not a late answer), and an autocomplete or a
command whose answer still comes too late (the bot was busy) is one warning line in the
operator's log, with no traceback and nothing changed."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from bot.shell.errors import SUGGEST_SECONDS
from tests.e2e.harness import World, poll_until

pytestmark = pytest.mark.e2e

PLACE = {"pair": 1, "rotation": 0}


@pytest.fixture
def bot_env(postgres_url: str, tmp_path: Path) -> dict[str, str]:
    # PostgreSQL, whose table locks make a read wait as long as a test needs.
    return {"CASCADIA_DB": postgres_url, "XDG_CACHE_HOME": str(tmp_path / "cache")}


async def test_autocomplete_offers_nothing_in_time_while_the_database_holds_the_game(
    world: World, postgres_url: str
) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.settled()
    mover = table.to_move
    assert mover is not None
    assert await table.autocomplete(mover, "tile_at", PLACE), "nothing offered to begin with"

    holder = await asyncpg.connect(postgres_url)
    try:
        async with holder.transaction():
            # Every read of a game waits for this lock, as behind a long migration or a
            # server that is slow to come back.
            await holder.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            assert await table.autocomplete(mover, "tile_at", PLACE) == []
            answer = world.server.interactions[-1]
            assert answer.type == 4
            assert answer.ack_latency is not None
            assert answer.ack_latency < 3.0
            assert answer.ack_latency >= SUGGEST_SECONDS - 0.5, "answered before the wait"
    finally:
        await holder.close()

    assert await table.autocomplete(mover, "tile_at", PLACE), "nothing offered once free"
    await table.play()
    assert "took too long: nothing offered" in world.bot.log_text()


async def test_an_answer_too_late_for_discord_is_one_warning_line(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.settled()
    mover = table.to_move
    assert mover is not None
    limit = world.server.ack_timeout
    world.server.ack_timeout = 0.0  # any answer is too late now
    try:
        with pytest.raises(AssertionError, match="was answered after"):
            await table.autocomplete(mover, "tile_at", PLACE)
    finally:
        world.server.ack_timeout = limit
    [late] = [ix for ix in world.server.interactions if ix.expired]
    world.late_on_purpose.add(late.id)

    line = "autocomplete for 'cascadia play'"
    await poll_until(
        lambda: "came too late for Discord" in world.bot.log_text(),
        timeout=10,
        what="the bot to log the late autocomplete",
        server=world.server,
    )
    told = [row for row in world.bot.log_text().splitlines() if line in row]
    assert len(told) == 1, told
    assert "WARNING" in told[0]
    assert "Traceback" not in world.bot.log_text()

    # A command whose first answer comes too late: a warning line, nothing done, no traceback.
    before = len(world.db.moves(table.game_id))
    world.server.ack_timeout = 0.0
    try:
        handle = await table.send(mover, "status")
        await poll_until(
            lambda: (
                "cascadia status (interaction" in world.bot.log_text()
                and "came too late for Discord: not answered" in world.bot.log_text()
            ),
            timeout=10,
            what="the bot to log the late command",
            server=world.server,
        )
    finally:
        world.server.ack_timeout = limit
    world.late_on_purpose.add(handle.record.id)
    assert len(world.db.moves(table.game_id)) == before
    assert "Traceback" not in world.bot.log_text()
    assert "ERROR" not in world.bot.log_text()

    assert await table.autocomplete(mover, "tile_at", PLACE), "nothing offered afterwards"
    await table.play()
