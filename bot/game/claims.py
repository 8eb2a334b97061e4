"""Claims: which process does a game's background work and posts its outbox rows, when
several bot processes share one database (shards). On SQLite one process owns the file; on
PostgreSQL a claim holds only while its claimer's connection is alive."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import cast

from bot.db.database import Connection
from bot.db.postgres import ALIVE
from bot.game.rows import Claimer, OutboxRow
from bot.game.tables import OUTBOX_COLUMNS, OUTBOX_TABLES, GameTables

_CLAIM_LOCK = 0x43415343
"""The advisory lock key that makes claims of outbox rows one process at a time."""


class ClaimQueries(GameTables):
    """Claiming outbox rows and games, on either database."""

    async def claim_outbox(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Claim unsent rows for ``claimer`` until its lease ends and return them, oldest
        first (only ``channel_id``'s when given): rows of games in guilds its shards own, not
        held by another claimer's lease that has not ended, in channels where no earlier
        unsent row is held so. Rows it holds already are claimed again (the lease renewed)."""
        if self._dialect == "postgres":
            return await self._claim_outbox_shared(claimer, limit, channel_id=channel_id)
        now = self._now()
        q = (
            "SELECT o.id FROM outbox o JOIN games g ON g.id = o.game_id"
            f" WHERE o.sent_at IS NULL AND (g.guild_id >> 22) % $1 {self._in('$2')}"
            " AND NOT EXISTS (SELECT 1 FROM outbox o2 WHERE o2.channel_id = o.channel_id"
            " AND o2.sent_at IS NULL AND o2.id <= o.id"
            " AND o2.claimed_by <> $3 AND o2.lease_until > $4)"
            f"{'' if channel_id is None else ' AND o.channel_id = $6'} ORDER BY o.id LIMIT $5"
        )
        only = () if channel_id is None else (channel_id,)
        shards = self._list(claimer.shard_ids)
        async with self._transaction() as db:
            rows = await db.fetch(
                q, claimer.shard_count, shards, claimer.name, self._time(now), limit, *only
            )
            if not rows:
                return []
            ids = self._list(row[0] for row in rows)
            q = f"UPDATE outbox SET claimed_by = $1, lease_until = $2 WHERE id {self._in('$3')}"
            await db.execute(q, claimer.name, self._time(now + claimer.lease), ids)
            return await self._outbox_rows(db, ids)

    async def _outbox_rows(self, db: Connection, ids: object) -> list[OutboxRow]:
        """The outbox rows of the ids in the list parameter ``ids``, oldest first."""
        q = f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES} WHERE o.id {self._in('$1')}"
        q += " ORDER BY o.id"
        return [self._outbox(row) for row in await db.fetch(q, ids)]

    async def claim_game(self, game_id: int, claimer: Claimer) -> bool:
        """Claim a game's background work (reminders, votes, pings, computer turns) for
        ``claimer`` until its lease ends; ``False`` when its shards do not own the game's guild
        or another claimer's lease holds it. Claiming again renews the lease."""
        return game_id in await self.claim_games((game_id,), claimer)

    async def claim_games(self, game_ids: Collection[int], claimer: Claimer) -> set[int]:
        """:meth:`claim_game` for several games in one statement; returns the ids claimed."""
        if not game_ids:
            return set()
        if self._dialect == "postgres":
            return await self._claim_games_shared(game_ids, claimer)
        q = (
            "UPDATE games SET claimed_by = $1, lease_until = $2"
            f" WHERE id {self._in('$3')} AND (guild_id >> 22) % $4 {self._in('$5')}"
            " AND (claimed_by IS NULL OR claimed_by = $1 OR lease_until <= $6) RETURNING id"
        )
        now = self._now()
        until, stamp = self._time(now + claimer.lease), self._time(now)
        ids, shards = self._list(game_ids), self._list(claimer.shard_ids)
        async with self._transaction() as db:
            rows = await db.fetch(q, claimer.name, until, ids, claimer.shard_count, shards, stamp)
        return {row[0] for row in rows}

    async def release_claims(self) -> int:
        """Drop every claim (rows and games) at once; returns how many rows were held. Only
        for a process that knows it is the only one on the database (an SQLite file it has
        locked), so that claims of a process that died are not waited out."""
        released = 0
        async with self._transaction() as db:
            for table in ("outbox", "games"):
                q = (
                    f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL"
                    " WHERE claimed_by IS NOT NULL RETURNING id"
                )
                released += len(await db.fetch(q))
        return released

    # --- PostgreSQL, where several processes share the database ---------------------------

    async def _claim_outbox_shared(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        # Claims are taken one process at a time (a transaction advisory lock): with rows
        # merely skipped while another process claims them (SKIP LOCKED), a process could
        # take a channel's later row while another takes its earlier one. A claim whose
        # claimer's connection is gone holds nothing (see _be_present).
        now = cast(datetime, self._time(self._now()))
        only = "" if channel_id is None else " AND o.channel_id = $7"
        shards, lease = list(claimer.shard_ids), now + claimer.lease
        values = (claimer.shard_count, shards, claimer.name, now, lease, limit)
        await self._be_present(claimer.name)
        async with self._transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", _CLAIM_LOCK)
            claimed = await db.fetch(
                "WITH picked AS ("
                " SELECT o.id FROM outbox o JOIN games g ON g.id = o.game_id"
                " WHERE o.sent_at IS NULL AND (g.guild_id >> 22) % $1 = ANY($2::bigint[])"
                " AND NOT EXISTS (SELECT 1 FROM outbox o2 WHERE o2.channel_id = o.channel_id"
                " AND o2.sent_at IS NULL AND o2.id <= o.id"
                " AND o2.claimed_by <> $3 AND o2.lease_until > $4"
                f" AND o2.claimed_by IN ({ALIVE}))"
                f"{only} ORDER BY o.id LIMIT $6 FOR UPDATE OF o)"
                " UPDATE outbox SET claimed_by = $3, lease_until = $5 FROM picked"
                " WHERE outbox.id = picked.id RETURNING outbox.id",
                *values,
                *([] if channel_id is None else [channel_id]),
            )
            return await self._outbox_rows(db, sorted(row["id"] for row in claimed))

    async def _claim_games_shared(self, game_ids: Collection[int], claimer: Claimer) -> set[int]:
        # A claim whose claimer's connection is gone holds nothing (see _be_present).
        if not game_ids:
            return set()
        now = cast(datetime, self._time(self._now()))
        shards, lease = list(claimer.shard_ids), now + claimer.lease
        values = (claimer.name, lease, list(game_ids), claimer.shard_count, shards, now)
        await self._be_present(claimer.name)
        async with self._transaction() as db:
            rows = await db.fetch(
                "UPDATE games SET claimed_by = $1, lease_until = $2"
                " WHERE id = ANY($3::bigint[]) AND (guild_id >> 22) % $4 = ANY($5::bigint[])"
                " AND (claimed_by IS NULL OR claimed_by = $1 OR lease_until <= $6"
                f" OR claimed_by NOT IN ({ALIVE})) RETURNING id",
                *values,
            )
        return {row["id"] for row in rows}
