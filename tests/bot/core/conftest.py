"""The core tests' clock, store and game service: each runs on SQLite and on PostgreSQL through
the ``database`` fixture of ``tests/conftest.py``. A module that needs another start time or
another service overrides the fixture by name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.app import game_service
from bot.game.service import GameService
from bot.stores import Store, open_store
from tests.bot.clocks import FakeClock

START = datetime(2024, 5, 1, 12, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    """The service's clock, at ``START`` until a test moves it."""
    return FakeClock(START)


@pytest.fixture
async def store(database: str, clock: FakeClock) -> AsyncIterator[Store]:
    """A store of the test's own on each backend, on the test's clock."""
    async with open_store(database, now=clock) as opened:
        yield opened


@pytest.fixture
def service(store: Store, clock: FakeClock) -> GameService:
    """The game service as the bot runs it, on that store, every new game seeded 5."""
    return game_service(store, now=clock, seeds=lambda: 5)
