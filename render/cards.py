"""One-line reminders of the scoring cards, as printed under the display, in the reader's
language (each an English template whose numbers are filled in after translation).

The points in each reminder are read from the point tables of :mod:`engine.scoring`, so a
reminder cannot show other numbers than the card scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import CardSet, Variant, Wildlife
from engine.scoring import bear, elk, fox, hawk, salmon, variants
from i18n import N_, _
from render.words import variant_name


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


Reminder = tuple[str, dict[str, str]]
"""A reminder's English text (a template to translate) and the numbers filled into it."""


def _card(text: str, **fields: object) -> Reminder:
    return (text, {name: str(value) for name, value in fields.items()})


REMINDERS: dict[tuple[Wildlife, str], Reminder] = {
    (Wildlife.BEAR, "A"): _card(
        N_("pairs of bears: {counts} pairs score {points}"),
        counts=_from_to(_scoring(bear.BEAR_A_POINTS)),
        points=_slashed(_paid(bear.BEAR_A_POINTS)),
    ),
    (Wildlife.BEAR, "B"): _card(
        N_("each group of exactly 3 bears: {points}"), points=bear.BEAR_B_POINTS_PER_GROUP
    ),
    (Wildlife.BEAR, "C"): _card(
        N_("groups of {sizes}: {points}, +{bonus} for all three sizes"),
        sizes=_slashed(bear.BEAR_C_POINTS),
        points=_slashed(bear.BEAR_C_POINTS.values()),
        bonus=bear.BEAR_C_BONUS,
    ),
    (Wildlife.BEAR, "D"): _card(
        N_("groups of {sizes}: {points}"),
        sizes=_slashed(bear.BEAR_D_POINTS),
        points=_slashed(bear.BEAR_D_POINTS.values()),
    ),
    (Wildlife.ELK, "A"): _card(
        N_("straight lines of {sizes}: {points}"),
        sizes=_each(_scoring(elk.ELK_A_POINTS), more=False),
        points=_slashed(_paid(elk.ELK_A_POINTS)),
    ),
    (Wildlife.ELK, "B"): _card(
        N_("1, pair, triangle, diamond: {points}"), points=_slashed(_paid(elk.ELK_B_POINTS))
    ),
    (Wildlife.ELK, "C"): _card(
        N_("any group by size {sizes}: {points}"),
        sizes=_from_to(_scoring(elk.ELK_C_POINTS)),
        points=_spaced(_paid(elk.ELK_C_POINTS)),
    ),
    (Wildlife.ELK, "D"): _card(
        N_("arcs round one hex, {sizes} elk: {points}"),
        sizes=_from_to(_scoring(elk.ELK_D_POINTS), more=False),
        points=_spaced(_paid(elk.ELK_D_POINTS)),
    ),
    (Wildlife.SALMON, "A"): _card(
        N_("runs by length {sizes}: {points}"),
        sizes=_from_to(_scoring(salmon.SALMON_A_POINTS)),
        points=_spaced(_paid(salmon.SALMON_A_POINTS)),
    ),
    (Wildlife.SALMON, "B"): _card(
        N_("runs by length {sizes}: {points}"),
        sizes=_from_to(_scoring(salmon.SALMON_B_POINTS)),
        points=_slashed(_paid(salmon.SALMON_B_POINTS)),
    ),
    (Wildlife.SALMON, "C"): _card(
        N_("runs of {sizes}: {points}"),
        sizes=_each(_scoring(salmon.SALMON_C_POINTS)),
        points=_slashed(_paid(salmon.SALMON_C_POINTS)),
    ),
    (Wildlife.SALMON, "D"): _card(
        N_("runs of {shortest}+: 1 per salmon + 1 per other token beside"),
        shortest=salmon.SALMON_D_SHORTEST,
    ),
    (Wildlife.HAWK, "A"): _card(
        N_("hawks touching no hawk, {sizes}: {points}"),
        sizes=_from_to(_scoring(hawk.HAWK_A_POINTS)),
        points=_spaced(_paid(hawk.HAWK_A_POINTS)),
    ),
    (Wildlife.HAWK, "B"): _card(
        N_("lone hawks seeing a hawk, {sizes}: {points}"),
        sizes=_from_to(_scoring(hawk.HAWK_B_POINTS)),
        points=_spaced(_paid(hawk.HAWK_B_POINTS)),
    ),
    (Wildlife.HAWK, "C"): _card(
        N_("each line of sight between two hawks: {points}"), points=hawk.HAWK_C_POINTS_PER_LINE
    ),
    (Wildlife.HAWK, "D"): _card(
        N_("hawk pairs in sight, by species between: {points}"),
        points=_slashed(_paid(hawk.HAWK_D_POINTS)),
    ),
    (Wildlife.FOX, "A"): _card(
        N_("each fox: {points} per species next to it"), points=fox.FOX_A_POINTS_PER_SPECIES
    ),
    (Wildlife.FOX, "B"): _card(
        N_("each fox: pairs of species next to it {points}"),
        points=_slashed(_paid(fox.FOX_B_POINTS)),
    ),
    (Wildlife.FOX, "C"): _card(
        N_("each fox: {points} per its most common neighbour"), points=fox.FOX_C_POINTS_PER_TOKEN
    ),
    (Wildlife.FOX, "D"): _card(
        N_("fox pairs: species pairs around {points}"), points=_slashed(_paid(fox.FOX_D_POINTS))
    ),
}
"""The reminder of each lettered card, by species and letter."""

VARIANT_REMINDERS: dict[str, Reminder] = {
    variant.value: _card(
        N_("each group by size {sizes}: {points}"),
        sizes=_each(_scoring(table)),
        points=_slashed(_paid(table)),
    )
    for variant, table in (
        (Variant.FAMILY, variants.FAMILY_POINTS),
        (Variant.INTERMEDIATE, variants.INTERMEDIATE_POINTS),
    )
}
"""The reminder of each variant card (the same for every species), by variant name."""


def card_name(cards: CardSet, wildlife: Wildlife) -> str:
    """The card's short name: its letter, or the variant's name in the reader's language."""
    card = cards.card(wildlife)
    return card if len(card) == 1 else variant_name(card)


def reminder(cards: CardSet, wildlife: Wildlife) -> str:
    """The one-line reminder of the card scoring ``wildlife``, in the reader's language."""
    card = cards.card(wildlife)
    found = VARIANT_REMINDERS.get(card) or REMINDERS[wildlife, card]
    text, fields = found
    return _(text, **fields)
