"""Sharing a finished daily attempt: the line (words first, a bar proportional to the points,
nothing of the board), and the service on both backends (its player only, once, in the daily
channel of the server it was started from)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.app import ACHIEVEMENTS
from bot.daily.service import NOWHERE, DailyTrek, NotYours
from bot.daily.share import SHARE_LABEL, bar, par_words, share_custom_id, share_line
from bot.game.errors import BotError
from bot.game.service import GameService
from bot.stores import Store
from engine import Wildlife
from tests.bot.clocks import FakeClock
from tests.bot.daily.test_daily import ADA, BEA, GUILD, OTHER_GUILD, play_out, start
from tests.bot.queued import queued as sent

START = datetime(2026, 12, 2, 9, tzinfo=UTC)
CHANNEL = 777
POINTS = {Wildlife.BEAR: 12, Wildlife.ELK: 8, Wildlife.SALMON: 0, Wildlife.HAWK: 5, Wildlife.FOX: 2}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def trek(service: GameService) -> DailyTrek:
    return DailyTrek(service, titles=dict(ACHIEVEMENTS.catalogue))


def test_the_line_says_the_day_the_score_against_par_and_the_streak_in_words_first() -> None:
    line = share_line(
        "ada", "2026-12-04", total=92, par=88, streak=3, wildlife=POINTS, counted=True
    )
    assert line == (
        "**ada**'s daily trek, 2026-12-04: 92 points, 4 over par, a 3-day streak."
        " Bear 12 🟫🟫🟫, Elk 8 🟨🟨, Salmon 0, Hawk 5 🟦, Fox 2 🟧."
    )


def test_a_bar_is_one_square_per_four_points_after_the_number() -> None:
    assert bar(Wildlife.BEAR, 0) == "Bear 0"
    assert bar(Wildlife.BEAR, 1) == "Bear 1"
    assert bar(Wildlife.BEAR, 2) == "Bear 2 🟫"
    assert bar(Wildlife.SALMON, 26) == "Salmon 26 " + "🟥" * 7
    for points in range(40):
        number, *squares = bar(Wildlife.FOX, points).split(" ")[1:]
        assert int(number) == points
        assert abs(len("".join(squares)) * 4 - points) <= 2


def test_par_in_words() -> None:
    assert [par_words(90, 88), par_words(80, 88), par_words(88, 88)] == [
        "2 over par",
        "8 under par",
        "at par",
    ]


def test_practice_says_so_and_has_no_streak() -> None:
    line = share_line("ada", "2026-12-04", total=70, par=88, streak=3, wildlife={}, counted=False)
    assert line.startswith("**ada**'s daily trek practice, 2026-12-04: 70 points, 18 under par.")
    assert "streak" not in line


def test_the_line_names_first_times_and_counts_the_rest() -> None:
    firsts = ["A", "B", "C", "D", "E"]
    line = share_line(
        "ada", "2026-12-04", total=1, par=1, streak=1, wildlife={}, counted=True, firsts=firsts
    )
    assert line.endswith(" First time: A, B, C +2 more.")


def test_a_name_cannot_mention_or_format() -> None:
    line = share_line(
        "@everyone *x*", "2026-12-04", total=1, par=1, streak=0, wildlife={}, counted=True
    )
    assert "@everyone" not in line
    assert "\\*x\\*" in line


async def test_the_final_message_carries_share(service: GameService) -> None:
    game_id = await start(service, ADA)
    await play_out(service, ADA)
    (finish,) = await sent(service.store_as(Store), "finish")
    assert (SHARE_LABEL, share_custom_id(game_id)) in finish.buttons


async def test_only_the_player_shares_once_in_the_daily_channel(service: GameService) -> None:
    game_id = await start(service, ADA)
    with pytest.raises(BotError, match="finished"):
        await trek(service).share(game_id, user_id=ADA)
    total = await play_out(service, ADA)
    assert (await trek(service).share(game_id, user_id=ADA)).answer == NOWHERE
    await trek(service).set_channel(GUILD, CHANNEL, user_id=ADA)
    await sent(service.store_as(Store))
    with pytest.raises(NotYours):
        await trek(service).share(game_id, user_id=BEA)
    shared = await trek(service).share(game_id, user_id=ADA)
    assert len(shared.outbox_ids) == 1
    row = await service.store_as(Store).get_outbox(shared.outbox_ids[0])
    assert row is not None
    assert row.channel_id == CHANNEL
    (line,) = await sent(service.store_as(Store), "daily-share")
    assert line.mentions == ()
    assert line.pictures == ()
    assert line.text.startswith(f"**Ada**'s daily trek, 2026-12-02: {total} points, ")
    assert "a 1-day streak." in line.text
    assert "First time: " in line.text, line.text
    # Spoiler-free: no coordinates, no tiles, no moves.
    assert not re.search(r"-?\d+,\s*-?\d+\)|\(\s*-?\d", line.text)
    for word in ("forest", "wetland", "river", "mountain", "prairie", "tile", "placed"):
        assert word not in line.text.lower()
    # Another process, or the bot after a restart: the same line, never a second.
    again = await trek(GameService(service.store_as(Store))).share(game_id, user_id=ADA)
    assert again.outbox_ids == ()
    assert again.answer == (
        f"You shared this daily trek already: https://discord.com/channels/{GUILD}/{CHANNEL}/"
        f"{1_000 + shared.outbox_ids[0]}"
    )
    assert await sent(service.store_as(Store), "daily-share") == []


async def test_practice_is_shared_as_practice(service: GameService) -> None:
    await start(service, ADA)
    await play_out(service, ADA)
    practice = await start(service, ADA)
    await play_out(service, ADA)
    await trek(service).set_channel(GUILD, CHANNEL, user_id=ADA)
    await sent(service.store_as(Store))
    await trek(service).share(practice, user_id=ADA)
    (line,) = await sent(service.store_as(Store), "daily-share")
    assert "daily trek practice, 2026-12-02" in line.text
    assert "First time" not in line.text, "practice earns nothing"


async def test_the_attempt_is_shared_in_the_server_it_was_started_from(
    service: GameService,
) -> None:
    game_id = await start(service, ADA, guild=OTHER_GUILD)
    await play_out(service, ADA)
    await trek(service).set_channel(GUILD, CHANNEL, user_id=ADA)
    assert (await trek(service).share(game_id, user_id=ADA)).answer == NOWHERE
    await trek(service).set_channel(OTHER_GUILD, CHANNEL + 1, user_id=ADA)
    shared = await trek(service).share(game_id, user_id=ADA)
    row = await service.store_as(Store).get_outbox(shared.outbox_ids[0])
    assert row is not None
    assert row.channel_id == CHANNEL + 1
