"""The engine's exceptions: malformed input versus an action not allowed now.

Messages are short, lowercase and echo the offending input; callers that talk to people
(the bot) may show them as they are.
"""

from __future__ import annotations

from enum import StrEnum


class CascadiaError(Exception):
    """Root of every error the engine raises on purpose."""


class InvalidInput(CascadiaError, ValueError):
    """Text, JSON or values that cannot be read at all (malformed, unknown names, out of range)."""


class Reason(StrEnum):
    """Why an action is not allowed now."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    NO_SUCH_SLOT = "no_such_slot"
    WIPE_NOT_ALLOWED = "wipe_not_allowed"
    WIPE_ALREADY_USED = "wipe_already_used"
    NO_NATURE_TOKEN = "no_nature_token"
    OCCUPIED = "occupied"
    NOT_ADJACENT = "not_adjacent"
    NO_TILE = "no_tile"
    WRONG_SPECIES = "wrong_species"
    HAS_TOKEN = "has_token"


class IllegalAction(CascadiaError):
    """A well-formed action that the rules do not allow in this state.

    ``reason`` says which rule refused it; the state it was applied to is unchanged.
    """

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
