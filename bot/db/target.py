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
from urllib.parse import urlsplit, urlunsplit

from bot.db.postgres import PostgresStore
from bot.db.sqlite import SqliteStore
from bot.game.interface import Store
from bot.game.rows import Clock, utc_now

URL_SCHEMES = ("postgresql", "postgres")
"""The schemes of a ``CASCADIA_DB`` that names a PostgreSQL database."""


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (``CASCADIA_DB``'s value) is a PostgreSQL URL, not an SQLite path."""
    if not isinstance(target, str):
        return False
    scheme, separator, _ = target.partition("://")
    return bool(separator) and scheme.lower() in URL_SCHEMES


def safe_url(url: str) -> str:
    """The URL with any password replaced by ``***``: what may be logged or printed."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def describe(target: str | os.PathLike[str]) -> str:
    """How to name the database in a log line or an error: a path, or a URL without its
    password."""
    text = os.fspath(target)
    return safe_url(text) if is_postgres_url(text) else text


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
