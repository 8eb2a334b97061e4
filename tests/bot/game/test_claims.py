"""Claims of several bot processes on one database, on every backend: a message to post or a
game's background work goes to one process at a time, only to a process whose shards own the
guild, and a claim of a process that died is taken over once its lease ends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.game.rows import Claimer, GameRow
from bot.stores import Store, open_store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import HOST, NAMES, START, message

CLOCK_START = START

LEASE = timedelta(seconds=30)
ONE = Claimer("one", lease=LEASE)
TWO = Claimer("two", lease=LEASE)
SHARD_GUILDS = (10, (1 << 22) + 10)
"""A guild of shard 0 and one of shard 1, out of 2."""


@pytest.fixture
async def stores(database: str, clock: FakeClock) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on the same database, as two processes have."""
    async with open_store(database, now=clock) as first, open_store(database, now=clock) as second:
        yield first, second


async def game_with_messages(
    store: Store, channel: int, count: int, *, guild: int = SHARD_GUILDS[0]
) -> GameRow:
    game = await store.create_lobby(guild, channel, HOST, NAMES[HOST], "A,A,A,A,A")
    await store.start_game(
        game.id,
        game.revision,
        state_json='{"turn": 0}',
        seat_order=[HOST],
        outbox_messages=[message("start", f"{channel} #{n}") for n in range(count)],
        turn_started_at=START,
        next_reminder_at=None,
    )
    return game


async def test_two_claimers_never_get_the_same_row(stores: tuple[Store, Store]) -> None:
    first, second = stores
    for channel in range(100, 120):
        await game_with_messages(first, channel, 3)
    one = ONE
    two = TWO
    got: dict[str, list[int]] = {"one": [], "two": []}

    async def claim(store: Store, claimer: Claimer) -> None:
        for _ in range(10):
            rows = await store.claim_outbox(claimer, limit=7)
            got[claimer.name] += [row.id for row in rows]

    await asyncio.gather(claim(first, one), claim(second, two))
    assert got["one"], "the first claimer got nothing"
    # Claiming again renews the claimer's own rows, never another's.
    assert not set(got["one"]) & set(got["two"])
    # Whatever is left free is shared out the same way, and then every row has one claimer.
    mine = {row.id for row in await first.claim_outbox(one, limit=1_000)}
    theirs = {row.id for row in await second.claim_outbox(two, limit=1_000)}
    assert not mine & theirs
    assert set(got["one"]) <= mine
    assert set(got["two"]) <= theirs
    assert mine | theirs == {row.id for row in await first.pending(1_000)}
    assert len(mine | theirs) == 60


async def test_a_claim_keeps_a_channel_in_order(stores: tuple[Store, Store]) -> None:
    first, second = stores
    await game_with_messages(first, 100, 2)
    [early] = await first.claim_outbox(ONE, limit=1)
    # The later row is free, but the earlier one is held: posting it first would reorder.
    assert await second.claim_outbox(TWO) == []
    await first.mark_sent(early.id, 555)
    [later] = await second.claim_outbox(TWO)
    assert later.id > early.id
    assert [row.id for row in await first.claim_outbox(ONE)] == []
    assert [row.id for row in await second.claim_outbox(TWO)] == [later.id]


async def test_an_expired_lease_is_taken_over(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    game = await game_with_messages(first, 100, 2)
    held = [row.id for row in await first.claim_outbox(ONE)]
    assert len(held) == 2
    assert await first.claim_game(game.id, ONE)
    clock.advance(LEASE - timedelta(seconds=1))
    assert await second.claim_outbox(TWO) == []
    assert not await second.claim_game(game.id, TWO)
    # The first claimer renews while it lives ...
    assert [row.id for row in await first.claim_outbox(ONE)] == held
    assert await first.claim_game(game.id, ONE)
    clock.advance(LEASE)
    # ... and once it stops, its lease runs out and the second takes over.
    assert [row.id for row in await second.claim_outbox(TWO)] == held
    assert await second.claim_game(game.id, TWO)
    assert await first.claim_outbox(ONE) == []
    assert not await first.claim_game(game.id, ONE)


async def test_a_claim_by_a_shard_that_does_not_own_the_guild_is_refused(
    stores: tuple[Store, Store],
) -> None:
    store = stores[0]
    zero = Claimer("zero", shard_ids=(0,), shard_count=2, lease=LEASE)
    one = Claimer("one", shard_ids=(1,), shard_count=2, lease=LEASE)
    both = Claimer("both", shard_ids=(0, 1), shard_count=2, lease=LEASE)
    games = [
        await game_with_messages(store, 100 + shard, 1, guild=guild)
        for shard, guild in enumerate(SHARD_GUILDS)
    ]
    assert [zero.owns(g.guild_id) for g in games] == [True, False]
    assert [one.owns(g.guild_id) for g in games] == [False, True]
    stored = store
    assert [row.channel_id for row in await stored.claim_outbox(zero)] == [100]
    assert [row.channel_id for row in await stored.claim_outbox(one)] == [101]
    # Neither took the other's row, and a claimer of both shards finds them held.
    assert await stored.claim_outbox(both) == []
    assert [await stored.claim_game(g.id, zero) for g in games] == [True, False]
    assert [await stored.claim_game(g.id, one) for g in games] == [False, True]


async def test_released_claims_are_free_at_once(stores: tuple[Store, Store]) -> None:
    first, second = stores
    game = await game_with_messages(first, 100, 2)
    assert len(await first.claim_outbox(ONE)) == 2
    assert await first.claim_game(game.id, ONE)
    assert await second.release_claims() == 3
    assert len(await second.claim_outbox(TWO)) == 2
    assert await second.claim_game(game.id, TWO)
    assert await first.claim_game(12345, ONE) is False


async def test_on_postgresql_the_claims_of_a_closed_store_are_free_at_once(
    postgres_url: str, clock: FakeClock
) -> None:
    """A process that died (its connections gone) holds nothing, lease or not; a live one
    keeps what it holds; on SQLite, one process at a time, the next frees them all at
    start-up (:meth:`release_claims`)."""
    database = postgres_url
    async with open_store(database, now=clock) as survivor:
        game = await game_with_messages(survivor, 100, 2)
        live = Claimer("live", lease=LEASE)
        async with open_store(database, now=clock) as dying:
            held = [row.id for row in await dying.claim_outbox(ONE)]
            assert len(held) == 2
            assert await dying.claim_game(game.id, ONE)
            assert await survivor.claim_outbox(TWO) == []
            assert not await survivor.claim_game(game.id, TWO)
        # The lease has not run out, but its claimer is gone.
        assert [row.id for row in await survivor.claim_outbox(TWO)] == held
        assert await survivor.claim_game(game.id, TWO)
        async with open_store(database, now=clock) as other:
            # TWO lives on in the survivor: its fresh claims bind others.
            assert await other.claim_outbox(live) == []
            assert not await other.claim_game(game.id, live)


async def test_on_postgresql_a_claimer_name_must_fit_a_connection_name(postgres_url: str) -> None:
    async with open_store(postgres_url) as store:
        with pytest.raises(ValueError, match="at most 63 bytes"):
            await store.claim_outbox(Claimer("x" * 64))
