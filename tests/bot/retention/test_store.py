"""Forgetting the sent messages nothing reads any more, on both backends: old posted rows go,
while what is still to post, a game's final message, its latest turn message and its move log
stay, whatever their age."""

from __future__ import annotations

from datetime import timedelta

from bot.game.rows import GameRow, GameStatus
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import message, move, started

WEEK = timedelta(days=7)


async def _sent(store: Store, ids: tuple[int, ...] | list[int], first: int) -> None:
    """Mark the rows posted, as messages ``first``, ``first + 1``..."""
    for n, outbox_id in enumerate(ids):
        await store.mark_sent(outbox_id, first + n)


async def _game(store: Store, game_id: int) -> GameRow:
    found = await store.get_game(game_id)
    assert found is not None
    return found


async def test_old_sent_messages_are_forgotten_and_what_is_read_stays(
    store: Store, clock: FakeClock
) -> None:
    game = await started(store)
    done = await started(store, channel=300)
    [start, finished_start] = [row.id for row in await store.pending()]
    await _sent(store, [start, finished_start], 5000)
    turns: list[int] = []
    for turn in range(3):
        current = await _game(store, game.id)
        result = await move(
            store, current, state=f'{{"turn": {turn + 1}}}', messages=[message("turn")]
        )
        turns.extend(result.outbox_ids)
    await _sent(store, turns, 6000)
    ended = await store.end_game(done.id, outbox_messages=[message("finish", "the end")])
    await _sent(store, ended.outbox_ids, 7000)
    clock.advance(WEEK + timedelta(hours=1))
    unsent = (await move(store, await _game(store, game.id), messages=[message("turn")])).outbox_ids

    # Forgotten: the first game's start and its first two turns. Kept: its latest turn, the
    # other game's start (its latest turn message) and final message, and what is unsent.
    assert await store.forget_sent(clock.now - WEEK, limit=1) == 1
    assert await store.forget_sent(clock.now - WEEK) == 2
    assert await store.forget_sent(clock.now - WEEK) == 0

    assert [row.id for row in await store.pending()] == list(unsent)
    latest = await store.latest_turn_message(game.id)
    assert latest is not None
    assert latest.id == turns[-1]
    assert await store.latest_message(game.id) == 6002
    assert await store.final_messages([done.id]) == {done.id: 7000}
    assert await store.latest_message(done.id) == 5001
    assert len(await store.moves(game.id)) == 4
    finished = await store.get_game(done.id)
    assert finished is not None
    assert finished.status is GameStatus.ENDED


async def test_messages_sent_within_the_week_stay(store: Store, clock: FakeClock) -> None:
    game = await started(store)
    [start] = [row.id for row in await store.pending()]
    await _sent(store, [start], 5000)
    result = await move(store, game, messages=[message("turn"), message("ping")])
    await _sent(store, result.outbox_ids, 6000)
    clock.advance(WEEK - timedelta(hours=1))
    assert await store.forget_sent(clock.now - WEEK) == 0
    clock.advance(timedelta(hours=2))
    # The start and the ping go; the latest turn message stays.
    assert await store.forget_sent(clock.now - WEEK) == 2
    latest = await store.latest_turn_message(game.id)
    assert latest is not None
    assert latest.id == result.outbox_ids[0]
