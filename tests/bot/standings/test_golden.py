"""Golden transcript of the standings (see :mod:`tests.bot.golden`): the league turned on and
joined, two rated games played to their end, and the figures, the server's records and the
leaderboard as they answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import game_service
from bot.standings.service import leaderboard_answer, league_answer, server_answer, stats_answer
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.golden import Table, Transcript
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GUILD = 1
ADA, BOB, CY = 100, 200, 300
NAMES = {ADA: "Ada", BOB: "Bob", CY: "Cy"}


async def test_a_league_two_rated_games_and_the_figures(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    script = Transcript(
        sqlite_store,
        clock,
        title="Standings: a league, a two- and a three-player game (seed 5), the figures",
        source=request.node.nodeid,
    )

    async def league(user: int, action: str, *, can_manage: bool = False) -> None:
        answer = await league_answer(sqlite_store, GUILD, user, action, can_manage=can_manage)
        script.shown(f"answer to {NAMES[user]}: /cascadia league action:{action}", answer)

    async def stats(user: int, *, everywhere: bool = False) -> None:
        guild = None if everywhere else GUILD
        answer = await stats_answer(sqlite_store, guild, user, NAMES[user])
        option = " everywhere:True" if everywhere else ""
        script.shown(f"answer to {NAMES[user]}: /cascadia stats{option}", answer.text)

    async def server() -> None:
        answer = await server_answer(sqlite_store, GUILD)
        script.shown("answer to Ada: /cascadia server", answer)

    async def leaderboard(user: int, season: int | None = None) -> None:
        answer = await leaderboard_answer(sqlite_store, GUILD, user, season)
        option = "" if season is None else f" season:{season}"
        script.shown(f"answer to {NAMES[user]}: /cascadia leaderboard{option}", answer)

    script.step("before any game")
    await stats(ADA)
    await server()
    await leaderboard(ADA)
    script.step("Bob joins the league, Ada turns it on and joins, Cy joins and leaves")
    await league(BOB, "join")
    await league(ADA, "on", can_manage=True)
    await league(ADA, "join")
    await league(ADA, "join")
    await league(CY, "join")
    await league(CY, "leave")

    table = Table(service, script, NAMES)
    await table.start(ADA, BOB, cards="ABCDA")
    await table.play_to_end()
    script.step("the first game is over")
    await leaderboard(BOB)
    table = Table(service, script, NAMES, channel=11)
    await table.start(ADA, BOB, CY)
    await table.play_to_end(seed=2)

    script.step("both games are over")
    await stats(ADA)
    await stats(BOB)
    await stats(CY, everywhere=True)
    await server()
    await leaderboard(CY)
    await league(ADA, "season", can_manage=True)
    await leaderboard(ADA)
    await leaderboard(ADA, season=1)
    assert_matches_golden(GOLDEN / "standings.txt", script.text())
