"""The pieces match the rulebook's counts."""

from collections import Counter

import pytest

from engine.components import (
    HABITAT_TILES_ALL,
    STARTERS,
    TILES_BY_ID,
    CardLetter,
    CardSet,
    Habitat,
    Tile,
    Variant,
    Wildlife,
    tiles_in_play,
)
from engine.errors import InvalidInput
from engine.game import resolve_cards


def test_eighty_five_habitat_tiles_with_ids_16_to_100() -> None:
    assert sorted(t.id for t in HABITAT_TILES_ALL) == list(range(16, 101))


def test_twenty_five_keystones_five_per_habitat_and_wildlife() -> None:
    keystones = [t for t in HABITAT_TILES_ALL if t.keystone]
    assert len(keystones) == 25
    assert all(len(t.habitats) == 1 and len(t.wildlife) == 1 for t in keystones)
    assert Counter(t.habitats[0] for t in keystones) == {h: 5 for h in Habitat}
    assert Counter(t.wildlife[0] for t in keystones) == {w: 5 for w in Wildlife}


def test_sixty_dual_tiles_six_per_habitat_pair() -> None:
    duals = [t for t in HABITAT_TILES_ALL if not t.keystone]
    assert len(duals) == 60
    pairs = Counter(frozenset(t.habitats) for t in duals)
    assert len(pairs) == 10
    assert set(pairs.values()) == {6}
    assert sum(1 for t in duals if len(t.wildlife) == 3) == 15
    assert all(len(t.wildlife) in (2, 3) for t in duals)


def test_every_habitat_on_29_tiles_and_every_wildlife_on_32() -> None:
    for habitat in Habitat:
        assert sum(habitat in t.habitats for t in HABITAT_TILES_ALL) == 29
    for wildlife in Wildlife:
        assert sum(wildlife in t.wildlife for t in HABITAT_TILES_ALL) == 32


def test_five_starters_of_three_adjacent_hexes_with_one_keystone() -> None:
    assert len(STARTERS) == 5
    for starter in STARTERS:
        hexes = [h for h, _, _ in starter.hexes]
        assert len(hexes) == 3
        assert all(a.distance(b) == 1 for a in hexes for b in hexes if a != b)
        assert sum(t.keystone for _, t, _ in starter.hexes) == 1
    assert sorted(t.id for s in STARTERS for _, t, _ in s.hexes) == list(range(1, 16))
    assert len(TILES_BY_ID) == 100


@pytest.mark.parametrize(("players", "tiles"), [(1, 43), (2, 43), (3, 63), (4, 83)])
def test_tiles_in_play(players: int, tiles: int) -> None:
    assert tiles_in_play(players) == tiles


def test_dual_tile_edges_follow_rotation() -> None:
    tile = Tile.from_code("FR/es")
    assert tile.edges(0) == (Habitat.FOREST,) * 3 + (Habitat.RIVER,) * 3
    assert tile.edges(2) == (
        Habitat.RIVER,
        Habitat.RIVER,
        Habitat.FOREST,
        Habitat.FOREST,
        Habitat.FOREST,
        Habitat.RIVER,
    )
    assert Tile.from_code("M/b").edges(3) == (Habitat.MOUNTAIN,) * 6


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ABCDA", "ABCDA"),
        ("abcda", "ABCDA"),
        ("b", "BBBBB"),
        ("Family", "family"),
        ("intermediate", "intermediate"),
    ],
)
def test_card_set_text_round_trips(text: str, expected: str) -> None:
    cards = CardSet.parse(text)
    assert str(cards) == expected
    assert CardSet.parse(str(cards)) == cards


def test_card_set_lookup() -> None:
    assert CardSet.parse("ABCDA").card(Wildlife.HAWK) == "D"
    assert CardSet(variant=Variant.FAMILY).card(Wildlife.BEAR) == "family"


def test_card_letters_are_a_closed_vocabulary() -> None:
    cards = CardSet.parse("abcda")
    assert cards.letters == (CardLetter.A, CardLetter.B, CardLetter.C, CardLetter.D, CardLetter.A)
    assert all(type(letter) is CardLetter for letter in cards.letters or ())
    assert cards.card(Wildlife.SALMON) is CardLetter.C
    assert CardSet(variant=Variant.FAMILY).card(Wildlife.BEAR) is Variant.FAMILY
    typed = CardSet(letters=("A", "B", "C", "D", "A"))  # type: ignore[arg-type]
    assert typed == cards
    assert all(type(letter) is CardLetter for letter in typed.letters or ())
    assert resolve_cards("random", seed=3) == resolve_cards("random", seed=3)
    assert all(type(c) is CardLetter for c in resolve_cards("random", seed=3).letters or ())
    with pytest.raises(InvalidInput, match="five of A-D"):
        CardSet(letters=("A", "B", "C", "D", "E"))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "ABCDE", "AB", "random!", "ABCDAA", "x" * 500])
def test_bad_card_sets_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        CardSet.parse(text)
