"""Bad input: each is answered privately with a clear reason and changes nothing (the database
is compared row by row), and the game goes on afterwards."""

from __future__ import annotations

import pytest

from engine import Hex
from tests.e2e.harness import GameChannel, Move, World

GARBAGE = [
    "x" * 6000,  # the longest string Discord lets through
    "'; DROP TABLE moves; --",
    "1,2,3",
    "🦊🦊🦊",
    "\u0000\u202e0,0",
    "99999999999999999999,1",
]
SOME_MOVE = Move(1, "1,0", 0, "return").options()


async def three_player_game(world: World) -> GameChannel:
    table = world.table()
    await table.setup([world.alice, world.bob, world.carol])
    return table


async def test_turn_refusals_change_nothing_and_the_game_goes_on(world: World) -> None:
    table = await three_player_game(world)
    mover = table.to_move
    assert mover is not None
    waiting = next(u for u in table.seats if u != mover)
    move = await table.choose(mover)
    state = world.db.state(table.game_id)
    seat = table.seats.index(mover)
    environment = state.seats[seat].environment
    log_before = world.db.moves(table.game_id)

    await table.refused(waiting, "play", move.options(), reason="not your turn")
    await table.refused(world.eve, "play", move.options(), reason="not in this game")
    await table.refused(world.eve, "preview", move.options(), reason="not in this game")
    occupied = str(next(iter(environment)))
    await table.refused(
        mover, "play", {**move.options(), "tile_at": occupied}, reason="already has a tile"
    )
    await table.refused(
        mover, "play", {**move.options(), "tile_at": "9,9"}, reason="does not touch"
    )

    # A token on a placed tile that does not show its species.
    wrong = next(
        (pair, str(hex_))
        for pair in (1, 2, 3, 4)
        for hex_, placed in environment.items()
        if placed.token is None and state.display_tokens[pair - 1] not in placed.tile.wildlife
    )
    tile_at = await table.autocomplete(mover, "tile_at", {"pair": wrong[0], "rotation": 0})
    wrong_move = Move(wrong[0], tile_at[0]["value"], 0, wrong[1])
    await table.refused(mover, "play", wrong_move.options(), reason=r"takes .*, not")

    # Nature-token choices without a nature token.
    assert state.seats[seat].nature_tokens == 0
    other = move.pair % 4 + 1
    free = Move(move.pair, move.tile_at, move.rotation, "return", token=other)
    await table.refused(mover, "play", free.options(), reason="no nature token")
    await table.refused(mover, "wipe", {"tokens": "1 3"}, reason="no nature token")

    # Over-long and garbage values in every free-text option.
    for value in [*GARBAGE, "-", " "]:
        for option in ("tile_at", "token_at"):
            await table.refused(
                mover, "play", {**move.options(), option: value}, reason="could not read"
            )
    await table.refused(mover, "wipe", {"tokens": "x" * 6000}, reason="tokens are numbers")
    await table.refused(mover, "wipe", {"tokens": "1 1"}, reason="named twice")

    # Nothing moved: the valid move still plays, and it is the only entry in the log.
    assert world.db.moves(table.game_id) == log_before
    await table.play(mover, move)
    assert len(world.db.moves(table.game_id)) == len(log_before) + 1


async def test_autocomplete_offers_only_legal_places(world: World) -> None:
    table = await three_player_game(world)
    mover = table.to_move
    assert mover is not None
    state = world.db.state(table.game_id)
    environment = state.seats[table.seats.index(mover)].environment
    tiles = await table.autocomplete(mover, "tile_at", {"pair": 1, "rotation": 0})
    offered = {Hex.parse(c["value"]) for c in tiles}
    assert offered == set(environment.frontier())
    tokens = await table.autocomplete(
        mover, "token_at", {"pair": 1, "rotation": 0, "tile_at": tiles[0]["value"]}
    )
    assert tokens[-1]["value"] == "return"
    # On a phone the lists carry the help: each place's score change, each rotation in words.
    assert all(": up to " in c["name"] for c in tiles), tiles
    turns = await table.autocomplete(mover, "rotation", {"pair": 1, "tile_at": tiles[0]["value"]})
    assert [c["value"] for c in turns] in ([0], [0, 1, 2, 3, 4, 5]), turns
    assert all("faces" in c["name"] or "every way" in c["name"] for c in turns), turns

    # Typing narrows the list; garbage finds nothing; non-players are offered nothing.
    typed = tiles[0]["value"]
    narrowed = await table.autocomplete(mover, "tile_at", {"pair": 1, "rotation": 0}, typed)
    assert typed in [c["value"] for c in narrowed]
    for value in GARBAGE:
        found = await table.autocomplete(mover, "tile_at", {"pair": 1, "rotation": 0}, value)
        assert found == [], (value[:20], found)
    assert await table.autocomplete(world.eve, "tile_at", {"pair": 1, "rotation": 0}) == []


async def test_lobby_refusals(world: World) -> None:
    table = world.table()
    for cards in ("ZZZZZ", "ABCDE", "x" * 6000, "family!"):
        await table.refused(world.alice, "new", {"cards": cards}, reason="not a card choice")
    assert world.db.game_id(table.channel) is None, "an invalid lobby was stored"

    lobby = await table.open(world.alice)
    await table.refused(world.bob, "new", reason="already running")
    await table.refused(world.alice, "new", {"cards": "A"}, reason="already running")
    await table.refused(world.alice, "Join", press=lobby, reason="already seated")
    await table.refused(world.alice, "join", reason="already seated")
    await table.refused(world.bob, "Leave", press=lobby, reason="not in this game")
    await table.join(world.bob, world.carol, world.dave)
    await table.refused(world.eve, "Join", press=lobby, reason="lobby is full")
    await table.refused(world.eve, "join", reason="lobby is full")
    await table.refused(world.bob, "Start", press=lobby, reason="only the host")
    await table.refused(world.bob, "start", reason="only the host")
    await table.refused(world.bob, "play", SOME_MOVE, reason="not started")

    await table.start(world.alice)
    assert len(table.seats) == 4
    await table.refused(world.alice, "new", reason="already running")
    await table.refused(world.eve, "join", reason="already started")
    await table.play()


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("play", SOME_MOVE),
        ("preview", SOME_MOVE),
        ("wipe", {}),
        ("join", {}),
        ("leave", {}),
        ("start", {}),
        ("status", {}),
        ("board", {}),
        ("score", {}),
        ("settings", {"reminder_hours": 2}),
        ("end", {}),
        ("export", {}),
    ],
)
async def test_commands_in_a_channel_without_a_game(
    world: World, command: str, options: dict[str, object]
) -> None:
    table = world.table(world.new_channel())
    await table.refused(world.alice, command, options, reason="no game in this channel")
