"""The bot's store: every feature's queries over one database, SQLite or PostgreSQL.

Each feature keeps its queries in its own ``store.py`` over the game's
(:class:`~bot.game.store.GameStore`); this module puts them together once, for each dialect
(:mod:`bot.db.sqlite`, :mod:`bot.db.postgres`), and :func:`open_store` opens the one
``CASCADIA_DB`` names::

    async with open_store(path_or_url) as store:
        game = await store.create_lobby(guild_id, channel_id, host_id, "Ada", "A,A,A,A,A")

The store knows nothing about the rules: engine state, actions and outbox payloads are opaque
text that it keeps and hands back unread, so a row it cannot make sense of still loads and the
caller decides what to do with it.

Revisions. Every game row carries a ``revision`` that goes up by one on each change to the
game itself (status, engine state, seats). Writes that act on a state the caller has seen take
an ``expected_revision`` and raise :class:`~bot.game.errors.RevisionConflict`, changing
nothing, when the row has moved on: two fast clicks cannot both apply. Bookkeeping that does
not change the game (reminders sent, reminder hours, the lobby message id) leaves the revision
alone, so it never invalidates a move in flight.

The outbox. A write that should be announced inserts its messages into the outbox in the same
transaction, so the announcement is stored if and only if the change is. The bot drains
:meth:`~bot.game.store.GameStore.pending` after every commit and at start-up, posts each row,
then calls :meth:`~bot.game.store.GameStore.mark_sent` (or ``mark_failed``). A crash or a
Discord error between the commit and the post only delays the message. What is left is a small
duplicate window: if the process dies after Discord accepted a post but before ``mark_sent``
is stored, that row is posted again on the next drain. Passing a nonce derived from the row id
to Discord (discord.py sets ``enforce_nonce``) closes that window for restarts within
Discord's few-minute nonce memory.

Times are aware datetimes, stored in SQLite as fixed-width ISO-8601 text in UTC (so text order
is time order and the file stays readable in the sqlite3 shell), in PostgreSQL as timestamptz.
The store reads the clock only through its injectable ``now`` callable.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.achievements.store import AchievementsStore
from bot.archive.store import ArchiveStore
from bot.attendance.store import AttendanceStore
from bot.daily.store import DailyStore
from bot.db.postgres import PostgresDatabase
from bot.db.sqlite import SqliteDatabase
from bot.ops.clock import Clock, utc_now
from bot.ops.target import is_postgres_url
from bot.panel.store import PanelStore
from bot.standings.store import StandingsStore
from bot.tables.store import TablesStore

__all__ = ["PostgresStore", "SqliteStore", "Store", "open_store"]


class Store(
    AchievementsStore,
    AttendanceStore,
    ArchiveStore,
    DailyStore,
    PanelStore,
    StandingsStore,
    TablesStore,
):
    """Every query of the bot, written once for both databases; a dialect below connects it."""


class SqliteStore(SqliteDatabase, Store):
    """The store on one SQLite file (the embedded default)."""


class PostgresStore(PostgresDatabase, Store):
    """The store on a PostgreSQL database, which several bot processes may share."""


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
