"""The game service's kernel: the store, the clock, loading a game, and committing a turn.

The parts of the service (:mod:`bot.game.lobby`, :mod:`bot.game.turns`,
:mod:`bot.attendance.reminder_queue` and :mod:`bot.game.lookups`, put together in
:mod:`bot.game.service`, and beside them :mod:`bot.attendance.service`,
:mod:`bot.panel.service` and :mod:`bot.computers.turns`) act through a
:class:`GameKernel`. Every turn, whoever chose it, is committed by
:meth:`GameKernel.commit_turn` with the revision read, so that two submissions at once never
both apply; announcements go into the outbox in the same transaction. No Discord objects:
users are ids and names, so the whole layer is tested against a real SQLite file.
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

from bot.archive.service import round_totals
from bot.attendance import notify
from bot.attendance.presence import Call, presence_of
from bot.attendance.reminders import next_reminder_time
from bot.daily.par import cached_par, finish_note
from bot.db.errors import DatabaseUnavailable
from bot.game import messages
from bot.game.computers import Thinker
from bot.game.errors import DamagedLog, DamagedState, NoGame, NotInGame, NotStarted
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
    SeatResult,
)
from bot.game.since import since_last_turn
from bot.game.store import GameStore
from bot.ops.clock import Clock, utc_now
from bot.standings.league import update_ratings
from bot.standings.service import finishing_results
from bot.stores import Store
from engine import (
    Action,
    CascadiaError,
    Day,
    GameRecord,
    GameState,
    Hex,
    Move,
    ScoreSheet,
    record_for,
    score_state,
)

log = logging.getLogger(__name__)

S = TypeVar("S", bound=GameStore)

HOUR = timedelta(hours=1)


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
        store: Store,
        *,
        now: Clock = utc_now,
        seeds: Callable[[], int] = new_seed,
        reminder_hour: timedelta = HOUR,
        thinker: Thinker | None = None,
        claimer: Claimer = THIS_PROCESS,
    ) -> None:
        """``reminder_hour`` is how long one hour of ``reminder_hours`` lasts: shorter only
        in tests, so that a reminder schedule plays out in seconds. ``thinker`` runs the
        computer players (default: in a thread). ``claimer`` is this process as it claims a
        game's background work (default: the only process, owning every guild)."""
        self.store = store
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

    def next_reminder(self, now: datetime, game: GameRow) -> datetime | None:
        """When the next reminder of ``game``'s turn falls due if one went out at ``now``."""
        return self.reminder_after(now, game.reminder_hours, 0)

    def deadline_budget(self, game: GameRow) -> timedelta | None:
        """How long a turn of ``game`` may take (scaled like reminders); ``None``: no
        deadline."""
        if game.deadline_hours == 0:
            return None
        return timedelta(hours=game.deadline_hours) * self.scale

    async def call(
        self, loaded: LoadedGame, state: GameState, *, turn_started_at: datetime, now: datetime
    ) -> Call:
        """How the player to move in ``state`` is called at ``now`` (see
        :meth:`~bot.attendance.presence.Presence.call`); a computer seat is never pinged."""
        player = loaded.players[state.current]
        if player.computer is not None:
            return Call(ping=False)
        presence = presence_of(await self.store.person(player.user_id))
        budget = self.deadline_budget(loaded.game)
        call = presence.call(now, turn_started_at=turn_started_at, budget=budget)
        return notify.adjust_call(call, await self.store.notify_settings(player.user_id))

    async def directs(
        self,
        loaded: LoadedGame,
        state: GameState,
        text: str,
        *,
        now: datetime,
        highlights: tuple[tuple[Hex, ...], ...] = (),
        mover: int | None = None,
        state_json: str | None = None,
    ) -> list[OutboxMessage]:
        """The direct messages that go with the turn message ``text`` calling the player to
        move in ``state``: theirs if they asked for one, and the heads-up of the player after
        them if they asked (not to ``mover``, who just played). Held back in quiet hours
        (a turn's comes when they end) and time away."""
        if state.is_over or await self.store.daily_attempt(loaded.game.id) is not None:
            return []  # a daily trek is played in the person's own direct messages already
        to_move = loaded.players[state.current]
        following = loaded.players[(state.current + 1) % len(loaded.players)]
        people = {p.user_id for p in (to_move, following) if p.computer is None}
        settings = await self.store.notify_settings_of(people)
        rows: list[OutboxMessage] = []
        if to_move.user_id in people and notify.reach_of(settings[to_move.user_id]).direct:
            presence = presence_of(await self.store.person(to_move.user_id))
            if presence.may_remind(now):
                message = notify.turn_direct(
                    loaded.game.id, loaded.players, state, text, highlights=highlights
                )
                rows.append(notify.direct_row(message, to_move.user_id, state_text=state_json))
        heads_up = settings.get(following.user_id)
        if (
            heads_up is not None
            and heads_up.heads_up
            and heads_up.dms_refused_at is None
            and following.user_id not in (to_move.user_id, mover)
            and presence_of(await self.store.person(following.user_id)).may_remind(now)
        ):
            message = notify.heads_up_direct(loaded.players, state)
            rows.append(notify.direct_row(message, following.user_id))
        return rows

    async def reminder_hours_of(self, game: GameRow, player: Player) -> int:
        """The hours between reminders of ``player``'s turns in ``game``: their own, if they
        set them, else the game's (a daily trek's: none)."""
        if player.computer is not None or await self.store.daily_attempt(game.id) is not None:
            return game.reminder_hours
        settings = await self.store.notify_settings(player.user_id)
        return notify.reminder_hours(settings, game.reminder_hours)

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
        game = await self.store.get_game(game_id)
        if game is None:
            raise NoGame()
        return await self.load(game)

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

    def turn_reminder(
        self, now: datetime, game: GameRow, player: Player, *, hours: int | None = None
    ) -> datetime | None:
        """When the first reminder of ``player``'s turn, starting at ``now``, falls due, every
        ``hours`` (default: the game's)."""
        # A computer is never reminded: it plays within seconds, or after a restart.
        if player.computer is not None:
            return None
        return self.reminder_after(now, game.reminder_hours if hours is None else hours, 0)

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
        player called, the outbox. ``lead`` and ``tail`` frame the turn message, ``buttons``
        (label, custom id) go under it."""
        before = loaded.require_state()
        after = move.play(before, seat)
        actions = move.actions()
        game = loaded.game
        moves = await self.store.moves(game.id)
        highlights = last_placements(moves, loaded.players)
        highlights[seat] = _placed(move)
        line = lead + messages.describe_turn(before, actions, loaded.players[seat])
        now = self._now()
        call = Call()
        results: list[SeatResult] = []
        # The log as it will read once this move is committed.
        seq = moves[-1].seq + 1 if moves else 1
        logged = MoveRow(game.id, seq, user_id, str(move), now, played_for)
        if after.is_over:
            sheet = loaded.score_sheet(after)
            tail = await self.daily_note(game.id, sheet.players[seat].total) + tail
            finished = dataclasses.replace(game, status=GameStatus.FINISHED)
            hints = await self.store.hints(game.id)
            document = export_document(finished, loaded.players, after, [*moves, logged], hints)
            announcement = Announcement(
                kind="finish",
                text=messages.game_over_message(line, sheet, loaded.players) + tail,
                mentions=tuple(p.user_id for p in loaded.people),
                pictures=(Picture.SCORES, Picture.ENVIRONMENTS, Picture.REPLAY),
                state=after,
                names=loaded.names,
                highlights=tuple(highlights),
                files=(export_file(document),),
                buttons=buttons,
                record=record_for(after, logged_actions([*moves, logged]), loaded.names),
            )
            status, next_at = GameStatus.FINISHED, None
            results = await finishing_results(
                self.store, game, loaded.players, after, [*moves, logged], now=now
            )
        else:
            upcoming = loaded.players[after.current]
            call = await self.call(loaded, after, turn_started_at=now, now=now)
            hours = await self.reminder_hours_of(game, upcoming)
            since = None
            if upcoming.computer is None:
                try:
                    # The game is replayed to tell it (milliseconds): off the event loop.
                    since = await asyncio.to_thread(
                        functools.partial(
                            since_last_turn,
                            after,
                            [*moves, logged],
                            loaded.players,
                            known=(len(moves), before),
                        )
                    )
                except (ValueError, CascadiaError):
                    # The log moved on since the game was read: committing finds the conflict.
                    log.info("game %d: the move log and the state differ", game.id)
            if since is not None:
                # The latest move in full, the others as a line each, then the standings.
                line = since.text(latest=line)
            announcement = Announcement(
                kind="turn",
                text=f"{line}\n{messages.your_turn_line(after, upcoming, call)}{tail}",
                mentions=(upcoming.user_id,) if call.ping else (),
                pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
                state=after,
                names=loaded.names,
                highlights=tuple(highlights),
                buttons=buttons,
            )
            status = GameStatus.ACTIVE
            next_at = self.turn_reminder(now, game, upcoming, hours=hours)
        text = state_text(after)
        directs = await self.directs(
            loaded,
            after,
            announcement.text,
            now=now,
            highlights=tuple(highlights),
            mover=user_id,
            state_json=text,
        )
        committed = await self.store.commit_move(
            game.id,
            game.revision,
            user_id=user_id,
            action_text=str(move),
            new_state_json=text,
            new_status=status,
            outbox_messages=[announcement.to_outbox(state_text=text), *directs],
            turn_started_at=now,
            next_reminder_at=next_at,
            played_for=played_for,
            ping_due_at=call.ping_due_at,
            results=results,
        )
        await update_ratings(self.store, results)
        if announcement.record is not None:
            await self.keep_round_totals(game.id, announcement.record)
        return committed

    async def daily_note(self, game_id: int, score: int) -> str:
        """For a daily trek's attempt that ends with ``score``, the line its final message
        adds (the par, and whether it counts); "" for any other game."""
        attempt = await self.store.daily_attempt(game_id)
        if attempt is None:
            return ""
        par = await asyncio.to_thread(cached_par, Day.parse(attempt.day))
        return finish_note(attempt, score, par)

    async def keep_round_totals(self, game_id: int, record: GameRecord) -> None:
        """Count and keep the totals round by round of the game that just ended (in a
        thread). A failure is only logged: the archive counts them when first asked."""
        try:
            totals = await asyncio.to_thread(round_totals, record)
            await self.store.save_round_scores(game_id, totals)
        except DatabaseUnavailable as error:
            log.info("the round totals of game %d wait for the archive: %s", game_id, error)
        except Exception:
            log.exception("could not keep the round totals of game %d", game_id)


def players_of(seats: Sequence[Seat]) -> tuple[Player, ...]:
    """The players of a game's seats, in seat order, named apart (see :func:`seat_names`)."""
    names = seat_names([s.name for s in seats])
    return tuple(
        Player(s.user_id, n, computer=s.computer) for s, n in zip(seats, names, strict=True)
    )


def as_seat(state: GameState, seat: int) -> GameState:
    """``state`` as if it were ``seat``'s turn, for previews and choices while waiting."""
    if seat == state.current or state.is_over:
        return state
    return dataclasses.replace(state, current=seat)


def _placed(move: Move) -> tuple[Hex, ...]:
    return placed_hexes(move.at, move.token_at)
