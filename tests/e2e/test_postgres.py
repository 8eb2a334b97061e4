"""The real bot process on PostgreSQL (``CASCADIA_DB`` a ``postgresql://`` URL, the session's
test server): a game played to the end through restarts and SIGKILLs at the moments that
matter, no move lost or applied twice, every message posted once; and the database's
schema, created by the bot itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.db.schema import load_migrations
from tests.e2e.harness import World
from tests.e2e.test_restart import kill_before_the_move_is_committed, kill_between_commit_and_post

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_env(postgres_url: str, tmp_path: Path) -> dict[str, str]:
    # The command sync record goes to the cache folder with PostgreSQL: the test's own.
    return {"CASCADIA_DB": postgres_url, "XDG_CACHE_HOME": str(tmp_path / "cache")}


async def test_a_game_through_kills_on_postgresql(world: World, tmp_path: Path) -> None:
    assert world.db.postgres
    [(version,)] = world.db.rows("SELECT version FROM schema_version")
    assert version == len(load_migrations("postgres"))

    table = world.table()
    lobby = await table.open(world.alice)
    await table.join(world.bob)
    await world.bot.restart()
    assert lobby.custom_ids(), "the lobby lost its buttons"
    await table.start(world.alice)
    await table.play()
    await kill_before_the_move_is_committed(world, table)
    await kill_between_commit_and_post(world, table, after=False)
    await table.play()
    await kill_between_commit_and_post(world, table, after=True)

    final = await table.play_to_end()
    table.check_final(final)
    moves = world.db.moves(table.game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, 41))
    assert world.db.unsent() == []
    table.check_channel()
    assert (tmp_path / "cache" / "cascadia-bot" / "postgresql.commands.json").exists()
    assert not list(Path.cwd().glob("*.commands.json"))
