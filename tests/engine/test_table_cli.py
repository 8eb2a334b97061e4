"""Reading and writing table-json, and ``python -m engine score`` run as a real process."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.components import HABITAT_TILES_ALL, CardSet
from engine.environment import Environment, PlacedTile
from engine.errors import InvalidInput
from engine.hexes import Hex
from engine.table import environment_to_table, read_table, table_from_json, table_to_json

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE: dict[str, Any] = {
    "cards": {"bear": "A", "elk": "B", "salmon": "C", "hawk": "D", "fox": "A"},
    "players": [
        {
            "name": "alice",
            "nature_tokens": 2,
            "tiles": [
                {"q": 0, "r": 0, "habitats": ["mountain"], "wildlife": ["bear"], "token": "bear"},
                {
                    "q": 1,
                    "r": 0,
                    "habitats": ["forest", "river"],
                    "rotation": 2,
                    "wildlife": ["elk", "salmon"],
                    "token": None,
                },
            ],
        }
    ],
}

ZERO_WILDLIFE = {"bear": 0, "elk": 0, "salmon": 0, "hawk": 0, "fox": 0}
ZERO_HABITATS = {"mountain": 0, "forest": 0, "prairie": 0, "wetland": 0, "river": 0}


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def score(document: object) -> subprocess.CompletedProcess[bytes]:
    text = document if isinstance(document, str | bytes) else json.dumps(document)
    return run("score", "-", stdin=text.encode() if isinstance(text, str) else text)


def test_example_scores() -> None:
    # Mountain at 0,0; the split tile shows forest on edges 2-4 (edge 3 faces 0,0) and river
    # on 5, 0, 1: three corridors of one tile. One bear, no pair: no wildlife points.
    result = score(EXAMPLE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert json.loads(result.stdout) == {
        "players": [
            {
                "name": "alice",
                "wildlife": ZERO_WILDLIFE,
                "wildlife_total": 0,
                "habitats": {**ZERO_HABITATS, "mountain": 1, "forest": 1, "river": 1},
                "habitat_bonus": ZERO_HABITATS,
                "habitat_total": 3,
                "nature_tokens": 2,
                "total": 5,
            }
        ],
        "ranking": ["alice"],
    }
    assert result.stdout.decode().startswith('{\n  "players": [\n    {\n      "name": "alice"')


def test_two_players_from_a_file(tmp_path: Path) -> None:
    document = {
        "cards": {"bear": "A", "elk": "A", "salmon": "A", "hawk": "A", "fox": "A"},
        "players": [
            {
                "name": "alice",
                "nature_tokens": 1,
                "tiles": [
                    {
                        "q": 0,
                        "r": 0,
                        "habitats": ["mountain"],
                        "wildlife": ["bear"],
                        "token": "bear",
                    },
                    {
                        "q": 1,
                        "r": 0,
                        "habitats": ["mountain"],
                        "wildlife": ["bear"],
                        "token": "bear",
                    },
                ],
            },
            {
                "name": "bob",
                "nature_tokens": 0,
                "tiles": [
                    {"q": 0, "r": 0, "habitats": ["forest"], "wildlife": ["elk"], "token": "elk"}
                ],
            },
        ],
    }
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document))
    result = run("score", str(path))
    assert result.returncode == 0, result.stderr
    alice, bob = json.loads(result.stdout)["players"]
    # alice: bear A one pair 4; mountain 2 and the larger corridor +2; 1 nature token.
    assert (alice["wildlife_total"], alice["habitat_total"], alice["total"]) == (4, 4, 9)
    assert alice["habitat_bonus"]["mountain"] == 2
    # bob: elk A a lone elk 2; forest 1 and the larger corridor +2.
    assert (bob["wildlife"]["elk"], bob["habitat_total"], bob["total"]) == (2, 3, 5)
    assert json.loads(result.stdout)["ranking"] == ["alice", "bob"]


def changed(path: str, value: object) -> dict[str, Any]:
    """The example with the value at a dotted ``path`` replaced (``...`` deletes it)."""
    document = copy.deepcopy(EXAMPLE)
    *parents, last = path.split(".")
    target: Any = document
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    key: Any = int(last) if last.isdigit() else last
    if value is ...:
        del target[key]
    else:
        target[key] = value
    return document


TILE = "players.0.tiles.0"
SPLIT = "players.0.tiles.1"
ROW_OF_BEARS = [
    {"q": q, "r": 0, "habitats": ["mountain"], "wildlife": ["bear"], "token": "bear"}
    for q in range(21)
]
TWO_TOKENS = json.dumps(EXAMPLE).replace('"token": "bear"', '"token": "bear", "token": "bear"')

BAD = [
    pytest.param('{"cards": ', "malformed JSON", id="malformed JSON"),
    pytest.param("", "malformed JSON", id="empty input"),
    pytest.param("[" * 100_000, "malformed JSON", id="nested too deep"),
    pytest.param("[]", "must be an object", id="not an object"),
    pytest.param(changed(f"{TILE}.habitats", ["mountains"]), "'alice' tile 0,0: unknown habitat"),
    pytest.param(changed(f"{TILE}.wildlife", ["bear", "moose"]), "unknown wildlife 'moose'"),
    pytest.param(changed(f"{TILE}.token", "bears"), "'alice' tile 0,0: unknown wildlife 'bears'"),
    pytest.param(changed("cards.bear", "E"), "bear card must be A, B, C or D"),
    pytest.param(changed("cards", "families"), "unknown cards 'families'"),
    pytest.param(changed("cards.moose", "A"), "unknown field 'moose'"),
    pytest.param(changed("cards.fox", ...), "missing field 'fox'"),
    pytest.param(changed(f"{SPLIT}.q", 0), "'alice': two tiles at 0,0", id="duplicate coordinate"),
    pytest.param(changed(f"{TILE}.token", "elk"), "'alice' tile 0,0: token 'elk' is not shown"),
    pytest.param(TWO_TOKENS, "'alice' tile 0,0: a second token", id="token given twice"),
    pytest.param(changed(f"{TILE}.token", ["bear", "bear"]), "'alice' tile 0,0: a tile holds one"),
    pytest.param(changed(f"{TILE}.token", 3), "token must be a wildlife name"),
    pytest.param(changed(f"{SPLIT}.q", 2), "'alice': tiles are not one edge-connected group"),
    pytest.param(changed(f"{SPLIT}.rotation", 6), "'alice' tile 1,0: rotation must be 0..5"),
    pytest.param(changed(f"{SPLIT}.rotation", -1), "'alice' tile 1,0: rotation must be 0..5"),
    pytest.param(changed(f"{SPLIT}.rotation", ...), "'alice' tile 1,0: missing field 'rotation'"),
    pytest.param(changed(f"{SPLIT}.rotation", 1.5), "rotation must be a whole number"),
    pytest.param(changed("players", EXAMPLE["players"] * 5), "5 players; a game has at most 4"),
    pytest.param(changed("players", []), "the table has no players"),
    pytest.param(changed("players", {}), "players must be a list"),
    pytest.param(changed("cards", ...), "missing field 'cards'"),
    pytest.param(changed("players.0.name", ...), "player 1: missing field 'name'"),
    pytest.param(changed("players.0.name", ""), "player 1: name must be a non-empty string"),
    pytest.param(changed("players.0.nature_tokens", "2"), "nature_tokens must be a whole"),
    pytest.param(changed("players.0.nature_tokens", -1), "nature_tokens cannot be negative"),
    pytest.param(changed("players.0.tiles", "x"), "'alice': tiles must be a list"),
    pytest.param(changed("players.0.tiles", []), "'alice': no tiles"),
    pytest.param(changed("players.0.tiles.0", 7), "'alice' tile #1 must be an object"),
    pytest.param(changed(f"{TILE}.q", ...), "'alice' tile #1: missing field 'q'"),
    pytest.param(changed(f"{TILE}.q", "0"), "q must be a whole number"),
    pytest.param(changed(f"{TILE}.q", True), "q must be a whole number"),
    pytest.param(changed(f"{TILE}.habitats", []), "habitats must list 1 to 2"),
    pytest.param(changed(f"{TILE}.habitats", "mountain"), "habitats must be a list"),
    pytest.param(changed(f"{TILE}.wildlife", ["bear", "bear"]), "wildlife lists a name twice"),
    pytest.param(changed(f"{TILE}.keystone", "yes"), "keystone must be true or false"),
    pytest.param(changed(f"{TILE}.id", 16), "tile #16 is M/h"),
    pytest.param(changed(f"{TILE}.id", 999), "no tile has id 999"),
    pytest.param(changed("players", [EXAMPLE["players"][0]] * 2), "2 players are called 'alice'"),
    pytest.param(changed("players.0.tiles", ROW_OF_BEARS), "21 bear tokens on the table"),
    pytest.param(
        json.dumps(EXAMPLE).replace('"q": 1,', '"q": 1' + "0" * 5000 + ","),
        "malformed JSON",
        id="a number too long",
    ),
    pytest.param(b"\xff\xfe{}", "is not UTF-8 text", id="not UTF-8"),
]


@pytest.mark.parametrize(("document", "message"), BAD)
def test_bad_input_is_one_line_and_status_2(document: object, message: str) -> None:
    result = score(document)
    assert result.returncode == 2
    assert result.stdout == b""
    stderr = result.stderr.decode()
    assert b"Traceback" not in result.stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.endswith("\n")
    assert stderr.startswith("error: ")
    assert message in stderr, stderr


def test_missing_file() -> None:
    result = run("score", str(ROOT / "no-such-table.json"))
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1
    assert "cannot read" in result.stderr.decode()
    assert b"Traceback" not in result.stderr


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    result = run("score", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1


# In-process: reading and writing the same shapes.


def test_read_example() -> None:
    cards, players = read_table(json.dumps(EXAMPLE))
    assert cards == CardSet.parse("ABCDA")
    assert players == [("alice", Environment.parse("0,0 M/b=b; 1,0 FR/es@2"), 2)]


def test_variant_cards_and_optional_fields() -> None:
    document = changed("cards", "intermediate")
    document["players"][0]["tiles"][0] |= {"rotation": 4, "keystone": True, "id": 18}
    cards, [(_, env, _)] = table_from_json(document)
    assert cards == CardSet.parse("intermediate")
    placed = env[Hex(0, 0)]
    assert (placed.tile.id, placed.rotation, placed.token) == (18, 0, "bear")


def test_fields_the_format_does_not_name_are_ignored() -> None:
    document = changed("comment", "made by hand")
    document["players"][0]["colour"] = "green"
    document["players"][0]["tiles"][0]["note"] = "starter"
    assert read_table(json.dumps(document)) == read_table(json.dumps(EXAMPLE))
    result = score(document)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(score(EXAMPLE).stdout)


def test_nature_tokens_default_to_none_left() -> None:
    _, [(_, _, nature_tokens)] = table_from_json(changed("players.0.nature_tokens", ...))
    assert nature_tokens == 0


def test_export_shape() -> None:
    env = Environment.parse("0,0 M/b=b; 1,0 FR/es@2")
    assert environment_to_table("alice", env, 2) == {
        "name": "alice",
        "nature_tokens": 2,
        "tiles": [
            {
                "q": 0,
                "r": 0,
                "habitats": ["mountain"],
                "wildlife": ["bear"],
                "token": "bear",
                "keystone": True,
            },
            {
                "q": 1,
                "r": 0,
                "habitats": ["forest", "river"],
                "rotation": 2,
                "wildlife": ["elk", "salmon"],
                "token": None,
                "keystone": False,
            },
        ],
    }
    assert table_to_json(CardSet.parse("family"), [])["cards"] == "family"


def random_table(seed: int, players: int) -> list[tuple[str, Environment, int]]:
    rng = random.Random(seed)
    tiles = rng.sample(HABITAT_TILES_ALL, 5 * players)
    found = []
    for seat in range(players):
        placed: dict[Hex, PlacedTile] = {}
        for tile in tiles[5 * seat : 5 * seat + 5]:
            spots = sorted({n for h in placed for n in h.neighbors()} - placed.keys())
            token = rng.choice((*tile.wildlife, None))
            placed[rng.choice(spots or [Hex(0, 0)])] = PlacedTile(tile, rng.randrange(6), token)
        found.append((f"player {seat}", Environment(placed), rng.randrange(5)))
    return found


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.sampled_from(["ABCDA", "DDCBA", "family"]))
def test_round_trip(seed: int, players: int, card_text: str) -> None:
    cards = CardSet.parse(card_text)
    table = random_table(seed, players)
    text = json.dumps(table_to_json(cards, table))
    assert read_table(text) == (cards, table)


def test_reader_raises_invalid_input_not_other_errors() -> None:
    with pytest.raises(InvalidInput, match="malformed JSON"):
        read_table("{")
