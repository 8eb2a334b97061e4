"""A computer's turn that falls due while the PostgreSQL server is down (a real server of this
module's own, stopped and started): it waits, the log says so in a line and no error, and once
the server is back the turn is played once."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence

import pytest

from bot.computers.turns import ComputerTurns
from bot.game.computers import Thinker
from bot.game.service import GameService
from bot.stores import PostgresStore
from sandbox import pgserver
from tests.bot.clocks import START, FakeClock
from tests.bot.game.test_service import _any_turn, _current_user

GUILD, CHANNEL, ADA = 1, 10, 100


class Heard(logging.Handler):
    """Sets :attr:`event` when a record with ``text`` is logged."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.event.set()


async def test_a_computer_turn_due_while_the_server_is_down_is_played_once_it_is_back(
    restarting_postgres: pgserver.PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    server, clock = restarting_postgres, FakeClock(START)
    async with PostgresStore.open(server.url(server.create_schema()), now=clock) as store:
        service = GameService(store, now=clock, seeds=lambda: 7, thinker=Thinker())
        table = await service.lobby.open_lobby(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="ada", cards="A"
        )
        await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
        await service.lobby.start(table.game.id, user_id=ADA)
        table = await service.game(CHANNEL)
        if _current_user(table) == ADA:
            move = _any_turn(table, random.Random(1))
            await service.turns.play(CHANNEL, user_id=ADA, move=move)
        before = len(await store.moves(table.game.id))
        announced: list[Sequence[int]] = []

        async def announce(outbox_ids: Sequence[int]) -> None:
            announced.append(outbox_ids)

        computers = ComputerTurns(service, announce)
        waits = Heard("waits for the database")
        logging.getLogger("bot.db.retry").addHandler(waits)
        with caplog.at_level(logging.INFO):
            server.halt("fast")
            computers.wake([table.game.id])
            try:
                async with asyncio.timeout(10):
                    await waits.event.wait()
            finally:
                logging.getLogger("bot.db.retry").removeHandler(waits)
            server.launch()
            async with asyncio.timeout(60):
                await computers.idle()
        assert len(await store.moves(table.game.id)) == before + 1
        assert len(announced) == 1
        assert _current_user(await service.game(CHANNEL)) == ADA
        problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert problems == []
        assert any("goes on" in r.getMessage() for r in caplog.records)
