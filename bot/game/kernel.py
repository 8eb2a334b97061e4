"""The game service's kernel: the store, the clock, loading a game, and committing a turn.

The parts of the service (:mod:`bot.game.lobby`, :mod:`bot.game.turns` and
:mod:`bot.game.lookups`, put together in :mod:`bot.game.service`, and beside them the
features' parts, such as :mod:`bot.attendance.reminder_queue`, :mod:`bot.attendance.service`,
:mod:`bot.panel.service` and :mod:`bot.computers.turns`) act through a
:class:`GameKernel`. Every turn, whoever chose it, is committed by
:meth:`GameKernel.commit_turn` with the revision read, so that two submissions at once never
both apply; announcements go into the outbox in the same transaction. The kernel names no
feature: they take part in a turn through its hooks (:mod:`bot.game.hooks`). No Discord
objects: users are ids and names, so the whole floor is tested against a real database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from bot.game import messages
from bot.game.buttons import AGAIN_LABEL, again_custom_id
from bot.game.computers import Thinker
from bot.game.errors import DamagedLog, DamagedState, NoGame, NotInGame, NotStarted
from bot.game.hooks import PLAIN_GAME, Call, Finish, FinishPart, Turn, TurnHooks
from bot.game.messages import Player
from bot.game.names import seat_names
from bot.game.outbox import Announcement, Picture
from bot.game.records import (
    UNREADABLE,
    export_document,
    export_file,
    last_placements,
    logged_actions,
    placed_hexes,
    read_state,
    state_text,
)
from bot.game.rows import (
    THIS_PROCESS,
    Claimer,
    CommitResult,
    GameRow,
    GameStatus,
    MoveRow,
    OutboxMessage,
    Seat,
)
from bot.game.since import since_last_turn
from bot.game.store import GameStore
from bot.ops.clock import Clock, utc_now
from engine import (
    Action,
    CascadiaError,
    GameRecord,
    GameState,
    Hex,
    Move,
    ScoreSheet,
    check_scenario,
    record_for,
    score_state,
)
from i18n import _, speaking

log = logging.getLogger(__name__)

S = TypeVar("S", bound=GameStore)

HOUR = timedelta(hours=1)


def next_reminder_time(
    turn_started_at: datetime, reminder_hours: int, reminders_sent: int
) -> datetime | None:
    """When the next reminder of a turn is due on the regular schedule; ``None`` if off.

    The ``n``-th reminder (counting from 1) is due ``n * reminder_hours`` after the turn
    started, so this is ``turn_started_at + (reminders_sent + 1) * reminder_hours``.
    """
    if reminder_hours < 0:
        raise ValueError(f"reminder hours must be 0 or more: {reminder_hours}")
    if reminders_sent < 0:
        raise ValueError(f"reminders sent must be 0 or more: {reminders_sent}")
    if reminder_hours == 0:
        return None
    return turn_started_at + timedelta(hours=reminder_hours * (reminders_sent + 1))


def new_seed() -> int:
    """A fresh random game seed."""
    return secrets.randbits(63)


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game as loaded: its row, its players in seat order and, once started, its state."""

    game: GameRow
    players: tuple[Player, ...]
    state: GameState | None

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or ``None`` if they are not playing (or left the game to the
        computer)."""
        for seat, player in enumerate(self.players):
            if player.user_id == user_id and player.computer is None:
                return seat
        return None

    @property
    def people(self) -> tuple[Player, ...]:
        """The players who are people (not the computer), in seat order."""
        return tuple(p for p in self.players if p.computer is None)

    @property
    def computers(self) -> int:
        """How many seats the computer plays."""
        return sum(p.computer is not None for p in self.players)

    def require_seat(self, user_id: int) -> int:
        """The seat of a user; :class:`NotInGame` if they have none."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        return seat

    def require_state(self) -> GameState:
        """The engine state; :class:`NotStarted` while in the lobby."""
        if self.state is None:
            raise NotStarted()
        return self.state

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        return tuple(p.name for p in self.players)

    def score_sheet(self, state: GameState | None = None) -> ScoreSheet:
        """The score sheet of ``state`` (default: the current one)."""
        return score_state(state or self.require_state(), self.names)

    def record(self, actions: Sequence[Action]) -> GameRecord:
        """The game record, with the players' names, and ``actions`` played."""
        return record_for(self.require_state(), actions, self.names)


class GameKernel:
    """What every part of the game service shares, on a :class:`~bot.stores.Store`: the
    store, the clock, the thinker, loading a game and committing a turn."""

    def __init__(
        self,
        store: GameStore,
        *,
        now: Clock = utc_now,
        seeds: Callable[[], int] = new_seed,
        reminder_hour: timedelta = HOUR,
        thinker: Thinker | None = None,
        claimer: Claimer = THIS_PROCESS,
        hooks: TurnHooks = PLAIN_GAME,
    ) -> None:
        """``reminder_hour`` is how long one hour of ``reminder_hours`` lasts: shorter only
        in tests, so that a reminder schedule plays out in seconds. ``thinker`` runs the
        computer players (default: in a thread). ``claimer`` is this process as it claims a
        game's background work (default: the only process, owning every guild). ``hooks``
        are the features' part in each turn (default: none, a plain game)."""
        self.store = store
        self.hooks = hooks
        self.claimer = claimer
        self._now = now
        self.seeds = seeds
        self.scale = reminder_hour / HOUR
        """How long an hour of ``reminder_hours`` lasts, as a share of a real hour."""
        self.thinker = thinker or Thinker()
        self._damaged: set[int] = set()

    async def claim(self, game_id: int) -> bool:
        """Whether this process does the game's background work now (reminders, votes,
        pings, computer turns): its shards own the game's guild and no other process's lease
        holds the game. Claimed until the lease ends."""
        return await self.store.claim_game(game_id, self.claimer)

    def store_as(self, kind: type[S]) -> S:
        """The store as ``kind``, a feature's own store (see :mod:`bot.stores`): the store the
        application opened is every feature's at once, and each feature reads it as its own."""
        return self.store.view(kind)

    def now(self) -> datetime:
        """The service's clock."""
        return self._now()

    def deadline_budget(self, game: GameRow) -> timedelta | None:
        """How long a turn of ``game`` may take (scaled like reminders); ``None``: no
        deadline."""
        if game.deadline_hours == 0:
            return None
        return timedelta(hours=game.deadline_hours) * self.scale

    def turn(
        self, loaded: LoadedGame, state: GameState, *, now: datetime, mover: int | None = None
    ) -> Turn:
        """The turn of the player to move in ``state`` beginning at ``now`` (``mover`` just
        played), as the hooks are asked about it."""
        return Turn(loaded, state, now, self.deadline_budget(loaded.game), mover)

    async def call(self, turn: Turn) -> tuple[Call, datetime | None]:
        """How the player to move is called as ``turn`` begins, and when their first reminder
        falls due: the caller's answer for a person. A computer is neither pinged nor
        reminded: it plays within seconds, or after a restart."""
        if turn.player.computer is not None:
            return Call(ping=False), None
        call = await self.hooks.caller.call(turn)
        hours = await self.hooks.caller.reminder_hours(turn)
        return call, self.reminder_after(turn.now, hours, 0)

    def reminder_after(self, turn_started_at: datetime, hours: int, sent: int) -> datetime | None:
        """When the reminder after ``sent`` of a turn that started at ``turn_started_at`` falls
        due, with ``hours`` between reminders (scaled); ``None``: no more reminders."""
        due = next_reminder_time(turn_started_at, hours, sent)
        return None if due is None else turn_started_at + (due - turn_started_at) * self.scale

    # --- loading ------------------------------------------------------------------------------

    async def game(self, channel_id: int) -> LoadedGame:
        """The channel's open game; :class:`NoGame` if there is none."""
        game = await self.store.get_active_game(channel_id)
        if game is None:
            raise NoGame()
        return await self.load(game)

    async def last_game(self, channel_id: int, *, user_id: int) -> LoadedGame:
        """The channel's open game or else the caller's latest game here, finished or ended:
        what the read-only commands (status, board, score, export) show."""
        game = await self.store.get_active_game(channel_id)
        if game is None:
            played = await self.store.games_for_user(
                user_id, statuses=tuple(GameStatus), channel_id=channel_id
            )
            game = played[0].game if played else None
        if game is None:
            raise NoGame()
        return await self.load(game)

    async def game_by_id(self, game_id: int) -> LoadedGame:
        """A game by id (lobby buttons carry it); :class:`NoGame` if it is gone."""
        return await self.load(await self.row_by_id(game_id))

    async def row_by_id(self, game_id: int) -> GameRow:
        """A game's row alone, by id, without its seats or state (what a button's permission
        check needs: its guild and channel); :class:`NoGame` if it is gone."""
        game = await self.store.get_game(game_id)
        if game is None:
            raise NoGame()
        return game

    async def load(self, game: GameRow) -> LoadedGame:
        """The game of ``game``'s row, with its players and state."""
        players = players_of(await self.store.seats(game.id))
        state = None if game.state is None else self._read_state(game)
        return LoadedGame(game, players, state)

    def _read_state(self, game: GameRow) -> GameState:
        """``game``'s stored state, or :class:`DamagedState` with the detail logged once a game."""
        assert game.state is not None
        try:
            return read_state(game.state)
        except UNREADABLE as error:
            if game.id not in self._damaged:
                self._damaged.add(game.id)
                log.warning(
                    "game %d: its saved state cannot be read (%s: %s); restore it from a backup"
                    " (docs/hosting.md, Backups) or end it",
                    game.id,
                    type(error).__name__,
                    error,
                )
            raise DamagedState() from error

    async def moves(self, game: GameRow) -> list[MoveRow]:
        """``game``'s move log; :class:`DamagedState` if it was packed and cannot be unpacked
        (the store's log has the detail)."""
        try:
            return await self.store.moves(game.id)
        except DamagedLog as error:
            raise DamagedState() from error

    # --- committing a turn --------------------------------------------------------------------

    async def commit_turn(
        self,
        loaded: LoadedGame,
        seat: int,
        move: Move,
        *,
        user_id: int,
        played_for: str | None = None,
        lead: str = "",
        tail: str = "",
        buttons: tuple[tuple[str, str], ...] = (),
    ) -> CommitResult:
        """Play ``move`` for ``seat`` of the game as loaded and commit it with the revision
        read: the move log (``played_for`` when its player did not choose it), the next
        player called, the outbox; or, for the move that finishes the game, what the finish
        hooks add. ``lead`` and ``tail`` frame the turn message, ``buttons`` (label, custom
        id) go under it. Every public text is written in the game's language
        (:attr:`~bot.game.rows.GameRow.locale`), the hooks' parts of it too."""
        with speaking(loaded.game.locale):
            before = loaded.require_state()
            after = move.play(before, seat)
            game, now = loaded.game, self._now()
            moves = await self.store.moves(game.id)
            # The log as it will read once this move is committed.
            seq = moves[-1].seq + 1 if moves else 1
            logged = (*moves, MoveRow(game.id, seq, user_id, str(move), now, played_for))
            highlights = last_placements(moves, loaded.players)
            highlights[seat] = _placed(move)
            told = messages.describe_turn(before, move.actions(), loaded.players[seat])
            line = lead + told
            text = state_text(after)
            finish: Finish | None = None
            parts: list[FinishPart] = []
            call, next_at, directs = Call(), None, []
            if after.is_over:
                record = record_for(after, logged_actions(logged), loaded.names)
                private = bool(await self.hooks.venue.private_games([game.id]))
                sheet = loaded.score_sheet(after)
                finish = Finish(loaded, after, seat, logged, record, sheet, now, private=private)
                parts = [await hook.before_commit(finish) for hook in self.hooks.finish]
                tail = "".join(part.tail for part in parts) + tail
                buttons = (*buttons, *(b for part in parts for b in part.buttons))
                announcement = await self._final_message(finish, line, tail, buttons, highlights)
                if game.parent_id is not None:
                    directs = [table_line(game.channel_id, game.parent_id, finish.sheet)]
            else:
                turn = self.turn(loaded, after, now=now, mover=user_id)
                call, next_at = await self.call(turn)
                line = lead + await self._since_last_turn(turn, before, logged, told)
                announcement = _turn_message(turn, call, line, tail, buttons, highlights, seat)
                directs = await self.hooks.directs.for_turn(
                    turn, announcement.text, highlights=tuple(highlights), state_json=text
                )
            committed = await self.store.commit_move(
                game.id,
                game.revision,
                user_id=user_id,
                action_text=str(move),
                new_state_json=text,
                new_status=GameStatus.FINISHED if after.is_over else GameStatus.ACTIVE,
                outbox_messages=[announcement.to_outbox(state_text=text), *directs],
                turn_started_at=now,
                next_reminder_at=next_at,
                played_for=played_for,
                ping_due_at=call.ping_due_at,
                results=[result for part in parts for result in part.results],
                writes=[write for part in parts for write in part.writes],
            )
            if finish is not None:
                for hook, part in zip(self.hooks.finish, parts, strict=True):
                    await hook.after_commit(finish, part)
            return committed

    async def _final_message(
        self,
        finish: Finish,
        line: str,
        tail: str,
        buttons: tuple[tuple[str, str], ...],
        highlights: list[tuple[Hex, ...]],
    ) -> Announcement:
        """The message of the game's end: the last move's ``line``, the ranking, ``tail``;
        the pictures, the export and the record. It mentions the people the caller says
        (those who kept the channel ping) and names the others."""
        loaded = finish.loaded
        finished = dataclasses.replace(loaded.game, status=GameStatus.FINISHED)
        hints = await self.store.hints(loaded.game.id)
        document = export_document(finished, loaded.players, finish.state, finish.moves, hints)
        pinged = await self.hooks.caller.mentioned([p.user_id for p in loaded.people])
        text = messages.game_over_message(line, finish.sheet, loaded.players, pinged=pinged)
        scenario = messages.scenario_of(finish.state)
        if scenario is not None:
            [score] = finish.sheet.players
            board = finish.state.seats[0].environment
            check = check_scenario(scenario, finish.state.cards, score, board)
            text = f"{text}\n{messages.scenario_result(check)}"
        if not finish.private:
            buttons = (*buttons, (_(AGAIN_LABEL), again_custom_id(loaded.game.id)))
        return Announcement(
            kind="finish",
            text=text + tail,
            mentions=tuple(p.user_id for p in loaded.people if p.user_id in pinged),
            pictures=(Picture.SCORES, Picture.ENVIRONMENTS, Picture.REPLAY),
            state=finish.state,
            names=loaded.names,
            highlights=tuple(highlights),
            files=(export_file(document),),
            buttons=buttons,
            record=finish.record,
            archive_after=thread_rest(loaded.game),
        )

    async def _since_last_turn(
        self, turn: Turn, before: GameState, logged: Sequence[MoveRow], line: str
    ) -> str:
        """For a person to move, what happened since their last turn: every move a short
        line, the latest (told in full by ``line`` otherwise) the last of them, then the
        standings; else ``line``. The game is replayed to tell it (milliseconds): off the
        event loop."""
        if turn.player.computer is not None:
            return line
        try:
            since = await asyncio.to_thread(
                functools.partial(
                    since_last_turn,
                    turn.state,
                    logged,
                    turn.loaded.players,
                    known=(len(logged) - 1, before),
                )
            )
        except (ValueError, CascadiaError):
            # The log moved on since the game was read: committing finds the conflict.
            log.info("game %d: the move log and the state differ", turn.loaded.game.id)
            return line
        return line if since is None else since.text()


THREAD_REST_MINUTES = 60
"""A table's thread is archived this long after its last message once its game is over, so
that the channel's list of threads stays short (Play again brings it back)."""


def players_of(seats: Sequence[Seat]) -> tuple[Player, ...]:
    """The players of a game's seats, in seat order, named apart (see :func:`seat_names`)."""
    names = seat_names([s.name for s in seats])
    return tuple(
        Player(s.user_id, n, computer=s.computer, locale=s.locale)
        for s, n in zip(seats, names, strict=True)
    )


def as_seat(state: GameState, seat: int) -> GameState:
    """``state`` as if it were ``seat``'s turn, for previews and choices while waiting."""
    if seat == state.current or state.is_over:
        return state
    return dataclasses.replace(state, current=seat)


def _turn_message(
    turn: Turn,
    call: Call,
    line: str,
    tail: str,
    buttons: tuple[tuple[str, str], ...],
    highlights: list[tuple[Hex, ...]],
    mover: int,
) -> Announcement:
    """The message of a turn that goes on to the next: the moves' ``line``, the player to move
    called as ``call`` says, ``tail``; ``mover``'s environment shown first."""
    state = turn.state
    return Announcement(
        kind="turn",
        text=f"{line}\n{messages.your_turn_line(state, turn.player, call)}{tail}",
        mentions=(turn.player.user_id,) if call.ping else (),
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
        state=state,
        names=turn.loaded.names,
        highlights=tuple(highlights),
        buttons=buttons,
        mover=mover,
    )


def thread_rest(game: GameRow) -> int | None:
    """The idle minutes after which a game's own thread is to be archived once the game is
    over (:data:`THREAD_REST_MINUTES`); ``None`` for a game not in a thread of its own."""
    return None if game.parent_id is None else THREAD_REST_MINUTES


def table_line(thread_id: int, parent_id: int, sheet: ScoreSheet | None = None) -> OutboxMessage:
    """The line for the channel ``parent_id`` whose thread ``thread_id`` a game was played
    in: its ranking from ``sheet`` once played to the end, else that it was ended early."""
    if sheet is None:
        text = messages.table_ended_line(thread_id)
    else:
        text = messages.table_result_line(thread_id, sheet)
    return Announcement(kind="table", text=text).to_outbox(channel_id=parent_id)


def _placed(move: Move) -> tuple[Hex, ...]:
    return placed_hexes(move.at, move.token_at)
