"""A game state seen through the score pad: its score sheet and its table-json export."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import InvalidInput
from engine.game import GameState
from engine.scorer import own_score
from engine.scoring.sheet import ScoreSheet, final_scores
from engine.table import table_to_json


def seat_names(state: GameState, names: Sequence[str] | None = None) -> list[str]:
    """``names`` checked against the seats, or ``Player 1``, ``Player 2``... by default."""
    if names is None:
        return [f"Player {seat + 1}" for seat in range(state.players)]
    if len(names) != state.players:
        raise InvalidInput(f"{len(names)} names for {state.players} players")
    return list(names)


def score_state(state: GameState, names: Sequence[str] | None = None) -> ScoreSheet:
    """The score sheet of every environment as it stands (the final scores once over)."""
    return final_scores(
        state.cards,
        [
            (name, seat.environment, seat.nature_tokens)
            for name, seat in zip(seat_names(state, names), state.seats, strict=True)
        ],
    )


def seat_score(state: GameState, seat: int) -> int:
    """``seat``'s score as the game shows it while it is played: its own pieces only (the
    wildlife cards, its largest corridors, its unspent nature tokens and, solo, the solo
    corridor bonus).

    The majority bonuses are left out: they turn on the other seats' corridors, which keep
    changing until the end, so they count on the final score sheet only. Every score change
    of a move (:class:`~engine.MoveScorer`'s gains) is a difference of this score.
    """
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def state_table(state: GameState, names: Sequence[str] | None = None) -> dict[str, Any]:
    """Every environment of ``state`` in the table-json shape, ready for ``engine score``."""
    return table_to_json(
        state.cards,
        [
            (name, seat.environment, seat.nature_tokens)
            for name, seat in zip(seat_names(state, names), state.seats, strict=True)
        ],
    )
