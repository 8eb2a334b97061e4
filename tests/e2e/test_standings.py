"""The standings through the real bot process: the owner turns the league on, two members
join, two games are played to the end in two channels of the server, then ``stats``,
``server``, ``league`` and ``leaderboard`` answer privately from what the games left; on
both databases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import BACKENDS
from tests.e2e.harness import World, check_pngs


@pytest.fixture(params=BACKENDS)
def bot_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The bot on SQLite (its default) and on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return {}
    url: str = request.getfixturevalue("postgres_url")
    return {"CASCADIA_DB": url, "XDG_CACHE_HOME": str(tmp_path / "cache")}


async def test_two_finished_games_make_the_standings(world: World) -> None:
    alice, bob = world.alice, world.bob
    owner = world.user("Cascadia Club owner")
    first = world.table()
    await first.refused(bob, "league", {"action": "on"}, reason="Manage Server")
    answer = await first.run(owner, "league", {"action": "on"})
    assert "The league is on (season 1)" in answer.text
    for user in (alice, bob):
        joined = await first.run(user, "league", {"action": "join"})
        assert joined.text == "You joined the league."

    await first.setup([alice, bob], cards="A")
    first.check_final(await first.play_to_end())
    second = world.table(world.new_channel())
    await second.setup([bob, alice], cards="B")
    second.check_final(await second.play_to_end())
    games = (first.game_id, second.game_id)

    mine = await first.run(alice, "stats")
    assert mine.text.startswith("**alice** in this server: 2 games, ")
    assert "Average placing: " in mine.text
    assert re.search(r"^vs bob: \d+-\d+", mine.text, re.MULTILINE), mine.text
    check_pngs(mine, expect=["scores.png", "achievements.png"])
    theirs = await second.run(alice, "stats", {"user": bob})
    assert theirs.text.startswith("**bob** in this server: 2 games, ")
    everywhere = await first.run(alice, "stats", {"everywhere": True})
    assert everywhere.text.startswith("**alice** everywhere: 2 games, ")
    await first.refused(alice, "stats", {"user": bob, "everywhere": True}, reason="theirs to ask")

    server = await first.run(bob, "server")
    assert server.text.startswith("This server: 2 games finished")
    assert "Most active: alice (2), bob (2)" in server.text
    best = max(
        row[0] for row in world.db.rows("SELECT score FROM results WHERE game_id IN (?, ?)", *games)
    )
    assert f"Highest score: {best} by " in server.text

    board = await first.run(alice, "leaderboard")
    lines = board.text.splitlines()
    assert lines[0] == "**Season 1** (rating = mu - 3 sigma)"
    assert len(lines) == 3
    assert all(", 2 games, " in line for line in lines[1:]), board.text
    assert any(line.startswith("**") and " alice " in line for line in lines[1:]), board.text

    closed = await first.run(owner, "league", {"action": "season"})
    assert "Season 1 is closed; season 2 starts now." in closed.text
    assert (await first.run(alice, "leaderboard")).text == "Season 2 has no rated games yet."
    old = await first.run(alice, "leaderboard", {"season": 1})
    assert old.text == board.text
