"""Which database ``CASCADIA_DB`` names, and opening the store on it.

A ``postgresql://`` (or ``postgres://``) URL names a PostgreSQL database, anything else the
path of an SQLite file::

    async with open_store(settings.database, now=now) as store:
        ...
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.db.postgres import PostgresStore
from bot.db.sqlite import SqliteStore
from bot.game.interface import Store
from bot.ops.clock import Clock, utc_now
from bot.ops.target import is_postgres_url


@asynccontextmanager
async def open_store(
    target: str | os.PathLike[str], *, now: Clock = utc_now
) -> AsyncIterator[Store]:
    """Open the store on ``target`` (``CASCADIA_DB``'s value) for the block, migrated to the
    current schema, and close it at the end."""
    if is_postgres_url(target):
        async with PostgresStore.open(str(target), now=now) as postgres:
            yield postgres
    else:
        async with SqliteStore.open(Path(target), now=now) as sqlite:
            yield sqlite
