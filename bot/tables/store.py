"""The tables' store over :class:`~bot.game.store.GameStore`: each server's settings, the role
a new lobby called, the server's open lobbies and the lobbies left unstarted too long, in the
same SQL for both databases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import Record
from bot.db.errors import NotFound
from bot.game.rows import GameRow, GameStatus, OutboxMessage
from bot.game.store import GameStore
from bot.game.tables import GAME_COLUMNS

_LOBBY = f"'{GameStatus.LOBBY.value}'"
_ENDED = {"status": GameStatus.ENDED.value, "next_reminder_at": None, "ping_due_at": None}


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's own settings; a server that changed none has the defaults."""

    lobby_role_id: int | None = None
    """The role a new lobby with free seats mentions once; ``None``: none."""
    threads: bool = False
    """Whether ``/cascadia new`` opens its table in a thread of its own by default."""


@dataclass(frozen=True, slots=True)
class OpenLobby:
    """A lobby of the server's, as the list of open tables shows it."""

    game: GameRow
    seated: int
    """How many seats are taken (computers too)."""


class TablesStore(GameStore):
    """The servers' settings, the lobbies' call for players, the open lobbies and closing the
    lobbies nobody started."""

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's settings (the defaults when it changed none)."""
        q = "SELECT lobby_role_id, threads FROM server_settings WHERE guild_id = $1"
        row = await self._fetchrow(q, guild_id)
        return ServerSettings() if row is None else _settings(row)

    async def set_lobby_role(self, guild_id: int, role_id: int | None) -> ServerSettings:
        """Name the role new lobbies call (``None``: none); the settings as they are then."""
        q = (
            "INSERT INTO server_settings (guild_id, lobby_role_id) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET lobby_role_id = $2"
            " RETURNING lobby_role_id, threads"
        )
        async with self._transaction() as db:
            return _settings(await db.fetchrow(q, guild_id, role_id))

    async def set_threads(self, guild_id: int, threads: bool) -> ServerSettings:
        """Whether new tables open in threads by default; the settings as they are then."""
        q = (
            "INSERT INTO server_settings (guild_id, threads) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET threads = $2"
            " RETURNING lobby_role_id, threads"
        )
        async with self._transaction() as db:
            return _settings(await db.fetchrow(q, guild_id, int(threads)))

    async def note_lobby_ping(self, game_id: int, role_id: int) -> bool:
        """Note that the lobby mentions ``role_id``, before it does: ``True`` the first time,
        ``False`` once any role was noted for it (it never mentions one again). Bookkeeping:
        no revision bump. :class:`NotFound` for an unknown game."""
        q = (
            "UPDATE games SET lobby_pinged_role = $2"
            " WHERE id = $1 AND lobby_pinged_role IS NULL RETURNING id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, game_id, role_id) is not None:
                return True
            if await db.fetchval("SELECT id FROM games WHERE id = $1", game_id) is None:
                raise NotFound("game", game_id)
            return False

    async def lobby_pinged_role(self, game_id: int) -> int | None:
        """The role the lobby mentioned, if it did."""
        value = await self._fetchval("SELECT lobby_pinged_role FROM games WHERE id = $1", game_id)
        return None if value is None else int(value)

    async def open_lobbies(self, guild_id: int, *, max_seats: int) -> list[OpenLobby]:
        """The server's lobbies with a free seat, newest first."""
        seated = "(SELECT count(*) FROM seats s WHERE s.game_id = g.id)"
        q = (
            f"SELECT {GAME_COLUMNS}, {seated} AS seated FROM games g"
            f" WHERE g.guild_id = $1 AND g.status = {_LOBBY} AND {seated} < $2"
            " ORDER BY g.created_at DESC, g.id DESC"
        )
        rows = await self._fetch(q, guild_id, max_seats)
        return [OpenLobby(self._game(row), int(row["seated"])) for row in rows]

    async def lobbies_opened_before(self, moment: datetime) -> list[GameRow]:
        """Every lobby (of any server) opened before ``moment``, oldest first."""
        q = (
            f"SELECT {GAME_COLUMNS} FROM games g"
            f" WHERE g.status = {_LOBBY} AND g.created_at < $1 ORDER BY g.created_at, g.id"
        )
        return [self._game(row) for row in await self._fetch(q, self._time(moment))]

    async def lobbies_to_warn(
        self, opened_before: datetime, opened_since: datetime
    ) -> list[GameRow]:
        """The lobbies opened between ``opened_since`` and ``opened_before`` whose channel
        was not told yet that they close, oldest first."""
        q = (
            f"SELECT {GAME_COLUMNS} FROM games g WHERE g.status = {_LOBBY}"
            " AND g.created_at < $1 AND g.created_at >= $2 AND g.lobby_warned = 0"
            " ORDER BY g.created_at, g.id"
        )
        rows = await self._fetch(q, self._time(opened_before), self._time(opened_since))
        return [self._game(row) for row in rows]

    async def warn_lobby(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage]
    ) -> tuple[int, ...] | None:
        """Queue the word that the lobby closes soon, once: the outbox ids, or ``None`` when it
        was told already or is no lobby any more. Bookkeeping: no revision bump."""
        q = (
            f"UPDATE games SET lobby_warned = 1 WHERE id = $1 AND status = {_LOBBY}"
            " AND lobby_warned = 0 RETURNING id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, game_id) is None:
                return None
            game = await self._load_game(db, game_id)
            return await self._insert_outbox(db, game, outbox_messages)

    async def close_stale_lobby(
        self,
        game_id: int,
        *,
        opened_before: datetime,
        outbox_messages: Sequence[OutboxMessage] = (),
    ) -> tuple[int, ...] | None:
        """Close the lobby (status ``ended``) if it is still one and was opened before
        ``opened_before``, and queue ``outbox_messages`` with it; the outbox ids, or ``None``
        when it was started or closed meanwhile (nothing changes then)."""
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status is not GameStatus.LOBBY or game.created_at >= opened_before:
                return None
            await self._bump(db, game, **_ENDED)
            return await self._insert_outbox(db, game, outbox_messages)


def _settings(row: Record) -> ServerSettings:
    role = row["lobby_role_id"]
    return ServerSettings(
        lobby_role_id=None if role is None else int(role), threads=bool(row["threads"])
    )
