"""The archive's queries on both databases: a server's finished games newest first, one
member's, paged, and the totals kept round by round."""

from __future__ import annotations

from datetime import timedelta

from bot.game.rows import GameRow, GameStatus
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import (
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    lobby,
    move,
    started,
)


async def finished(store: Store, players: tuple[int, ...], channel: int) -> GameRow:
    game = await started(store, players, channel)
    await move(store, game, status=GameStatus.FINISHED)
    done = await store.get_game(game.id)
    assert done is not None
    assert done.status is GameStatus.FINISHED
    return done


async def test_finished_games_newest_first_of_the_server_or_of_a_member(
    store: Store, clock: FakeClock
) -> None:
    first = await finished(store, (BOB,), CHANNEL)
    clock.advance(timedelta(hours=1))
    second = await finished(store, (CAROL,), OTHER_CHANNEL)
    clock.advance(timedelta(hours=1))
    await started(store, (BOB,), CHANNEL)  # in play: not in the archive
    await lobby(store, (CAROL,), OTHER_CHANNEL)

    listed = await store.finished_games(GUILD)
    assert [g.id for g in listed] == [second.id, first.id]
    assert [g.id for g in await store.finished_games(GUILD, user_id=BOB)] == [first.id]
    assert [g.id for g in await store.finished_games(GUILD, user_id=HOST)] == [
        second.id,
        first.id,
    ]
    assert await store.finished_games(GUILD + 1) == []
    assert await store.count_finished_games(GUILD) == 2
    assert await store.count_finished_games(GUILD, user_id=CAROL) == 1
    assert await store.count_finished_games(GUILD, user_id=99) == 0


async def test_finished_games_page_by_limit_and_offset(store: Store, clock: FakeClock) -> None:
    games = []
    for _ in range(5):
        games.append(await finished(store, (BOB,), CHANNEL))
        clock.advance(timedelta(minutes=5))
    newest = [g.id for g in reversed(games)]
    assert [g.id for g in await store.finished_games(GUILD, limit=2)] == newest[:2]
    assert [g.id for g in await store.finished_games(GUILD, limit=2, offset=2)] == newest[2:4]
    assert [g.id for g in await store.finished_games(GUILD, limit=2, offset=4)] == newest[4:]


async def test_round_scores_are_kept_once(store: Store) -> None:
    game = await finished(store, (BOB,), CHANNEL)
    other = await finished(store, (CAROL,), OTHER_CHANNEL)
    assert await store.round_scores(game.id) is None
    await store.save_round_scores(game.id, [(3, 1), (7, 9), (12, 10)])
    await store.save_round_scores(other.id, [(1, 2)])
    assert await store.round_scores(game.id) == [(3, 1), (7, 9), (12, 10)]
    # A second count of the same game (another process) leaves the first one standing.
    await store.save_round_scores(game.id, [(0, 0), (0, 0), (0, 0)])
    assert await store.round_scores(game.id) == [(3, 1), (7, 9), (12, 10)]
    assert await store.round_scores(other.id) == [(1, 2)]
