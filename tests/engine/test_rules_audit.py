"""An independent audit of the engine against RULES.md: every expected value below was worked
out by hand from the rules text (coordinates: E (+1,0), NE (+1,-1), NW (0,-1), W (-1,0),
SW (-1,+1), SE (0,+1)), not by running the engine."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine import IllegalAction, NatureWipe, Reason, Take, WipeThree, apply, new_game, play_turn
from engine.cli import main
from engine.components import CardSet, Habitat, Wildlife, tiles_in_play
from engine.environment import Environment
from engine.game import Bag, GameState, _resolve_overpopulation
from engine.hexes import Hex
from engine.scoring import CARDS, wildlife_score
from engine.scoring.corridors import habitat_bonuses, largest_corridors
from engine.scoring.sheet import final_scores
from tests.engine.helpers import token_census, with_display_tokens, with_nature_tokens

B, E, S, H, F = Wildlife.BEAR, Wildlife.ELK, Wildlife.SALMON, Wildlife.HAWK, Wildlife.FOX
_LETTER = {"b": B, "e": E, "s": S, "h": H, "f": F}


def grid(spec: str) -> dict[Hex, Wildlife]:
    """A plain token map from ``"b 0,0 1,0; e 2,0"`` (no tiles needed by the cards)."""
    found: dict[Hex, Wildlife] = {}
    for part in spec.split(";"):
        letter, *cells = part.split()
        for cell in cells:
            hex_ = Hex.parse(cell)
            assert hex_ not in found, cell
            found[hex_] = _LETTER[letter]
    return found


def card_scores(wildlife: Wildlife, spec: str) -> tuple[int, ...]:
    tokens = grid(spec)
    return tuple(CARDS[wildlife, letter](tokens) for letter in "ABCD")


# --- wildlife cards -----------------------------------------------------------------------

BEAR_CASES = [
    pytest.param("e 0,0", (0, 0, 0, 0), id="no bears"),
    pytest.param("b 0,0 1,0; b 0,2 1,2 2,2", (4, 10, 13, 13), id="a pair and a three: no C bonus"),
    pytest.param(
        "b 0,0; b 0,2; b 0,4 1,4; b 0,6 1,6; b 0,8 1,8 2,8; b 0,10 1,10 2,10",
        (11, 20, 33, 26),
        id="sizes 1,1,2,2,3,3: C bonus once",
    ),
    pytest.param(
        "b 0,0 1,0; b 0,2 1,2; b 0,4 1,4; b 0,6 1,6; b 0,8 1,8 2,8",
        (27, 10, 28, 28),
        id="four pairs and a three",
    ),
    pytest.param("b 0,0 1,0 2,0 3,0 4,0; b 0,2", (0, 0, 2, 0), id="a five and a one"),
    pytest.param("b 0,0 1,0 2,0 1,-1", (0, 0, 0, 13), id="a T of four"),
]


@pytest.mark.parametrize(("spec", "expected"), BEAR_CASES)
def test_audit_bear(spec: str, expected: tuple[int, ...]) -> None:
    assert card_scores(B, spec) == expected


ELK_CASES = [
    # A: 3-line + 2 singles 13; B: triangle + the pair left 14; C: 5 -> 14;
    # D: bent three around 1,-1 (or -1,1) + 2 singles, or 2 pairs + 1: 12.
    pytest.param("e -1,0 0,0 1,0 0,1 0,-1", (13, 14, 14, 12), id="plus shape"),
    pytest.param("e " + " ".join(f"{q},0" for q in range(7)), (22, 17, 23, 17), id="line of 7"),
    pytest.param("e " + " ".join(f"{q},0" for q in range(9)), (28, 22, 28, 22), id="line of 9"),
    pytest.param("e 0,0 1,0 1,-1 2,-1", (10, 13, 10, 10), id="diamond along E"),
    pytest.param("e 0,0 1,0 1,-1 1,-2", (11, 11, 10, 10), id="triangle with a tail"),
    pytest.param(
        "e 1,0 1,-1 0,-1 -1,0 -1,1 0,1 2,0", (17, 17, 23, 23), id="ring of 6 and one outside"
    ),
    pytest.param("e 0,0; e 2,-1", (4, 4, 4, 4), id="two lone elk off every axis"),
]


@pytest.mark.parametrize(("spec", "expected"), ELK_CASES)
def test_audit_elk(spec: str, expected: tuple[int, ...]) -> None:
    assert card_scores(E, spec) == expected


SALMON_CASES = [
    # Run of 4; bear touches three of it, hawk three, elk one: each counted once; fox far off.
    pytest.param(
        "s 0,0 1,0 1,1 2,1; b 0,1; h 2,0; e -1,0; f 5,5", (12, 11, 12, 7), id="bent run of 4"
    ),
    pytest.param("s 0,0 1,0 2,0; s 0,3 1,3 2,3 1,2", (8, 9, 10, 3), id="a run and a non-run"),
    pytest.param("s 0,0 1,0 2,0 3,0 4,0", (16, 17, 15, 5), id="run of 5"),
    pytest.param("s 0,0 1,0; b 0,-1", (5, 4, 0, 0), id="run of 2"),
    pytest.param("s 0,0 1,0 1,-1 2,-1; b 0,-1", (0, 0, 0, 0), id="a diamond is no run"),
]


@pytest.mark.parametrize(("spec", "expected"), SALMON_CASES)
def test_audit_salmon(spec: str, expected: tuple[int, ...]) -> None:
    assert card_scores(S, spec) == expected


HAWK_CASES = [
    # Lines: 0,0-3,0 (bear, elk between), 3,0-6,0 (salmon), 0,0-3,-3 (fox), 3,0-3,-3 (none).
    pytest.param(
        "h 0,0 3,0 6,0 3,-3; b 1,0; e 2,0; s 4,0; f 1,-1", (11, 12, 12, 8), id="four hawks"
    ),
    pytest.param("h 0,0 1,0 4,0; e 2,0 3,0", (2, 0, 3, 4), id="adjacent pair and a far one"),
    pytest.param("h 0,0 2,-1", (5, 0, 0, 0), id="two hawks off every axis"),
    pytest.param("h 0,0 0,3 0,6", (8, 9, 6, 0), id="NW axis, middle blocks"),
]


@pytest.mark.parametrize(("spec", "expected"), HAWK_CASES)
def test_audit_hawk(spec: str, expected: tuple[int, ...]) -> None:
    assert card_scores(H, spec) == expected


FOX_CASES = [
    pytest.param("f 0,0 -1,0; b 1,0 1,-1; e 0,-1", (5, 3, 3, 5), id="two foxes"),
    pytest.param("f 0,0; b 1,0 1,-1; e 0,-1 -1,0; s -1,1 0,1", (3, 7, 2, 0), id="B: three pairs"),
    pytest.param("f 0,0 1,0 2,0; b 0,-1 1,-1", (5, 3, 3, 0), id="D: a group of three"),
    pytest.param(
        "f 0,0 1,0; b 1,-1 0,-1; e -1,0 -1,1; s 0,1 1,1; h 2,0 2,-1",
        (8, 10, 4, 11),
        id="D: four pairs",
    ),
]


@pytest.mark.parametrize(("spec", "expected"), FOX_CASES)
def test_audit_fox(spec: str, expected: tuple[int, ...]) -> None:
    assert card_scores(F, spec) == expected


VARIANT_SPEC = "b 0,0; e 0,2 1,2; s 0,4 1,4 2,4; h 0,6 1,6 2,6 3,6; f 0,8 1,8 2,8 3,8 4,8"


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("family", (2, 5, 9, 9, 9)), ("intermediate", (0, 5, 8, 12, 12))],
)
def test_audit_variants(variant: str, expected: tuple[int, ...]) -> None:
    env = Environment.parse(
        "; ".join(f"{hex_} {'M/' + w.letter}={w.letter}" for hex_, w in grid(VARIANT_SPEC).items())
    )
    scores = wildlife_score(CardSet.parse(variant), env)
    assert tuple(scores[w] for w in Wildlife) == expected


# --- corridors, bonuses, ranking -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mountain", "forest"),
    [
        # MF@1: mountain on edges 1,2,3 (edge 3 faces 0,0), forest on 4,5,0.
        ("0,0 M/b; 1,0 MF/be@1; 2,0 F/b", 2, 2),
        # MF@4: forest on 1,2,3 faces the mountain: nothing joins.
        ("0,0 M/b; 1,0 MF/be@4; 2,0 F/b", 1, 1),
    ],
)
def test_audit_corridors(text: str, mountain: int, forest: int) -> None:
    sizes = largest_corridors(Environment.parse(text))
    assert (sizes[Habitat.MOUNTAIN], sizes[Habitat.FOREST]) == (mountain, forest)


BONUS_CASES = [
    ((6,), [0]),
    ((7,), [2]),
    ((12,), [2]),
    ((0,), [0]),
    ((5, 3), [2, 0]),
    ((4, 4), [1, 1]),
    ((0, 0), [0, 0]),
    ((0, 1), [0, 2]),
    ((5, 3, 1), [3, 1, 0]),
    ((5, 5, 1), [2, 2, 0]),
    ((5, 5, 5), [1, 1, 1]),
    ((5, 3, 3), [3, 0, 0]),
    ((5, 0, 0), [3, 0, 0]),
    ((1, 1, 0), [2, 2, 0]),
    ((0, 0, 0), [0, 0, 0]),
    ((4, 4, 4, 4), [1, 1, 1, 1]),
    ((6, 6, 6, 2), [1, 1, 1, 0]),
    ((6, 6, 3, 2), [2, 2, 0, 0]),
    ((6, 3, 2, 2), [3, 1, 0, 0]),
    ((6, 2, 2, 2), [3, 0, 0, 0]),
    ((2, 1, 0, 0), [3, 1, 0, 0]),
]


@pytest.mark.parametrize(("sizes", "expected"), BONUS_CASES)
def test_audit_majority_bonus(sizes: tuple[int, ...], expected: list[int]) -> None:
    bonuses = habitat_bonuses([{Habitat.RIVER: size} for size in sizes])
    assert [b[Habitat.RIVER] for b in bonuses] == expected


def _one_tile(token: bool) -> Environment:
    return Environment.parse("0,0 M/b=b" if token else "0,0 M/b")


@pytest.mark.parametrize(
    ("players", "ranking", "winners"),
    [
        # x: bear 2 + mountain 1 + tie bonus 1 = 4; y: 1 + 1 + 2 nature = 4: y wins the tie-break.
        ([("x", True, 0), ("y", False, 2)], ("y", "x"), ("y",)),
        # three-way tie for mountain: +1 each; y and z still tied: shared, input order.
        ([("x", True, 0), ("y", False, 2), ("z", False, 2)], ("y", "z", "x"), ("y", "z")),
        ([("x", True, 3), ("y", False, 2)], ("x", "y"), ("x",)),
    ],
)
def test_audit_ranking(
    players: list[tuple[str, bool, int]], ranking: tuple[str, ...], winners: tuple[str, ...]
) -> None:
    sheet = final_scores(
        CardSet.parse("family"), [(name, _one_tile(t), n) for name, t, n in players]
    )
    assert sheet.ranking == ranking
    assert sheet.winners == winners


# --- setup and turns -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "tiles"), [(1, 43), (2, 43), (3, 63), (4, 83)])
def test_audit_tiles_and_tokens_in_play(players: int, tiles: int) -> None:
    assert tiles_in_play(players) == tiles
    state = new_game(players=players, seed=7)
    assert len(state.stack) + 4 == tiles
    assert sum(token_census(state).values()) == 100
    assert {new_game(players=players, seed=s).first_player for s in range(60)} == set(
        range(players)
    )


def _with_bag(state: GameState, counts: dict[Wildlife, int], *display: Wildlife) -> GameState:
    return replace(
        state,
        display_tokens=display,
        bag=Bag(tuple(counts.get(w, 0) for w in Wildlife)),  # type: ignore[arg-type]
    )


def test_audit_auto_wipe_draws_before_returning() -> None:
    # The bag holds 3 bears and an elk: drawing first can only give those four; returning the
    # hawks first could draw a hawk back.
    state = _with_bag(new_game(players=2, seed=1), {B: 3, E: 1}, H, H, H, H)
    after = _resolve_overpopulation(state)
    assert Counter(after.display_tokens) == Counter({B: 3, E: 1})
    assert after.bag.counts == (0, 0, 0, 4, 0)


def test_audit_auto_wipe_repeats() -> None:
    repeats = 0
    for seed in range(60):
        state = _with_bag(new_game(players=2, seed=seed), {B: 4, E: 1}, H, H, H, H)
        after = _resolve_overpopulation(state)
        assert len(set(after.display_tokens)) > 1
        assert after.bag.size + 4 == 9
        repeats += (after.draws - state.draws) > 4
    assert repeats > 0  # four bears drawn (1 in 5) are wiped again


def test_audit_three_wipe_once_per_turn() -> None:
    # Only foxes in the bag: the three bears become three foxes, which may not be wiped again.
    state = _with_bag(new_game(players=2, seed=2), {F: 10}, B, B, E, B)
    after = apply(state, WipeThree())
    assert after.display_tokens == (F, F, E, F)
    assert after.bag.counts == (3, 0, 0, 0, 7)
    with pytest.raises(IllegalAction) as excinfo:
        apply(after, WipeThree())
    assert excinfo.value.reason is Reason.WIPE_ALREADY_USED


@pytest.mark.parametrize(
    ("slots", "display"),
    [((1,), (F, E, S, H)), ((2, 4), (B, F, S, F)), ((1, 2, 3), (F, F, F, H))],
)
def test_audit_nature_wipe_any_subset(slots: tuple[int, ...], display: tuple[Wildlife]) -> None:
    state = with_nature_tokens(_with_bag(new_game(players=2, seed=3), {F: 10}, B, E, S, H), 1)
    after = apply(state, NatureWipe(slots))
    assert after.display_tokens == display
    assert after.current_player.nature_tokens == 0
    assert after.bag.count(F) == 10 - len(slots)


@pytest.mark.parametrize(("tile", "token", "cost"), [(1, 3, 1), (2, 2, 0), (4, 1, 1)])
def test_audit_free_choice_cost(tile: int, token: int, cost: int) -> None:
    state = with_nature_tokens(new_game(players=2, seed=4), 2)
    after = apply(state, Take(tile, token))
    assert after.held_tile == state.display_tiles[tile - 1]
    assert after.held_token == state.display_tokens[token - 1]
    assert after.seats[state.current].nature_tokens == 2 - cost


def test_audit_starter_keystone_earns_a_nature_token() -> None:
    for seed in range(5):
        state = new_game(players=2, seed=seed)
        env = state.current_player.environment
        keystone = next(h for h, p in env.items() if p.tile.keystone)
        species = env[keystone].tile.wildlife[0]
        state = with_display_tokens(state, species, B, E, S)
        where = env.frontier()[0]
        after = play_turn(state, pair=1, tile_at=where, rotation=0, token_at=keystone)
        assert after.seats[state.current].nature_tokens == 1
        assert after.seats[state.current].environment[keystone].token == species


@pytest.mark.parametrize(("pair", "kept"), [(1, (1, 2)), (2, (0, 2)), (3, (0, 1)), (4, (0, 1))])
def test_audit_solo_discard_slide_refill(pair: int, kept: tuple[int, int]) -> None:
    state = new_game(players=1, seed=8)
    after = play_turn(state, pair=pair, tile_at=Hex(1, 0), rotation=0, token_at=None)
    assert after.display_tiles == (*state.stack[:2], *(state.display_tiles[i] for i in kept))
    assert after.display_tokens[2:] == tuple(state.display_tokens[i] for i in kept)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_audit_exactly_twenty_turns_each(players: int) -> None:
    state = new_game(players=players, seed=30 + players)
    turns = 0
    while not state.is_over:
        where = state.current_player.environment.frontier()[0]
        state = play_turn(state, pair=1, tile_at=where, rotation=0, token_at=None)
        turns += 1
        assert state.is_over == (turns == 20 * players)
    assert [seat.turns_taken for seat in state.seats] == [20] * players


# --- the score command ---------------------------------------------------------------------


def _tile(q: int, r: int, habitat: str, species: str, token: str | None) -> dict[str, Any]:
    return {"q": q, "r": r, "habitats": [habitat], "wildlife": [species], "token": token}


def test_audit_score_command_solo(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # Seven river tiles in a row: corridor 7, solo bonus 2; salmon run of 7 on card A: 25.
    table = {
        "cards": {"bear": "A", "elk": "A", "salmon": "A", "hawk": "A", "fox": "A"},
        "players": [
            {
                "name": "solo",
                "nature_tokens": 1,
                "tiles": [_tile(q, 0, "river", "salmon", "salmon") for q in range(7)],
            }
        ],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    assert main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "players": [
            {
                "name": "solo",
                "wildlife": {"bear": 0, "elk": 0, "salmon": 25, "hawk": 0, "fox": 0},
                "wildlife_total": 25,
                "habitats": {"mountain": 0, "forest": 0, "prairie": 0, "wetland": 0, "river": 7},
                "habitat_bonus": {
                    "mountain": 0,
                    "forest": 0,
                    "prairie": 0,
                    "wetland": 0,
                    "river": 2,
                },
                "habitat_total": 9,
                "nature_tokens": 1,
                "total": 35,
            }
        ],
        "ranking": ["solo"],
    }


def _player(name: str, tiles: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "nature_tokens": 0, "tiles": tiles}


GOOD = [_tile(0, 0, "mountain", "bear", "bear"), _tile(1, 0, "mountain", "bear", None)]


def _table(*players: dict[str, Any]) -> dict[str, Any]:
    return {"cards": "family", "players": list(players)}


SPLIT_ROTATION_6 = {
    "q": 0,
    "r": 0,
    "habitats": ["mountain", "river"],
    "rotation": 6,
    "wildlife": ["bear"],
    "token": None,
}

BAD_TABLES = [
    pytest.param("{", id="malformed"),
    pytest.param(_table(_player("a", [_tile(0, 0, "hill", "bear", None)])), id="unknown habitat"),
    pytest.param(_table(_player("a", [_tile(0, 0, "mountain", "bear", "elk")])), id="not shown"),
    pytest.param(_table(_player("a", [*GOOD, _tile(1, 0, "forest", "fox", None)])), id="duplicate"),
    pytest.param(
        _table(_player("a", [*GOOD, _tile(3, 0, "forest", "fox", None)])), id="not connected"
    ),
    pytest.param(_table(_player("a", [{**GOOD[0], "token": ["bear"]}])), id="token list of one"),
    pytest.param(_table(*(_player(n, GOOD) for n in "abcde")), id="five players"),
    pytest.param(_table(_player("a", [SPLIT_ROTATION_6])), id="rotation 6"),
]


@pytest.mark.parametrize("table", BAD_TABLES)
def test_audit_score_bad_input(
    table: object, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    path = tmp_path / "t.json"
    path.write_text(table if isinstance(table, str) else json.dumps(table))
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("error: ")
    assert "Traceback" not in captured.err


def test_audit_token_list_of_one_is_named_as_not_a_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_table(_player("a", [{**GOOD[0], "token": ["bear"]}]))))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "token must be a wildlife name or null, not a list" in err, err
