"""How people hear of their turns (``/cascadia notify``: direct messages, heads-ups, the daily
digest, the channel ping, their own reminder interval) in :class:`~bot.game.store.SqlStore`, in
the same SQL for both databases."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import OUTBOX_COLUMNS, OUTBOX_TABLES, Record, SqlBase
from bot.game.rows import OutboxMessage, OutboxRow

_COLUMNS = (
    "user_id, dm, heads_up, digest_hour, channel_ping, reminder_hours, digest_day,"
    " dms_refused_at, refusal_told"
)
_TURN_KINDS = "('start', 'turn', 'wipe')"


@dataclass(frozen=True)
class NotifySettings:
    """How a Discord user hears of their turns, in all their games (the defaults: a mention
    in the channel and nothing else).

    ``digest_hour`` is an hour of their own day (the zone of their quiet hours, else UTC);
    ``reminder_hours`` replaces the game's interval (0: no reminders; ``None``: the game's).
    ``digest_day`` is their own day (``YYYY-MM-DD``) of the last digest; ``dms_refused_at``
    when Discord refused a direct message to them, ``refusal_told`` whether they were told.
    """

    user_id: int
    dm: bool = False
    heads_up: bool = False
    digest_hour: int | None = None
    channel_ping: bool = True
    reminder_hours: int | None = None
    digest_day: str | None = None
    dms_refused_at: datetime | None = None
    refusal_told: bool = False


class NotifyQueries(SqlBase):
    """The :class:`Store`'s methods for people's notification settings and the direct
    messages sent by them."""

    async def notify_settings(self, user_id: int) -> NotifySettings:
        found = await self.notify_settings_of([user_id])
        return found[user_id]

    async def notify_settings_of(self, user_ids: Collection[int]) -> dict[int, NotifySettings]:
        ids = sorted(set(user_ids))
        q = f"SELECT {_COLUMNS} FROM notify_settings WHERE user_id {self._in('$1')}"
        found = {
            row["user_id"]: self._settings(row) for row in await self._fetch(q, self._list(ids))
        }
        return {user_id: found.get(user_id, NotifySettings(user_id)) for user_id in ids}

    async def save_notify_settings(self, settings: NotifySettings) -> NotifySettings:
        q = (
            f"INSERT INTO notify_settings ({_COLUMNS}, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (user_id) DO UPDATE SET"
            " dm = excluded.dm, heads_up = excluded.heads_up,"
            " digest_hour = excluded.digest_hour, channel_ping = excluded.channel_ping,"
            " reminder_hours = excluded.reminder_hours, digest_day = excluded.digest_day,"
            " dms_refused_at = excluded.dms_refused_at, refusal_told = excluded.refusal_told,"
            " updated_at = excluded.updated_at"
        )
        s = settings
        if s.digest_hour is not None and not 0 <= s.digest_hour <= 23:
            raise ValueError(f"a digest hour is 0-23, not {s.digest_hour}")
        if s.reminder_hours is not None and not 0 <= s.reminder_hours <= 720:
            raise ValueError(f"reminder hours are 0-720, not {s.reminder_hours}")
        async with self._transaction() as db:
            await db.execute(
                q,
                s.user_id,
                int(s.dm),
                int(s.heads_up),
                s.digest_hour,
                int(s.channel_ping),
                s.reminder_hours,
                s.digest_day,
                self._optional_time(s.dms_refused_at),
                int(s.refusal_told),
                self._stamp(),
            )
            row = await db.fetchrow(
                f"SELECT {_COLUMNS} FROM notify_settings WHERE user_id = $1", s.user_id
            )
            return self._settings(row)

    async def digest_people(self) -> list[NotifySettings]:
        q = f"SELECT {_COLUMNS} FROM notify_settings WHERE digest_hour IS NOT NULL ORDER BY user_id"
        return [self._settings(row) for row in await self._fetch(q)]

    async def queue_digest(
        self,
        user_id: int,
        day: str,
        *,
        game_id: int | None,
        outbox_messages: Sequence[OutboxMessage] = (),
    ) -> tuple[int, ...] | None:
        q = (
            "UPDATE notify_settings SET digest_day = $1 WHERE user_id = $2"
            " AND (digest_day IS NULL OR digest_day <> $1) RETURNING user_id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, day, user_id) is None:
                return None
            if game_id is None or not outbox_messages:
                return ()
            game = await self._load_game(db, game_id)
            return await self._insert_outbox(db, game, outbox_messages)

    async def refuse_direct(self, outbox_id: int, user_id: int, error: str) -> bool:
        done = (
            "UPDATE outbox SET sent_at = COALESCE(sent_at, $1), attempts = attempts + 1,"
            " last_error = $2 WHERE id = $3"
        )
        refused = (
            "INSERT INTO notify_settings (user_id, dms_refused_at, updated_at)"
            " VALUES ($1, $2, $2) ON CONFLICT (user_id) DO UPDATE SET"
            " dms_refused_at = excluded.dms_refused_at, refusal_told = 0,"
            " updated_at = excluded.updated_at"
            " WHERE notify_settings.dms_refused_at IS NULL RETURNING user_id"
        )
        stamp = self._stamp()
        async with self._transaction() as db:
            await db.execute(done, stamp, error[:2_000], outbox_id)
            await db.execute("DELETE FROM outbox_snapshots WHERE outbox_id = $1", outbox_id)
            return await db.fetchval(refused, user_id, stamp) is not None

    async def take_refusal_note(self, user_id: int) -> bool:
        q = (
            "UPDATE notify_settings SET refusal_told = 1 WHERE user_id = $1"
            " AND dms_refused_at IS NOT NULL AND refusal_told = 0 RETURNING user_id"
        )
        async with self._transaction() as db:
            return await db.fetchval(q, user_id) is not None

    async def untake_refusal_note(self, user_id: int) -> None:
        q = (
            "UPDATE notify_settings SET refusal_told = 0 WHERE user_id = $1"
            " AND dms_refused_at IS NOT NULL"
        )
        async with self._transaction() as db:
            await db.execute(q, user_id)

    async def turn_message_before(self, game_id: int, outbox_id: int) -> OutboxRow | None:
        q = (
            f"SELECT {OUTBOX_COLUMNS} FROM {OUTBOX_TABLES} WHERE o.game_id = $1 AND o.id < $2"
            f" AND o.kind IN {_TURN_KINDS} ORDER BY o.id DESC LIMIT 1"
        )
        row = await self._fetchrow(q, game_id, outbox_id)
        return None if row is None else self._outbox(row)

    def _settings(self, row: Record) -> NotifySettings:
        return NotifySettings(
            user_id=int(row["user_id"]),
            dm=bool(row["dm"]),
            heads_up=bool(row["heads_up"]),
            digest_hour=row["digest_hour"],
            channel_ping=bool(row["channel_ping"]),
            reminder_hours=row["reminder_hours"],
            digest_day=row["digest_day"],
            dms_refused_at=self._optional_moment(row["dms_refused_at"]),
            refusal_told=bool(row["refusal_told"]),
        )
