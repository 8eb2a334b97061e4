"""The hourly pass that forgets old sent messages, on both backends: a batch a transaction until
none is left, then nothing more until an hour has passed."""

from __future__ import annotations

from datetime import timedelta

from bot.game.rows import OutboxMessage
from bot.retention.forgetting import KEEP_SENT, Forgetting, Pass
from bot.stores import Store
from tests.bot.clocks import FakeClock


class Monotonic:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.seconds = 100.0

    def __call__(self) -> float:
        return self.seconds


async def _sent_messages(store: Store, channel: int, count: int) -> None:
    """A lobby ended with ``count`` messages, all posted."""
    game = await store.create_lobby(1, channel, 7, "Ada", "A")
    rows = [OutboxMessage(kind="end", payload='{"text": "bye"}') for _ in range(count)]
    ended = await store.end_game(game.id, outbox_messages=rows)
    for outbox_id in ended.outbox_ids:
        await store.mark_sent(outbox_id, 9000 + outbox_id)


async def test_a_pass_forgets_in_batches_then_waits_an_hour(store: Store, clock: FakeClock) -> None:
    await _sent_messages(store, 100, 7)
    clock.advance(KEEP_SENT + timedelta(minutes=1))
    hours = Monotonic()
    forgetting = Forgetting(store, clock, clock=hours, batch=3)

    assert await forgetting.run() == Pass(forgotten=7)
    assert await store.forget_sent(clock.now, limit=100) == 0

    await _sent_messages(store, 200, 2)
    clock.advance(KEEP_SENT + timedelta(minutes=1))
    hours.seconds += 3599
    assert await forgetting.run() == Pass(), "a second pass within the hour"
    hours.seconds += 1
    assert await forgetting.run() == Pass(forgotten=2)
