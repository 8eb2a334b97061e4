"""The seams through which the features take part in a turn, and the values they trade.

The kernel (:mod:`bot.game.kernel`) names no feature. When a turn begins (a move is committed,
a game starts) it asks the hooks of its :class:`TurnHooks`:

- the :class:`Caller`: how the player to move is called, and every how many hours they are
  reminded; also where people are, for what ``status`` and ``mygames`` show, and whom a
  message to every player mentions;
- the :class:`Directs`: the direct messages that go with the turn message;
- when the move finishes the game, each :class:`FinishHook` in turn: what it adds to the final
  message and which rows the final commit writes with the move
  (:meth:`FinishHook.before_commit`), then what follows the commit
  (:meth:`FinishHook.after_commit`).

The features do not name each other either: a :class:`Venue` tells the hooks that reach
players which games are played where their one player is alone with the bot (the daily trek
tells attendance, as :mod:`bot.app` wires them).

Without hooks a game is plain: the player to move is pinged, has the game's deadline and is
reminded every ``reminder_hours`` of the game; no direct message goes out; a finished game
adds nothing. The caller is asked about people only: the kernel neither pings nor reminds a
computer.

The hooks asked about one turn share one :class:`Turn`, which keeps what each reads
(:meth:`Turn.once`): a fact is read once per turn, however many hooks need it.

:class:`Call` says how a message calls the player to move, :class:`AwayPeriod` a person's time
away as messages show it, and :class:`ReminderLevel` how firmly a reminder is worded: the game's
texts (:mod:`bot.game.messages`) show them without knowing the features that decide them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from bot.db.database import Connection
from bot.game.rows import MoveRow, OutboxMessage, SeatResult
from engine import GameRecord, GameState, Hex, ScoreSheet

if TYPE_CHECKING:
    from bot.game.kernel import LoadedGame
    from bot.game.messages import Player

__all__ = [
    "PLAIN_GAME",
    "AwayPeriod",
    "Call",
    "Caller",
    "Directs",
    "Finish",
    "FinishHook",
    "FinishPart",
    "FinishWrite",
    "InChannel",
    "NoDirects",
    "PlainCaller",
    "ReminderLevel",
    "Turn",
    "TurnHooks",
    "Venue",
    "Whereabouts",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class AwayPeriod:
    """A person is away from ``start`` up to ``end`` (aware datetimes, ``start <= end``)."""

    start: datetime
    end: datetime
    note: str | None = None

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"time away ends before it starts: {self.start} > {self.end}")

    def covers(self, moment: datetime) -> bool:
        """Whether the person is away at ``moment``."""
        return self.start <= moment < self.end


@dataclass(frozen=True, slots=True)
class Call:
    """How a message calls the player to move: pinged now or, in their quiet hours, named
    only with a ping owed at ``ping_due_at``; by when they should play; whether they are
    away."""

    ping: bool = True
    ping_due_at: datetime | None = None
    deadline: datetime | None = None
    away: AwayPeriod | None = None


class ReminderLevel(StrEnum):
    """How firmly a reminder is worded."""

    GENTLE = "gentle"
    FIRMER = "firmer"
    FIRMEST = "firmest"


# --- what the hooks are asked about ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn beginning at ``now``: that of the player to move in ``state``, in the game as
    loaded, with ``budget`` of deadline (``None``: none); ``mover`` just played (``None``: the
    game starts).

    Every hook asked about the turn is given the same one, and keeps in it what it reads
    (:meth:`once`)."""

    loaded: LoadedGame
    state: GameState
    now: datetime
    budget: timedelta | None = None
    mover: int | None = None
    _known: dict[Hashable, object] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def player(self) -> Player:
        """The player whose turn it is."""
        return self.loaded.players[self.state.current]

    @property
    def following(self) -> Player:
        """The player after them (themselves, in a solo game)."""
        return self.loaded.players[(self.state.current + 1) % len(self.loaded.players)]

    async def once(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """What ``read()`` answers, read only the first time ``key`` is asked for this turn.
        ``key`` names the fact and so the answer's type: a hook's own, such as
        ``(__name__, "people")``."""
        if key not in self._known:
            self._known[key] = await read()
        return cast(T, self._known[key])


@dataclass(frozen=True, slots=True)
class Finish:
    """A game that ``seat``'s move finishes at ``now``: the game as loaded, its final state,
    the whole move log (that move last), its record and its score sheet; ``private`` when it
    is played where its one player is alone with the bot (the venue's answer, read once for
    the kernel and every hook)."""

    loaded: LoadedGame
    state: GameState
    seat: int
    moves: tuple[MoveRow, ...]
    record: GameRecord
    sheet: ScoreSheet
    now: datetime
    private: bool = False


FinishWrite = Callable[[Connection], Awaitable[None]]
"""A feature's own rows, written on the final commit's connection, inside its transaction: the
game floor runs it without knowing the feature's tables (its store makes it)."""


@dataclass(frozen=True, slots=True)
class FinishPart:
    """What a finish hook adds to a finished game's commit: ``tail`` after the final message
    and ``buttons`` (label, custom id) under it, and ``results`` (the seats' rows) and
    ``writes`` (a feature's own rows) written in the same transaction as the move."""

    tail: str = ""
    results: tuple[SeatResult, ...] = ()
    writes: tuple[FinishWrite, ...] = ()
    buttons: tuple[tuple[str, str], ...] = ()


# --- the seams -------------------------------------------------------------------------------


class Whereabouts(Protocol):
    """What the game knows of where a person is: away or not, and so by when they play."""

    def away_at(self, moment: datetime) -> AwayPeriod | None:
        """Their time away going on at ``moment``, if any."""
        ...

    def deadline(self, turn_started_at: datetime, budget: timedelta) -> datetime:
        """When their turn that started at ``turn_started_at`` has had ``budget`` of time."""
        ...


class Caller(Protocol):
    """How the player to move, a person, is called and reminded; and where people are."""

    async def call(self, turn: Turn) -> Call:
        """How the turn message calls the player to move."""
        ...

    async def reminder_hours(self, turn: Turn) -> int:
        """The hours between reminders of the turn (0: none)."""
        ...

    async def whereabouts(self, user_ids: Collection[int]) -> Mapping[int, Whereabouts]:
        """Where each of these people is, by user id."""
        ...

    async def mentioned(self, user_ids: Collection[int]) -> set[int]:
        """Those of these people a message to all of them (the game's end) mentions; it
        names the others."""
        ...


class Directs(Protocol):
    """The direct messages that go with a turn message."""

    async def for_turn(
        self,
        turn: Turn,
        text: str,
        *,
        highlights: tuple[tuple[Hex, ...], ...] = (),
        state_json: str | None = None,
    ) -> list[OutboxMessage]:
        """Those that go with the turn message ``text`` calling the player to move
        (``highlights``: the latest placements per seat; ``state_json``: the state's text)."""
        ...


class Venue(Protocol):
    """Where a game is played, as the hooks that reach its players need to know."""

    async def is_private(self, turn: Turn) -> bool:
        """Whether the game is played where its one player is alone with the bot (their direct
        messages or a private thread): its turns need no direct message, and it is reminded
        as the game says, whatever its player asked."""
        ...

    async def private_games(self, game_ids: Collection[int]) -> set[int]:
        """Those of the games played where their one player is alone with the bot (one read
        for them all: a list of someone's games, a reminder pass)."""
        ...


class FinishHook(Protocol):
    """What a finished game adds, in its final commit and after it."""

    async def before_commit(self, finish: Finish) -> FinishPart:
        """What the final message and the final commit's transaction add."""
        ...

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        """What follows the commit (in its own transactions), given this hook's ``part``."""
        ...


# --- a plain game ----------------------------------------------------------------------------


class _Present:
    """A person never away."""

    def away_at(self, moment: datetime) -> AwayPeriod | None:
        return None

    def deadline(self, turn_started_at: datetime, budget: timedelta) -> datetime:
        return turn_started_at + budget


class PlainCaller:
    """The caller of a plain game: the player to move is pinged, with the game's deadline and
    reminder hours; nobody is ever away."""

    async def call(self, turn: Turn) -> Call:
        """A ping, and the deadline ``budget`` from now."""
        return Call(deadline=None if turn.budget is None else turn.now + turn.budget)

    async def reminder_hours(self, turn: Turn) -> int:
        """The game's."""
        return turn.loaded.game.reminder_hours

    async def whereabouts(self, user_ids: Collection[int]) -> Mapping[int, Whereabouts]:
        """Everyone here."""
        return dict.fromkeys(user_ids, _Present())

    async def mentioned(self, user_ids: Collection[int]) -> set[int]:
        """Everyone."""
        return set(user_ids)


class NoDirects:
    """No direct messages."""

    async def for_turn(
        self,
        turn: Turn,
        text: str,
        *,
        highlights: tuple[tuple[Hex, ...], ...] = (),
        state_json: str | None = None,
    ) -> list[OutboxMessage]:
        """None."""
        return []


class InChannel:
    """Every game is played in a channel of a server."""

    async def is_private(self, turn: Turn) -> bool:
        """Never."""
        return False

    async def private_games(self, game_ids: Collection[int]) -> set[int]:
        """None."""
        return set()


@dataclass(frozen=True, slots=True)
class TurnHooks:
    """The hooks a kernel asks: its caller, its directs and its finish hooks, in the order they
    run, and where its games are played (default: a plain game in a channel)."""

    caller: Caller = field(default_factory=PlainCaller)
    directs: Directs = field(default_factory=NoDirects)
    finish: tuple[FinishHook, ...] = ()
    venue: Venue = field(default_factory=InChannel)


PLAIN_GAME = TurnHooks()
"""No feature takes part: a plain game."""
