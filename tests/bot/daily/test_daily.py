"""The daily trek in the service, on both backends: one counted attempt a day and practice
after it, an attempt finished late still counting for its day, streaks, the boards hidden
until one has played, and the daily posts queued once each. What the posts and answers say
is in the golden transcript ``tests/bot/daily/golden/daily.txt``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.archive.service import Archive, NoArchivedGame
from bot.daily.service import (
    MAX_BOARD,
    AttemptOpen,
    Board,
    DailyTrek,
    NoAttempt,
    NotPlayedYet,
    board_text,
    shift,
    streak,
    streak_line,
)
from bot.daily.store import AttemptCounted, DailyEntry
from bot.game import messages
from bot.game.records import move_text, read_state
from bot.game.service import GameService
from bot.stores import Store
from engine import Day, Move, choose, daily_deal
from engine.daily import daily_seed
from tests.bot.clocks import FakeClock
from tests.bot.queued import queued as sent

START = datetime(2026, 12, 2, 9, tzinfo=UTC)
DAY = Day.parse("2026-12-02")
GUILD, OTHER_GUILD = 10, 20
ADA, BEA, CY = 101, 102, 103
NAMES = {ADA: "Ada", BEA: "Bea", CY: "Cy"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def dm(user: int) -> int:
    """A channel for the user's attempts (their direct messages in the bot)."""
    return 5_000 + user


async def start(
    service: GameService, user: int, *, guild: int = GUILD, channel: int | None = None
) -> int:
    started = await DailyTrek(service).start(
        guild_id=guild, channel_id=channel or dm(user), user_id=user, name=NAMES[user]
    )
    return started.game.id


async def play_out(service: GameService, user: int, *, channel: int | None = None) -> int:
    """Play the user's open attempt to its end with the ``fast`` player's moves; the total."""
    channel = channel or dm(user)
    while True:
        loaded = await service.game(channel)
        state = loaded.require_state()
        turn = Move.parse(move_text(choose(state, "fast", seed=1)))
        await service.turns.play(channel, user_id=user, move=turn)
        game = await service.store_as(Store).get_game(loaded.game.id)
        assert game is not None
        assert game.state is not None
        after = read_state(game.state)
        if after.is_over:
            return loaded.score_sheet(after).players[0].total


async def test_an_attempt_is_the_days_deal_in_its_own_channel(service: GameService) -> None:
    game_id = await start(service, ADA)
    other = await start(service, BEA, guild=OTHER_GUILD)
    first, second = [await service.store_as(Store).get_game(g) for g in (game_id, other)]
    assert first is not None
    assert second is not None
    assert first.channel_id == dm(ADA)
    assert first.guild_id == GUILD
    assert first.state == second.state
    state = read_state(first.state or "")
    assert state.seed == daily_seed(DAY)
    assert state.cards == daily_deal(DAY).cards
    assert first.reminder_hours == 0
    assert first.next_reminder_at is None
    message = (await sent(service.store_as(Store), "start"))[0]
    assert message.mentions == (ADA,)


async def test_one_attempt_counts_and_the_next_is_practice(service: GameService) -> None:
    counted = await start(service, ADA)
    with pytest.raises(AttemptOpen, match="not finished yet"):
        await start(service, ADA, channel=9_999)
    await play_out(service, ADA)
    practice = await start(service, ADA)
    attempts = [await service.store_as(Store).daily_attempt(g) for g in (counted, practice)]
    assert [(a.day, a.counted) for a in attempts if a] == [
        ("2026-12-02", True),
        ("2026-12-02", False),
    ]
    assert len(await sent(service.store_as(Store), "start")) == 2
    await play_out(service, ADA)
    entries = await service.store_as(Store).daily_entries("2026-12-02", guild_id=GUILD)
    assert [e.game_id for e in entries] == [counted], "practice is never on the board"


async def test_the_store_counts_one_attempt_a_day(store: Store) -> None:
    async def begin(channel: int) -> None:
        await store.start_daily(
            guild_id=GUILD,
            channel_id=channel,
            user_id=ADA,
            name="Ada",
            day="2026-12-02",
            counted=True,
            cards="ABCDA",
            state_json="{}",
            outbox_messages=[],
            turn_started_at=START,
        )

    await begin(1)
    with pytest.raises(AttemptCounted):
        await begin(2)
    assert await store.get_active_game(2) is None, "a refused start leaves nothing behind"


async def test_the_end_carries_the_record_of_the_days_deal(service: GameService) -> None:
    await start(service, ADA)
    total = await play_out(service, ADA)
    finish = (await sent(service.store_as(Store), "finish"))[-1]
    assert finish.record is not None
    assert finish.record.seed == daily_seed(DAY)
    assert any(name.endswith(".json") for name, _ in finish.files)
    assert total > 0


async def test_an_attempt_finished_after_its_day_counts_for_that_day(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await start(service, ADA)
    clock.advance(timedelta(days=1, hours=3))
    await play_out(service, ADA)
    assert [
        e.game_id for e in await service.store_as(Store).daily_entries(str(DAY), guild_id=GUILD)
    ] == [game_id]
    assert await service.store_as(Store).daily_entries(str(shift(DAY, 1)), guild_id=GUILD) == []
    # The new day's attempt is a fresh one that counts.
    started = await DailyTrek(service).start(
        guild_id=GUILD, channel_id=dm(ADA), user_id=ADA, name="Ada"
    )
    assert started.counted


async def test_boards_stay_hidden_until_one_has_played(service: GameService) -> None:
    await start(service, ADA)
    await play_out(service, ADA)
    with pytest.raises(NotPlayedYet):
        await DailyTrek(service).show(DAY, caller=BEA, user_id=ADA, name="Ada")
    await start(service, BEA)
    with pytest.raises(NotPlayedYet):
        await DailyTrek(service).show(DAY, caller=BEA, user_id=ADA, name="Ada")
    await play_out(service, BEA)
    shown = await DailyTrek(service).show(DAY, caller=BEA, user_id=ADA, name="Ada")
    assert shown.players[0].user_id == ADA
    assert shown.require_state().is_over
    with pytest.raises(NoAttempt):
        await DailyTrek(service).show(DAY, caller=BEA, user_id=CY, name="Cy")


async def test_the_board_is_the_servers_and_the_place_is_among_everyone(
    service: GameService,
) -> None:
    for user, guild in ((ADA, GUILD), (BEA, OTHER_GUILD), (CY, GUILD)):
        await start(service, user, guild=guild)
        await play_out(service, user)
    board = await DailyTrek(service).board(GUILD, DAY)
    assert {e.user_id for e in board.entries} == {ADA, CY}
    assert {e.user_id for e in board.everyone} == {ADA, BEA, CY}
    text = board_text(board, caller=CY, played=True)
    assert "of 3" in text
    assert "Bea" not in text


def test_a_streak_counts_consecutive_days_up_to_today_or_yesterday() -> None:
    today = Day.parse("2025-01-01")
    days = ["2024-12-28", "2024-12-30", "2024-12-31"]
    assert streak(days, today) == 2, "yesterday's streak holds until today is over"
    assert streak([*days, "2025-01-01"], today) == 3
    assert streak(days, Day.parse("2025-01-02")) == 0
    assert streak(["2024-02-28", "2024-02-29", "2024-03-01"], Day.parse("2024-03-01")) == 3
    assert streak_line(0) == ""
    assert streak_line(1) == "\nDaily trek: a streak of 1 day in a row."
    assert streak_line(3) == "\nDaily trek: a streak of 3 days in a row."


async def test_streaks_show_on_the_board(service: GameService, clock: FakeClock) -> None:
    for _ in range(3):
        await start(service, ADA)
        await play_out(service, ADA)
        clock.advance(timedelta(days=1))
    clock.advance(timedelta(days=-1))
    assert await DailyTrek(service).streak_of(ADA) == 3
    board = await DailyTrek(service).board(GUILD, day=DailyTrek(service).today())
    assert "streak 3 days" in board_text(board, caller=None, played=True)


async def test_daily_posts_go_out_once_each(service: GameService, clock: FakeClock) -> None:
    assert await DailyTrek(service).queue_posts() == []
    await DailyTrek(service).set_channel(GUILD, 777, user_id=ADA)
    (morning,) = await DailyTrek(service).queue_posts()
    assert await DailyTrek(service).queue_posts() == []
    await start(service, ADA)
    await play_out(service, ADA)
    posts = [a for a in await sent(service.store_as(Store)) if a.kind.startswith("daily")]
    assert [p.kind for p in posts] == ["daily-morning"]
    assert "Ada" not in posts[0].text
    row = await service.store_as(Store).get_outbox(morning)
    assert row is not None
    assert row.channel_id == 777
    clock.advance(timedelta(days=1))
    # A second process, or the bot after a restart, queues nothing twice.
    again = GameService(service.store_as(Store), now=clock)
    queued = await DailyTrek(again).queue_posts()
    assert len(queued) == 2
    assert await DailyTrek(service).queue_posts() == []
    assert await DailyTrek(GameService(service.store_as(Store), now=clock)).queue_posts() == []
    posts = [a for a in await sent(service.store_as(Store)) if a.kind.startswith("daily")]
    assert sorted(p.kind for p in posts) == ["daily-board", "daily-morning"]
    (board,) = [p for p in posts if p.kind == "daily-board"]
    assert board.text == board_text(
        await DailyTrek(service).board(GUILD, DAY), caller=None, played=True
    )


async def test_a_channel_named_today_gets_no_board_of_yesterday(
    service: GameService, clock: FakeClock
) -> None:
    clock.advance(timedelta(hours=14))
    await DailyTrek(service).set_channel(GUILD, 777, user_id=ADA)
    assert len(await DailyTrek(service).queue_posts()) == 1
    clock.advance(timedelta(hours=1))
    assert len(await DailyTrek(service).queue_posts()) == 2, (
        "the next day: its morning, and the board"
    )
    kinds = [a.kind for a in await sent(service.store_as(Store))]
    assert kinds == ["daily-morning", "daily-morning", "daily-board"]
    changed = await DailyTrek(service).set_channel(GUILD, 778, user_id=BEA)
    assert changed.channel_id == 778
    assert changed.set_by == BEA


async def test_a_turn_typed_where_one_has_no_game_plays_the_daily_trek(
    service: GameService,
) -> None:
    server_channel = 42
    assert await DailyTrek(service).turn_channel(server_channel, ADA) == server_channel
    await start(service, ADA)
    assert await DailyTrek(service).turn_channel(server_channel, ADA) == dm(ADA)
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=server_channel, user_id=BEA, name="Bea", cards=None
    )
    assert await DailyTrek(service).turn_channel(server_channel, ADA) == dm(ADA)
    await service.lobby.join(lobby.game.id, user_id=ADA, name="Ada")
    assert await DailyTrek(service).turn_channel(server_channel, ADA) == server_channel
    await play_out(service, ADA)
    assert await DailyTrek(service).turn_channel(dm(ADA), BEA) == dm(ADA)


async def test_mygames_names_the_daily_trek_instead_of_a_channel(service: GameService) -> None:
    await start(service, ADA)
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=42, user_id=ADA, name="Ada", cards=None
    )
    games = await service.lookups.my_games(ADA)
    assert {(g.channel_id, g.daily) for g in games} == {(dm(ADA), True), (42, False)}
    text = messages.my_games_message(games)
    assert f"<#{dm(ADA)}>" not in text
    assert await service.store_as(Store).daily_games([lobby.game.id]) == set()


async def test_the_archive_leaves_the_daily_treks_out(service: GameService) -> None:
    game_id = await start(service, ADA)
    await play_out(service, ADA)
    archive = Archive(service.store_as(Store))
    with pytest.raises(NoArchivedGame):
        await archive.finished(GUILD, game_id)
    assert await service.store_as(Store).finished_games(GUILD) == []
    assert await service.store_as(Store).count_finished_games(GUILD, user_id=ADA) == 0


async def test_the_standings_leave_the_daily_treks_out(service: GameService) -> None:
    await start(service, ADA)
    await play_out(service, ADA)
    assert await service.store_as(Store).guild_results(GUILD) == []
    assert await service.store_as(Store).member_results(ADA, guild_id=GUILD) == []
    assert await service.store_as(Store).member_results(ADA, guild_id=None) == []


def test_a_board_fits_in_one_message_however_long_the_names() -> None:
    entries = tuple(
        DailyEntry(
            game_id=n, guild_id=GUILD, user_id=n, name="_" * 80, day=str(DAY),
            score=100 - n, corridor=n, finished_at=START,
        )
        for n in range(1, 31)
    )  # fmt: skip
    board = Board(DAY, entries, entries, 80, {n: 5 for n in range(1, 31)})
    text = board_text(board, caller=30, played=True)
    assert len(text) <= 2000
    assert "place 30 of 30 among every player" in text
    shown = re.findall(r"^(\d+)\. ", text, re.MULTILINE)
    assert shown == [str(n) for n in range(1, len(shown) + 1)]
    assert f"…and {30 - len(shown)} more." in text
    assert len(shown) < MAX_BOARD


async def test_a_sundays_trek_is_its_solo_scenario_from_start_to_end(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 12, 6, 9, tzinfo=UTC)
    deal = daily_deal(Day.parse("2026-12-06"))
    assert deal.scenario is not None
    await start(service, ADA)
    [begun] = await sent(service.store_as(Store), "start")
    assert f"**Solo scenario {deal.scenario}**: " in begun.text
    await play_out(service, ADA)
    [ended] = await sent(service.store_as(Store), "finish")
    assert f"**Solo scenario {deal.scenario} " in ended.text
    # A weekday's trek is no scenario.
    clock.now = datetime(2026, 12, 7, 9, tzinfo=UTC)
    await start(service, BEA)
    begun_monday = (await sent(service.store_as(Store), "start"))[-1]
    assert "Solo scenario" not in begun_monday.text
