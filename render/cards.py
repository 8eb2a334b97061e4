"""One-line reminders of the scoring cards, as printed under the display.

The points in each reminder are read from the point tables of :mod:`engine.scoring`, so a
reminder cannot show other numbers than the card scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import CardSet, Variant, Wildlife
from engine.scoring import bear, elk, fox, hawk, salmon, variants


def _slashed(values: Iterable[int]) -> str:
    return " / ".join(map(str, values))


def _spaced(values: Iterable[int]) -> str:
    return " ".join(map(str, values))


def _scoring(table: Sequence[int]) -> range:
    """The counts a points table pays for: from the first that scores to its last entry
    (which stands for that count and more)."""
    return range(next(count for count, points in enumerate(table) if points), len(table))


def _from_to(counts: range, *, more: bool = True) -> str:
    """``1-4+`` (or ``1-4`` when the last count is not open-ended)."""
    return f"{counts[0]}-{counts[-1]}{'+' if more else ''}"


def _each(counts: range, *, more: bool = True) -> str:
    """``3 / 4 / 5+`` (or ``1 / 2 / 3 / 4`` when the last count is not open-ended)."""
    return _slashed(counts) + ("+" if more else "")


def _paid(table: Sequence[int]) -> list[int]:
    return [table[count] for count in _scoring(table)]


REMINDERS: dict[tuple[Wildlife, str], str] = {
    (Wildlife.BEAR, "A"): (
        f"pairs of bears: {_from_to(_scoring(bear.BEAR_A_POINTS))} pairs score "
        f"{_slashed(_paid(bear.BEAR_A_POINTS))}"
    ),
    (Wildlife.BEAR, "B"): f"each group of exactly 3 bears: {bear.BEAR_B_POINTS_PER_GROUP}",
    (Wildlife.BEAR, "C"): (
        f"groups of {_slashed(bear.BEAR_C_POINTS)}: {_slashed(bear.BEAR_C_POINTS.values())}, "
        f"+{bear.BEAR_C_BONUS} for all three sizes"
    ),
    (Wildlife.BEAR, "D"): (
        f"groups of {_slashed(bear.BEAR_D_POINTS)}: {_slashed(bear.BEAR_D_POINTS.values())}"
    ),
    (Wildlife.ELK, "A"): (
        f"straight lines of {_each(_scoring(elk.ELK_A_POINTS), more=False)}: "
        f"{_slashed(_paid(elk.ELK_A_POINTS))}"
    ),
    (Wildlife.ELK, "B"): f"1, pair, triangle, diamond: {_slashed(_paid(elk.ELK_B_POINTS))}",
    (Wildlife.ELK, "C"): (
        f"any group by size {_from_to(_scoring(elk.ELK_C_POINTS))}: "
        f"{_spaced(_paid(elk.ELK_C_POINTS))}"
    ),
    (Wildlife.ELK, "D"): (
        f"arcs round one hex, {_from_to(_scoring(elk.ELK_D_POINTS), more=False)} elk: "
        f"{_spaced(_paid(elk.ELK_D_POINTS))}"
    ),
    (Wildlife.SALMON, "A"): (
        f"runs by length {_from_to(_scoring(salmon.SALMON_A_POINTS))}: "
        f"{_spaced(_paid(salmon.SALMON_A_POINTS))}"
    ),
    (Wildlife.SALMON, "B"): (
        f"runs by length {_from_to(_scoring(salmon.SALMON_B_POINTS))}: "
        f"{_slashed(_paid(salmon.SALMON_B_POINTS))}"
    ),
    (Wildlife.SALMON, "C"): (
        f"runs of {_each(_scoring(salmon.SALMON_C_POINTS))}: "
        f"{_slashed(_paid(salmon.SALMON_C_POINTS))}"
    ),
    (Wildlife.SALMON, "D"): (
        f"runs of {salmon.SALMON_D_SHORTEST}+: 1 per salmon + 1 per other token beside"
    ),
    (Wildlife.HAWK, "A"): (
        f"hawks touching no hawk, {_from_to(_scoring(hawk.HAWK_A_POINTS))}: "
        f"{_spaced(_paid(hawk.HAWK_A_POINTS))}"
    ),
    (Wildlife.HAWK, "B"): (
        f"lone hawks seeing a hawk, {_from_to(_scoring(hawk.HAWK_B_POINTS))}: "
        f"{_spaced(_paid(hawk.HAWK_B_POINTS))}"
    ),
    (Wildlife.HAWK, "C"): f"each line of sight between two hawks: {hawk.HAWK_C_POINTS_PER_LINE}",
    (Wildlife.HAWK, "D"): (
        f"hawk pairs in sight, by species between: {_slashed(_paid(hawk.HAWK_D_POINTS))}"
    ),
    (Wildlife.FOX, "A"): f"each fox: {fox.FOX_A_POINTS_PER_SPECIES} per species next to it",
    (Wildlife.FOX, "B"): (
        f"each fox: pairs of species next to it {_slashed(_paid(fox.FOX_B_POINTS))}"
    ),
    (Wildlife.FOX, "C"): f"each fox: {fox.FOX_C_POINTS_PER_TOKEN} per its most common neighbour",
    (Wildlife.FOX, "D"): f"fox pairs: species pairs around {_slashed(_paid(fox.FOX_D_POINTS))}",
}
"""The reminder of each lettered card, by species and letter."""

VARIANT_REMINDERS: dict[str, str] = {
    variant.value: f"each group by size {_each(_scoring(table))}: {_slashed(_paid(table))}"
    for variant, table in (
        (Variant.FAMILY, variants.FAMILY_POINTS),
        (Variant.INTERMEDIATE, variants.INTERMEDIATE_POINTS),
    )
}
"""The reminder of each variant card (the same for every species), by variant name."""


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
