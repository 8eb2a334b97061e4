"""The Family and Intermediate cards, and the card registry behind ``wildlife_score``."""

from __future__ import annotations

import pytest

from engine.components import CardSet, Variant, Wildlife
from engine.environment import Environment
from engine.scoring import CARDS, card_for, wildlife_score
from engine.scoring.tokens import TokenGrid
from engine.scoring.variants import family, intermediate

_KEYSTONE = {"b": "M/b", "e": "P/e", "s": "R/s", "h": "M/h", "f": "F/f"}


def environment(spec: str) -> Environment:
    """An environment from ``"b 0,0; e 1,0"``: each hex a keystone tile holding that
    species, read through the environment text form."""
    entries = []
    for part in spec.split(";"):
        letter, *hexes = part.split()
        entries += [f"{hex_} {_KEYSTONE[letter]}={letter}" for hex_ in hexes]
    return Environment.parse("; ".join(entries))


# Each species on its own row; rows two apart never touch.
GROUPS = environment("b 0,0 0,2 1,2; e 0,4 1,4 2,4; s 0,6 1,6 2,6 3,6; h 0,8 1,8 2,8 3,8 4,8")


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        # bear: a 1 and a 2; elk: a 3; salmon: a 4; hawk: a 5; fox: none
        (Variant.FAMILY, {"bear": 2 + 5, "elk": 9, "salmon": 9, "hawk": 9, "fox": 0}),
        (Variant.INTERMEDIATE, {"bear": 0 + 5, "elk": 8, "salmon": 12, "hawk": 12, "fox": 0}),
    ],
)
def test_variant_cards_score_every_species_by_group_size(
    variant: Variant, expected: dict[str, int]
) -> None:
    scores = wildlife_score(CardSet(variant=variant), GROUPS)
    assert {w.value: points for w, points in scores.items()} == expected


@pytest.mark.parametrize(
    ("size", "family_points", "intermediate_points"),
    [(1, 2, 0), (2, 5, 5), (3, 9, 8), (4, 9, 12), (7, 9, 12)],
)
def test_variant_point_tables(size: int, family_points: int, intermediate_points: int) -> None:
    field = environment("f " + " ".join(f"{q},0" for q in range(size))).tokens()
    assert family(Wildlife.FOX)(field) == family_points
    assert intermediate(Wildlife.FOX)(field) == intermediate_points
    assert family(Wildlife.BEAR)(field) == 0


def test_registry_has_every_card() -> None:
    names = ["A", "B", "C", "D", "family", "intermediate"]
    assert set(CARDS) == {(w, name) for w in Wildlife for name in names}


def test_wildlife_score_uses_each_species_card() -> None:
    # Bears: one pair. Elk: a straight three. Salmon: a run of three. Hawks: two apart.
    env = environment("b 0,0 1,0; e 0,2 1,2 2,2; s 0,4 1,4 2,4; h 0,6 2,6; f 0,8")
    scores = wildlife_score(CardSet.parse("ABCDA"), env)
    assert scores == {
        Wildlife.BEAR: 4,  # A: one pair
        Wildlife.ELK: 7,  # B: a straight three is a pair and a single
        Wildlife.SALMON: 10,  # C: a run of three
        Wildlife.HAWK: 0,  # D: nothing between the two hawks
        Wildlife.FOX: 0,  # A: no neighbours
    }
    assert list(scores) == list(Wildlife)


def test_cards_accept_a_plain_mapping_or_a_shared_grid() -> None:
    tokens = GROUPS.tokens()
    grid = TokenGrid(tokens)
    for wildlife in Wildlife:
        for letter in "ABCD":
            card = card_for(CardSet.parse(letter), wildlife)
            assert card(tokens) == card(grid)
    assert dict(grid) == tokens
