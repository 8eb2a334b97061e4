"""Golden transcript of the daily trek (see :mod:`tests.bot.golden`): the daily channel's
posts, an attempt that counts from its start to its par note, a second member's, practice,
and the boards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import game_service
from bot.daily.service import DailyTrek
from bot.game import messages
from bot.game.service import GameService
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock
from tests.bot.golden import Transcript
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GUILD, DAILY_CHANNEL = 10, 777
ADA, BEA = 101, 102
NAMES = {ADA: "Ada", BEA: "Bea"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 20, tzinfo=UTC))


def dm(user: int) -> int:
    """The channel of the user's attempts (their direct messages with the bot)."""
    return 5_000 + user


async def play_out(service: GameService, script: Transcript, user: int, *, seed: int) -> None:
    """The user plays their open attempt to its end with the ``fast`` player's moves
    (``seed`` breaks its ties, so that two attempts differ)."""
    while True:
        loaded = await service.game(dm(user))
        script.clock.advance(timedelta(minutes=3))
        move = Move.from_actions(choose(loaded.require_state(), "fast", seed=seed))
        script.step(f"{NAMES[user]} plays `{move}`")
        await service.turns.play(dm(user), user_id=user, move=move)
        await script.posts()
        if (await service.game_by_id(loaded.game.id)).require_state().is_over:
            return


async def test_the_daily_trek_of_two_members_and_the_boards(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock)
    trek = DailyTrek(service)
    script = Transcript(
        sqlite_store,
        clock,
        title="The daily trek of 2026-12-02: Ada's attempt, Bea's, Ada's practice, the boards",
        source=request.node.nodeid,
    )
    script.step("Ada names the server's daily channel, the evening before")
    await trek.set_channel(GUILD, DAILY_CHANNEL, user_id=ADA)
    await trek.queue_posts()
    await script.posts()
    clock.now = datetime(2026, 12, 2, 9, tzinfo=UTC)
    script.step("the daily posts check, the next morning")
    await trek.queue_posts()
    await script.posts()
    day = trek.today()
    script.shown(
        "answer to Bea: /cascadia daily action:board", await trek.board_answer(GUILD, day, BEA)
    )

    for seed, user in enumerate((ADA, BEA), start=1):
        script.step(f"{NAMES[user]} starts the daily trek")
        await trek.start(guild_id=GUILD, channel_id=dm(user), user_id=user, name=NAMES[user])
        await script.posts()
        if user == ADA:
            script.shown(
                "answer to Ada: /cascadia mygames",
                messages.my_games_message(await service.lookups.my_games(ADA)),
            )
        await play_out(service, script, user, seed=seed)
        script.shown(
            f"answer to {NAMES[user]}: /cascadia daily action:board",
            await trek.board_answer(GUILD, day, user),
        )

    script.step("Ada starts the daily trek again")
    await trek.start(guild_id=GUILD, channel_id=dm(ADA), user_id=ADA, name="Ada")
    await script.posts()
    await play_out(service, script, ADA, seed=3)

    clock.now = datetime(2026, 12, 3, 9, tzinfo=UTC)
    script.step("the daily posts check, the next morning")
    await trek.queue_posts()
    await script.posts()
    assert_matches_golden(GOLDEN / "daily.txt", script.text())
