"""Finished games packed for good (the retention of old games):
the move log of a game nothing has changed in for a week as one packed row, read back as the
same :class:`MoveRow` values; the formats are :mod:`bot.game.packing`'s."""

from __future__ import annotations

from datetime import datetime

from bot.db.database import Connection
from bot.game.errors import DamagedLog
from bot.game.packing import PackDamaged, pack_moves, unpack_moves
from bot.game.rows import GameStatus, MoveRow
from bot.game.tables import GameTables

_CLOSED = f"('{GameStatus.FINISHED.value}', '{GameStatus.ENDED.value}')"
_MOVE_COLUMNS = "game_id, seq, user_id, action, created_at, played_for"
# A game is packed once: its packed row is the mark. No state: a lobby that closed, or a
# daily trek's anchor row (no game at all).
_PACKABLE = (
    f"g.status IN {_CLOSED} AND g.state IS NOT NULL AND g.updated_at < $1"
    " AND NOT EXISTS (SELECT 1 FROM packed_moves p WHERE p.game_id = g.id)"
)
_PACKED = "SELECT packed FROM packed_moves WHERE game_id = $1"


class CompactQueries(GameTables):
    """The move log, whether packed or not, and the packing of old games."""

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's move log in order, the same once it is packed (see
        :meth:`compact_finished`); :class:`DamagedLog` if its packed log cannot be unpacked
        (the store's log has the detail)."""
        async with self._reading() as db:
            rows = await self._move_rows(db, game_id)
            # A packed game has no move rows left: only then is its packed row looked for.
            packed = None if rows else await db.fetchval(_PACKED, game_id)
        if packed is None:
            return rows
        try:
            return unpack_moves(game_id, bytes(packed))
        except PackDamaged as error:
            self._tell_damaged(game_id, "move log", error)
            raise DamagedLog(game_id, str(error)) from None

    async def compact_finished(self, before: datetime, *, limit: int = 100) -> int:
        """Pack up to ``limit`` finished or ended games last changed (``updated_at``) before
        ``before`` and not packed yet, oldest first; returns how many (call again while it is
        ``limit``). Each game is packed in a short transaction of its own.

        A game's move rows become one packed row and are deleted; on SQLite its state text is
        also stored compressed (PostgreSQL compresses long text by itself). Nothing a reader
        sees changes: :meth:`moves` and the game row's ``state`` read the same, the revision
        stays. Lobbies, games without a state (a daily trek's anchor) and open games are never
        touched. A game row whose packed state cannot be unpacked reads with the state
        :data:`~bot.game.packing.DAMAGED_STATE`, which no state reader parses, and the store's
        log has the detail. The space comes back with :meth:`reclaim_space`."""
        q = f"SELECT g.id FROM games g WHERE {_PACKABLE} ORDER BY g.updated_at, g.id LIMIT $2"
        until = self._time(before)
        async with self._transaction() as db:
            packed = 0
            for row in await db.fetch(q + self._for_update, until, limit):
                packed += await self._pack_game(db, int(row[0]))
        return packed

    async def _move_rows(self, db: Connection, game_id: int) -> list[MoveRow]:
        """The game's move rows in order (none once it is packed)."""
        q = f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq"
        return [
            MoveRow(r[0], r[1], r[2], r[3], self._moment(r[4]), r[5])
            for r in await db.fetch(q, game_id)
        ]

    async def _pack_game(self, db: Connection, game_id: int) -> int:
        """Pack the locked game's log (and, where the backend does, its state): 1, or 0 if
        another process packed it first."""
        moves = await self._move_rows(db, game_id)
        # Another process may have packed it while this one waited for the game's lock.
        q = (
            "INSERT INTO packed_moves (game_id, moves, packed) VALUES ($1, $2, $3)"
            " ON CONFLICT (game_id) DO NOTHING RETURNING game_id"
        )
        if await db.fetchval(q, game_id, len(moves), pack_moves(moves)) is None:
            return 0
        await db.execute("DELETE FROM moves WHERE game_id = $1", game_id)
        text = await db.fetchval("SELECT state FROM games WHERE id = $1", game_id)
        if isinstance(text, str) and (state := self._packed_state(text)) is not None:
            # Bookkeeping, not a change to the game: the revision and updated_at stay.
            await db.execute("UPDATE games SET state = $1 WHERE id = $2", state, game_id)
        return 1
