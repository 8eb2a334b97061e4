"""The store's values: games, seats, logged moves and outbox messages as stored.

Engine state, actions and outbox payloads are opaque text here; times are aware datetimes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


@dataclass(frozen=True)
class Claimer:
    """A bot process as it claims work: its name, and the shards it runs out of how many.

    A row is claimed only by a process whose shards own the row's guild, shard
    ``(guild_id >> 22) % shard_count``; the default, one shard of one, owns every guild.
    """

    name: str
    shard_ids: tuple[int, ...] = (0,)
    shard_count: int = 1
    lease: timedelta = timedelta(seconds=60)
    """How long a claim holds before another process may take the row over."""

    def owns(self, guild_id: int) -> bool:
        """Whether this process's shards own the guild."""
        return (guild_id >> 22) % self.shard_count in self.shard_ids


THIS_PROCESS = Claimer("this process")
"""The claimer of a bot that runs alone: every shard, the default lease."""


class GameStatus(StrEnum):
    """Where a game is in its life: gathering players, being played, or over."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    """Played to the end."""
    ENDED = "ended"
    """Stopped early by the host, or a lobby that closed without starting."""


OPEN_STATUSES: frozenset[GameStatus] = frozenset({GameStatus.LOBBY, GameStatus.ACTIVE})
"""A channel has at most one game in one of these statuses."""


@dataclass(frozen=True)
class GameRow:
    """One game as stored; ``state`` is the engine's JSON text, ``None`` while in the lobby."""

    id: int
    guild_id: int
    channel_id: int
    status: GameStatus
    host_id: int
    cards: str
    created_at: datetime
    updated_at: datetime
    revision: int
    state: str | None
    reminder_hours: int
    turn_started_at: datetime | None
    next_reminder_at: datetime | None
    reminders_sent: int
    lobby_message_id: int | None
    deadline_hours: int = 0
    """Hours a turn may take before the others may vote to skip it; 0: no deadline."""
    ping_due_at: datetime | None = None
    """When the ping owed for a turn message sent in quiet hours is due; ``None``: none."""
    parent_id: int | None = None
    """The channel whose thread ``channel_id`` is, for a game played in a thread of its own
    (the channel is told when the table opens and ends); ``None`` otherwise."""
    continues: int | None = None
    """The finished game this one continues (its players pressed **Play again**)."""
    locale: str | None = None
    """The Discord locale its public messages are written in (see :mod:`i18n`), fixed when
    its lobby opens; ``None``: English."""


@dataclass(frozen=True)
class Seat:
    """A player at a game; ``seat`` is 0-based and seats of a game are numbered without gaps."""

    game_id: int
    seat: int
    user_id: int
    name: str
    computer: str | None = None
    """The computer player that plays this seat for good (``"fast"``); ``None``: its person."""
    locale: str | None = None
    """The locale its person's Discord client was last seen with, for what is written to them
    outside a command (direct messages); ``None``: not known, or a computer."""


DEFAULT_REMINDER_HOURS = 24
"""Hours after which the player to move is reminded, in a game whose host did not say."""


@dataclass(frozen=True)
class Again:
    """What a new lobby takes from the finished game ``game_id`` it continues: the seats, in
    their new order, and the game's reminder and deadline hours."""

    game_id: int
    seats: tuple[Seat, ...]
    reminder_hours: int = DEFAULT_REMINDER_HOURS
    deadline_hours: int = 0


@dataclass(frozen=True)
class UserGame:
    """A game a user is seated at, with their seat."""

    game: GameRow
    seat: Seat


@dataclass(frozen=True)
class MoveRow:
    """One entry of a game's append-only move log; ``seq`` counts from 1."""

    game_id: int
    seq: int
    user_id: int
    action: str
    created_at: datetime
    played_for: str | None = None
    """Who chose the move when its player did not: ``"vote"``, ``"host"`` or ``"computer"``."""


@dataclass(frozen=True)
class OutboxMessage:
    """A message to post, handed to a write so it is stored in the same transaction.

    ``payload`` is what the message says (text, ids to mention); ``snapshot`` is the bulky data
    needed to re-render its images, dropped once the message is sent. ``channel_id`` defaults
    to the game's channel.
    """

    kind: str
    payload: str
    snapshot: str | None = None
    channel_id: int | None = None


@dataclass(frozen=True)
class OutboxRow:
    """A stored outbox message; ``sent_at`` is ``None`` until it has been posted."""

    id: int
    game_id: int
    channel_id: int
    kind: str
    payload: str
    snapshot: str | None
    created_at: datetime
    attempts: int
    last_error: str | None
    sent_at: datetime | None
    message_id: int | None


@dataclass(frozen=True)
class CommitResult:
    """The game's revision after a write, and the ids of the outbox rows it inserted."""

    revision: int
    outbox_ids: tuple[int, ...]


@dataclass(frozen=True)
class ReminderNote:
    """One reminder to record (see :meth:`bot.stores.Store.record_reminders`): the game, its
    revision when the reminder was decided, when the next one falls due and the message."""

    game_id: int
    expected_revision: int
    next_reminder_at: datetime | None
    outbox_messages: tuple[OutboxMessage, ...]


@dataclass(frozen=True)
class HintRow:
    """The hint a player asked for on one turn of a game: the moves suggested, best first,
    each as the text of its engine actions."""

    game_id: int
    turn: int
    user_id: int
    moves: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True)
class SeatResult:
    """One seat's result in a finished game, as the statistics and the league read it.

    ``user_id`` is negative for a computer seated from the lobby; ``computer`` names the
    computer player that played the seat at the end (``handed_over`` when a person left their
    seat to it). ``wildlife`` holds the points per species, ``habitats`` the largest corridor
    per habitat, ``turn_seconds`` how long each turn the player chose took. ``rank`` 1 is
    first; players still tied after the nature-token tie-break share a rank.
    """

    game_id: int
    seat: int
    guild_id: int
    user_id: int
    name: str
    computer: str | None
    handed_over: bool
    players: int
    cards: str
    score: int
    rank: int
    nature_tokens: int
    tokens_used: int
    wildlife: dict[str, int]
    habitats: dict[str, int]
    corridor: int
    turn_seconds: tuple[float, ...]
    rated: bool
    season: int
    finished_at: datetime

    @property
    def person(self) -> bool:
        """Whether a person sat here (and perhaps left it to the computer)."""
        return self.computer is None or self.handed_over
