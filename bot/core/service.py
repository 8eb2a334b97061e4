"""The game service: what every command does, between the parsed options and the reply.

Each operation reads the game, asks the engine, and writes the result with the revision it
read, so that two submissions at once never both apply; announcements go into the outbox in
the same transaction. No Discord objects: users are ids and names, so the whole layer is
tested against a real SQLite file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.core import messages
from bot.core.absence import AwayPeriod, Call, Presence, presence_of
from bot.core.absence_messages import skip_lead
from bot.core.computers import (
    COMPUTER_PLAYERS,
    REPLACEMENT,
    Thinker,
    computer_name,
)
from bot.core.errors import (
    AlreadyPlayed,
    ComputerAdded,
    HintUsed,
    LastPerson,
    NoComputer,
    NoGame,
    NotHost,
    NotInGame,
    NotStarted,
    NotYourTurn,
    TooManyLobbies,
)
from bot.core.messages import GameSummary, Player
from bot.core.names import seat_names
from bot.core.outbox import Announcement, Picture
from bot.core.records import (
    export_document,
    export_file,
    last_placements,
    logged_actions,
    placed_hexes,
    read_progress,
    read_state,
    state_text,
)
from bot.core.reminders import ReminderDue, catch_up, next_reminder_time
from bot.store import (
    THIS_PROCESS,
    AlreadySeated,
    Claimer,
    Clock,
    CommitResult,
    GameRow,
    GameStatus,
    HintTaken,
    MoveRow,
    NotActive,
    NotInLobby,
    ReminderNote,
    RevisionConflict,
    Seat,
    Store,
    utc_now,
)
from engine import (
    MAX_PLAYERS,
    MOVE_SEPARATOR,
    Action,
    CardSet,
    GameRecord,
    GameState,
    Hex,
    InvalidInput,
    Move,
    NatureWipe,
    ScoreSheet,
    WipeThree,
    apply,
    new_game,
    record_for,
    score_state,
)

HOUR = timedelta(hours=1)
RECENTLY_ENDED = timedelta(days=7)
"""How long ``mygames`` still lists a game that was ended early."""
MAX_OPEN_LOBBIES = 5
"""How many lobbies one member may have open in one server at a time."""


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


@dataclass(frozen=True, slots=True)
class Preview:
    """A turn worked out but not played: the state it would lead to, where it puts its tile
    and token (``placed``), and the score change."""

    table: LoadedGame
    seat: int
    after: GameState
    placed: tuple[Hex, ...]
    score_before: int
    score_after: int


@dataclass(frozen=True, slots=True)
class Hint:
    """The answer to ``/cascadia hint``: the suggested turns, best first, each worked out as
    a preview (the first one's picture is shown)."""

    moves: tuple[Move, ...]
    previews: tuple[Preview, ...]

    def text(self) -> str:
        """The private message listing the suggestions."""
        return messages.hint_message(
            [
                (messages.play_command(move), preview.score_after - preview.score_before)
                for move, preview in zip(self.moves, self.previews, strict=True)
            ]
        )


def parse_cards(text: str | None) -> str:
    """The stored form of the ``cards`` option: ``"random"`` or a card set's text form."""
    if text is None or text.strip().lower() in ("", "random"):
        return "random"
    return str(CardSet.parse(text))


def parse_wipe(text: str | None) -> WipeThree | NatureWipe:
    """The wipe the ``tokens`` option asks for: none named is the three-of-a-kind wipe."""
    words = (text or "").replace(",", " ").split()
    if not words:
        return WipeThree()
    slots = []
    for word in words:
        if word not in ("1", "2", "3", "4"):
            raise InvalidInput(f"tokens are numbers 1-4 such as `1 3`, not {word[:20]!r}")
        slots.append(int(word))
    return NatureWipe(tuple(slots))


class GameService:
    """The operations behind the commands, on a :class:`~bot.store.Store`."""

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
        self._seeds = seeds
        self._scale = reminder_hour / HOUR
        self.thinker = thinker or Thinker()
        self._openers: dict[int, asyncio.Lock] = {}

    async def claim(self, game_id: int) -> bool:
        """Whether this process does the game's background work now (reminders, votes,
        pings, computer turns): its shards own the game's guild and no other process's lease
        holds the game. Claimed until the lease ends."""
        return await self.store.claim_game(game_id, self.claimer)

    def now(self) -> datetime:
        """The service's clock."""
        return self._now()

    def next_reminder(self, now: datetime, game: GameRow) -> datetime | None:
        """When the next reminder of ``game``'s turn falls due if one went out at ``now``."""
        return self._next_reminder(now, game.reminder_hours, 0)

    def deadline_budget(self, game: GameRow) -> timedelta | None:
        """How long a turn of ``game`` may take (scaled like reminders); ``None``: no
        deadline."""
        if game.deadline_hours == 0:
            return None
        return timedelta(hours=game.deadline_hours) * self._scale

    async def call(
        self, table: LoadedGame, state: GameState, *, turn_started_at: datetime, now: datetime
    ) -> Call:
        """How the player to move in ``state`` is called at ``now`` (see
        :meth:`~bot.core.absence.Presence.call`); a computer seat is never pinged."""
        player = table.players[state.current]
        if player.computer is not None:
            return Call(ping=False)
        presence = presence_of(await self.store.person(player.user_id))
        budget = self.deadline_budget(table.game)
        return presence.call(now, turn_started_at=turn_started_at, budget=budget)

    def _next_reminder(self, turn_started_at: datetime, hours: int, sent: int) -> datetime | None:
        due = next_reminder_time(turn_started_at, hours, sent)
        return None if due is None else turn_started_at + (due - turn_started_at) * self._scale

    def _catch_up(self, now: datetime, game: GameRow) -> ReminderDue | None:
        due = catch_up(now, game.next_reminder_at, game.reminder_hours, game.reminders_sent)
        if due is None:
            return None
        return ReminderDue(due.level, now + (due.next_reminder_at - now) * self._scale)

    # --- loading ------------------------------------------------------------------------------

    async def table(self, channel_id: int) -> LoadedGame:
        """The channel's open game; :class:`NoGame` if there is none."""
        game = await self.store.get_active_game(channel_id)
        if game is None:
            raise NoGame()
        return await self._load(game)

    async def last_table(self, channel_id: int, *, user_id: int) -> LoadedGame:
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
        return await self._load(game)

    async def table_by_id(self, game_id: int) -> LoadedGame:
        """A game by id (lobby buttons carry it); :class:`NoGame` if it is gone."""
        game = await self.store.get_game(game_id)
        if game is None:
            raise NoGame()
        return await self._load(game)

    async def _load(self, game: GameRow) -> LoadedGame:
        players = _players(await self.store.seats(game.id))
        state = None if game.state is None else read_state(game.state)
        return LoadedGame(game, players, state)

    # --- the lobby ----------------------------------------------------------------------------

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, cards: str | None
    ) -> LoadedGame:
        """Open a lobby in the channel with the caller seated as host; :class:`TooManyLobbies`
        if they host :data:`MAX_OPEN_LOBBIES` lobbies in this server already."""
        cards = parse_cards(cards)
        # One opening at a time per member, so that a burst of them cannot pass the count.
        async with self._openers.setdefault(user_id, asyncio.Lock()):
            hosted = await self.store.games_for_user(user_id, statuses=(GameStatus.LOBBY,))
            mine = [g for g in hosted if g.game.host_id == user_id and g.game.guild_id == guild_id]
            if len(mine) >= MAX_OPEN_LOBBIES:
                raise TooManyLobbies(MAX_OPEN_LOBBIES)
            game = await self.store.create_lobby(guild_id, channel_id, user_id, name, cards)
        return await self._load(game)

    async def join(self, game_id: int, *, user_id: int, name: str) -> LoadedGame:
        """Seat the caller in the lobby."""
        await self.store.join(game_id, user_id, name, max_seats=MAX_PLAYERS)
        return await self.table_by_id(game_id)

    async def check_host(self, game_id: int, *, user_id: int, what: str) -> LoadedGame:
        """The game, if the caller is its host; :class:`NotHost` otherwise."""
        table = await self.table_by_id(game_id)
        if user_id != table.game.host_id:
            raise NotHost(what)
        return table

    async def add_computer(
        self, game_id: int, *, user_id: int, policy: str, seen: int | None = None
    ) -> LoadedGame:
        """The host seats a computer player (one of :data:`COMPUTER_PLAYERS`) in the lobby.

        ``seen`` is how many computers had seats when the host was asked which to add (the
        question's buttons carry it): if more have seats now, the question's computer is
        seated already and a press changes nothing (:class:`ComputerAdded`). People joining
        meanwhile do not count. Two presses at the same moment both pick the same free seat
        id, and the store seats it once: the other press is :class:`ComputerAdded` too.

        A computer's seat gets a negative user id, never a Discord user's."""
        if policy not in COMPUTER_PLAYERS:
            raise InvalidInput(f"unknown computer player {policy!r}")
        table = await self.check_host(game_id, user_id=user_id, what="add a computer")
        if table.game.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, table.game.status)
        if seen is not None and table.computers > seen:
            raise ComputerAdded()
        taken = {p.user_id for p in table.players}
        computer_id = next(i for i in range(-1, -MAX_PLAYERS - 2, -1) if i not in taken)
        try:
            await self.store.join(
                game_id, computer_id, computer_name(policy), max_seats=MAX_PLAYERS, computer=policy
            )
        except AlreadySeated:
            raise ComputerAdded() from None
        return await self.table_by_id(game_id)

    async def remove_computer(self, game_id: int, *, user_id: int) -> LoadedGame:
        """The host takes the computer seated last out of the lobby (:class:`NoComputer`
        when there is none); the seats behind it close up."""
        table = await self.check_host(game_id, user_id=user_id, what="remove a computer")
        if table.game.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, table.game.status)
        seated = [p.user_id for p in table.players if p.computer is not None]
        if not seated:
            raise NoComputer()
        await self.store.leave(game_id, seated[-1])
        return await self.table_by_id(game_id)

    async def leave(self, game_id: int, *, user_id: int) -> LoadedGame:
        """Take the caller's seat away; the host leaving closes the lobby."""
        await self.store.leave(game_id, user_id)
        return await self.table_by_id(game_id)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember which message shows the lobby, to update it later."""
        await self.store.set_lobby_message(game_id, message_id)

    async def start(self, game_id: int, *, user_id: int) -> CommitResult:
        """The host starts the game with the seated players, and the first player is called."""
        table = await self.table_by_id(game_id)
        game = table.game
        if user_id != game.host_id:
            raise NotHost("start the game")
        if game.status is not GameStatus.LOBBY:
            raise NotInLobby(game.id, game.status)
        state = new_game(players=len(table.players), seed=self._seeds(), cards=game.cards)
        now = self._now()
        first = table.players[state.current]
        call = await self.call(table, state, turn_started_at=now, now=now)
        announcement = Announcement(
            kind="start",
            text=messages.start_message(state, table.players, call),
            mentions=(first.user_id,) if call.ping else (),
            pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
            state=state,
            names=table.names,
        )
        text = state_text(state)
        return await self.store.start_game(
            game.id,
            game.revision,
            state_json=text,
            seat_order=[p.user_id for p in table.players],
            outbox_messages=[announcement.to_outbox(state_text=text)],
            turn_started_at=now,
            next_reminder_at=self._turn_reminder(now, game, first),
            ping_due_at=call.ping_due_at,
        )

    def _turn_reminder(self, now: datetime, game: GameRow, player: Player) -> datetime | None:
        # A computer is never reminded: it plays within seconds, or after a restart.
        if player.computer is not None:
            return None
        return self._next_reminder(now, game.reminder_hours, 0)

    # --- playing ------------------------------------------------------------------------------

    async def _mover(self, channel_id: int, user_id: int) -> tuple[LoadedGame, GameState, int]:
        table = await self.table(channel_id)
        state = table.require_state()
        seat = table.require_seat(user_id)
        if seat != state.current and not state.is_over:
            raise NotYourTurn(table.players[state.current].name)
        return table, state, seat

    async def _mover_by_id(
        self, game_id: int, user_id: int, expected_revision: int
    ) -> tuple[LoadedGame, GameState, int]:
        table = await self.table_by_id(game_id)
        if table.game.revision != expected_revision:
            raise RevisionConflict(game_id, expected_revision, table.game.revision)
        if table.game.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, table.game.status)
        state = table.require_state()
        seat = table.require_seat(user_id)
        if seat != state.current:
            raise NotYourTurn(table.players[state.current].name)
        return table, state, seat

    async def play(self, channel_id: int, *, user_id: int, move: Move) -> CommitResult:
        """Play the caller's whole turn; the next player is called (or the game ends).

        The same turn sent twice at once is played once; the other gets :class:`AlreadyPlayed`.
        """
        try:
            table, _, seat = await self._mover(channel_id, user_id)
            return await self.commit_turn(table, seat, move, user_id=user_id)
        except (RevisionConflict, NotYourTurn):
            game = await self.store.get_active_game(channel_id)
            if game is None:
                played = await self.store.games_for_user(user_id, statuses=tuple(GameStatus))
                game = next((g.game for g in played if g.game.channel_id == channel_id), None)
            if game is not None and await self._played_last(game.id, user_id):
                raise AlreadyPlayed() from None
            raise

    async def _played_last(self, game_id: int, user_id: int) -> bool:
        """Whether the game's latest move is a whole turn the user chose themselves."""
        moves = await self.store.moves(game_id)
        if not moves:
            return False
        last = moves[-1]
        whole_turn = MOVE_SEPARATOR in last.action  # a wipe is one action, and the turn goes on
        return last.user_id == user_id and last.played_for is None and whole_turn

    async def play_seen(
        self, game_id: int, *, user_id: int, move: Move, expected_revision: int
    ) -> CommitResult:
        """Play the caller's whole turn on the game as they saw it (the turn panel's
        Confirm): :class:`RevisionConflict`, changing nothing, if it changed since."""
        table, _, seat = await self._mover_by_id(game_id, user_id, expected_revision)
        return await self.commit_turn(table, seat, move, user_id=user_id)

    async def play_computer(
        self, game_id: int, *, seat: int | None = None, policy: str | None = None
    ) -> CommitResult | None:
        """Play the computer's move for the seat to move, through the same path as a
        person's turn: revision check, move log, outbox, turn message. ``None`` when there is
        nothing to play: the game is not being played, or the seat to move is not ``seat``
        (when given) or, without ``seat``, not a computer's.

        ``policy`` (default: the seat's computer player, else ``fast``) chooses the move in
        the thinker's worker, as it chooses a skipped turn (see :mod:`bot.core.attendance`).
        :class:`~bot.store.RevisionConflict` if the game changed meanwhile.
        """
        table = await self.table_by_id(game_id)
        state = table.state
        if table.game.status is not GameStatus.ACTIVE or state is None or state.is_over:
            return None
        current = state.current
        player = table.players[current]
        if seat is None and player.computer is None:
            return None  # a person's turn
        if seat is not None and seat != current:
            return None  # that seat's turn is over already
        chosen = policy or player.computer or REPLACEMENT
        move = await self.thinker.choose(state, chosen, seed=game_id)
        # A seat handed over by its person says who the computer played for.
        handed = player.computer is not None and player.user_id > 0
        return await self.commit_turn(
            table,
            current,
            move,
            user_id=player.user_id,
            played_for="computer" if handed else None,
            lead=skip_lead(player, how="computer") if handed else "",
        )

    async def commit_turn(
        self,
        table: LoadedGame,
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
        before = table.require_state()
        after = move.play(before, seat)
        actions = move.actions()
        game = table.game
        moves = await self.store.moves(game.id)
        highlights = last_placements(moves, table.players)
        highlights[seat] = _placed(move)
        line = lead + messages.describe_turn(before, actions, table.players[seat])
        now = self._now()
        call = Call()
        if after.is_over:
            sheet = table.score_sheet(after)
            # The export as it will read once this move is committed.
            seq = moves[-1].seq + 1 if moves else 1
            logged = MoveRow(game.id, seq, user_id, str(move), now, played_for)
            finished = dataclasses.replace(game, status=GameStatus.FINISHED)
            hints = await self.store.hints(game.id)
            document = export_document(finished, table.players, after, [*moves, logged], hints)
            announcement = Announcement(
                kind="finish",
                text=messages.game_over_message(line, sheet, table.players) + tail,
                mentions=tuple(p.user_id for p in table.people),
                pictures=(Picture.SCORES, Picture.ENVIRONMENTS),
                state=after,
                names=table.names,
                highlights=tuple(highlights),
                files=(export_file(document),),
                buttons=buttons,
            )
            status, next_at = GameStatus.FINISHED, None
        else:
            upcoming = table.players[after.current]
            call = await self.call(table, after, turn_started_at=now, now=now)
            announcement = Announcement(
                kind="turn",
                text=f"{line}\n{messages.your_turn_line(after, upcoming, call)}{tail}",
                mentions=(upcoming.user_id,) if call.ping else (),
                pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
                state=after,
                names=table.names,
                highlights=tuple(highlights),
                buttons=buttons,
            )
            status = GameStatus.ACTIVE
            next_at = self._turn_reminder(now, game, upcoming)
        text = state_text(after)
        return await self.store.commit_move(
            game.id,
            game.revision,
            user_id=user_id,
            action_text=str(move),
            new_state_json=text,
            new_status=status,
            outbox_messages=[announcement.to_outbox(state_text=text)],
            turn_started_at=now,
            next_reminder_at=next_at,
            played_for=played_for,
            ping_due_at=call.ping_due_at,
        )

    async def hint(self, channel_id: int, *, user_id: int) -> Hint:
        """The ``fast`` player's best moves for the caller's turn, each worked out as a
        preview; once per turn (:class:`HintUsed` after that), noted in the game's record."""
        table, state, seat = await self._mover(channel_id, user_id)
        game = table.game
        if state.is_over:
            raise NotYourTurn("nobody")
        if any(h.turn == state.turn for h in await self.store.hints(game.id)):
            raise HintUsed()
        moves = await self.thinker.suggest(state)
        previews = tuple(self._work_out(table, state, seat, move) for move in moves)
        try:
            await self.store.record_hint(
                game.id, turn=state.turn, user_id=user_id, moves=[str(m) for m in moves]
            )
        except HintTaken:
            raise HintUsed() from None
        return Hint(tuple(moves), previews)

    async def suggestion(self, game_id: int, *, user_id: int) -> Move:
        """The ``fast`` player's best move for the caller's turn: the turn panel's Suggest.

        It is the turn's hint, as :meth:`hint` gives it, worked out in the thinker's worker:
        the first asking notes it in the game's record; asking again in the same turn (or
        after ``/cascadia hint``) gives the noted best move again, counted once.
        :class:`HintUsed` when the game has changed since the hint was noted (a wipe), so
        that the noted move is no longer the suggestion for it."""
        table = await self.table_by_id(game_id)
        state = table.require_state()
        seat = table.require_seat(user_id)
        if state.is_over or seat != state.current:
            raise NotYourTurn(table.players[state.current].name)
        moves = await self.thinker.suggest(state)
        noted = await self._noted_hint(game_id, state.turn)
        if noted is None:
            try:
                await self.store.record_hint(
                    game_id, turn=state.turn, user_id=user_id, moves=[str(m) for m in moves]
                )
            except HintTaken:
                # Two presses at once: the other one noted the same moves first.
                noted = await self._noted_hint(game_id, state.turn)
            else:
                noted = moves
        if not moves or not noted:
            raise HintUsed("It had no move to suggest.")
        if noted[0] != moves[0]:
            # fast is deterministic: another best move means another display (a wipe).
            raise HintUsed("It was for the display before the wipe.")
        return moves[0]

    async def _noted_hint(self, game_id: int, turn: int) -> list[Move] | None:
        """The moves of the hint noted for ``turn`` of the game, if it had one."""
        for hint in await self.store.hints(game_id):
            if hint.turn == turn:
                return [Move.parse(text) for text in hint.moves]
        return None

    async def preview(self, channel_id: int, *, user_id: int, move: Move) -> Preview:
        """Work out the caller's turn without playing it.

        Any seated player may preview, on their turn or while waiting for it (to plan).
        """
        table = await self.table(channel_id)
        state = table.require_state()
        seat = table.require_seat(user_id)
        return self._work_out(table, state, seat, move)

    def _work_out(self, table: LoadedGame, state: GameState, seat: int, move: Move) -> Preview:
        before = as_seat(state, seat)
        after = move.play(before, seat)
        name = table.players[seat].name
        return Preview(
            table=table,
            seat=seat,
            after=after,
            placed=_placed(move),
            score_before=table.score_sheet(before).player(name).total,
            score_after=table.score_sheet(after).player(name).total,
        )

    async def wipe(self, channel_id: int, *, user_id: int, tokens: str | None) -> CommitResult:
        """The three-of-a-kind wipe, or a nature-token wipe of the named tokens."""
        action = parse_wipe(tokens)
        table, before, seat = await self._mover(channel_id, user_id)
        return await self._wipe(table, before, seat, user_id, action)

    async def wipe_seen(
        self,
        game_id: int,
        *,
        user_id: int,
        action: WipeThree | NatureWipe,
        expected_revision: int,
    ) -> CommitResult:
        """A wipe on the game as the caller saw it (the turn panel's wipe Confirm):
        :class:`RevisionConflict`, changing nothing, if it changed since."""
        table, before, seat = await self._mover_by_id(game_id, user_id, expected_revision)
        return await self._wipe(table, before, seat, user_id, action)

    async def _wipe(
        self,
        table: LoadedGame,
        before: GameState,
        seat: int,
        user_id: int,
        action: WipeThree | NatureWipe,
    ) -> CommitResult:
        after = apply(before, action, seat=seat)
        game = table.game
        announcement = Announcement(
            kind="wipe",
            text=messages.wipe_message(before, action, table.players[seat]),
            pictures=(Picture.DISPLAY,),
            state=after,
            names=table.names,
        )
        text = state_text(after)
        return await self.store.commit_move(
            game.id,
            game.revision,
            user_id=user_id,
            action_text=str(action),
            new_state_json=text,
            new_status=GameStatus.ACTIVE,
            outbox_messages=[announcement.to_outbox(state_text=text)],
            # The same turn goes on: its start time and reminder schedule stay.
            turn_started_at=game.turn_started_at or self._now(),
            next_reminder_at=game.next_reminder_at,
        )

    # --- leaving a game in play ---------------------------------------------------------------

    async def check_can_leave(self, channel_id: int, *, user_id: int) -> LoadedGame:
        """The channel's game in play, if the caller may hand their seat to the computer
        (asked before the confirmation): they play in it, and are not its last person."""
        table = await self.table(channel_id)
        table.require_state()
        table.require_seat(user_id)
        if len(table.people) <= 1:
            raise LastPerson()
        return table

    async def leave_game(self, game_id: int, *, user_id: int) -> CommitResult:
        """Hand the caller's seat in a game in play to the ``fast`` computer player for good;
        the game goes on and the channel is told."""
        table = await self.table_by_id(game_id)
        state = table.require_state()
        seat = table.require_seat(user_id)
        if len(table.people) <= 1:
            raise LastPerson()
        leaver = table.players[seat]
        their_turn = state.current == seat and not state.is_over
        announcement = Announcement(
            kind="leave",
            text=messages.left_message(leaver, REPLACEMENT, their_turn=their_turn),
        )
        return await self.store.set_computer(
            game_id,
            table.game.revision,
            seat=seat,
            computer=REPLACEMENT,
            outbox_messages=[announcement.to_outbox()],
        )

    # --- running the game ---------------------------------------------------------------------

    async def check_can_end(self, channel_id: int, *, user_id: int, can_manage: bool) -> LoadedGame:
        """The channel's game, if the caller may end it (asked before the confirmation)."""
        table = await self.table(channel_id)
        _check_can_end(table, user_id, can_manage)
        return table

    async def end(self, game_id: int, *, user_id: int, name: str, can_manage: bool) -> CommitResult:
        """Stop a game (or lobby) early; the record so far goes with the announcement."""
        table = await self.table_by_id(game_id)
        _check_can_end(table, user_id, can_manage)
        started = table.state is not None
        files: tuple[tuple[str, str], ...] = ()
        if started:
            ended = dataclasses.replace(table.game, status=GameStatus.ENDED)
            moves = await self.store.moves(game_id)
            files = (
                export_file(export_document(ended, table.players, table.require_state(), moves)),
            )
        announcement = Announcement(
            kind="end",
            text=messages.ended_message(Player(user_id, name), started=started),
            files=files,
        )
        return await self.store.end_game(game_id, outbox_messages=[announcement.to_outbox()])

    async def pass_host(self, game_id: int, *, gone: int) -> LoadedGame | None:
        """The host ``gone`` left the server: the next person in seat order becomes host.
        Returns the game as it is then; ``None`` when nothing changed (``gone`` is not the
        host, or nobody is left to take over)."""
        table = await self.table_by_id(game_id)
        if table.game.host_id != gone:
            return None
        seats = [p for p in table.players if p.computer is None]
        order = [p.user_id for p in seats]
        start = order.index(gone) + 1 if gone in order else 0
        following = [*order[start:], *order[:start]]
        heir = next((user for user in following if user != gone), None)
        if heir is None:
            return None
        if not await self.store.pass_host(game_id, old_host=gone, new_host=heir):
            return None
        return await self.table_by_id(game_id)

    async def abandon(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game ends, its unsent messages and reminders are
        dropped. Returns the ids of the games ended."""
        return await self.store.abandon_channel(channel_id)

    async def set_reminder_hours(self, channel_id: int, *, user_id: int, hours: int) -> GameRow:
        """The host changes how long a turn waits before its player is reminded."""
        table = await self.table(channel_id)
        game = table.game
        if user_id != game.host_id:
            raise NotHost("change the settings")
        next_at = None
        if game.status is GameStatus.ACTIVE and game.turn_started_at is not None:
            next_at = self._next_reminder(game.turn_started_at, hours, game.reminders_sent)
        return await self.store.set_reminder_hours(game.id, hours, next_reminder_at=next_at)

    async def queue_reminders(self) -> list[int]:
        """Queue a reminder for every game whose turn has waited long enough; returns the
        outbox ids. After downtime a game gets one catch-up reminder, not a burst."""
        now = self._now()
        owed = [
            (game, due)
            for game in await self.store.due_reminders(now)
            if game.state is not None and (due := self._catch_up(now, game)) is not None
        ]
        # A pass after downtime may owe dozens: a few statements for all of them, and one
        # write to disk.
        claimed = await self.store.claim_games([game.id for game, _ in owed], self.claimer)
        seats = await self.store.seats_of(claimed)
        presences: dict[int, Presence] = {}
        notes: list[ReminderNote] = []
        for game, due in owed:
            if game.id not in claimed or game.state is None:
                continue
            if game.ping_due_at is not None:
                continue  # a ping after quiet hours is owed
            player = _players(seats.get(game.id, []))[read_progress(game.state).current]
            if player.computer is not None:
                continue  # a computer is not reminded
            if player.user_id not in presences:
                presences[player.user_id] = presence_of(await self.store.person(player.user_id))
            if not presences[player.user_id].may_remind(now):
                continue  # away or in quiet hours: due again at the first check after
            since = game.turn_started_at or now
            announcement = Announcement(
                kind="reminder",
                text=messages.reminder_message(due.level, player, since),
                mentions=(player.user_id,),
            )
            notes.append(
                ReminderNote(
                    game.id, game.revision, due.next_reminder_at, (announcement.to_outbox(),)
                )
            )
        # A game a move changed meanwhile is left out: its turn has a fresh schedule.
        results = await self.store.record_reminders(notes)
        return [outbox_id for note in notes if note.game_id in results
                for outbox_id in results[note.game_id].outbox_ids]  # fmt: skip

    # --- looking ------------------------------------------------------------------------------

    async def my_games(self, user_id: int) -> list[GameSummary]:
        """The caller's open games across channels, and those ended in the last week (such
        as a game whose channel was deleted).

        Reads each game's progress, not its whole state, and the time away of the player to
        move only where the game has deadlines: a player may sit at dozens of games.
        """
        now = self._now()
        summaries = []
        # They left these games to the computer.
        entries = [e for e in await self.store.games_for_user(user_id) if e.seat.computer is None]
        seats = await self.store.seats_of([entry.game.id for entry in entries])
        for entry in entries:
            game = entry.game
            players = _players(seats.get(game.id, []))
            progress = None if game.state is None else read_progress(game.state)
            to_move = None if progress is None else players[progress.current]
            deadline, budget = None, self.deadline_budget(game)
            started_at = game.turn_started_at
            playing = progress is not None and not progress.is_over
            if playing and budget and started_at and to_move and to_move.computer is None:
                presence = presence_of(await self.store.person(to_move.user_id))
                deadline = presence.call(now, turn_started_at=started_at, budget=budget).deadline
            summaries.append(
                GameSummary(
                    guild_id=game.guild_id,
                    channel_id=game.channel_id,
                    started=progress is not None,
                    your_turn=to_move is not None and to_move.user_id == user_id,
                    to_move=None if to_move is None else to_move.name,
                    round=None if progress is None else progress.round,
                    deadline=deadline,
                )
            )
        for entry in await self.store.games_for_user(user_id, statuses=(GameStatus.ENDED,)):
            if entry.game.updated_at < now - RECENTLY_ENDED:
                break  # newest first: the rest ended longer ago
            summaries.append(
                GameSummary(
                    guild_id=entry.game.guild_id,
                    channel_id=entry.game.channel_id,
                    started=entry.game.state is not None,
                    your_turn=False,
                    to_move=None,
                    round=None,
                    ended=True,
                )
            )
        return summaries

    async def turn_facts(
        self, table: LoadedGame
    ) -> tuple[datetime | None, tuple[AwayPeriod | None, ...]]:
        """What ``status`` adds: by when the player to move plays (``None``: no deadline, or
        the game is over) and, per seat, the time away going on."""
        now = self._now()
        away = tuple(
            [presence_of(await self.store.person(p.user_id)).away_at(now) for p in table.players]
        )
        state, started_at = table.state, table.game.turn_started_at
        if state is None or state.is_over or started_at is None:
            return None, away
        if table.game.status is not GameStatus.ACTIVE:
            return None, away
        call = await self.call(table, state, turn_started_at=started_at, now=now)
        return call.deadline, away

    async def export(self, channel_id: int, *, user_id: int) -> dict[str, Any]:
        """The channel's game (or the caller's last one here) as a JSON document: the game,
        its settings, players, moves, ``table`` (every environment, in the table-json shape)
        with ``scores`` (its score sheet), and, once the game is over, ``seed`` and the
        replayable ``record``. Snowflake ids are strings, as in Discord's JSON."""
        table = await self.last_table(channel_id, user_id=user_id)
        moves = await self.store.moves(table.game.id)
        hints = await self.store.hints(table.game.id)
        return export_document(table.game, table.players, table.require_state(), moves, hints)

    async def _logged_actions(self, game_id: int) -> list[Action]:
        return logged_actions(await self.store.moves(game_id))


def _players(seats: Sequence[Seat]) -> tuple[Player, ...]:
    names = seat_names([s.name for s in seats])
    return tuple(
        Player(s.user_id, n, computer=s.computer) for s, n in zip(seats, names, strict=True)
    )


def as_seat(state: GameState, seat: int) -> GameState:
    """``state`` as if it were ``seat``'s turn, for previews and choices while waiting."""
    if seat == state.current or state.is_over:
        return state
    return dataclasses.replace(state, current=seat)


def _check_can_end(table: LoadedGame, user_id: int, can_manage: bool) -> None:
    if user_id != table.game.host_id and not can_manage:
        raise NotHost("end the game (or someone with Manage Channels)")


def _placed(move: Move) -> tuple[Hex, ...]:
    return placed_hexes(move.at, move.token_at)
