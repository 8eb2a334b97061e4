"""The final score sheet: every player's points by part, the ranking and the winners.

Render and bot display a :class:`ScoreSheet` as it is, without recomputing anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.components import MAX_PLAYERS, CardSet, Habitat, Wildlife
from engine.environment import Environment
from engine.errors import InvalidInput
from engine.scoring import wildlife_score
from engine.scoring.corridors import habitat_bonuses, largest_corridors


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's score-pad column.

    ``wildlife`` holds the points of each species' card, ``habitats`` the size of the
    largest corridor of each habitat (1 point per tile), ``habitat_bonus`` the majority (or
    solo) bonus per habitat and ``nature_tokens`` the unspent nature tokens (1 point each).
    """

    name: str
    wildlife: dict[Wildlife, int]
    habitats: dict[Habitat, int]
    habitat_bonus: dict[Habitat, int]
    nature_tokens: int

    @property
    def wildlife_total(self) -> int:
        """The points of all five wildlife cards."""
        return sum(self.wildlife.values())

    @property
    def habitat_total(self) -> int:
        """The largest corridors plus the bonuses, over all five habitats."""
        return sum(self.habitats.values()) + sum(self.habitat_bonus.values())

    @property
    def total(self) -> int:
        """Wildlife, habitats, bonuses and nature tokens."""
        return self.wildlife_total + self.habitat_total + self.nature_tokens

    def to_json(self) -> dict[str, Any]:
        """This column as in the table-json output."""
        return {
            "name": self.name,
            "wildlife": {w.value: self.wildlife.get(w, 0) for w in Wildlife},
            "wildlife_total": self.wildlife_total,
            "habitats": {h.value: self.habitats.get(h, 0) for h in Habitat},
            "habitat_bonus": {h.value: self.habitat_bonus.get(h, 0) for h in Habitat},
            "habitat_total": self.habitat_total,
            "nature_tokens": self.nature_tokens,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every player's score in seat (input) order, with the ranking worked out from them."""

    players: tuple[PlayerScore, ...]

    def _ranked(self) -> list[PlayerScore]:
        # sorted() is stable: players still tied keep their input order.
        return sorted(self.players, key=lambda p: (-p.total, -p.nature_tokens))

    @property
    def ranking(self) -> tuple[str, ...]:
        """Player names best first: highest total, then most nature tokens left, then seat
        order."""
        return tuple(p.name for p in self._ranked())

    @property
    def winners(self) -> tuple[str, ...]:
        """The players sharing first place: one, or several still tied after the nature-token
        tie-break (a shared victory)."""
        ranked = self._ranked()
        if not ranked:
            return ()
        first = ranked[0]
        return tuple(
            p.name
            for p in ranked
            if (p.total, p.nature_tokens) == (first.total, first.nature_tokens)
        )

    def player(self, name: str) -> PlayerScore:
        """The score of the player called ``name``."""
        for score in self.players:
            if score.name == name:
                return score
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The table-json output document (``players`` in input order, then ``ranking``)."""
        return {
            "players": [p.to_json() for p in self.players],
            "ranking": list(self.ranking),
        }


def final_scores(cards: CardSet, players: Sequence[tuple[str, Environment, int]]) -> ScoreSheet:
    """Score a finished game: ``players`` are ``(name, environment, nature tokens)`` in seat
    order; one player is scored by the solo rules.

    Raises :class:`~engine.errors.InvalidInput` for no players, more than four, two players
    with one name (the ranking is by name) or a negative count of nature tokens.
    """
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(f"a game has 1 to {MAX_PLAYERS} players, not {len(players)}")
    names = [name for name, _, _ in players]
    for name, _, nature_tokens in players:
        if names.count(name) > 1:
            raise InvalidInput(f"two players are called {name!r}")
        if nature_tokens < 0:
            raise InvalidInput(f"player {name!r}: nature tokens cannot be {nature_tokens}")
    corridors = [largest_corridors(env) for _, env, _ in players]
    bonuses = habitat_bonuses(corridors)
    return ScoreSheet(
        tuple(
            PlayerScore(name, wildlife_score(cards, env), sizes, bonus, nature_tokens)
            for (name, env, nature_tokens), sizes, bonus in zip(
                players, corridors, bonuses, strict=True
            )
        )
    )
