"""The game's tables as the stores read and write them: the columns, the rows to values, and
the reads and writes that several stores share (a game locked, the revision bumped, the outbox
filled, the seats)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from bot.db.database import Connection, Database, Record
from bot.db.errors import NotFound
from bot.game.errors import GameClosed, NotActive, RevisionConflict
from bot.game.packing import DAMAGED_STATE, PackDamaged, pack_state, unpack_state
from bot.game.rows import (
    OPEN_STATUSES,
    GameRow,
    GameStatus,
    OutboxMessage,
    OutboxRow,
    Seat,
    SeatResult,
)

GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.status, g.host_id, g.cards, g.created_at, g.updated_at,"
    " g.revision, g.state, g.reminder_hours, g.turn_started_at, g.next_reminder_at,"
    " g.reminders_sent, g.lobby_message_id, g.deadline_hours, g.ping_due_at, g.parent_id,"
    " g.continues, g.locale"
)
SEAT_COLUMNS = (
    "s.game_id, s.seat, s.user_id, s.name, s.computer,"
    " (SELECT pl.locale FROM person_locales pl WHERE pl.user_id = s.user_id) AS locale"
)
OUTBOX_COLUMNS = (
    "o.id, o.game_id, o.channel_id, o.kind, o.payload, s.snapshot, o.created_at, o.attempts,"
    " o.last_error, o.sent_at, o.message_id"
)
OUTBOX_TABLES = "outbox o LEFT JOIN outbox_snapshots s ON s.outbox_id = o.id"
# Statuses written into the SQL, not bound: SQLite uses a partial index (``WHERE status =
# 'active'``) only when the query states its condition in the same literal words.
ACTIVE = f"'{GameStatus.ACTIVE.value}'"
OPEN = f"('{GameStatus.LOBBY.value}', '{GameStatus.ACTIVE.value}')"

RESULT_COLUMNS = (
    "game_id, seat, guild_id, user_id, name, computer, handed_over, players, cards, score,"
    " rank, nature_tokens, tokens_used, wildlife, habitats, corridor, turn_seconds, rated,"
    " season, finished_at"
)
"""The columns of a seat's result, as the final commit writes them."""

TURN_KINDS = "('start', 'turn', 'wipe')"
"""The outbox kinds of the messages that call a player to move."""


class GameTables(Database):
    """The helpers every store of the bot shares over the game's tables."""

    def _packed_state(self, text: str) -> bytes | None:
        """A finished game's state text as it is kept for good; ``None``: as it is. SQLite
        keeps long text as it is, and a column takes a BLOB as well as text; PostgreSQL
        compresses long text already (TOAST)."""
        return pack_state(text) if self._dialect == "sqlite" else None

    async def _load_game(self, db: Connection, game_id: int, *, lock: bool = False) -> GameRow:
        """The game; with ``lock``, held still until the transaction ends."""
        q = f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"
        row = await db.fetchrow(q + self._for_update if lock else q, game_id)
        if row is None:
            raise NotFound("game", game_id)
        return self._game(row)

    async def _lock_active(self, db: Connection, game_id: int, expected_revision: int) -> GameRow:
        """The game locked for a write on it in play at ``expected_revision``."""
        game = await self._load_game(db, game_id, lock=True)
        check_revision(game, expected_revision)
        if game.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, game.status)
        return game

    async def _set_open_game(self, game_id: int, settings: str, *values: object) -> GameRow:
        """Change a lobby's or a game in play's ``settings`` (bookkeeping: the revision stays)."""
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(f"UPDATE games SET {settings} WHERE id = $1", game_id, *values)
            return await self._load_game(db, game_id)

    async def _active_games(self, rest: str, *parameters: object) -> list[GameRow]:
        """The games being played that ``rest`` (more conditions, then the order) picks."""
        q = f"SELECT {GAME_COLUMNS} FROM games g WHERE g.status = {ACTIVE}{rest}"
        return [self._game(row) for row in await self._fetch(q, *parameters)]

    async def _bump(self, db: Connection, game: GameRow, **changes: object) -> int:
        """Write ``changes`` (column: value as stored) to ``game``, bump its revision and
        return the new one; :class:`RevisionConflict` if the row has moved on."""
        values = {"revision": game.revision + 1, "updated_at": self._stamp(), **changes}
        # Column names are the callers' keywords, never input.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(values, start=3))
        q = f"UPDATE games SET {assignments} WHERE id = $1 AND revision = $2 RETURNING revision"
        if await db.fetchval(q, game.id, game.revision, *values.values()) is None:
            revision = await db.fetchval("SELECT revision FROM games WHERE id = $1", game.id)
            if revision is None:
                raise NotFound("game", game.id)
            raise RevisionConflict(game.id, game.revision, int(revision))
        return game.revision + 1

    async def _insert_outbox(
        self, db: Connection, game: GameRow, messages: Sequence[OutboxMessage]
    ) -> tuple[int, ...]:
        stamp = self._stamp()
        ids: list[int] = []
        q = (
            "INSERT INTO outbox (game_id, channel_id, kind, payload, created_at)"
            " VALUES ($1, $2, $3, $4, $5) RETURNING id"
        )
        for message in messages:
            channel_id = game.channel_id if message.channel_id is None else message.channel_id
            values = (game.id, channel_id, message.kind, message.payload, stamp)
            outbox_id = int(await db.fetchval(q, *values))
            if message.snapshot is not None:
                snapshot = "INSERT INTO outbox_snapshots (outbox_id, snapshot) VALUES ($1, $2)"
                await db.execute(snapshot, outbox_id, message.snapshot)
            ids.append(outbox_id)
        return tuple(ids)

    # --- rows to values -----------------------------------------------------------------------

    def _game(self, row: Record) -> GameRow:
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            status=GameStatus(row["status"]),
            host_id=row["host_id"],
            cards=row["cards"],
            created_at=self._moment(row["created_at"]),
            updated_at=self._moment(row["updated_at"]),
            revision=row["revision"],
            state=self._state_text(row["id"], row["state"]),
            reminder_hours=row["reminder_hours"],
            turn_started_at=self._optional_moment(row["turn_started_at"]),
            next_reminder_at=self._optional_moment(row["next_reminder_at"]),
            reminders_sent=row["reminders_sent"],
            lobby_message_id=row["lobby_message_id"],
            deadline_hours=row["deadline_hours"],
            ping_due_at=self._optional_moment(row["ping_due_at"]),
            parent_id=row["parent_id"],
            continues=row["continues"],
            locale=row["locale"],
        )

    def _state_text(self, game_id: int, stored: object) -> str | None:
        """A game's state text, unpacked if it was packed (see :meth:`_packed_state`)."""
        if not isinstance(stored, bytes):
            return stored  # type: ignore[return-value]
        try:
            return unpack_state(stored)
        except PackDamaged as error:
            self._tell_damaged(game_id, "state", error)
            return DAMAGED_STATE

    def _tell_damaged(self, game_id: int, what: str, error: PackDamaged) -> None:
        """Log once a game and part that a packed ``what`` of it cannot be unpacked."""
        if (game_id, what) in self._told_damaged:
            return
        self._told_damaged.add((game_id, what))
        self._log.warning(
            "game %d: its packed %s cannot be unpacked (%s); restore it from a backup"
            " (docs/hosting.md, Backups)",
            game_id,
            what,
            error,
        )

    async def _insert_results(self, db: Connection, results: Sequence[SeatResult]) -> None:
        if not results:
            return
        q = (
            f"INSERT INTO results ({RESULT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
            " $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)"
            " ON CONFLICT (game_id, seat) DO NOTHING"
        )
        await db.executemany(q, [self._result_values(r) for r in results])

    def _result_values(self, r: SeatResult) -> tuple[object, ...]:
        return (
            r.game_id,
            r.seat,
            r.guild_id,
            r.user_id,
            r.name,
            r.computer,
            int(r.handed_over),
            r.players,
            r.cards,
            r.score,
            r.rank,
            r.nature_tokens,
            r.tokens_used,
            json.dumps(r.wildlife, sort_keys=True),
            json.dumps(r.habitats, sort_keys=True),
            r.corridor,
            json.dumps(list(r.turn_seconds)),
            int(r.rated),
            r.season,
            self._time(r.finished_at),
        )

    def _outbox(self, row: Record) -> OutboxRow:
        return OutboxRow(
            id=row["id"],
            game_id=row["game_id"],
            channel_id=row["channel_id"],
            kind=row["kind"],
            payload=row["payload"],
            snapshot=row["snapshot"],
            created_at=self._moment(row["created_at"]),
            attempts=row["attempts"],
            last_error=row["last_error"],
            sent_at=self._optional_moment(row["sent_at"]),
            message_id=row["message_id"],
        )


def check_revision(game: GameRow, expected: int) -> None:
    """:class:`RevisionConflict` unless ``game`` is at the ``expected`` revision."""
    if game.revision != expected:
        raise RevisionConflict(game.id, expected, game.revision)


def seat(row: Record) -> Seat:
    """A seat from a row of :data:`SEAT_COLUMNS`."""
    return Seat(
        row["game_id"], row["seat"], row["user_id"], row["name"], row["computer"], row["locale"]
    )


async def load_seats(db: Connection, game_id: int) -> list[Seat]:
    """The game's seats in seat order."""
    q = f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat"
    return [seat(row) for row in await db.fetch(q, game_id)]


async def insert_seats(db: Connection, seats: Iterable[Seat]) -> None:
    """Add the seats."""
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES ($1, $2, $3, $4, $5)",
        [(s.game_id, s.seat, s.user_id, s.name, s.computer) for s in seats],
    )


async def reseat(db: Connection, game_id: int, players: Sequence[Seat]) -> None:
    """Replace the game's seats with ``players`` numbered 0, 1, ... in the order given."""
    # Delete and insert rather than renumber in place: an in-place UPDATE could collide with
    # the (game_id, seat) key halfway through.
    await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
    await insert_seats(
        db, [Seat(game_id, n, p.user_id, p.name, p.computer) for n, p in enumerate(players)]
    )
