"""The two things the achievements feature is handed: the catalogue (every achievement's id
and short title, in order) and the function that says which ids each seat earned in a
finished game. :mod:`bot.app` wires them; the feature names neither's source."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine import ACHIEVEMENTS, GameState, ScoreSheet, scenarios_met, seat_achievements
from i18n import _

__all__ = [
    "ENGINE_RULES",
    "SCENARIO_PREFIX",
    "AchievementRules",
    "Catalogue",
    "Earn",
    "engine_earned",
    "scenario_numbers",
]

Earn = Callable[[GameState, ScoreSheet], Sequence[frozenset[str]]]
"""Each seat's earned achievement ids, in seat order, from a finished game's final state and
its score sheet."""

Catalogue = Sequence[tuple[str, str]]
"""Every achievement as ``(id, title)``, in the order they are shown; the titles in English,
each a text of the catalogs (the engine's are marked for them), translated where shown."""


@dataclass(frozen=True, slots=True)
class AchievementRules:
    """The catalogue and the function that reads a finished game, as the feature receives
    them."""

    catalogue: Catalogue
    earn: Earn

    def title(self, achievement: str) -> str:
        """The short title of ``achievement`` (its id if the catalogue lacks it)."""
        return dict(self.catalogue).get(achievement, achievement)

    def shown(self, achievement: str) -> str:
        """The short title of ``achievement`` in the reader's language (see
        :func:`i18n.speaking`)."""
        return _(self.title(achievement))

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id, in catalogue order."""
        return tuple(achievement for achievement, _ in self.catalogue)


SCENARIO_PREFIX = "scenario-"
"""How a solo scenario met is kept among a person's achievements: ``scenario-5``."""


def engine_earned(state: GameState, sheet: ScoreSheet) -> Sequence[frozenset[str]]:
    """Each seat's earned ids as the engine reads them (:func:`engine.seat_achievements`,
    and for a solo game each scenario met, :func:`engine.scenarios_met`, as ``scenario-N``):
    the same reading ``python -m engine achievements`` prints."""
    boards = [seat.environment for seat in state.seats]
    met = {f"{SCENARIO_PREFIX}{n}" for n in scenarios_met(state.cards, sheet, boards)}
    return [frozenset(seat_achievements(sheet, boards, i)) | met for i in range(len(state.seats))]


def scenario_numbers(ids: Iterable[str]) -> list[int]:
    """The solo scenarios among kept ids, in order."""
    return sorted(
        int(a.removeprefix(SCENARIO_PREFIX)) for a in ids if a.startswith(SCENARIO_PREFIX)
    )


ENGINE_RULES = AchievementRules(
    tuple((achievement.id, achievement.title) for achievement in ACHIEVEMENTS), engine_earned
)
"""The rulebook's 25 achievements, read by the engine."""
