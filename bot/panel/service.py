"""The turn panel behind the buttons: opening it, each press, Confirm and Cancel, with the
draft of choices kept in the database between presses.

No Discord objects: users are ids, presses are :class:`~bot.panel.draft.Press` values, and
what the panel should show comes back as a :class:`Shown`. Confirm plays through the same
service path as ``/cascadia play`` and ``/cascadia wipe`` (revision check, move log, outbox),
with the revision the draft was made on: a panel whose game changed underneath it plays
nothing.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from enum import StrEnum

from bot.game import messages
from bot.game.errors import BotError, NotInGame, RevisionConflict
from bot.game.rows import CommitResult, GameStatus
from bot.game.service import GameService, LoadedGame, as_seat
from bot.panel import draft as panel_draft
from bot.panel import steps as panel_steps
from bot.panel.draft import Draft, Offer, Press, Step, Verb
from bot.panel.store import PanelRow, PanelStore
from engine import (
    MOVE_SEPARATOR,
    CascadiaError,
    GameState,
    Move,
    NatureWipe,
    WipeThree,
    score_state,
)
from i18n import N_, _
from render import render_environment

log = logging.getLogger(__name__)


class PanelRefused(BotError):
    """A press the panel turns down; the panel stays as it is and nothing was played."""


class PanelGone(PanelRefused):
    """The panel can no longer act: its game changed or ended, or it was closed. Nothing was
    played."""


class TurnPassed(PanelGone):
    """The panel's (or the Play button's) turn has passed."""


class Outcome(StrEnum):
    """What a press led to."""

    SHOWN = "shown"
    """The panel shows a step (a new one, or the same one again)."""
    PLAYED = "played"
    """Confirm played the turn."""
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class Shown:
    """What the panel shows after a press: the step's offer (for ``SHOWN``), the ids its
    components carry, and the outbox rows a Confirm queued."""

    outcome: Outcome
    game_id: int
    user_id: int
    turn: int
    version: int
    seat: int
    name: str
    planning: bool
    to_move: str = ""
    """The name of the player to move (whose turn a planning panel waits for)."""
    offer: Offer | None = None
    notice: str = ""
    """A line above the step (a wipe was played; the panel had moved on)."""
    outbox_ids: tuple[int, ...] = ()


CLOSED = ""
"""The stored draft of a closed panel (Cancel, or its turn played)."""


class Panels:
    """Opens panels and handles their presses, on the game service and its store."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store_as(PanelStore)

    async def open(self, game_id: int, *, user_id: int, turn: int) -> Shown:
        """The Play button: the panel of ``user_id`` for turn ``turn``, resumed where it was
        if it is still good, else from the first step. Someone other than the player to
        move gets it in planning mode."""
        loaded = await self.service.game_by_id(game_id)
        state, seat = self._check_live(loaded, user_id, turn)
        row = await self.store.get_panel(game_id, user_id)
        draft, notice = Draft(), ""
        live = row is not None and row.draft != CLOSED
        if live and row is not None and row.turn == turn and row.revision == loaded.game.revision:
            draft = self._fitting(row, state, seat) or Draft()
        elif live and row is not None and row.turn < turn and seat == state.current:
            draft, notice = self._carried(row, state, seat)
        expected = None if row is None else row.version
        saved = await self.store.save_panel(
            game_id,
            user_id,
            turn=turn,
            revision=loaded.game.revision,
            draft=draft.dumps(),
            expected_version=expected,
        )
        return dataclasses.replace(self._show(loaded, state, seat, saved, draft), notice=notice)

    async def _planned_turn(self, loaded: LoadedGame, user_id: int, turn: int) -> Shown | None:
        """``user_id``'s panel for their turn, now come, if their panel of ``turn`` was a
        plan made while waiting; else ``None``."""
        state, seat = loaded.require_state(), loaded.seat_of(user_id)
        if seat != state.current or state.turn <= turn or state.is_over:
            return None
        if loaded.game.status is not GameStatus.ACTIVE:
            return None
        row = await self.store.get_panel(loaded.game.id, user_id)
        if row is None or row.draft == CLOSED or row.turn != turn:
            return None
        return await self.open(loaded.game.id, user_id=user_id, turn=state.turn)

    def _carried(self, row: PanelRow, state: GameState, seat: int) -> tuple[Draft, str]:
        """A plan made while waiting, brought to the turn it was for: the whole plan when
        its pair is still in the display (in whichever slots it now is), else the first
        step and what changed."""
        try:
            plan = Draft.loads(row.draft)
        except CascadiaError:
            return Draft(), ""
        if plan.planned is None:
            return Draft(), ""
        tile, token = plan.planned
        tiles = [str(t) if t is not None else "" for t in state.display_tiles]
        tokens = [t.value if t is not None else "" for t in state.display_tokens]
        tile_slot = tiles.index(tile) + 1 if tile in tiles else None
        token_slot: int | None = None
        if tile_slot is not None and not plan.free:
            token_slot = tile_slot if tokens[tile_slot - 1] == token else None
        elif tile_slot is not None:
            token_slot = next(
                (i for i, t in enumerate(tokens, start=1) if t == token and i != tile_slot), None
            )
        if tile_slot is None or token_slot is None:
            return Draft(), panel_steps.plan_changed_text(tile_gone=tile_slot is None, token=token)
        kept = dataclasses.replace(plan, tile=tile_slot, token=token_slot, page=0)
        try:
            offered = panel_steps.offer(as_seat(state, seat), kept)
        except CascadiaError:
            return Draft(), panel_steps.plan_changed_text(tile_gone=False, token=token)
        return kept, panel_steps.plan_kept_text(tile_slot, confirm=offered.step is Step.CHECK)

    async def press(
        self, game_id: int, *, user_id: int, turn: int, version: int, press: Press
    ) -> Shown:
        """One press on ``user_id``'s panel, shown at ``version``. Raises :class:`PanelGone`
        (or the engine's and store's refusals) when it cannot act; nothing changes then."""
        loaded = await self.service.game_by_id(game_id)
        try:
            state, seat = self._check_live(loaded, user_id, turn)
            row = await self._live_row(loaded, user_id, turn)
        except PanelGone as gone:
            # A second tap on Confirm after the first played the turn: say it was played.
            played = await self._own_turn(loaded, user_id, turn, press)
            if played is None and isinstance(gone, TurnPassed):
                # A press on a planning panel once the turn it planned for has come: the
                # plan, brought to this turn (the press itself is not acted on).
                played = await self._planned_turn(loaded, user_id, turn)
            if played is None:
                raise
            return played
        fitting = self._fitting(row, state, seat)
        if fitting is None:
            # A stored draft that no longer fits its game (a corrupt row) must not lock the
            # panel: its choices start again, and the press is not acted on.
            saved = await self.store.save_panel(
                game_id,
                user_id,
                turn=turn,
                revision=row.revision,
                draft=Draft().dumps(),
                expected_version=row.version,
            )
            shown = self._show(loaded, state, seat, saved, Draft())
            return dataclasses.replace(
                shown, notice=_("This panel's choices could not be read: please choose again.")
            )
        draft = fitting
        if version != row.version:
            # A press on an older picture of this panel (a double click, a second copy):
            # show the panel as it stands instead of acting on what was seen.
            shown = self._show(loaded, state, seat, row, draft)
            return dataclasses.replace(
                shown, notice=_("This panel had already moved on: here it is as it stands.")
            )
        planning = seat != state.current
        before = as_seat(state, seat)
        if press.verb is Verb.CANCEL:
            await self._close(row, row.version)
            return self._result(Outcome.CANCELLED, loaded, seat, row, planning)
        if press.verb is Verb.CONFIRM:
            try:
                return await self._confirm(loaded, before, seat, row, draft, planning)
            except RevisionConflict:
                # Two taps on Confirm at once: the other one played the turn (or wiped).
                again = await self.service.game_by_id(game_id)
                played = await self._own_turn(again, user_id, turn, press)
                if played is None:
                    raise
                return played
        if press.verb is Verb.SUGGEST:
            # The turn's hint, worked out off the event loop and noted as /cascadia hint does.
            panel_steps.check_press(before, draft, press, planning=planning)
            move = await self.service.turns.suggestion(game_id, user_id=user_id)
            new = panel_steps.suggestion(before, move)
        else:
            new = panel_steps.advance(before, draft, press, planning=planning)
        if planning:
            new = dataclasses.replace(new, planned=_pair_of(before, new))
        saved = await self.store.save_panel(
            game_id,
            user_id,
            turn=turn,
            revision=row.revision,
            draft=new.dumps(),
            expected_version=row.version,
        )
        return self._show(loaded, state, seat, saved, new)

    async def _confirm(
        self,
        loaded: LoadedGame,
        before: GameState,
        seat: int,
        row: PanelRow,
        draft: Draft,
        planning: bool,
    ) -> Shown:
        if planning:
            raise PanelRefused(
                N_("It is not your turn: this panel only plans. Nothing was played.")
            )
        step = draft.step
        if step not in (Step.CHECK, Step.WIPE):
            raise PanelRefused(N_("There is nothing to confirm on this step yet."))
        actions = panel_draft.actions(draft)
        user_id = row.user_id
        if step is Step.WIPE:
            [wipe] = actions
            if not isinstance(wipe, WipeThree | NatureWipe):
                raise RuntimeError("a wipe draft plays one wipe")
            result = await self.service.turns.wipe_seen(
                loaded.game.id, user_id=user_id, action=wipe, expected_revision=row.revision
            )
            return await self._after_wipe(loaded.game.id, user_id, row, result)
        result = await self.service.turns.play_seen(
            loaded.game.id, user_id=user_id, move=draft.move(), expected_revision=row.revision
        )
        await self._close(row, None)
        return dataclasses.replace(
            self._result(Outcome.PLAYED, loaded, seat, row, planning),
            outbox_ids=result.outbox_ids,
            notice=panel_steps.same_as(panel_draft.command_text(draft)),
        )

    async def _live_row(self, loaded: LoadedGame, user_id: int, turn: int) -> PanelRow:
        """The panel's row, if the panel is open on the game as it is; else :class:`PanelGone`."""
        row = await self.store.get_panel(loaded.game.id, user_id)
        if row is None or row.turn != turn or row.draft == CLOSED:
            raise PanelGone(
                N_(
                    "This panel was closed: press **Play** on the turn message to open it. "
                    "Nothing was played."
                )
            )
        if row.revision != loaded.game.revision:
            raise PanelGone(
                N_(
                    "The game changed since this panel was opened. Press **Play** on the "
                    "latest turn message to start again from what is on the table now. "
                    "Nothing was played."
                )
            )
        return row

    async def _own_turn(
        self, loaded: LoadedGame, user_id: int, turn: int, press: Press
    ) -> Shown | None:
        """For a Confirm that came after the same player's own Confirm on this panel (a
        double tap, one after the other or both at once): the turn as played, or
        :class:`PanelRefused` for a second wipe. ``None`` when it is not that, and the press
        is refused as it would be."""
        seat = loaded.seat_of(user_id)
        row = await self.store.get_panel(loaded.game.id, user_id)
        if press.verb is not Verb.CONFIRM or seat is None or row is None or row.turn != turn:
            return None
        draft = None if row.draft == CLOSED else self._readable(row)
        moves = await self.store.moves(loaded.game.id)
        turns = [m for m in moves if MOVE_SEPARATOR in m.action]
        if len(turns) > turn:
            logged = turns[turn]
            move = Move.parse(logged.action)
            # A panel its Confirm closed, or one whose move is the one played.
            ours = draft is None or (draft.step is Step.CHECK and draft.move() == move)
            if logged.user_id != user_id or logged.played_for is not None or not ours:
                return None
            return Shown(
                outcome=Outcome.PLAYED,
                game_id=loaded.game.id,
                user_id=user_id,
                turn=turn,
                version=row.version,
                seat=seat,
                name=loaded.players[seat].name,
                planning=False,
                notice=panel_steps.same_as(messages.play_command(move)),
            )
        latest = moves[-1] if moves and len(turns) == turn else None
        if (
            latest is not None
            and latest.user_id == user_id
            and draft is not None
            and draft.wipe is not None
            and latest.action == str(panel_draft.actions(draft)[0])
        ):
            raise PanelRefused(N_("Your first tap wiped already: nothing more was wiped."))
        return None

    @staticmethod
    def _readable(row: PanelRow) -> Draft | None:
        try:
            return Draft.loads(row.draft)
        except CascadiaError:
            return None

    async def _after_wipe(
        self, game_id: int, user_id: int, row: PanelRow, result: CommitResult
    ) -> Shown:
        loaded = await self.service.game_by_id(game_id)
        state = loaded.require_state()
        seat = loaded.require_seat(user_id)
        saved = await self.store.save_panel(
            game_id,
            user_id,
            turn=row.turn,
            revision=loaded.game.revision,
            draft=Draft().dumps(),
            expected_version=row.version,
        )
        shown = self._show(loaded, state, seat, saved, Draft())
        return dataclasses.replace(
            shown,
            outbox_ids=result.outbox_ids,
            notice=_("Wiped: the new display is below and in the channel."),
        )

    async def _close(self, row: PanelRow, expected_version: int | None) -> None:
        await self.store.save_panel(
            row.game_id,
            row.user_id,
            turn=row.turn,
            revision=row.revision,
            draft=CLOSED,
            expected_version=expected_version,
        )

    def _check_live(self, loaded: LoadedGame, user_id: int, turn: int) -> tuple[GameState, int]:
        game = loaded.game
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        state = loaded.require_state()
        if game.status is GameStatus.ENDED:
            raise PanelGone(N_("This game was ended. Nothing was played."))
        if game.status is not GameStatus.ACTIVE or state.is_over:
            raise PanelGone(N_("This game is over. Nothing was played."))
        if state.turn != turn:
            raise TurnPassed(messages.turn_passed_text())
        return state, seat

    def _fitting(self, row: PanelRow, state: GameState, seat: int) -> Draft | None:
        """The stored draft, if it reads and its choices are still legal on ``state``."""
        try:
            draft = Draft.loads(row.draft)
            panel_steps.offer(as_seat(state, seat), draft, planning=seat != state.current)
        except CascadiaError:
            log.warning("panel of game %d, user %d does not fit its game", row.game_id, row.user_id)
            return None
        return draft

    def _show(
        self, loaded: LoadedGame, state: GameState, seat: int, row: PanelRow, draft: Draft
    ) -> Shown:
        planning = seat != state.current
        step_offer = panel_steps.offer(as_seat(state, seat), draft, planning=planning)
        return dataclasses.replace(
            self._result(Outcome.SHOWN, loaded, seat, row, planning), offer=step_offer
        )

    def _result(
        self, outcome: Outcome, loaded: LoadedGame, seat: int, row: PanelRow, planning: bool
    ) -> Shown:
        return Shown(
            outcome=outcome,
            game_id=loaded.game.id,
            user_id=row.user_id,
            turn=row.turn,
            version=row.version,
            seat=seat,
            name=loaded.players[seat].name,
            planning=planning,
            to_move=loaded.players[loaded.require_state().current].name,
        )


def _pair_of(state: GameState, draft: Draft) -> tuple[str, str] | None:
    """The tile (text form) and token ``draft`` takes from ``state``'s display, if any."""
    if draft.tile is None or draft.token is None:
        return None
    tile, token = state.display_tiles[draft.tile - 1], state.display_tokens[draft.token - 1]
    if tile is None or token is None:
        return None
    return str(tile), token.value


def draw_panel(offer: Offer, seat: int, name: str) -> bytes:
    """The panel's picture: ``seat``'s environment with the move so far drawn in and ringed,
    headed by the total it would have if the game ended then, majority bonuses in (the number
    of the standings and every other picture). CPU work: run it off the event loop."""
    state = offer.shown
    score = score_state(state).players[seat].total
    return render_environment(state, seat, name=name, score=score, highlight=offer.highlight)


__all__ = [
    "CLOSED",
    "Outcome",
    "PanelGone",
    "PanelRefused",
    "Panels",
    "Shown",
    "TurnPassed",
    "draw_panel",
]
