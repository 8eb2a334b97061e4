"""One-line reminders of the scoring cards, as printed under the display."""

from __future__ import annotations

from engine import CardSet, Wildlife

REMINDERS: dict[tuple[Wildlife, str], str] = {
    (Wildlife.BEAR, "A"): "pairs of bears: 1-4+ pairs score 4 / 11 / 19 / 27",
    (Wildlife.BEAR, "B"): "each group of exactly 3 bears: 10",
    (Wildlife.BEAR, "C"): "groups of 1 / 2 / 3: 2 / 5 / 8, +3 for all three sizes",
    (Wildlife.BEAR, "D"): "groups of 2 / 3 / 4: 5 / 8 / 13",
    (Wildlife.ELK, "A"): "straight lines of 1 / 2 / 3 / 4: 2 / 5 / 9 / 13",
    (Wildlife.ELK, "B"): "1, pair, triangle, diamond: 2 / 5 / 9 / 13",
    (Wildlife.ELK, "C"): "any group by size 1-8+: 2 4 7 10 14 18 23 28",
    (Wildlife.ELK, "D"): "arcs round one hex, 1-6 elk: 2 5 8 12 16 21",
    (Wildlife.SALMON, "A"): "runs by length 1-7+: 2 5 8 12 16 20 25",
    (Wildlife.SALMON, "B"): "runs by length 1-5+: 2 / 4 / 9 / 11 / 17",
    (Wildlife.SALMON, "C"): "runs of 3 / 4 / 5+: 10 / 12 / 15",
    (Wildlife.SALMON, "D"): "runs of 3+: 1 per salmon + 1 per other token beside",
    (Wildlife.HAWK, "A"): "hawks touching no hawk, 1-8+: 2 5 8 11 14 18 22 26",
    (Wildlife.HAWK, "B"): "lone hawks seeing a hawk, 2-8+: 5 9 12 16 20 24 28",
    (Wildlife.HAWK, "C"): "each line of sight between two hawks: 3",
    (Wildlife.HAWK, "D"): "hawk pairs in sight, by species between: 4 / 7 / 9",
    (Wildlife.FOX, "A"): "each fox: 1 per species next to it",
    (Wildlife.FOX, "B"): "each fox: pairs of species next to it 3 / 5 / 7",
    (Wildlife.FOX, "C"): "each fox: 1 per its most common neighbour",
    (Wildlife.FOX, "D"): "fox pairs: species pairs around 5 / 7 / 9 / 11",
}

VARIANT_REMINDERS: dict[str, str] = {
    "family": "each group by size 1 / 2 / 3+: 2 / 5 / 9",
    "intermediate": "each group by size 2 / 3 / 4+: 5 / 8 / 12",
}


def card_name(cards: CardSet, wildlife: Wildlife) -> str:
    """The card's short name: its letter, or the variant's name."""
    card = cards.card(wildlife)
    return card if len(card) == 1 else card.capitalize()


def reminder(cards: CardSet, wildlife: Wildlife) -> str:
    """The one-line reminder of the card scoring ``wildlife``."""
    card = cards.card(wildlife)
    if card in VARIANT_REMINDERS:
        return VARIANT_REMINDERS[card]
    return REMINDERS[wildlife, card]
