"""A database written before the bot was split into layers still opens and plays on.

``tests/bot/db/data/v2.sqlite3`` was written by the bot as it was at schema version 2: an active
two-player game three turns in, a lobby, and a solo game ended after two turns, with part of
the outbox sent. The test works on a copy, so the file stays as it was written.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.game.outbox import Announcement
from bot.game.rows import GameStatus
from bot.game.service import GameService
from bot.stores import SqliteStore
from engine import Move, PlaceTile, PlaceToken, Take, apply, legal_actions, parse_action

FIXTURE = Path(__file__).parent / "data" / "v2.sqlite3"
ACTIVE, LOBBY, ENDED = 10, 11, 12
ADA, BOB, CY = 100, 200, 300


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    copy = tmp_path / "cascadia.sqlite3"
    shutil.copyfile(FIXTURE, copy)
    async with SqliteStore.open(copy, now=lambda: datetime(2024, 5, 2, tzinfo=UTC)) as opened:
        yield opened


async def test_the_games_read_back(store: SqliteStore) -> None:
    service = GameService(store)
    active = await service.game(ACTIVE)
    assert active.game.status is GameStatus.ACTIVE
    assert active.game.cards == "ABCDA"
    assert [(p.user_id, p.name) for p in active.players] == [(ADA, "Ada"), (BOB, "Bob")]
    assert active.require_state().turn == 3
    moves = await store.moves(active.game.id)
    assert len(moves) == 3
    for move in moves:
        for text in move.action.split("; "):
            parse_action(text)

    lobby = await service.game(LOBBY)
    assert lobby.game.status is GameStatus.LOBBY
    assert lobby.state is None
    assert [p.name for p in lobby.players] == ["Cy"]

    ended = await service.last_game(ENDED, user_id=ADA)
    assert ended.game.status is GameStatus.ENDED
    assert ended.require_state().solo
    document = await service.lookups.export(ENDED, user_id=ADA)
    assert len(document["moves"]) == 2
    assert "record" in document


async def test_the_pending_outbox_still_reads(store: SqliteStore) -> None:
    pending = [Announcement.from_row(row) for row in await store.pending()]
    assert [a.kind for a in pending] == ["start", "turn", "turn", "end"]
    assert all(a.state is not None for a in pending[:3])
    assert pending[-1].files  # the ended game's record so far


async def test_the_active_game_plays_on(store: SqliteStore) -> None:
    service = GameService(store)
    table = await service.game(ACTIVE)
    state = table.require_state()
    taken = apply(state, Take(1, 1))
    place = next(a for a in legal_actions(taken) if isinstance(a, PlaceTile))
    token = next(a for a in legal_actions(apply(taken, place)) if isinstance(a, PlaceToken))
    mover = table.players[state.current].user_id
    result = await service.turns.play(
        ACTIVE, user_id=mover, move=Move(1, 1, place.at, place.rotation, token.at)
    )
    after = await service.game(ACTIVE)
    assert after.game.revision == result.revision == table.game.revision + 1
    assert after.require_state().turn == 4
    assert len(await store.moves(after.game.id)) == 4
