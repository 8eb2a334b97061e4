"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL database, with a game in a guild
of each shard played to the end at once: each process is SIGKILLed with a turn committed and
its message not yet posted, and started again, while the other's game goes on; no move is
lost or applied twice, every message is posted once, by the process of its guild's shard."""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from sandbox import BotProcess
from tests.e2e.conftest import body_failed, close_world, new_server
from tests.e2e.harness import REPO_ROOT, Database, GameChannel, World
from tests.e2e.test_restart import kill_between_commit_and_post

pytestmark = pytest.mark.e2e

SHARDS = 2
NAMES = ("alice", "bob", "carol", "dave", "eve")


@pytest.fixture
async def shards(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str
) -> AsyncIterator[tuple[World, ...]]:
    """A guild per shard on one server, the same five people in both, and a bot process per
    shard on one database; a world each."""
    seed = zlib.crc32(request.node.nodeid.encode())
    server = await new_server(shard_count=SHARDS).start()
    alice, bob, carol, dave, eve = users = [server.add_user(name) for name in NAMES]
    worlds: list[World] = []
    for shard in range(SHARDS):
        guild = server.add_guild(f"Shard {shard} Club", shard=(shard, SHARDS))
        channel = server.add_channel(guild, "cascadia")
        for user in users:
            server.add_member(guild, user)
        bot = BotProcess(
            server,
            db_path=tmp_path / f"shard-{shard}.sqlite3",  # unused: the games are on PostgreSQL
            guild_id=None,  # the commands are global, as for a bot in many servers
            shard_ids=[shard],
            shard_count=SHARDS,
            log_path=tmp_path / f"bot-{shard}.log",
            # Each process keeps its command sync record in a cache folder of its own, as on
            # separate machines.
            env={"CASCADIA_DB": postgres_url, "XDG_CACHE_HOME": str(tmp_path / f"cache-{shard}")},
            cwd=REPO_ROOT,
        )
        database = Database(postgres_url)
        people = (alice, bob, carol, dave, eve)
        worlds.append(World(server, bot, database, guild, channel, *people, seed + shard))
    failed = True
    try:
        for world in worlds:
            await world.bot.start()
        yield tuple(worlds)
        failed = body_failed(request)
    finally:
        await close_world(*worlds, failed=failed)


def turns(table: GameChannel, count: int) -> Callable[[], Awaitable[None]]:
    """``count`` turns of ``table``'s game, each checked."""

    async def play() -> None:
        for _ in range(count):
            await table.play()

    return play


async def test_two_shard_processes_play_through_kills_on_one_database(
    shards: tuple[World, World],
) -> None:
    zero, one = shards
    assert zero.db.postgres
    assert [zero.bot.owns(zero.guild), zero.bot.owns(one.guild)] == [True, False]
    assert [one.bot.owns(zero.guild), one.bot.owns(one.guild)] == [False, True]
    first, second = zero.table(), one.table()
    await asyncio.gather(
        first.setup([zero.alice, zero.bob]), second.setup([one.carol, one.dave, one.eve])
    )
    await asyncio.gather(first.play(), second.play())

    # Shard 0's process dies between commit and post, twice; shard 1's game goes on meanwhile,
    # and shard 1's process never posts shard 0's message. The restarted process takes over
    # its dead self's claim on that message at once: the default lease (60 s) is longer than
    # the wait for the message.
    played = second.turns
    await kill_between_commit_and_post(zero, first, after=False, meanwhile=turns(second, 2))
    await asyncio.gather(first.play(), second.play())
    await kill_between_commit_and_post(zero, first, after=True, meanwhile=turns(second, 2))
    assert second.turns == played + 5
    assert (zero.bot.starts, one.bot.starts) == (3, 1)
    # And the other way round.
    await kill_between_commit_and_post(one, second, after=False, meanwhile=turns(first, 2))

    finals = await asyncio.gather(first.play_to_end(), second.play_to_end())
    for table, final, players in zip((first, second), finals, (2, 3), strict=True):
        table.check_final(final)
        moves = table.world.db.moves(table.game_id)
        assert [seq for seq, _, _ in moves] == list(range(1, 20 * players + 1))
        await table.settled()
        table.check_channel()
    assert zero.db.unsent() == []

    # Every message of a guild was claimed, and posted, by a process of its own shard.
    claimers = {
        channel: {
            row[0]
            for row in zero.db.rows(
                "SELECT DISTINCT claimed_by FROM outbox WHERE channel_id = ?", channel
            )
        }
        for channel in (first.channel, second.channel)
    }
    assert all(claimers.values()), claimers
    assert None not in claimers[first.channel] | claimers[second.channel], claimers
    assert not claimers[first.channel] & claimers[second.channel], claimers
