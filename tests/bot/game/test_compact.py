"""A game played to its end through the service and packed by the hourly pass a week later, on
both backends: the export, the replay's record, the board, the history and the stats answer
as before; a damaged packed log (or, on SQLite, a damaged packed state) gives the
damaged-game answer for that game alone."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.archive.service import Archive
from bot.game.errors import DamagedState
from bot.game.rows import GameRow, GameStatus
from bot.game.service import GameService
from bot.retention.forgetting import KEEP_UNPACKED, Forgetting, Pass
from bot.standings.service import stats_answer
from bot.stores import PostgresStore, SqliteStore, Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_service import ADA, BOB, GUILD, _any_turn, _current_user

WEEK_ON = KEEP_UNPACKED + timedelta(hours=1)


async def _play_to_end(service: GameService, channel: int, seed: int) -> GameRow:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=ADA, name="Ada", cards="A"
    )
    await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(channel)
    rng = random.Random(seed)
    while table.game.status is GameStatus.ACTIVE:
        await service.turns.play(channel, user_id=_current_user(table), move=_any_turn(table, rng))
        table = await service.game_by_id(table.game.id)
    return table.game


async def _seen(service: GameService, store: Store, game: GameRow) -> tuple[object, ...]:
    """What the commands that read a finished game answer: export, replay, board, history,
    stats."""
    archive = Archive(store)
    finished = await archive.finished(GUILD, game.id)
    board = await service.last_game(game.channel_id, user_id=ADA)
    return (
        await service.lookups.export(game.channel_id, user_id=ADA),
        await archive.record(finished),
        await archive.totals(finished),
        board.game,
        board.score_sheet(),
        [(g.id, g.revision, g.updated_at) for g in await store.finished_games(GUILD)],
        await stats_answer(store, GUILD, ADA, "Ada"),
        await store.moves(game.id),
    )


async def _pass(store: Store, clock: FakeClock) -> Pass:
    return await Forgetting(store, clock, clock=lambda: 0.0, games=1).run()


async def test_a_packed_game_answers_as_before(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    first = await _play_to_end(service, 10, seed=5)
    second = await _play_to_end(service, 11, seed=6)
    before = [await _seen(service, store, game) for game in (first, second)]
    assert len(await store.moves(first.id)) == 40

    clock.advance(timedelta(days=6))
    assert await _pass(store, clock) == Pass(), "within the week nothing is packed"
    clock.advance(WEEK_ON)
    assert (await _pass(store, clock)).packed == 2

    assert [await _seen(service, store, game) for game in (first, second)] == before
    assert await _pass(store, clock) == Pass()


async def _damage(store: Store, sql: str, game_id: int) -> None:
    if isinstance(store, SqliteStore):
        async with store.transaction() as db:
            await db.execute(sql.replace("$", "?"), (game_id,))
    else:
        assert isinstance(store, PostgresStore)
        async with store.transaction() as db:
            await db.execute(sql, game_id)


async def test_a_damaged_packed_log_refuses_that_game_only(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    hurt = await _play_to_end(service, 10, seed=5)
    whole = await _play_to_end(service, 11, seed=6)
    before = await _seen(service, store, whole)
    clock.advance(WEEK_ON)
    assert (await _pass(store, clock)).packed == 2
    await _damage(
        store, "UPDATE packed_moves SET packed = substr(packed, 1, 9) WHERE game_id = $1", hurt.id
    )

    with pytest.raises(DamagedState, match="saved state is damaged"):
        await service.lookups.export(hurt.channel_id, user_id=ADA)
    archive = Archive(store)
    with pytest.raises(DamagedState):
        await archive.record(await archive.finished(GUILD, hurt.id))
    board = await service.last_game(hurt.channel_id, user_id=ADA)
    assert board.state is not None, "the board needs no move log"
    assert await _seen(service, store, whole) == before


async def test_a_damaged_packed_state_refuses_that_game_only(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    if not isinstance(store, SqliteStore):
        pytest.skip("PostgreSQL keeps the state as text")
    hurt = await _play_to_end(service, 10, seed=5)
    whole = await _play_to_end(service, 11, seed=6)
    before = await _seen(service, store, whole)
    clock.advance(WEEK_ON)
    assert (await _pass(store, clock)).packed == 2
    await _damage(store, "UPDATE games SET state = substr(state, 1, 40) WHERE id = $1", hurt.id)

    for read in (
        service.last_game(hurt.channel_id, user_id=ADA),
        service.lookups.export(hurt.channel_id, user_id=ADA),
        service.game_by_id(hurt.id),
    ):
        with pytest.raises(DamagedState, match="saved state is damaged"):
            await read
    archive = Archive(store)
    with pytest.raises(DamagedState):
        await archive.record(await archive.finished(GUILD, hurt.id))
    assert await _seen(service, store, whole) == before
