"""The outbox's rows as the game store reads and writes them: what is due, what was sent or
failed, the turn messages a later one refers to, and forgetting what was sent long ago."""

from __future__ import annotations

from datetime import datetime

from bot.db.errors import NotFound
from bot.game.rows import OutboxRow
from bot.game.tables import OUTBOX_COLUMNS, OUTBOX_TABLES, TURN_KINDS, GameTables

_MAX_ERROR_CHARS = 2_000
"""How much of a failed post's error is kept."""


class OutboxQueries(GameTables):
    """The outbox's queries, on either database."""

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Unsent outbox rows, oldest first; with ``max_attempts``, only rows tried fewer times;
        with ``channel_id``, only that channel's. Rows of one channel must be posted in this
        order: a caller that skips a failing row holds back the channel's later rows."""
        where = ["o.sent_at IS NULL"]
        params: list[int] = []
        if max_attempts is not None:
            params.append(max_attempts)
            where.append(f"o.attempts < ${len(params)}")
        if channel_id is not None:
            params.append(channel_id)
            where.append(f"o.channel_id = ${len(params)}")
        params.append(limit)
        q = (
            f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES} WHERE {' AND '.join(where)}"
            f" ORDER BY o.id LIMIT ${len(params)}"
        )
        return [self._outbox(row) for row in await self._fetch(q, *params)]

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        """One outbox row, sent or not."""
        q = f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES} WHERE o.id = $1"
        row = await self._fetchrow(q, outbox_id)
        return None if row is None else self._outbox(row)

    async def mark_sent(self, outbox_id: int, message_id: int) -> None:
        """Record that a row was posted as ``message_id`` and drop its snapshot; marking twice
        keeps the first time and message id."""
        q = (
            "UPDATE outbox SET sent_at = COALESCE(sent_at, $1),"
            " message_id = COALESCE(message_id, $2) WHERE id = $3 RETURNING id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, self._stamp(), message_id, outbox_id) is None:
                raise NotFound("outbox message", outbox_id)
            await db.execute("DELETE FROM outbox_snapshots WHERE outbox_id = $1", outbox_id)

    async def mark_failed(self, outbox_id: int, error: str) -> None:
        """Count a failed attempt to post a row and keep the error; ignored once it is sent."""
        q = (
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1"
            " WHERE id = $2 AND sent_at IS NULL RETURNING id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, error[:_MAX_ERROR_CHARS], outbox_id) is None:
                exists = await db.fetchval("SELECT 1 FROM outbox WHERE id = $1", outbox_id)
                if exists is None:
                    raise NotFound("outbox message", outbox_id)

    async def latest_message(self, game_id: int) -> int | None:
        """The Discord id of the game's latest posted turn message (start, turn or wipe)."""
        q = (
            "SELECT message_id FROM outbox WHERE game_id = $1 AND message_id IS NOT NULL"
            " AND kind IN ('start', 'turn', 'wipe') ORDER BY id DESC LIMIT 1"
        )
        message_id = await self._fetchval(q, game_id)
        return None if message_id is None else int(message_id)

    async def forget_sent(self, sent_before: datetime, *, limit: int = 1000) -> int:
        """Delete up to ``limit`` outbox rows posted before ``sent_before`` that nothing reads
        any more, oldest first; returns how many (call again while it is ``limit``).

        Kept whatever their age: every row not yet posted (a restart posts it, with its nonce),
        each game's final message (``finish``, which its history links to) and its latest
        turn message (what :meth:`latest_message` and :meth:`latest_turn_message` give). The
        game rows, the move log and the final record are never touched. The space comes back
        with :meth:`reclaim_space`."""
        q = (
            "SELECT o.id FROM outbox o WHERE o.sent_at < $1 AND o.kind <> 'finish'"
            " AND o.id <> COALESCE((SELECT max(t.id) FROM outbox t WHERE t.game_id = o.game_id"
            " AND t.message_id IS NOT NULL AND t.kind IN ('start', 'turn', 'wipe')), 0)"
            " ORDER BY o.id LIMIT $2"
        )
        async with self._transaction() as db:
            ids = self._list(row[0] for row in await db.fetch(q, self._time(sent_before), limit))
            await db.execute(f"DELETE FROM outbox_snapshots WHERE outbox_id {self._in('$1')}", ids)
            deleted = await db.fetch(
                f"DELETE FROM outbox WHERE id {self._in('$1')} RETURNING id", ids
            )
        return len(deleted)

    async def latest_turn_message(self, game_id: int) -> OutboxRow | None:
        """The row of the game's latest posted turn message (start, turn or wipe), if any."""
        q = (
            f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES} WHERE o.game_id = $1"
            " AND o.message_id IS NOT NULL AND o.kind IN ('start', 'turn', 'wipe')"
            " ORDER BY o.id DESC LIMIT 1"
        )
        row = await self._fetchrow(q, game_id)
        return None if row is None else self._outbox(row)

    async def turn_message_before(self, game_id: int, outbox_id: int) -> OutboxRow | None:
        """The game's last turn message (start, turn or wipe) queued before ``outbox_id``,
        sent or not."""
        q = (
            f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES}"
            " WHERE o.game_id = $1 AND o.id < $2"
            f" AND o.kind IN {TURN_KINDS} ORDER BY o.id DESC LIMIT 1"
        )
        row = await self._fetchrow(q, game_id, outbox_id)
        return None if row is None else self._outbox(row)
