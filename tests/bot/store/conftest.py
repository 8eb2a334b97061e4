"""The store tests' clock and stores: each store test runs on SQLite and on PostgreSQL through
the ``database`` fixture of ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.stores import Store, open_store
from tests.bot.clocks import FakeClock
from tests.bot.store.test_store import START


@pytest.fixture
def clock() -> FakeClock:
    """The stores' clock, at ``START`` until a test moves it."""
    return FakeClock(START)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An SQLite file in the test's own folder."""
    return tmp_path / "cascadia.sqlite3"


@pytest.fixture
async def store(database: str, clock: FakeClock) -> AsyncIterator[Store]:
    """A store of the test's own on each backend."""
    async with open_store(database, now=clock) as opened:
        yield opened
