"""The tables' rows on every backend: a server's settings, the role a lobby called noted once,
the server's open lobbies with a free seat, and a stale lobby closed once, never one started
meanwhile."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db.errors import NotFound
from bot.game.rows import GameStatus
from bot.stores import Store
from bot.tables.store import ServerSettings
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import START, message

CLOCK_START = START

GUILD, OTHER = 10, 20
ROLE, ROLE2 = 500, 501
ADA, BEA, CY, DEE = 1, 2, 3, 4


async def test_a_server_without_settings_has_the_defaults(store: Store) -> None:
    assert await store.server_settings(GUILD) == ServerSettings(lobby_role_id=None, threads=False)


async def test_the_role_and_threads_are_set_apart_and_per_server(store: Store) -> None:
    assert await store.set_lobby_role(GUILD, ROLE) == ServerSettings(ROLE, threads=False)
    assert await store.set_threads(GUILD, True) == ServerSettings(ROLE, threads=True)
    assert await store.set_lobby_role(GUILD, None) == ServerSettings(None, threads=True)
    assert await store.set_threads(OTHER, True) == ServerSettings(None, threads=True)
    assert await store.set_lobby_role(OTHER, ROLE2) == ServerSettings(ROLE2, threads=True)
    assert await store.server_settings(GUILD) == ServerSettings(None, threads=True)
    assert await store.server_settings(OTHER) == ServerSettings(ROLE2, threads=True)


async def test_a_lobby_notes_its_role_once(store: Store) -> None:
    game = await store.create_lobby(GUILD, 100, ADA, "Ada", "random")
    assert await store.lobby_pinged_role(game.id) is None
    assert await store.note_lobby_ping(game.id, ROLE) is True
    assert await store.note_lobby_ping(game.id, ROLE) is False
    assert await store.note_lobby_ping(game.id, ROLE2) is False
    assert await store.lobby_pinged_role(game.id) == ROLE
    after = await store.get_game(game.id)
    assert after is not None
    assert after.revision == game.revision
    with pytest.raises(NotFound):
        await store.note_lobby_ping(game.id + 1000, ROLE)


async def test_open_lobbies_are_the_servers_with_a_free_seat_newest_first(
    store: Store, clock: FakeClock
) -> None:
    first = await store.create_lobby(GUILD, 100, ADA, "Ada", "random")
    clock.advance(timedelta(minutes=1))
    full = await store.create_lobby(GUILD, 101, BEA, "Bea", "A,A,A,A,A")
    for user in (ADA, CY, DEE):
        await store.join(full.id, user, f"u{user}")
    clock.advance(timedelta(minutes=1))
    await store.create_lobby(OTHER, 200, CY, "Cy", "random")
    started = await store.create_lobby(GUILD, 102, DEE, "Dee", "random")
    await store.start_game(
        started.id,
        started.revision,
        state_json="{}",
        seat_order=[DEE],
        outbox_messages=[],
        turn_started_at=START,
        next_reminder_at=None,
    )
    clock.advance(timedelta(minutes=1))
    newest = await store.create_lobby(GUILD, 103, CY, "Cy", "random")
    await store.join(newest.id, ADA, "Ada")

    found = await store.open_lobbies(GUILD, max_seats=4)
    assert [(lobby.game.id, lobby.seated) for lobby in found] == [(newest.id, 2), (first.id, 1)]
    assert [lobby.game.id for lobby in await store.open_lobbies(GUILD, max_seats=2)] == [first.id]


async def test_a_stale_lobby_closes_once_with_its_word(store: Store, clock: FakeClock) -> None:
    old = await store.create_lobby(GUILD, 100, ADA, "Ada", "random")
    clock.advance(timedelta(days=2))
    young = await store.create_lobby(GUILD, 101, BEA, "Bea", "random")
    clock.advance(timedelta(days=1, seconds=1))
    cutoff = clock.now - timedelta(days=3)
    assert [g.id for g in await store.lobbies_opened_before(cutoff)] == [old.id]

    ids = await store.close_stale_lobby(
        old.id, opened_before=cutoff, outbox_messages=[message("lobby_closed", "closed")]
    )
    assert ids is not None
    assert len(ids) == 1
    closed = await store.get_game(old.id)
    assert closed is not None
    assert closed.status is GameStatus.ENDED
    assert closed.revision == old.revision + 1
    assert (
        await store.close_stale_lobby(
            old.id, opened_before=cutoff, outbox_messages=[message("lobby_closed", "again")]
        )
        is None
    )
    assert await store.close_stale_lobby(young.id, opened_before=cutoff) is None
    still = await store.get_game(young.id)
    assert still is not None
    assert still.status is GameStatus.LOBBY
    assert await store.lobbies_opened_before(cutoff) == []
    assert [row.kind for row in await store.pending()] == ["lobby_closed"]


async def test_a_lobby_started_meanwhile_is_not_closed(store: Store, clock: FakeClock) -> None:
    game = await store.create_lobby(GUILD, 100, ADA, "Ada", "random")
    clock.advance(timedelta(days=4))
    [stale] = await store.lobbies_opened_before(clock.now - timedelta(days=3))
    await store.start_game(
        game.id,
        game.revision,
        state_json="{}",
        seat_order=[ADA],
        outbox_messages=[],
        turn_started_at=START,
        next_reminder_at=None,
    )
    assert (
        await store.close_stale_lobby(
            stale.id, opened_before=clock.now - timedelta(days=3), outbox_messages=[message()]
        )
        is None
    )
    started = await store.get_game(game.id)
    assert started is not None
    assert started.status is GameStatus.ACTIVE
    assert await store.pending() == []


async def test_a_lobby_is_warned_once_and_only_while_it_is_one(
    store: Store, clock: FakeClock
) -> None:
    old = await store.create_lobby(GUILD, 100, ADA, "Ada", "random")
    clock.advance(timedelta(days=1))
    young = await store.create_lobby(GUILD, 101, BEA, "Bea", "random")
    clock.advance(timedelta(days=1, seconds=1))
    started = await store.create_lobby(GUILD, 102, CY, "Cy", "random")
    since = clock.now - timedelta(days=3)
    soon = clock.now - timedelta(days=2)
    assert [g.id for g in await store.lobbies_to_warn(soon, since)] == [old.id]
    assert await store.warn_lobby(old.id, outbox_messages=[message("lobby_closing")]) is not None
    assert await store.warn_lobby(old.id, outbox_messages=[message("lobby_closing")]) is None
    assert await store.lobbies_to_warn(soon, since) == []
    warned = await store.get_game(old.id)
    assert warned is not None
    assert warned.revision == old.revision
    await store.start_game(
        started.id, started.revision, state_json="{}", seat_order=[CY], outbox_messages=[],
        turn_started_at=START, next_reminder_at=None,
    )  # fmt: skip
    assert await store.warn_lobby(started.id, outbox_messages=[message("lobby_closing")]) is None
    assert [g.id for g in await store.lobbies_to_warn(clock.now, since)] == [young.id]
    assert [row.kind for row in await store.pending()] == ["lobby_closing"]
