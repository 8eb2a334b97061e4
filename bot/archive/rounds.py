"""A finished game's totals round by round, counted once from its record for the archive's
chart and replay."""

from __future__ import annotations

from engine import GameRecord, replay_rounds


def round_totals(record: GameRecord) -> list[tuple[int, ...]]:
    """Every seat's total after each round of the game ``record`` holds (CPU work: the game
    is replayed)."""
    return [
        tuple(score.total for score in played.sheet.players) for played in replay_rounds(record)
    ]
