"""The stand-in: the computer player that plays a turn for an absent player.

One function, :func:`stand_in_turn`, chooses the whole turn, so the player behind it can be
switched in one place. It is the engine's ``fast`` player (see :func:`engine.choose`), seeded
by the game's id, so the same state of the same game always gets the same turn.
"""

from __future__ import annotations

from engine import GameState, Phase, PlaceTile, PlaceToken, Take, choose

__all__ = ["STAND_IN", "stand_in_turn"]

STAND_IN = "fast"
"""The computer player that plays skipped turns, and seats handed to the computer."""


def stand_in_turn(state: GameState, seed: int) -> tuple[Take, PlaceTile, PlaceToken]:
    """The whole turn the stand-in plays for the current seat of ``state``."""
    if state.is_over or state.phase is not Phase.CHOOSE:
        raise ValueError("the stand-in plays a whole turn, from its start")
    actions = choose(state, STAND_IN, seed=seed)
    match actions:
        case [Take() as take, PlaceTile() as place, PlaceToken() as token]:
            return take, place, token
    raise ValueError(f"{STAND_IN} did not play a whole turn: {actions}")
