"""Playing a game: whole turns (typed, from the turn panel, or a computer's), wipes, previews
and hints, and leaving a game to the computer or ending it. A part of the game service (see
:mod:`bot.game.kernel`): each operation reads the game, asks the engine, and commits with the
revision it read.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.game import messages
from bot.game.computers import REPLACEMENT
from bot.game.errors import (
    AlreadyPlayed,
    HintTaken,
    HintUsed,
    LastPerson,
    NotActive,
    NotHost,
    NotYourTurn,
    RevisionConflict,
)
from bot.game.kernel import (
    GameKernel,
    LoadedGame,
    as_seat,
    table_line,
    thread_rest,
)
from bot.game.messages import Player
from bot.game.outbox import Announcement, Picture
from bot.game.records import export_document, export_file, placed_hexes, state_text
from bot.game.rows import CommitResult, GameStatus
from engine import (
    MOVE_SEPARATOR,
    GameState,
    Hex,
    InvalidInput,
    Move,
    NatureWipe,
    WipeThree,
    apply,
    score_state,
    seat_score,
)
from i18n import N_, speaking


@dataclass(frozen=True, slots=True)
class Preview:
    """A turn worked out but not played: the state it would lead to, where it puts its tile
    and token (``placed``), the score change (``score_after - score_before``, the move's own
    points, as the panel lists them) and ``total_after``, the seat's total if the game ended
    after it, majority bonuses in (the number the pictures and the standings show)."""

    game: LoadedGame
    seat: int
    after: GameState
    placed: tuple[Hex, ...]
    score_before: int
    score_after: int
    total_after: int


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


class Turns:
    """Playing a game: whole turns (a person's, the panel's, a computer's), wipes, previews
    and hints, then leaving it to the computer or ending it; part of the game service, over
    its :class:`GameKernel`."""

    def __init__(self, kernel: GameKernel) -> None:
        self.kernel = kernel
        self.store = kernel.store

    async def _mover(self, channel_id: int, user_id: int) -> tuple[LoadedGame, GameState, int]:
        loaded = await self.kernel.game(channel_id)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        if seat != state.current and not state.is_over:
            raise NotYourTurn(loaded.players[state.current].name)
        return loaded, state, seat

    async def _mover_by_id(
        self, game_id: int, user_id: int, expected_revision: int
    ) -> tuple[LoadedGame, GameState, int]:
        loaded = await self.kernel.game_by_id(game_id)
        if loaded.game.revision != expected_revision:
            raise RevisionConflict(game_id, expected_revision, loaded.game.revision)
        if loaded.game.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, loaded.game.status)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        if seat != state.current:
            raise NotYourTurn(loaded.players[state.current].name)
        return loaded, state, seat

    async def play(self, channel_id: int, *, user_id: int, move: Move) -> CommitResult:
        """Play the caller's whole turn; the next player is called (or the game ends).

        The same turn sent twice at once is played once; the other gets :class:`AlreadyPlayed`.
        """
        try:
            loaded, _state, seat = await self._mover(channel_id, user_id)
            return await self.kernel.commit_turn(loaded, seat, move, user_id=user_id)
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
        loaded, _state, seat = await self._mover_by_id(game_id, user_id, expected_revision)
        return await self.kernel.commit_turn(loaded, seat, move, user_id=user_id)

    async def play_computer(
        self, game_id: int, *, seat: int | None = None, policy: str | None = None
    ) -> CommitResult | None:
        """Play the computer's move for the seat to move, through the same path as a
        person's turn: revision check, move log, outbox, turn message. ``None`` when there is
        nothing to play: the game is not being played, or the seat to move is not ``seat``
        (when given) or, without ``seat``, not a computer's.

        ``policy`` (default: the seat's computer player, else ``fast``) chooses the move in
        the thinker's worker, as it chooses a skipped turn (see :mod:`bot.attendance.service`).
        :class:`~bot.game.errors.RevisionConflict` if the game changed meanwhile.
        """
        loaded = await self.kernel.game_by_id(game_id)
        state = loaded.state
        if loaded.game.status is not GameStatus.ACTIVE or state is None or state.is_over:
            return None
        current = state.current
        player = loaded.players[current]
        if seat is None and player.computer is None:
            return None  # a person's turn
        if seat is not None and seat != current:
            return None  # that seat's turn is over already
        chosen = policy or player.computer or REPLACEMENT
        move = await self.kernel.thinker.choose(state, chosen, seed=game_id)
        # A seat handed over by its person says who the computer played for.
        handed = player.computer is not None and player.user_id > 0
        with speaking(loaded.game.locale):
            lead = messages.computer_lead(player) if handed else ""
        return await self.kernel.commit_turn(
            loaded,
            current,
            move,
            user_id=player.user_id,
            played_for="computer" if handed else None,
            lead=lead,
        )

    async def hint(self, channel_id: int, *, user_id: int) -> Hint:
        """The ``fast`` player's best moves for the caller's turn, each worked out as a
        preview; once per turn (:class:`HintUsed` after that), noted in the game's record."""
        loaded, state, seat = await self._mover(channel_id, user_id)
        game = loaded.game
        if state.is_over:
            raise NotYourTurn(None)
        if any(h.turn == state.turn for h in await self.store.hints(game.id)):
            raise HintUsed()
        moves = await self.kernel.thinker.suggest(state)
        previews = tuple(self._work_out(loaded, state, seat, move) for move in moves)
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
        loaded = await self.kernel.game_by_id(game_id)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        if state.is_over or seat != state.current:
            raise NotYourTurn(loaded.players[state.current].name)
        moves = await self.kernel.thinker.suggest(state)
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
            raise HintUsed(N_("It had no move to suggest."))
        if noted[0] != moves[0]:
            # fast is deterministic: another best move means another display (a wipe).
            raise HintUsed(N_("It was for the display before the wipe."))
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
        loaded = await self.kernel.game(channel_id)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        return self._work_out(loaded, state, seat, move)

    def _work_out(self, loaded: LoadedGame, state: GameState, seat: int, move: Move) -> Preview:
        before = as_seat(state, seat)
        after = move.play(before, seat)
        return Preview(
            game=loaded,
            seat=seat,
            after=after,
            placed=placed_hexes(move.at, move.token_at),
            score_before=seat_score(before, seat),
            score_after=seat_score(after, seat),
            total_after=score_state(after).players[seat].total,
        )

    async def wipe(self, channel_id: int, *, user_id: int, tokens: str | None) -> CommitResult:
        """The three-of-a-kind wipe, or a nature-token wipe of the named tokens."""
        action = parse_wipe(tokens)
        loaded, before, seat = await self._mover(channel_id, user_id)
        return await self._wipe(loaded, before, seat, user_id, action)

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
        loaded, before, seat = await self._mover_by_id(game_id, user_id, expected_revision)
        return await self._wipe(loaded, before, seat, user_id, action)

    async def _wipe(
        self,
        loaded: LoadedGame,
        before: GameState,
        seat: int,
        user_id: int,
        action: WipeThree | NatureWipe,
    ) -> CommitResult:
        after = apply(before, action, seat=seat)
        game = loaded.game
        with speaking(game.locale):
            announcement = Announcement(
                kind="wipe",
                text=messages.wipe_message(before, action, loaded.players[seat]),
                pictures=(Picture.DISPLAY,),
                state=after,
                names=loaded.names,
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
            turn_started_at=game.turn_started_at or self.kernel.now(),
            next_reminder_at=game.next_reminder_at,
        )

    # --- leaving a game in play ---------------------------------------------------------------

    async def check_can_leave(self, channel_id: int, *, user_id: int) -> LoadedGame:
        """The channel's game in play, if the caller may hand their seat to the computer
        (asked before the confirmation): they play in it, and are not its last person."""
        loaded = await self.kernel.game(channel_id)
        loaded.require_state()
        loaded.require_seat(user_id)
        if len(loaded.people) <= 1:
            raise LastPerson()
        return loaded

    async def leave_game(self, game_id: int, *, user_id: int) -> CommitResult:
        """Hand the caller's seat in a game in play to the ``fast`` computer player for good;
        the game goes on and the channel is told."""
        loaded = await self.kernel.game_by_id(game_id)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        if len(loaded.people) <= 1:
            raise LastPerson()
        leaver = loaded.players[seat]
        their_turn = state.current == seat and not state.is_over
        with speaking(loaded.game.locale):
            text = messages.left_message(leaver, REPLACEMENT, their_turn=their_turn)
            announcement = Announcement(kind="leave", text=text)
        return await self.store.set_computer(
            game_id,
            loaded.game.revision,
            seat=seat,
            computer=REPLACEMENT,
            outbox_messages=[announcement.to_outbox()],
        )

    # --- running the game ---------------------------------------------------------------------

    async def check_can_end(self, channel_id: int, *, user_id: int, can_manage: bool) -> LoadedGame:
        """The channel's game, if the caller may end it (asked before the confirmation)."""
        loaded = await self.kernel.game(channel_id)
        _check_can_end(loaded, user_id, can_manage)
        return loaded

    async def end(self, game_id: int, *, user_id: int, name: str, can_manage: bool) -> CommitResult:
        """Stop a game (or lobby) early; the record so far goes with the announcement."""
        loaded = await self.kernel.game_by_id(game_id)
        _check_can_end(loaded, user_id, can_manage)
        started = loaded.state is not None
        files: tuple[tuple[str, str], ...] = ()
        if started:
            ended = dataclasses.replace(loaded.game, status=GameStatus.ENDED)
            moves = await self.store.moves(game_id)
            files = (
                export_file(export_document(ended, loaded.players, loaded.require_state(), moves)),
            )
        game = loaded.game
        with speaking(game.locale):
            announcement = Announcement(
                kind="end",
                text=messages.ended_message(Player(user_id, name), started=started),
                files=files,
                archive_after=thread_rest(game),
            )
            rows = [announcement.to_outbox()]
            if game.parent_id is not None:
                rows.append(table_line(game.channel_id, game.parent_id))
        return await self.store.end_game(game_id, outbox_messages=rows)

    async def abandon(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game ends, its unsent messages and reminders are
        dropped. Returns the ids of the games ended."""
        return await self.store.abandon_channel(channel_id)


def _check_can_end(loaded: LoadedGame, user_id: int, can_manage: bool) -> None:
    if user_id != loaded.game.host_id and not can_manage:
        raise NotHost(N_("end the game (or someone with Manage Channels)"))
