"""The daily trek's store over :class:`~bot.game.store.GameStore`: attempts, the days'
boards, the servers' daily channels and the daily posts, in the same SQL for both
databases."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import Connection, Record
from bot.db.errors import StoreError
from bot.game.errors import ChannelBusy
from bot.game.rows import GameRow, GameStatus, OutboxMessage
from bot.game.store import GameStore
from bot.game.tables import ACTIVE, OPEN

_ATTEMPT_COLUMNS = "a.game_id, a.user_id, a.day, a.counted, a.created_at"
_CHANNEL_COLUMNS = "guild_id, channel_id, anchor_game_id, set_by, set_at"
_FINISHED = f"'{GameStatus.FINISHED.value}'"
ANCHOR_CARDS = "daily"
"""The ``cards`` of a daily channel's anchor row (it is no game: nobody plays it)."""


@dataclass(eq=False)
class AttemptCounted(StoreError):
    """The member's attempt of that day that counts exists already: another is practice."""

    user_id: int
    day: str

    def __str__(self) -> str:
        return f"user {self.user_id} has a counted daily attempt on {self.day} already"


@dataclass(frozen=True)
class DailyAttempt:
    """A game that is a member's attempt at a day's deal of the daily trek; ``day`` is the
    deal's date, ``YYYY-MM-DD``. ``counted``: their one attempt that counts that day (the
    others are practice, never on a board)."""

    game_id: int
    user_id: int
    day: str
    counted: bool
    created_at: datetime


@dataclass(frozen=True)
class DailyStart:
    """A daily attempt just started: its game (in play), whether it counts, the outbox rows
    of its first message."""

    game: GameRow
    counted: bool
    outbox_ids: tuple[int, ...]


@dataclass(frozen=True)
class DailyEntry:
    """A finished attempt that counts, as a day's board shows it: the server it was played
    from, the member, their score and largest corridor."""

    game_id: int
    guild_id: int
    user_id: int
    name: str
    day: str
    score: int
    corridor: int
    finished_at: datetime


@dataclass(frozen=True)
class DailyShare:
    """An attempt shared in its server's daily channel: the line's outbox row, and where it
    went once posted (``message_id`` ``None`` until then)."""

    game_id: int
    outbox_id: int
    channel_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class DailyChannel:
    """Where a server's daily messages go; ``anchor_game_id`` is the (ended, seatless) games
    row whose outbox rows they are."""

    guild_id: int
    channel_id: int
    anchor_game_id: int
    set_by: int
    set_at: datetime


class DailyStore(GameStore):
    """The daily trek's queries, over the game's store."""

    async def start_daily(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        day: str,
        counted: bool,
        cards: str,
        state_json: str,
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
    ) -> DailyStart:
        # A daily game is in play from its first row: a solo game has no lobby to wait in.
        """Start a member's solo attempt at ``day``'s deal in ``channel_id`` (their direct
        messages or a private thread) in one transaction: the game in play from its first
        state, reminders off, the member in seat 0, the attempt (``counted`` or practice) and
        the outbox rows. ``guild_id`` is the server it was asked from, whose board it joins.
        Raises :class:`ChannelBusy` when the channel has an open game, and
        :class:`AttemptCounted` for a counted attempt when the member has one that day;
        either way nothing is written."""
        q = (
            "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
            " updated_at, revision, state, reminder_hours, turn_started_at, locale)"
            " VALUES ($1, $2, $3, $4, $5, $6, $6, 1, $7, 0, $8,"
            "  (SELECT locale FROM person_locales WHERE user_id = $4))"
            f" ON CONFLICT (channel_id) WHERE status IN {OPEN} DO NOTHING RETURNING id"
        )
        stamp = self._stamp()
        async with self._transaction() as db:
            game_id = await db.fetchval(
                q,
                guild_id,
                channel_id,
                GameStatus.ACTIVE.value,
                user_id,
                cards,
                stamp,
                state_json,
                self._time(turn_started_at),
            )
            if game_id is None:
                q = f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN}"
                raise ChannelBusy(channel_id, int(await db.fetchval(q, channel_id)))
            q = "INSERT INTO seats (game_id, seat, user_id, name) VALUES ($1, 0, $2, $3)"
            await db.execute(q, game_id, user_id, name)
            # The partial unique index decides between two counted attempts at once.
            q = (
                "INSERT INTO daily_attempts (game_id, user_id, day, counted, created_at)"
                " VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (user_id, day) WHERE counted = 1 DO NOTHING RETURNING game_id"
            )
            if await db.fetchval(q, game_id, user_id, day, int(counted), stamp) is None:
                raise AttemptCounted(user_id, day)
            game = await self._load_game(db, int(game_id))
            ids = await self._insert_outbox(db, game, outbox_messages)
            return DailyStart(game, counted, ids)

    async def daily_attempt(self, game_id: int) -> DailyAttempt | None:
        """The daily attempt that this game is, if it is one."""
        q = f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts a WHERE a.game_id = $1"
        row = await self._fetchrow(q, game_id)
        return None if row is None else self._attempt(row)

    async def daily_games(self, game_ids: Collection[int]) -> set[int]:
        """Those of the games that are daily attempts."""
        q = f"SELECT game_id FROM daily_attempts WHERE game_id {self._in('$1')}"
        rows = await self._fetch(q, self._list(sorted(set(game_ids))))
        return {int(row["game_id"]) for row in rows}

    async def open_attempt(self, user_id: int) -> DailyAttempt | None:
        """The member's daily attempt still being played (of any day), the newest if several."""
        q = (
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts a JOIN games g ON g.id = a.game_id"
            f" WHERE a.user_id = $1 AND g.status = {ACTIVE} ORDER BY a.game_id DESC LIMIT 1"
        )
        row = await self._fetchrow(q, user_id)
        return None if row is None else self._attempt(row)

    async def counted_attempt(self, user_id: int, day: str) -> DailyAttempt | None:
        """The member's attempt that counts on ``day``, finished or not."""
        q = (
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts a"
            " WHERE a.user_id = $1 AND a.day = $2 AND a.counted = 1"
        )
        row = await self._fetchrow(q, user_id, day)
        return None if row is None else self._attempt(row)

    async def daily_entries(self, day: str, *, guild_id: int | None) -> list[DailyEntry]:
        # IS NULL OR: one statement for a server's board and for every player's.
        """The finished attempts that count on ``day``, those played from ``guild_id`` only
        unless it is ``None``; the highest score first (then the largest corridor, then the
        first to finish)."""
        q = (
            "SELECT a.game_id, r.guild_id, a.user_id, r.name, a.day, r.score, r.corridor,"
            " r.finished_at FROM daily_attempts a"
            " JOIN results r ON r.game_id = a.game_id AND r.seat = 0"
            " WHERE a.day = $1 AND a.counted = 1"
            " AND (CAST($2 AS bigint) IS NULL OR r.guild_id = $2)"
            " ORDER BY r.score DESC, r.corridor DESC, r.finished_at, a.game_id"
        )
        return [
            DailyEntry(
                game_id=row[0],
                guild_id=row[1],
                user_id=row[2],
                name=row[3],
                day=row[4],
                score=row[5],
                corridor=row[6],
                finished_at=self._moment(row[7]),
            )
            for row in await self._fetch(q, day, guild_id)
        ]

    async def daily_days(self, user_id: int) -> list[str]:
        """The days (``YYYY-MM-DD``) on which the member finished an attempt that counts,
        earliest first."""
        q = (
            "SELECT a.day FROM daily_attempts a JOIN games g ON g.id = a.game_id"
            f" WHERE a.user_id = $1 AND a.counted = 1 AND g.status = {_FINISHED}"
            " ORDER BY a.day"
        )
        return [str(row[0]) for row in await self._fetch(q, user_id)]

    async def set_daily_channel(
        self, guild_id: int, channel_id: int, *, user_id: int
    ) -> DailyChannel:
        """Name the server's daily channel (or change it); the first time, make its anchor
        row (see :class:`DailyChannel`)."""
        stamp = self._stamp()
        q = f"SELECT {_CHANNEL_COLUMNS} FROM daily_channels WHERE guild_id = $1"
        async with self._transaction() as db:
            if await db.fetchrow(q + self._for_update, guild_id) is not None:
                update = (
                    "UPDATE daily_channels SET channel_id = $2, set_by = $3, set_at = $4"
                    " WHERE guild_id = $1"
                )
                await db.execute(update, guild_id, channel_id, user_id, stamp)
                return self._channel(await db.fetchrow(q, guild_id))
            insert = (
                "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
                " updated_at, revision, locale) VALUES ($1, $2, $3, $4, $5, $6, $6, 1,"
                "  (SELECT COALESCE(chosen, seen) FROM server_locales WHERE guild_id = $1))"
                " RETURNING id"
            )
            ended = GameStatus.ENDED.value
            anchor = await db.fetchval(
                insert, guild_id, channel_id, ended, user_id, ANCHOR_CARDS, stamp
            )
            # Two first namings at once: the later keeps the earlier's anchor (its own stays
            # behind, an ended row with no seats and no messages).
            upsert = (
                f"INSERT INTO daily_channels ({_CHANNEL_COLUMNS}) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (guild_id) DO UPDATE SET channel_id = $2, set_by = $4, set_at = $5"
            )
            await db.execute(upsert, guild_id, channel_id, anchor, user_id, stamp)
            return self._channel(await db.fetchrow(q, guild_id))

    async def daily_channel(self, guild_id: int) -> DailyChannel | None:
        """The server's daily channel, if one was named."""
        q = f"SELECT {_CHANNEL_COLUMNS} FROM daily_channels WHERE guild_id = $1"
        row = await self._fetchrow(q, guild_id)
        return None if row is None else self._channel(row)

    async def daily_channels(self) -> list[DailyChannel]:
        """Every server's daily channel."""
        q = f"SELECT {_CHANNEL_COLUMNS} FROM daily_channels ORDER BY guild_id"
        return [self._channel(row) for row in await self._fetch(q)]

    async def queue_daily_post(
        self, guild_id: int, day: str, kind: str, message: OutboxMessage
    ) -> int | None:
        """Queue the server's daily post of ``kind`` (``morning`` or ``board``) for ``day``
        in its daily channel, in the outbox under the channel's anchor row; returns the outbox
        id, or ``None`` when that post was queued before (whatever became of it) or the
        server has no daily channel. At most once per server, day and kind, across processes
        and restarts."""
        async with self._transaction() as db:
            channel = await self._daily_channel(db, guild_id)
            if channel is None:
                return None
            # The key is taken first: a second process at the same moment waits on it and
            # then queues nothing (outbox id 0 until the row below is in).
            q = (
                "INSERT INTO daily_posts (guild_id, day, kind, outbox_id) VALUES ($1, $2, $3, 0)"
                " ON CONFLICT (guild_id, day, kind) DO NOTHING RETURNING kind"
            )
            if await db.fetchval(q, guild_id, day, kind) is None:
                return None
            outbox_id = await self._queue_in(db, channel, message)
            q = (
                "UPDATE daily_posts SET outbox_id = $4"
                " WHERE guild_id = $1 AND day = $2 AND kind = $3"
            )
            await db.execute(q, guild_id, day, kind, outbox_id)
            return outbox_id

    async def share_attempt(
        self, game_id: int, guild_id: int, message: OutboxMessage
    ) -> int | None:
        """Queue ``message``, an attempt's shared line, in the server's daily channel (under
        its anchor row); returns the outbox id, or ``None`` when the attempt was shared before
        or the server has no daily channel (then nothing is written). At most once per
        attempt, across processes and restarts."""
        async with self._transaction() as db:
            channel = await self._daily_channel(db, guild_id)
            if channel is None:
                return None
            # The key first, as queue_daily_post takes it: a second press waits, then skips.
            q = (
                "INSERT INTO daily_shares (game_id, outbox_id) VALUES ($1, 0)"
                " ON CONFLICT (game_id) DO NOTHING RETURNING game_id"
            )
            if await db.fetchval(q, game_id) is None:
                return None
            outbox_id = await self._queue_in(db, channel, message)
            q = "UPDATE daily_shares SET outbox_id = $2 WHERE game_id = $1"
            await db.execute(q, game_id, outbox_id)
            return outbox_id

    async def _daily_channel(self, db: Connection, guild_id: int) -> DailyChannel | None:
        """The server's daily channel, read in the caller's transaction; ``None``: none."""
        q = f"SELECT {_CHANNEL_COLUMNS} FROM daily_channels WHERE guild_id = $1"
        row = await db.fetchrow(q, guild_id)
        return None if row is None else self._channel(row)

    async def _queue_in(self, db: Connection, channel: DailyChannel, message: OutboxMessage) -> int:
        """Queue ``message`` in the daily channel, in the outbox under its anchor row; the
        outbox id."""
        anchor = await self._load_game(db, channel.anchor_game_id)
        posted = dataclasses.replace(message, channel_id=channel.channel_id)
        (outbox_id,) = await self._insert_outbox(db, anchor, [posted])
        return outbox_id

    async def daily_share(self, game_id: int) -> DailyShare | None:
        """The attempt's share, if it was shared."""
        q = (
            "SELECT s.game_id, s.outbox_id, o.channel_id, o.message_id FROM daily_shares s"
            " LEFT JOIN outbox o ON o.id = s.outbox_id WHERE s.game_id = $1"
        )
        row = await self._fetchrow(q, game_id)
        if row is None:
            return None
        return DailyShare(
            game_id=row["game_id"],
            outbox_id=row["outbox_id"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
        )

    async def first_achievements(self, game_id: int, user_id: int) -> set[str]:
        """The achievement ids the member earned for the first time in this game (none
        earlier in any server)."""
        q = (
            "SELECT a.achievement FROM achievements a WHERE a.game_id = $1 AND a.user_id = $2"
            " AND NOT EXISTS (SELECT 1 FROM achievements b WHERE b.user_id = a.user_id"
            " AND b.achievement = a.achievement AND b.game_id <> a.game_id"
            " AND b.finished_at < a.finished_at)"
        )
        return {str(row["achievement"]) for row in await self._fetch(q, game_id, user_id)}

    def _attempt(self, row: Record) -> DailyAttempt:
        return DailyAttempt(
            game_id=row["game_id"],
            user_id=row["user_id"],
            day=row["day"],
            counted=bool(row["counted"]),
            created_at=self._moment(row["created_at"]),
        )

    def _channel(self, row: Record) -> DailyChannel:
        return DailyChannel(
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            anchor_game_id=row["anchor_game_id"],
            set_by=row["set_by"],
            set_at=self._moment(row["set_at"]),
        )
