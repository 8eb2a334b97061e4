"""The bot tests' clock, stores and game service: each store runs on SQLite and on PostgreSQL
through the ``database`` fixture of ``tests/conftest.py``.

A test module that works from another moment sets ``CLOCK_START`` (the store tests start
their clock at :data:`tests.bot.game.test_store.START`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import discord_client
from bot.app import EXTENSIONS, Application, game_service
from bot.game.service import GameService
from bot.ops.config import Settings
from bot.shell.client import CascadiaBot
from bot.stores import SqliteStore, Store, open_store
from tests.bot.clocks import START, FakeClock


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> FakeClock:
    """The test's clock, at its module's ``CLOCK_START`` (else :data:`START`) until the test
    moves it."""
    return FakeClock(getattr(request.module, "CLOCK_START", START))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An SQLite file in the test's own folder."""
    return tmp_path / "cascadia.sqlite3"


@pytest.fixture
async def store(database: str, clock: FakeClock) -> AsyncIterator[Store]:
    """A store of the test's own on each backend, on the test's clock."""
    async with open_store(database, now=clock) as opened:
        yield opened


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CascadiaBot]:
    """The Discord client over a whole application on an SQLite file, every feature's
    extension loaded, not logged in: its command tree is the one Discord is sent."""
    path = tmp_path / "cascadia.sqlite3"
    async with (
        SqliteStore.open(path) as store,
        Application(Settings(token="t", db_path=path), store) as app,
        discord_client(app) as client,
    ):
        for extension in EXTENSIONS:
            await client.load_extension(extension)
        yield client


@pytest.fixture
def service(store: Store, clock: FakeClock) -> GameService:
    """The game service as the bot runs it, on that store, every new game seeded 5."""
    return game_service(store, now=clock, seeds=lambda: 5)


@pytest.fixture
async def sqlite_store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    """A store on an SQLite file of the test's own, on the test's clock: the golden
    transcripts' store, whose ids and order do not depend on the backend."""
    async with open_store(str(db_path), now=clock) as opened:
        yield opened
