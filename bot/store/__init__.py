"""The bot's persistence: games, seats, the move log, the outbox and reminder bookkeeping.

Everything sits behind the small async :class:`Store` protocol (``interface``, where each
method's contract is written), implemented once in SQL both databases run (``sql``,
``sqlabsence``; ``sqlbase`` holds what they share and the hooks a backend fills in). The
backends hold only what differs: :class:`SqliteStore`, one SQLite file through one long-lived
aiosqlite connection (the embedded default), and :class:`PostgresStore`, a pool of asyncpg
connections that several bot processes may share. :func:`open_store` picks one from
``CASCADIA_DB``'s value (a ``postgresql://`` URL, or a file path)::

    async with open_store(path_or_url) as store:
        game = await store.create_lobby(guild_id, channel_id, host_id, "Ada", "A,A,A,A,A")

The store knows nothing about the rules: engine state, actions and outbox payloads are opaque
text that it keeps and hands back unread, so a row it cannot make sense of still loads and the
caller decides what to do with it.

Revisions. Every game row carries a ``revision`` that goes up by one on each change to the
game itself (status, engine state, seats). Writes that act on a state the caller has seen take
an ``expected_revision`` and raise :class:`RevisionConflict`, changing nothing, when the row
has moved on: two fast clicks cannot both apply. Bookkeeping that does not change the game
(reminders sent, reminder hours, the lobby message id) leaves the revision alone, so it never
invalidates a move in flight.

The outbox. A write that should be announced inserts its messages into the outbox in the same
transaction, so the announcement is stored if and only if the change is. The bot drains
:meth:`Store.pending` after every commit and at start-up, posts each row, then calls
:meth:`Store.mark_sent` (or :meth:`Store.mark_failed`). A crash or a Discord error between the
commit and the post only delays the message. What is left is a small duplicate window: if the
process dies after Discord accepted a post but before ``mark_sent`` is stored, that row is posted
again on the next drain. Passing a nonce derived from the row id to Discord (discord.py sets
``enforce_nonce``) closes that window for restarts within Discord's few-minute nonce memory.

Times are aware datetimes, stored in SQLite as fixed-width ISO-8601 text in UTC (so text order
is time order and the file stays readable in the sqlite3 shell), in PostgreSQL as timestamptz.
The store reads the clock only through its injectable ``now`` callable.
"""

from bot.store.errors import (
    AlreadySeated,
    AttemptCounted,
    CannotSave,
    ChannelBusy,
    ConnectionLost,
    DamagedLog,
    DatabaseTooNew,
    DatabaseUnavailable,
    GameClosed,
    HintTaken,
    LobbyFull,
    NotActive,
    NotFound,
    NotInLobby,
    NotSeated,
    RevisionConflict,
    StalePanel,
    StoreError,
    WrongStatus,
)
from bot.store.interface import Store
from bot.store.packing import PackDamaged, unpack_state
from bot.store.postgres import PostgresStore
from bot.store.rows import (
    OPEN_STATUSES,
    THIS_PROCESS,
    AwayRow,
    Claimer,
    Clock,
    CommitResult,
    DailyAttempt,
    DailyChannel,
    DailyEntry,
    DailyStart,
    GameRow,
    GameStatus,
    HintRow,
    League,
    MoveRow,
    NotifySettings,
    OutboxMessage,
    OutboxRow,
    PanelRow,
    Person,
    Rating,
    ReminderNote,
    Seat,
    SeatResult,
    SkipPoll,
    Tablemate,
    UserGame,
    utc_now,
)
from bot.store.schema import Migration, load_migrations, split_statements
from bot.store.sqlite import BUSY_TIMEOUT_MS, SqliteStore
from bot.store.target import describe, is_postgres_url, open_store, safe_url

__all__ = [
    "BUSY_TIMEOUT_MS",
    "OPEN_STATUSES",
    "THIS_PROCESS",
    "AlreadySeated",
    "AttemptCounted",
    "AwayRow",
    "CannotSave",
    "ChannelBusy",
    "Claimer",
    "Clock",
    "CommitResult",
    "ConnectionLost",
    "DailyAttempt",
    "DailyChannel",
    "DailyEntry",
    "DailyStart",
    "DamagedLog",
    "DatabaseTooNew",
    "DatabaseUnavailable",
    "GameClosed",
    "GameRow",
    "GameStatus",
    "HintRow",
    "HintTaken",
    "League",
    "LobbyFull",
    "Migration",
    "MoveRow",
    "NotActive",
    "NotFound",
    "NotInLobby",
    "NotSeated",
    "NotifySettings",
    "OutboxMessage",
    "OutboxRow",
    "PackDamaged",
    "PanelRow",
    "Person",
    "PostgresStore",
    "Rating",
    "ReminderNote",
    "RevisionConflict",
    "Seat",
    "SeatResult",
    "SkipPoll",
    "SqliteStore",
    "StalePanel",
    "Store",
    "StoreError",
    "Tablemate",
    "UserGame",
    "WrongStatus",
    "describe",
    "is_postgres_url",
    "load_migrations",
    "open_store",
    "safe_url",
    "split_statements",
    "unpack_state",
    "utc_now",
]
