"""A game round by round: every player's total after each round and where each tile went.

A round is one turn of every player, starting with the first player (a solo game has 20).
The total after a round is the score sheet of the environments as they then stand, counted
as if the game ended there: wildlife cards, largest corridors, the majority (or solo)
bonuses of that moment and the nature tokens then unspent. So the last round of a finished
game is its final score sheet, and a lead in the middle of a game is the lead the score pad
would show.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, PlaceTile
from engine.game import GameState, apply, new_game
from engine.hexes import Hex
from engine.scoring.sheet import ScoreSheet
from engine.serialize import GameRecord
from engine.summary import score_state, seat_names


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a replayed game, as it stood after the round's last turn."""

    number: int
    """1 for the first round."""
    state: GameState
    """The game after the round's last turn."""
    sheet: ScoreSheet
    """The score sheet of :attr:`state`, as if the game ended there."""
    placed: tuple[Hex | None, ...]
    """Per seat, where its tile went this round; ``None`` for a seat without a turn in it
    (the last round of a game ended early)."""

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total by name, in seat order."""
        return {score.name: score.total for score in self.sheet.players}

    def to_json(self) -> dict[str, Any]:
        """``{"round": n, "scores": {name: total, ...}}``, what ``engine replay --rounds``
        prints per round."""
        return {"round": self.number, "scores": self.totals}


def play_rounds(
    start: GameState, actions: Iterable[Action], names: Sequence[str] | None = None
) -> Iterator[Round]:
    """The rounds reached by applying ``actions`` to ``start``, one as each round ends, and
    the last one even when the actions stop within it; players are named by ``names`` (or
    ``Player 1``, ``Player 2``...). Raises as :func:`engine.apply` does on an action the
    rules refuse, after yielding the rounds before it."""
    shown = seat_names(start, names)
    players = start.players
    state = start
    turn_end = start
    placed: list[Hex | None] = [None] * players
    for action in actions:
        if isinstance(action, PlaceTile):
            placed[state.current] = action.at
        before = state.turn
        state = apply(state, action)
        if state.turn == before:
            continue
        turn_end = state
        if state.turn % players == 0:
            yield _round(state, shown, placed)
            placed = [None] * players
    if turn_end.turn % players:
        yield _round(turn_end, shown, placed)


def replay_rounds(record: GameRecord) -> tuple[Round, ...]:
    """Every round of the game ``record`` holds, its players named by the record's names."""
    start = new_game(players=record.players, seed=record.seed, cards=record.cards)
    return tuple(play_rounds(start, record.actions, record.names or None))


def _round(state: GameState, names: Sequence[str], placed: Sequence[Hex | None]) -> Round:
    number = (state.turn + state.players - 1) // state.players
    return Round(number, state, score_state(state, names), tuple(placed))
