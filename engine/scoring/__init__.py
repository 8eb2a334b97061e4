"""End-of-game scoring: the wildlife cards, habitat corridors and the score sheet.

Every wildlife card is a pure function (or callable value) of one environment's tokens,
``card(tokens) -> points``, registered here by species and letter (or variant). The modules:

- :mod:`~engine.scoring.bear`, :mod:`~engine.scoring.elk`, :mod:`~engine.scoring.salmon`,
  :mod:`~engine.scoring.hawk`, :mod:`~engine.scoring.fox`: cards A-D of each species;
- :mod:`~engine.scoring.variants`: the Family and Intermediate cards;
- :mod:`~engine.scoring.corridors`: largest corridors and majority bonuses;
- :mod:`~engine.scoring.sheet`: :func:`~engine.scoring.sheet.final_scores` and the score sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.components import CardSet, Wildlife
from engine.environment import PlacedTile
from engine.hexes import Hex
from engine.scoring import bear, elk, fox, hawk, salmon, variants
from engine.scoring.tokens import TokenGrid


class ScoringCard(Protocol):
    """A wildlife scoring card: the points the tokens of one environment earn with it.

    ``tokens`` maps each hex holding a token to its species; a
    :class:`~engine.scoring.tokens.TokenGrid` may be passed to share its indexing among cards.
    """

    def __call__(self, tokens: Mapping[Hex, Wildlife], /) -> int:
        """The card's points for these tokens."""
        ...


_BY_LETTER: dict[Wildlife, Mapping[str, ScoringCard]] = {
    Wildlife.BEAR: bear.CARDS,
    Wildlife.ELK: elk.CARDS,
    Wildlife.SALMON: salmon.CARDS,
    Wildlife.HAWK: hawk.CARDS,
    Wildlife.FOX: fox.CARDS,
}

CARDS: Mapping[tuple[Wildlife, str], ScoringCard] = {
    **{
        (wildlife, letter): card
        for wildlife, by_letter in _BY_LETTER.items()
        for letter, card in by_letter.items()
    },
    **{
        (wildlife, variant.value): card
        for variant, by_species in variants.CARDS.items()
        for wildlife, card in by_species.items()
    },
}
"""Every card by species and name: ``"A"``-``"D"``, ``"family"`` or ``"intermediate"``
(the names :meth:`engine.components.CardSet.card` gives)."""


def card_for(cards: CardSet, wildlife: Wildlife) -> ScoringCard:
    """The card that scores ``wildlife`` in a game played with ``cards``."""
    return CARDS[wildlife, cards.card(wildlife)]


def wildlife_score(cards: CardSet, env: Mapping[Hex, PlacedTile]) -> dict[Wildlife, int]:
    """The points each species earns in ``env`` by its card, in score-pad order."""
    grid = TokenGrid(
        {hex_: placed.token for hex_, placed in env.items() if placed.token is not None}
    )
    return {wildlife: card_for(cards, wildlife)(grid) for wildlife in Wildlife}


__all__ = [
    "CARDS",
    "ScoringCard",
    "TokenGrid",
    "card_for",
    "wildlife_score",
]
