"""Games over packed for good, on both backends: a game finished or ended more than a week ago
reads back the same once packed, whatever else there is (lobbies, games in play, a daily
trek's anchor, games changed within the week) stays as it is, packing twice packs nothing, the
move rows of a game not packed still cannot be deleted, and a damaged packed log is told of
for its game alone."""

from __future__ import annotations

import logging
import sqlite3
from datetime import timedelta

import asyncpg
import pytest

from bot.game.errors import DamagedLog
from bot.game.packing import DAMAGED_STATE
from bot.game.rows import GameRow, GameStatus
from bot.stores import PostgresStore, SqliteStore, Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import BOB, GUILD, HOST, START, lobby, message, move, started

CLOCK_START = START

WEEK = timedelta(days=7)


async def _game(store: Store, game_id: int) -> GameRow:
    found = await store.get_game(game_id)
    assert found is not None
    return found


async def _finished(store: Store, channel: int) -> GameRow:
    """A game of three moves, the second chosen by a vote, the third ending it."""
    game = await started(store, channel=channel)
    await move(store, game, state='{"turn": 1}')
    game = await _game(store, game.id)
    await store.commit_move(
        game.id,
        game.revision,
        user_id=BOB,
        action_text="take 1; tile 0,1 2; token return",
        new_state_json='{"turn": 2, "note": "é"}',
        new_status=GameStatus.ACTIVE,
        outbox_messages=[message()],
        turn_started_at=START + timedelta(hours=2),
        next_reminder_at=None,
        played_for="vote",
    )
    game = await _game(store, game.id)
    await move(store, game, state='{"turn": 3, "over": true}', status=GameStatus.FINISHED)
    return await _game(store, game.id)


async def _sql(store: Store, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Rows of ``sql`` (``$1`` placeholders), straight from the database."""
    if isinstance(store, SqliteStore):
        async with store.transaction() as db:
            rows = await db.execute_fetchall(sql.replace("$", "?"), args)
    else:
        assert isinstance(store, PostgresStore)
        async with store.transaction() as db:
            rows = await db.fetch(sql, *args)
    return [tuple(row) for row in rows]


async def test_a_game_over_a_week_ago_is_packed_and_reads_the_same(
    store: Store, clock: FakeClock
) -> None:
    game = await _finished(store, 300)
    moves, row = await store.moves(game.id), await _game(store, game.id)
    assert len(moves) == 3
    assert moves[1].played_for == "vote"
    clock.advance(WEEK + timedelta(minutes=1))

    assert await store.compact_finished(clock.now - WEEK) == 1
    assert await _sql(store, "SELECT count(*) FROM moves WHERE game_id = $1", game.id) == [(0,)]
    assert await _sql(store, "SELECT moves FROM packed_moves WHERE game_id = $1", game.id) == [(3,)]
    assert await store.moves(game.id) == moves
    assert await _game(store, game.id) == row, "the state, the revision, updated_at: the same"
    [(kind,)] = await _sql(store, "SELECT state FROM games WHERE id = $1", game.id)
    assert isinstance(kind, bytes) == isinstance(store, SqliteStore), "packed on SQLite only"

    assert await store.compact_finished(clock.now) == 0, "a game is packed once"
    assert await store.moves(game.id) == moves
    assert await _game(store, game.id) == row


async def test_only_games_over_and_a_week_old_are_packed(store: Store, clock: FakeClock) -> None:
    old = await _finished(store, 300)
    ended = await started(store, channel=301)
    await move(store, ended)
    await store.end_game(ended.id)
    playing = await started(store, channel=302)
    await move(store, playing)
    waiting = await lobby(store, channel=303)
    closed = await lobby(store, channel=304)
    await store.end_game(closed.id)
    anchor = (await store.set_daily_channel(GUILD, 305, user_id=HOST)).anchor_game_id
    clock.advance(WEEK + timedelta(hours=1))
    recent = await _finished(store, 306)
    before = {g: await store.moves(g) for g in (old.id, ended.id, playing.id, recent.id)}

    # Pinned to a time, oldest first: the finished game, then the game ended early.
    assert await store.compact_finished(clock.now - WEEK, limit=1) == 1
    assert await store.compact_finished(clock.now - WEEK, limit=1) == 1
    assert await store.compact_finished(clock.now - WEEK) == 0
    packed = await _sql(store, "SELECT game_id FROM packed_moves ORDER BY game_id")
    assert packed == [(old.id,), (ended.id,)]
    for game_id, moves in before.items():
        assert await store.moves(game_id) == moves
    rows = await _sql(store, "SELECT DISTINCT game_id FROM moves ORDER BY game_id")
    assert rows == [(playing.id,), (recent.id,)]
    assert (await _game(store, waiting.id)).status is GameStatus.LOBBY
    for game_id in (closed.id, anchor, waiting.id):
        assert (await _game(store, game_id)).state is None

    assert await store.compact_finished(clock.now - WEEK + timedelta(hours=1)) == 0
    clock.advance(WEEK + timedelta(minutes=1))
    assert await store.compact_finished(clock.now - WEEK) == 1, "the recent game, a week on"
    assert await store.moves(recent.id) == before[recent.id]
    assert await store.moves(playing.id) == before[playing.id]


async def test_the_moves_of_a_game_not_packed_cannot_be_deleted(
    store: Store, clock: FakeClock
) -> None:
    game = await _finished(store, 300)
    refused = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
    with pytest.raises(refused, match="append-only"):
        await _sql(store, "DELETE FROM moves WHERE game_id = $1", game.id)
    with pytest.raises(refused, match="append-only"):
        await _sql(store, "UPDATE moves SET action = 'rewritten' WHERE game_id = $1", game.id)
    assert len(await store.moves(game.id)) == 3


async def test_a_damaged_packed_log_is_told_of_for_its_game_alone(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    hurt = await _finished(store, 300)
    whole = await _finished(store, 301)
    moves = await store.moves(whole.id)
    clock.advance(WEEK + timedelta(minutes=1))
    assert await store.compact_finished(clock.now - WEEK) == 2
    await _sql(store, "UPDATE packed_moves SET packed = $1 WHERE game_id = $2", b"x\x9c!", hurt.id)

    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            with pytest.raises(DamagedLog) as raised:
                await store.moves(hurt.id)
            assert raised.value.game_id == hurt.id
    told = [r for r in caplog.records if f"game {hurt.id}: its packed move log" in r.getMessage()]
    assert len(told) == 1, "the operator's log should tell of the damaged log once"
    assert await store.moves(whole.id) == moves
    assert (await _game(store, hurt.id)).state == '{"turn": 3, "over": true}'


async def test_a_damaged_packed_state_reads_as_damaged_for_its_game_alone(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    if not isinstance(store, SqliteStore):
        pytest.skip("PostgreSQL keeps the state as text")
    hurt = await _finished(store, 300)
    whole = await _finished(store, 301)
    clock.advance(WEEK + timedelta(minutes=1))
    assert await store.compact_finished(clock.now - WEEK) == 2
    await _sql(store, "UPDATE games SET state = substr(state, 1, 8) WHERE id = $1", hurt.id)

    with caplog.at_level(logging.WARNING):
        assert (await _game(store, hurt.id)).state == DAMAGED_STATE
        listed = await store.games_for_user(HOST, statuses=[GameStatus.FINISHED])
    assert {g.game.id: g.game.state for g in listed} == {
        whole.id: '{"turn": 3, "over": true}',
        hurt.id: DAMAGED_STATE,
    }
    told = [r for r in caplog.records if f"game {hurt.id}: its packed state" in r.getMessage()]
    assert len(told) == 1
