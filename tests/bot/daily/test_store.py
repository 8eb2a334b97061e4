"""The daily trek's rows on every backend: attempts counted once a day, the day's entries of a
server and of everyone, the days a member played, and each daily post queued once, also by two
processes at the same moment."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.daily.store import AttemptCounted, DailyStart
from bot.game.errors import ChannelBusy
from bot.game.rows import GameStatus, SeatResult
from bot.stores import Store, open_store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import START, message

CLOCK_START = START

GUILD, OTHER = 10, 20
ADA, BEA, CY = 1, 2, 3
NAMES = {ADA: "Ada", BEA: "Bea", CY: "Cy"}


async def begin(
    store: Store, user: int, day: str, *, counted: bool = True, guild: int = GUILD
) -> DailyStart:
    """Start the user's attempt at ``day`` in a channel of their own (one per attempt)."""
    channel = 1_000 * user + len(await store.games_for_user(user, statuses=tuple(GameStatus)))
    return await store.start_daily(
        guild_id=guild,
        channel_id=channel,
        user_id=user,
        name=NAMES[user],
        day=day,
        counted=counted,
        cards="ABCDA",
        state_json='{"turn": 0}',
        outbox_messages=[message("start", "the daily trek")],
        turn_started_at=START,
    )


async def finish(store: Store, started: DailyStart, score: int, corridor: int = 5) -> None:
    """The attempt's last move, with its seat's result."""
    game = started.game
    result = SeatResult(
        game_id=game.id, seat=0, guild_id=game.guild_id, user_id=game.host_id,
        name=NAMES[game.host_id], computer=None, handed_over=False, players=1, cards="ABCDA",
        score=score, rank=1, nature_tokens=0, tokens_used=0, wildlife={}, habitats={},
        corridor=corridor, turn_seconds=(), rated=False, season=1, finished_at=START,
    )  # fmt: skip
    await store.commit_move(
        game.id,
        game.revision,
        user_id=game.host_id,
        action_text="take 1 1; tile 1,0 0; token return",
        new_state_json='{"turn": 1}',
        new_status=GameStatus.FINISHED,
        outbox_messages=[],
        turn_started_at=START,
        next_reminder_at=None,
        results=[result],
    )


async def test_an_attempt_is_a_game_in_play_with_its_seat_and_first_message(store: Store) -> None:
    started = await begin(store, ADA, "2026-12-02")
    game = started.game
    assert (game.status, game.guild_id, game.host_id, game.cards) == (
        GameStatus.ACTIVE, GUILD, ADA, "ABCDA",
    )  # fmt: skip
    assert (game.reminder_hours, game.next_reminder_at, game.turn_started_at) == (0, None, START)
    assert [(s.seat, s.user_id, s.name) for s in await store.seats(game.id)] == [(0, ADA, "Ada")]
    [row] = await store.pending()
    assert row.id in started.outbox_ids
    assert row.game_id == game.id
    assert row.channel_id == game.channel_id
    attempt = await store.daily_attempt(game.id)
    assert attempt is not None
    assert (attempt.user_id, attempt.day, attempt.counted) == (ADA, "2026-12-02", True)
    assert await store.open_attempt(ADA) == attempt
    assert await store.daily_attempt(game.id + 1) is None


async def test_one_counted_attempt_a_day_and_practice_besides(store: Store) -> None:
    counted = await begin(store, ADA, "2026-12-02")
    with pytest.raises(AttemptCounted):
        await begin(store, ADA, "2026-12-02")
    practice = await begin(store, ADA, "2026-12-02", counted=False)
    assert not practice.counted
    assert (await begin(store, ADA, "2026-12-03")).counted
    assert (await begin(store, BEA, "2026-12-02")).counted
    found = await store.counted_attempt(ADA, "2026-12-02")
    assert found is not None
    assert found.game_id == counted.game.id


async def test_a_start_in_a_busy_channel_writes_nothing(store: Store) -> None:
    lobby = await store.create_lobby(GUILD, 77, BEA, "Bea", "random")
    with pytest.raises(ChannelBusy):
        await store.start_daily(
            guild_id=GUILD, channel_id=77, user_id=ADA, name="Ada", day="2026-12-02",
            counted=True, cards="ABCDA", state_json="{}", outbox_messages=[],
            turn_started_at=START,
        )  # fmt: skip
    assert await store.counted_attempt(ADA, "2026-12-02") is None
    assert await store.get_active_game(77) == lobby


async def test_the_days_entries_are_the_finished_counted_attempts_best_first(
    store: Store,
) -> None:
    ada = await begin(store, ADA, "2026-12-02")
    bea = await begin(store, BEA, "2026-12-02", guild=OTHER)
    cy = await begin(store, CY, "2026-12-02")
    await finish(store, ada, 80, corridor=4)
    await finish(store, bea, 90)
    await finish(store, cy, 80, corridor=9)
    practice = await begin(store, ADA, "2026-12-02", counted=False)
    await finish(store, practice, 120)
    await begin(store, ADA, "2026-12-03")
    everyone = await store.daily_entries("2026-12-02", guild_id=None)
    assert [(e.user_id, e.score, e.corridor) for e in everyone] == [
        (BEA, 90, 5), (CY, 80, 9), (ADA, 80, 4),
    ]  # fmt: skip
    here = await store.daily_entries("2026-12-02", guild_id=GUILD)
    assert [e.user_id for e in here] == [CY, ADA]
    assert {e.guild_id for e in here} == {GUILD}
    assert await store.daily_entries("2026-12-03", guild_id=None) == []


async def test_the_days_played_are_those_of_finished_counted_attempts(store: Store) -> None:
    for day in ("2026-12-01", "2026-12-02"):
        await finish(store, await begin(store, ADA, day), 70)
    await finish(store, await begin(store, ADA, "2026-12-02", counted=False), 70)
    await begin(store, ADA, "2026-12-03")
    assert await store.daily_days(ADA) == ["2026-12-01", "2026-12-02"]
    assert await store.daily_days(BEA) == []


async def test_a_daily_channel_holds_its_posts_under_an_anchor(store: Store) -> None:
    assert await store.daily_channel(GUILD) is None
    assert await store.queue_daily_post(GUILD, "2026-12-02", "morning", message("m")) is None
    named = await store.set_daily_channel(GUILD, 55, user_id=ADA)
    anchor = await store.get_game(named.anchor_game_id)
    assert anchor is not None
    assert (anchor.status, anchor.guild_id) == (GameStatus.ENDED, GUILD)
    assert await store.seats(anchor.id) == []
    first = await store.queue_daily_post(GUILD, "2026-12-02", "morning", message("m"))
    assert first is not None
    assert await store.queue_daily_post(GUILD, "2026-12-02", "morning", message("m")) is None
    moved = await store.set_daily_channel(GUILD, 56, user_id=BEA)
    assert moved.anchor_game_id == named.anchor_game_id
    board = await store.queue_daily_post(GUILD, "2026-12-02", "board", message("b"))
    rows = {row.id: row for row in await store.pending()}
    assert board is not None
    assert [rows[first].channel_id, rows[board].channel_id] == [55, 56]
    assert {rows[first].game_id, rows[board].game_id} == {anchor.id}
    assert await store.daily_channels() == [moved]


@pytest.fixture
async def stores(database: str, clock: FakeClock) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on the same database, as two processes have."""
    async with open_store(database, now=clock) as first, open_store(database, now=clock) as second:
        yield first, second


async def test_two_processes_queue_a_daily_post_once(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    await first.set_daily_channel(GUILD, 55, user_id=ADA)
    for day in range(5):
        clock.advance(timedelta(days=1))
        found = await asyncio.gather(
            *(
                store.queue_daily_post(GUILD, f"2026-12-0{day + 1}", "board", message("b"))
                for store in (first, second, first, second)
            )
        )
        assert len([outbox_id for outbox_id in found if outbox_id is not None]) == 1, found
    assert len(await first.pending()) == 5
