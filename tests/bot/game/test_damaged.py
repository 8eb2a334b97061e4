"""A game whose saved state text is damaged: that game refuses, every other game plays on."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import aiosqlite
import pytest

from bot.game.errors import DamagedState
from bot.game.service import GameService
from bot.stores import open_store
from tests.bot.clocks import START, FakeClock
from tests.bot.game.test_service import _any_turn, _current_user

GUILD, HURT, WHOLE = 1, 10, 11
ADA, BOB = 100, 200


async def _start(service: GameService, channel: int) -> None:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=ADA, name="ada", cards="A"
    )
    await service.lobby.join(table.game.id, user_id=BOB, name="bob")
    await service.lobby.start(table.game.id, user_id=ADA)


async def test_a_damaged_state_refuses_that_game_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with open_store(str(path), now=FakeClock(START)) as store:
        service = GameService(store, now=FakeClock(START), seeds=lambda: 5)
        await _start(service, HURT)
        await _start(service, WHOLE)
        hurt = await service.game(HURT)
        async with aiosqlite.connect(path) as db:
            await db.execute(
                "UPDATE games SET state = substr(state, 1, 40) WHERE id = ?", (hurt.game.id,)
            )
            await db.commit()
        with caplog.at_level(logging.WARNING, logger="bot.game.kernel"):
            for _ in range(2):
                with pytest.raises(DamagedState, match="saved state is damaged"):
                    await service.game(HURT)
            with pytest.raises(DamagedState):
                await service.turns.play(
                    HURT, user_id=ADA, move=_any_turn(await service.game(WHOLE), random.Random(1))
                )
        detail = [r for r in caplog.records if f"game {hurt.game.id}:" in r.getMessage()]
        assert len(detail) == 1, "the operator's log should tell of the damaged game once"
        after = await store.get_game(hurt.game.id)
        assert after is not None
        assert after.state == (hurt.game.state or "")[:40]
        whole = await service.game(WHOLE)
        result = await service.turns.play(
            WHOLE, user_id=_current_user(whole), move=_any_turn(whole, random.Random(1))
        )
        assert result is not None
        assert (await service.game(WHOLE)).game.revision == whole.game.revision + 1
