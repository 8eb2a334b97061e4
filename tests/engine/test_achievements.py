"""Achievements and solo scenarios: each just met and just missed on hand-made boards and
score columns, the ``achievements`` subcommand, and the CLI agreeing with the game state."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    ACHIEVEMENT_IDS,
    ACHIEVEMENTS,
    SCENARIOS,
    check_scenario,
    game_achievements,
    scenarios_met,
    seat_achievements,
    state_achievements,
    state_table,
)
from engine.cli import main
from engine.components import CardSet, Habitat, Wildlife
from engine.environment import Environment
from engine.scoring.sheet import PlayerScore, ScoreSheet
from tests.engine.helpers import play_random

EMPTY = Environment.parse("0,0 M/b")


def column(
    *,
    wildlife: dict[Wildlife, int] | None = None,
    habitats: dict[Habitat, int] | None = None,
    bonus: dict[Habitat, int] | None = None,
    nature: int = 0,
    name: str = "alice",
) -> PlayerScore:
    """A score-sheet column: zeros except what is given."""
    return PlayerScore(
        name,
        {w: (wildlife or {}).get(w, 0) for w in Wildlife},
        {h: (habitats or {}).get(h, 0) for h in Habitat},
        {h: (bonus or {}).get(h, 0) for h in Habitat},
        nature,
    )


def earned(score: PlayerScore, board: Environment = EMPTY) -> tuple[str, ...]:
    return seat_achievements(ScoreSheet((score,)), [board], 0)


def line(code: str, count: int, *, row: int = 0) -> str:
    """``count`` tiles ``code`` side by side eastwards along row ``row``."""
    return "; ".join(f"{q},{row} {code}" for q in range(count))


ALL = dict.fromkeys(Wildlife, 0)
EVERY = dict.fromkeys(Habitat, 0)


def test_the_list_is_the_research_list() -> None:
    assert len(ACHIEVEMENTS) == len(set(ACHIEVEMENT_IDS)) == 25
    assert ACHIEVEMENT_IDS[:8] == (
        *(f"score-{p}" for p in (80, 85, 90, 95, 100, 105, 110)),
        "no-nature-left",
    )
    assert all(a.title and a.description.endswith(".") for a in ACHIEVEMENTS)


# Read from the score column: (id, a column that just meets it, one that just misses it).
SHEET_CASES = [
    (
        "score-80",
        column(wildlife={Wildlife.BEAR: 79}, nature=1),
        column(wildlife={Wildlife.BEAR: 79}),
    ),
    (
        "score-110",
        column(habitats={Habitat.RIVER: 108}, bonus={Habitat.RIVER: 2}),
        column(habitats={Habitat.RIVER: 109}),
    ),
    ("no-nature-left", column(nature=0), column(nature=1)),
    (
        "five-every-habitat",
        column(habitats=dict.fromkeys(Habitat, 5)),
        column(habitats={**dict.fromkeys(Habitat, 5), Habitat.WETLAND: 4}),
    ),
    (
        "twelve-one-habitat",
        column(habitats={Habitat.FOREST: 12}),
        column(habitats=dict.fromkeys(Habitat, 11)),
    ),
    (
        "fifteen-one-habitat",
        column(habitats={Habitat.FOREST: 15}),
        column(habitats={Habitat.FOREST: 14}, bonus={Habitat.FOREST: 2}),
    ),
    (
        "ten-every-wildlife",
        column(wildlife=dict.fromkeys(Wildlife, 10)),
        column(wildlife={**dict.fromkeys(Wildlife, 10), Wildlife.FOX: 9}),
    ),
    (
        "twenty-two-wildlife",
        column(wildlife={Wildlife.BEAR: 20, Wildlife.FOX: 20}),
        column(wildlife={Wildlife.BEAR: 40, Wildlife.FOX: 19}),
    ),
    (
        "thirty-one-wildlife",
        column(wildlife={Wildlife.HAWK: 30}),
        column(wildlife=dict.fromkeys(Wildlife, 29)),
    ),
    ("five-nature", column(nature=5), column(nature=4)),
    ("ten-nature", column(nature=10), column(nature=9)),
]


@pytest.mark.parametrize(("achievement", "meets", "misses"), SHEET_CASES)
def test_achievement_read_from_the_column(
    achievement: str, meets: PlayerScore, misses: PlayerScore
) -> None:
    assert achievement in earned(meets)
    assert achievement not in earned(misses)


def test_the_score_achievements_go_up_to_the_total() -> None:
    got = earned(column(wildlife={Wildlife.ELK: 90}, nature=4))  # 94
    assert [a for a in got if a.startswith("score-")] == ["score-80", "score-85", "score-90"]


# Read from the board: (id, a board that just meets it, one that just misses it).
BOARD_CASES = [
    ("no-bear", "0,0 M/b; 1,0 F/e=e", "0,0 M/b=b; 1,0 F/e=e"),
    ("no-elk", "0,0 F/e; 1,0 M/b=b", "0,0 F/e=e"),
    ("no-salmon", "0,0 R/s", "0,0 R/s=s"),
    ("no-hawk", "0,0 W/h", "0,0 W/h=h"),
    ("no-fox", "0,0 P/f", "0,0 P/f=f"),
    ("ten-of-one", line("F/e=e", 10), line("F/e=e", 9) + "; 9,0 M/b=b"),
    ("no-keystone-completed", "0,0 M/b; 1,0 MF/be@0=b", "0,0 M/b=b; 1,0 MF/be@0"),
    (
        "three-wildlife-kinds",
        "0,0 M/b=b; 1,0 F/e=e; 2,0 R/s=s",
        "0,0 M/b=b; 1,0 F/e=e; 2,0 R/s=s; 3,0 W/h=h",
    ),
]


@pytest.mark.parametrize(("achievement", "meets", "misses"), BOARD_CASES)
def test_achievement_read_from_the_board(achievement: str, meets: str, misses: str) -> None:
    assert achievement in earned(column(), Environment.parse(meets))
    assert achievement not in earned(column(), Environment.parse(misses))


def test_three_kinds_means_exactly_three() -> None:
    assert "three-wildlife-kinds" not in earned(column(), Environment.parse("0,0 M/b=b; 1,0 F/e=e"))


def test_a_keystone_is_what_the_tile_says() -> None:
    """A table may mark a one-habitat, one-wildlife tile as no keystone."""
    tile = {"q": 0, "r": 0, "habitats": ["mountain"], "wildlife": ["bear"], "token": "bear"}
    for keystone, expected in ((True, False), (False, True)):
        table = {
            "cards": "family",
            "players": [{"name": "a", "tiles": [{**tile, "keystone": keystone}]}],
        }
        assert ("no-keystone-completed" in achievements_of(table)[0]["achievements"]) == expected


def majorities(mine: dict[Habitat, int], theirs: dict[Habitat, int]) -> bool:
    sheet = ScoreSheet((column(habitats=mine), column(habitats=theirs, name="bob")))
    return "three-majorities" in seat_achievements(sheet, [EMPTY, EMPTY], 0)


def test_three_majorities_counts_ties_but_not_empty_habitats() -> None:
    mine = {Habitat.MOUNTAIN: 3, Habitat.FOREST: 2, Habitat.PRAIRIE: 1}
    assert majorities(mine, {Habitat.MOUNTAIN: 3, Habitat.FOREST: 1, Habitat.WETLAND: 9})
    assert not majorities(mine, {Habitat.MOUNTAIN: 4, Habitat.FOREST: 1})
    # Two empty corridors tie, but an empty corridor is no majority.
    assert not majorities({Habitat.MOUNTAIN: 3, Habitat.FOREST: 2}, {Habitat.MOUNTAIN: 1})


def test_three_majorities_needs_another_player() -> None:
    assert "three-majorities" not in earned(column(habitats=dict.fromkeys(Habitat, 9)))


# Solo scenarios ---------------------------------------------------------------------------

RESEARCH = [
    ("AAAAA", 80),
    ("BBBBB", 80),
    ("CCCCC", 80),
    ("DDDDD", 85),
    ("CDBBB", 85),
    ("DBCCB", 85),
    ("BCCDC", 90),
    ("CBBAD", 90),
    ("CADCB", 90),
    ("CBDBB", 95),
    ("BAACA", 95),
    ("ABAAC", 95),
    ("DCCBC", 100),
    ("ACBAD", 100),
    ("ADADA", 100),
]


def test_the_scenarios_are_the_research_table() -> None:
    assert [(str(s.cards), s.target) for s in SCENARIOS] == RESEARCH
    assert [s.number for s in SCENARIOS] == list(range(1, 16))
    assert [len(s.extras) for s in SCENARIOS] == [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]


def held(number: int, score: PlayerScore, board: str = "0,0 M/b") -> list[bool]:
    scenario = SCENARIOS[number - 1]
    check = check_scenario(scenario, scenario.cards, score, Environment.parse(board))
    return [ok for _, ok in check.extras]


def test_cards_and_target_decide_the_plain_scenarios() -> None:
    at_80 = column(wildlife={Wildlife.BEAR: 80})
    cards = CardSet.parse("AAAAA")
    assert scenarios_met(cards, ScoreSheet((at_80,)), [EMPTY]) == (1,)
    assert scenarios_met(cards, ScoreSheet((column(wildlife={Wildlife.BEAR: 79}),)), [EMPTY]) == ()
    assert scenarios_met(CardSet.parse("AAAAB"), ScoreSheet((at_80,)), [EMPTY]) == ()
    check = check_scenario(SCENARIOS[0], CardSet.parse("BBBBB"), at_80, EMPTY)
    assert check.lines() == [("cards AAAAA", False), ("80 points or more", True)]
    assert not check.met


def test_no_scenario_in_a_game_of_two() -> None:
    at_80 = column(wildlife={Wildlife.BEAR: 80})
    sheet = ScoreSheet((at_80, column(name="bob")))
    assert scenarios_met(CardSet.parse("AAAAA"), sheet, [EMPTY, EMPTY]) == ()


def fox_with(around: str, q: int) -> str:
    """A fox at ``(q, 0)`` with the six tokens of ``around`` (letters) on its neighbours."""
    codes = {"b": "M/b=b", "e": "F/e=e", "s": "R/s=s", "h": "W/h=h", "f": "P/f=f"}
    hexes = [(q + 1, 0), (q + 1, -1), (q, -1), (q - 1, 0), (q - 1, 1), (q, 1)]
    tiles = [f"{q},0 P/f=f"] + [
        f"{a},{b} {codes[letter]}" for (a, b), letter in zip(hexes, around, strict=True)
    ]
    return "; ".join(tiles)


def test_scenario_5_three_foxes_at_their_best() -> None:
    best = [fox_with("bbeess", q) for q in (0, 4)]
    assert held(5, column(), "; ".join([*best, fox_with("bebsse", 8)])) == [True]
    assert held(5, column(), "; ".join([*best, fox_with("bbeesh", 8)])) == [False]


def test_scenario_6_four_of_every_wildlife() -> None:
    board = "; ".join(
        line(code, 4, row=r) for r, code in enumerate(["M/b=b", "F/e=e", "R/s=s", "W/h=h", "P/f=f"])
    )
    assert held(6, column(), board) == [True]
    assert held(6, column(), board.replace("3,4 P/f=f", "3,4 P/f")) == [False]


def test_scenarios_read_from_the_column() -> None:
    assert held(7, column(wildlife={Wildlife.HAWK: 20})) == [True]
    assert held(7, column(wildlife={Wildlife.HAWK: 19})) == [False]
    ten = dict.fromkeys(Wildlife, 10)
    five = dict.fromkeys(Habitat, 5)
    assert held(9, column(wildlife=ten, habitats=five)) == [True, True]
    assert held(
        9, column(wildlife={**ten, Wildlife.ELK: 9}, habitats={**five, Habitat.RIVER: 4})
    ) == [False, False]
    sevens = {Habitat.MOUNTAIN: 7, Habitat.FOREST: 7, Habitat.RIVER: 7}
    assert held(10, column(wildlife={Wildlife.BEAR: 60}, habitats=sevens)) == [True, True]
    assert held(
        10, column(wildlife={Wildlife.BEAR: 59}, habitats={**sevens, Habitat.RIVER: 6})
    ) == [False, False]
    assert held(11, column(wildlife={Wildlife.BEAR: 30}))[0]
    assert not held(11, column(wildlife={Wildlife.BEAR: 29}))[0]
    assert held(12, column(habitats={Habitat.WETLAND: 12}))[2]
    assert not held(12, column(habitats={Habitat.WETLAND: 11}))[2]
    # Habitat points are the corridors with their solo bonuses.
    assert held(14, column(habitats={Habitat.RIVER: 33}, bonus={Habitat.RIVER: 2}))[2]
    assert not held(14, column(habitats={Habitat.RIVER: 34}))[2]
    twenty = {Wildlife.BEAR: 20, Wildlife.HAWK: 20}
    assert held(15, column(wildlife=twenty, habitats=sevens, nature=5)) == [True, True, True]
    assert held(
        15,
        column(
            wildlife={**twenty, Wildlife.HAWK: 19}, habitats={**sevens, Habitat.RIVER: 6}, nature=4
        ),
    ) == [False, False, False]


def test_scenario_8_no_bear_next_to_an_elk() -> None:
    assert held(8, column(nature=5), "0,0 M/b=b; 1,0 M/b; 2,0 F/e=e") == [True, True]
    assert held(8, column(nature=4), "0,0 M/b=b; 1,-1 F/e=e") == [False, False]


@pytest.mark.parametrize(
    ("board", "ok"),
    [
        ("0,0 F/e; 1,0 M/b; 2,0 R/s", True),  # not next to each other
        ("0,0 FR/es@0", True),  # inside one tile
        ("0,0 FR/es@3; 1,0 R/s", True),  # its river side faces the river
        ("0,0 FR/es@0; 1,0 R/s", False),  # its forest side faces the river
        ("0,0 F/e; 0,1 R/s", False),
    ],
)
def test_scenario_11_forest_edge_against_river_edge(board: str, ok: bool) -> None:
    assert held(11, column(), board)[1] == ok


def test_scenario_12_salmon_run_and_elk_off_forest() -> None:
    assert held(12, column(), line("R/s=s", 7) + "; 0,1 M/e=e")[:2] == [True, True]
    assert held(12, column(), line("R/s=s", 6) + "; 0,1 FR/es@0=e")[:2] == [False, False]


def test_scenario_13_elk_group_and_hawks_by_elk() -> None:
    elk = line("F/e=e", 8)
    hawks = "; ".join(f"{q},1 W/h=h" for q in range(5))
    assert held(13, column(), f"{elk}; {hawks}") == [True, True, True]
    assert held(13, column(), f"{line('F/e=e', 7)}; {hawks}; 9,0 W/h=h") == [False, True, False]
    assert held(13, column(), f"{elk}; 0,1 W/h=h") == [True, False, True]


def test_scenario_14_edges() -> None:
    assert held(14, column(), "0,0 M/b; 1,0 F/e; 2,0 P/f; 0,1 W/h; 0,2 F/e; 0,3 R/s")[:2] == [
        True,
        True,
    ]
    assert held(14, column(), "0,0 M/b; 1,0 P/f; 0,1 W/h; 1,1 R/s")[:2] == [False, False]


# The subcommand ---------------------------------------------------------------------------


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def achievements_of(table: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(table).encode())))
        status, out, err = run_cli(["achievements", "-"])
    assert (status, err) == (0, "")
    players: list[dict[str, Any]] = json.loads(out)["players"]
    return players


def test_cli_prints_ids_and_scenarios(tmp_path: Path) -> None:
    tiles = [
        {"q": q, "r": 0, "habitats": ["forest"], "wildlife": ["elk"], "token": "elk"}
        for q in range(10)
    ]
    cards = dict.fromkeys(["bear", "elk", "salmon", "hawk", "fox"], "A")
    table = {"cards": cards, "players": [{"name": "solo", "nature_tokens": 0, "tiles": tiles}]}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    status, out, _ = run_cli(["achievements", str(path)])
    assert status == 0
    (player,) = json.loads(out)["players"]
    assert player["name"] == "solo"
    assert player["scenarios"] == []
    # Elk A: a line of 10 elk scores 13 + 13 + 5.
    assert set(player["achievements"]) == {
        "no-nature-left",
        "no-bear",
        "no-salmon",
        "no-hawk",
        "no-fox",
        "ten-of-one",
        "thirty-one-wildlife",
    }


@pytest.mark.parametrize(
    ("text", "words"),
    [("{", "malformed JSON"), ('{"cards": "family", "players": []}', "players")],
)
def test_cli_bad_input_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    status, out, err = run_cli(["achievements", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith("error: ")
    assert words in err
    assert err.count("\n") == 1


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(0, 10_000))
def test_cli_agrees_with_the_game_state(players: int, seed: int) -> None:
    state, _ = play_random(players, seed)
    from_state = [seat.to_json() for seat in state_achievements(state)]
    assert achievements_of(state_table(state)) == from_state
    assert from_state == [
        s.to_json()
        for s in game_achievements(
            state.cards,
            [
                (f"Player {i + 1}", seat.environment, seat.nature_tokens)
                for i, seat in enumerate(state.seats)
            ],
        )
    ]


def tile(q: int, r: int, habitat: str, wildlife: str, token: str | None) -> dict[str, Any]:
    return {"q": q, "r": r, "habitats": [habitat], "wildlife": [wildlife], "token": token}


def scenario_12_table(elk_habitat: str, players: int = 1) -> dict[str, Any]:
    """A board built for scenario 12: a mountain corridor of 70 holding one elk, a salmon
    run of 7 on the river below it (25 + 2 + 70 + 2 + 7 + 2 = 108 solo)."""
    tiles = [tile(q, 0, "mountain", "bear", None) for q in range(70)]
    tiles[10] = tile(10, 0, elk_habitat, "elk", "elk")
    tiles += [tile(q, 1, "river", "salmon", "salmon") for q in range(7)]
    letters = dict(zip(["bear", "elk", "salmon", "hawk", "fox"], "ABAAC", strict=True))
    seats = [{"name": f"p{i}", "nature_tokens": 0, "tiles": tiles} for i in range(players)]
    return {"cards": letters, "players": seats}


def test_a_board_built_for_scenario_12_meets_it() -> None:
    (solo,) = achievements_of(scenario_12_table("mountain"))
    assert solo["scenarios"] == [12]
    assert {"score-105", "fifteen-one-habitat", "twelve-one-habitat"} <= set(solo["achievements"])
    # The elk moved onto a forest tile breaks the corridor (still 12+) and the condition.
    (solo,) = achievements_of(scenario_12_table("forest"))
    assert solo["scenarios"] == []
    assert all(p["scenarios"] == [] for p in achievements_of(scenario_12_table("mountain", 2)))
