"""The PostgreSQL store through a restart of its real server (a server of this module's own, so
the session's is never stopped): while the server is down every operation raises
:class:`ConnectionLost` and the log says so once; once it is back the pool reconnects by
itself, a claim of the connection that died holds nothing, and the claimer's named connection
is made again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.db.errors import ConnectionLost
from bot.db.postgres import POOL_SIZE
from bot.game.outbox import Outbox, Post
from bot.game.rows import Claimer
from bot.stores import PostgresStore
from sandbox import pgserver
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import HOST, NAMES, START, message

LEASE = timedelta(minutes=5)
ONE = Claimer("restart-one", lease=LEASE)
TWO = Claimer("restart-two", lease=LEASE)


@pytest.fixture
async def store(own_postgres: pgserver.PostgresServer) -> AsyncIterator[PostgresStore]:
    """A store on a new schema of the module's server."""
    url = own_postgres.url(own_postgres.create_schema())
    async with PostgresStore.open(url, now=FakeClock(START)) as opened:
        yield opened


def connected_names(server: pgserver.PostgresServer) -> set[str]:
    """The ``application_name`` of every connection open on the server now."""
    listed = server.psql("SELECT application_name FROM pg_stat_activity")
    return set(listed.splitlines())


async def test_while_the_server_is_down_each_operation_says_so_and_after_it_works_again(
    store: PostgresStore,
    restarting_postgres: pgserver.PostgresServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = await store.create_lobby(1, 100, HOST, NAMES[HOST], "A")
    with caplog.at_level(logging.INFO, logger="bot"):
        restarting_postgres.halt("fast")
        for _ in range(3):
            with pytest.raises(ConnectionLost):
                await store.get_game(game.id)
            with pytest.raises(ConnectionLost):
                await store.create_lobby(1, 200, HOST, NAMES[HOST], "A")
            with pytest.raises(ConnectionLost):
                await store.claim_games([game.id], ONE)
        told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(told) == 1, f"the log should tell of the server down once: {told}"
        assert "not answering" in told[0]

        restarting_postgres.launch()
        assert await store.get_game(game.id) == game
        other = await store.create_lobby(1, 200, HOST, NAMES[HOST], "A")
        assert await store.get_active_game(200) == other
    assert any("works again" in r.getMessage() for r in caplog.records)


async def test_idle_connections_of_a_restarted_server_are_lost_never_an_unexpected_error(
    store: PostgresStore, restarting_postgres: pgserver.PostgresServer
) -> None:
    # The pool keeps connections the restart ended. asyncpg finds some of them closed and
    # others stuck in the middle of a protocol exchange ("another operation is in
    # progress"): to a command both are the database not answering, and the pool replaces
    # them.
    game = await store.create_lobby(1, 100, HOST, NAMES[HOST], "A")
    await asyncio.gather(*(store.get_game(game.id) for _ in range(POOL_SIZE)))
    restarting_postgres.halt("fast")
    restarting_postgres.launch()
    lost = 0
    for _ in range(POOL_SIZE + 1):
        try:
            assert await store.get_game(game.id) == game
        except ConnectionLost:
            lost += 1
    assert lost >= 1, "no pooled connection noticed the restart"
    assert await store.get_game(game.id) == game


async def test_a_claim_of_a_connection_lost_holds_nothing_and_the_claimer_reconnects(
    store: PostgresStore, restarting_postgres: pgserver.PostgresServer
) -> None:
    game = await store.create_lobby(1, 100, HOST, NAMES[HOST], "A")
    later = await store.create_lobby(1, 200, HOST, NAMES[HOST], "A")
    assert await store.claim_games([game.id], ONE) == {game.id}
    assert ONE.name in connected_names(restarting_postgres)

    restarting_postgres.halt("immediate")  # a crash: no goodbye to any connection
    restarting_postgres.launch()
    assert ONE.name not in connected_names(restarting_postgres)
    # The claim's lease runs for minutes, but its connection is gone: it holds nothing.
    assert await store.claim_games([game.id], TWO) == {game.id}
    assert await store.claim_games([later.id], ONE) == {later.id}
    assert ONE.name in connected_names(restarting_postgres), "the claimer did not reconnect"
    assert await store.claim_games([game.id], ONE) == set()


async def test_a_post_whose_mark_was_cut_by_the_restart_is_marked_not_posted_again(
    store: PostgresStore, restarting_postgres: pgserver.PostgresServer
) -> None:
    game = await store.create_lobby(1, 100, HOST, NAMES[HOST], "A")
    await store.end_game(game.id, outbox_messages=[message("end", "once")])
    posts: list[str] = []

    async def send(channel_id: int, post: Post) -> int:
        posts.append(post.text)
        if len(posts) == 1:
            restarting_postgres.halt(
                "fast"
            )  # Discord took it; the database goes before it is marked
        return 9000 + len(posts)

    outbox = Outbox(store, send, render=lambda announcement: [])
    with pytest.raises(ConnectionLost):
        await outbox.drain()
    with pytest.raises(ConnectionLost):
        await outbox.drain()
    restarting_postgres.launch()
    assert len(await outbox.drain()) == 1
    assert posts == ["once"]
    assert await store.pending() == []


@pytest.mark.parametrize("how", ["fast", "immediate"])
async def test_a_transaction_the_restart_cuts_leaves_nothing_written(
    store: PostgresStore, restarting_postgres: pgserver.PostgresServer, how: str
) -> None:
    game = await store.create_lobby(1, 100, HOST, NAMES[HOST], "A")

    async def cut() -> None:
        async with store.transaction() as db:
            await db.execute("UPDATE games SET host_id = $1 WHERE id = $2", 7, game.id)
            restarting_postgres.halt(how)  # the server goes between the write and its COMMIT
            await db.execute("UPDATE games SET cards = $1 WHERE id = $2", "B", game.id)

    with pytest.raises(ConnectionLost):
        await cut()
    restarting_postgres.launch()
    assert await store.get_game(game.id) == game
