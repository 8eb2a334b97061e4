"""Golden transcript of the archive (see :mod:`tests.bot.golden`): two games played to their
end, and the history of the server's finished games and of a member's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import game_service
from bot.archive.service import Archive, history_text
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.golden import Table, Transcript
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GUILD = 1
ADA, BOB, CY = 100, 200, 300
NAMES = {ADA: "Ada", BOB: "Bob", CY: "Cy"}


async def test_two_finished_games_in_the_history(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    archive = Archive(sqlite_store)
    script = Transcript(
        sqlite_store,
        clock,
        title="Archive: a two- and a three-player game (seed 5) in the server's history",
        source=request.node.nodeid,
    )

    async def history(user: int | None = None) -> None:
        whose = None if user is None else NAMES[user]
        page = await archive.history(GUILD, user_id=user, whose=whose)
        option = "" if user is None else f" user:{whose}"
        script.shown(f"answer to Ada: /cascadia history{option}", history_text(page))

    script.step("before any game")
    await history()
    table = Table(service, script, NAMES)
    await table.start(ADA, BOB, cards="ABCDA")
    await table.play_to_end()
    table = Table(service, script, NAMES, channel=11)
    await table.start(ADA, BOB, CY)
    await table.play_to_end(seed=2)
    script.step("both games are over")
    await history()
    await history(CY)
    assert_matches_golden(GOLDEN / "archive.txt", script.text())
