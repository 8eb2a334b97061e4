"""The card reminders under the display print the numbers the scoring cards use.

Each reminder's numbers (counts and points, in printed order; ``5+`` for a count that stands
for that many or more) are checked against the point tables of ``engine/scoring/``, so a
changed table or a new card cannot leave a stale reminder behind.
"""

from __future__ import annotations

import re

import pytest

from engine import CardSet, Variant, Wildlife
from engine.scoring import CARDS, bear, elk, fox, hawk, salmon, variants
from render.cards import card_name, reminder

B, E, S, H, F = Wildlife.BEAR, Wildlife.ELK, Wildlife.SALMON, Wildlife.HAWK, Wildlife.FOX


def _last(table: tuple[int, ...]) -> str:
    """The last count of a table whose last entry also pays for larger counts."""
    return f"{len(table) - 1}+"


EXPECTED: dict[tuple[Wildlife, str], list[object]] = {
    (B, "A"): [1, _last(bear.BEAR_A_POINTS), *bear.BEAR_A_POINTS[1:]],
    (B, "B"): [3, bear.BEAR_B_POINTS_PER_GROUP],
    (B, "C"): [*bear.BEAR_C_POINTS, *bear.BEAR_C_POINTS.values(), bear.BEAR_C_BONUS],
    (B, "D"): [*bear.BEAR_D_POINTS, *bear.BEAR_D_POINTS.values()],
    # Elk A and D: lines of 5 split and a ring has six hexes, so their last count is exact.
    (E, "A"): [*range(1, len(elk.ELK_A_POINTS)), *elk.ELK_A_POINTS[1:]],
    (E, "B"): [1, *elk.ELK_B_POINTS[1:]],
    (E, "C"): [1, _last(elk.ELK_C_POINTS), *elk.ELK_C_POINTS[1:]],
    (E, "D"): [1, len(elk.ELK_D_POINTS) - 1, *elk.ELK_D_POINTS[1:]],
    (S, "A"): [1, _last(salmon.SALMON_A_POINTS), *salmon.SALMON_A_POINTS[1:]],
    (S, "B"): [1, _last(salmon.SALMON_B_POINTS), *salmon.SALMON_B_POINTS[1:]],
    (S, "C"): [3, 4, _last(salmon.SALMON_C_POINTS), *salmon.SALMON_C_POINTS[3:]],
    # "1 per salmon + 1 per other token beside": salmon_d counts them one point each.
    (S, "D"): [f"{salmon.SALMON_D_SHORTEST}+", 1, 1],
    (H, "A"): [1, _last(hawk.HAWK_A_POINTS), *hawk.HAWK_A_POINTS[1:]],
    (H, "B"): [2, _last(hawk.HAWK_B_POINTS), *hawk.HAWK_B_POINTS[2:]],
    (H, "C"): [hawk.HAWK_C_POINTS_PER_LINE],
    (H, "D"): [*hawk.HAWK_D_POINTS[1:]],
    (F, "A"): [fox.FOX_A_POINTS_PER_SPECIES],
    (F, "B"): [*fox.FOX_B_POINTS[1:]],
    (F, "C"): [fox.FOX_C_POINTS_PER_TOKEN],
    (F, "D"): [*fox.FOX_D_POINTS[1:]],
}
"""The numbers each lettered card's reminder must print, from that card's constants."""

VARIANT_EXPECTED: dict[str, list[object]] = {
    Variant.FAMILY: [1, 2, _last(variants.FAMILY_POINTS), *variants.FAMILY_POINTS[1:]],
    Variant.INTERMEDIATE: [
        2,
        3,
        _last(variants.INTERMEDIATE_POINTS),
        *variants.INTERMEDIATE_POINTS[2:],
    ],
}
"""The numbers each variant card's reminder must print (the same for every species)."""


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+\+?", text)


@pytest.mark.parametrize(("wildlife", "name"), sorted(CARDS), ids=lambda v: str(v))
def test_every_scoring_card_has_a_reminder_with_its_numbers(wildlife: Wildlife, name: str) -> None:
    expected = VARIANT_EXPECTED[name] if name in VARIANT_EXPECTED else EXPECTED[wildlife, name]
    text = reminder(CardSet.parse(name), wildlife)
    assert _numbers(text) == [str(n) for n in expected], text


def test_the_expectations_cover_exactly_the_engine_cards() -> None:
    letters = {key for key in CARDS if key[1] not in VARIANT_EXPECTED}
    assert set(EXPECTED) == letters
    assert set(VARIANT_EXPECTED) == {variant.value for variant in Variant}


@pytest.mark.parametrize(
    ("cards", "wildlife", "name"),
    [
        ("ABCDA", E, "B"),
        ("ABCDA", F, "A"),
        ("family", H, "Family"),
        ("intermediate", B, "Intermediate"),
    ],
)
def test_card_name_is_the_letter_or_the_variant(cards: str, wildlife: Wildlife, name: str) -> None:
    assert card_name(CardSet.parse(cards), wildlife) == name


def test_a_reminder_follows_the_card_in_play() -> None:
    cards = CardSet.parse("ABCDA")
    assert reminder(cards, H) == reminder(CardSet.parse("D"), H)
    assert reminder(cards, F) == reminder(CardSet.parse("A"), F)
    assert reminder(cards, F) != reminder(CardSet.parse("B"), F)
