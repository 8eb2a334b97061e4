"""The errors the store raises on purpose, each carrying the fields it is about.

They are plain (not frozen) dataclasses: Python assigns ``__traceback__`` on an exception that
passes through a context manager (the store's transactions), which a frozen dataclass refuses.
Equality stays identity, as for any exception.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.rows import GameStatus


class StoreError(Exception):
    """Root of every error the store raises on purpose."""


@dataclass(eq=False)
class DatabaseTooNew(StoreError):
    """The database was written by newer code: its schema version is one this code lacks."""

    found: int
    known: int

    def __str__(self) -> str:
        return f"database schema version {self.found} is newer than this code knows ({self.known})"


@dataclass(eq=False)
class NotFound(StoreError, LookupError):
    """No row with that id."""

    what: str
    key: int

    def __str__(self) -> str:
        return f"no such {self.what}: {self.key}"


@dataclass(eq=False)
class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or being played."""

    channel_id: int
    game_id: int

    def __str__(self) -> str:
        return f"channel {self.channel_id} already has an open game: {self.game_id}"


@dataclass(eq=False)
class WrongStatus(StoreError):
    """The game's status does not allow this write."""

    game_id: int
    status: GameStatus

    def __str__(self) -> str:
        return f"game {self.game_id} is {self.status}"


class NotInLobby(WrongStatus):
    """Seats can only change, and a game only start, while it is in the lobby."""


class NotActive(WrongStatus):
    """Moves and reminders need a game that is being played."""


class GameClosed(WrongStatus):
    """The game is already finished or ended."""


@dataclass(eq=False)
class LobbyFull(StoreError):
    """Every seat of the lobby is taken."""

    game_id: int
    max_seats: int

    def __str__(self) -> str:
        return f"game {self.game_id} is full: {self.max_seats} seats"


@dataclass(eq=False)
class AlreadySeated(StoreError):
    """The user already has a seat at this game."""

    game_id: int
    user_id: int

    def __str__(self) -> str:
        return f"user {self.user_id} is already seated at game {self.game_id}"


@dataclass(eq=False)
class NotSeated(StoreError):
    """The user has no seat at this game."""

    game_id: int
    user_id: int

    def __str__(self) -> str:
        return f"user {self.user_id} is not seated at game {self.game_id}"


@dataclass(eq=False)
class RevisionConflict(StoreError):
    """The game changed since the caller read it; nothing was written."""

    game_id: int
    expected: int
    actual: int

    def __str__(self) -> str:
        return f"game {self.game_id} is at revision {self.actual}, not {self.expected}"


@dataclass(eq=False)
class StalePanel(StoreError):
    """The panel was saved by another press since the caller read it; nothing was written."""

    game_id: int
    user_id: int
    expected: int

    def __str__(self) -> str:
        return (
            f"panel of user {self.user_id} in game {self.game_id} is past version {self.expected}"
        )


@dataclass(eq=False)
class HintTaken(StoreError):
    """That turn of the game had its hint already."""

    game_id: int
    turn: int

    def __str__(self) -> str:
        return f"turn {self.turn} of game {self.game_id} had its hint already"


@dataclass(eq=False)
class AttemptCounted(StoreError):
    """The member's attempt of that day that counts exists already: another is practice."""

    user_id: int
    day: str

    def __str__(self) -> str:
        return f"user {self.user_id} has a counted daily attempt on {self.day} already"


@dataclass(eq=False)
class DatabaseUnavailable(StoreError):
    """The database cannot do this now, through no fault of the request: nothing was changed,
    and the same request may well succeed later. ``detail`` is the driver's own words, for the
    log."""

    detail: str

    def __str__(self) -> str:
        return f"the database is unavailable: {self.detail}"


class ConnectionLost(DatabaseUnavailable):
    """The database server is not answering: down, restarting, or the connection to it broke."""

    def __str__(self) -> str:
        return f"the database is not answering: {self.detail}"


@dataclass(eq=False)
class CannotSave(DatabaseUnavailable):
    """The database refuses writes (its disk full, its file read-only, an I/O error) while
    reads still work; ``why`` says which, in a few words a player can read."""

    why: str

    def __str__(self) -> str:
        return f"the database cannot save ({self.why}): {self.detail}"


@dataclass(eq=False)
class DamagedLog(StoreError):
    """A finished game's packed move log cannot be unpacked (restore it from a backup)."""

    game_id: int
    detail: str

    def __str__(self) -> str:
        return f"game {self.game_id}: its packed move log cannot be unpacked ({self.detail})"
