"""The two things the achievements feature is handed: the catalogue (every achievement's id
and short title, in order) and the function that says which ids each seat earned in a
finished game. :mod:`bot.app` wires them; the feature names neither's source."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import GameState, ScoreSheet

__all__ = ["AchievementRules", "Catalogue", "Earn"]

Earn = Callable[[GameState, ScoreSheet], Sequence[frozenset[str]]]
"""Each seat's earned achievement ids, in seat order, from a finished game's final state and
its score sheet."""

Catalogue = Sequence[tuple[str, str]]
"""Every achievement as ``(id, title)``, in the order they are shown."""


@dataclass(frozen=True, slots=True)
class AchievementRules:
    """The catalogue and the function that reads a finished game, as the feature receives
    them."""

    catalogue: Catalogue
    earn: Earn

    def title(self, achievement: str) -> str:
        """The short title of ``achievement`` (its id if the catalogue lacks it)."""
        return dict(self.catalogue).get(achievement, achievement)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id, in catalogue order."""
        return tuple(achievement for achievement, _ in self.catalogue)
