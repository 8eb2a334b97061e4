"""What is kept of old games and messages: once an hour, the rows of messages posted more than
a week ago that nothing reads any more are forgotten (see :meth:`bot.stores.Store.forget_sent`),
then the games finished (or ended) more than a week ago are packed for good (see
:meth:`bot.stores.Store.compact_finished`), a batch a transaction so that no command waits long;
the outbox drain then gives their space back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.game.store import GameStore as Store
from bot.ops.clock import Clock

log = logging.getLogger(__name__)

KEEP_SENT = timedelta(days=7)
"""How long a posted message's row is kept before it is forgotten (what is still read is kept
for good)."""
KEEP_UNPACKED = timedelta(days=7)
"""How long a game over stays as it was played before it is packed: its last change is this
old (nothing a user sees changes; the move log and the final record stay for good)."""
FORGET_SECONDS = 3600.0
"""How often the rows past :data:`KEEP_SENT` and the games past :data:`KEEP_UNPACKED` are
looked for."""
FORGET_BATCH = 1000
"""Rows forgotten a transaction."""
PACK_BATCH = 20
"""Games packed a transaction (each some 50 move rows read, written once and deleted)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """What one hourly pass did."""

    forgotten: int = 0
    """Rows of sent messages forgotten."""
    packed: int = 0
    """Games over packed for good."""


class Forgetting:
    """Forgets the store's old sent messages and packs its old games over, at most once every
    :data:`FORGET_SECONDS`."""

    def __init__(
        self,
        store: Store,
        now: Clock,
        *,
        clock: Callable[[], float] = time.monotonic,
        batch: int = FORGET_BATCH,
        games: int = PACK_BATCH,
    ) -> None:
        """``now`` is the bot's clock (what a week is counted on); ``clock`` times the hours
        between passes; ``batch`` rows are forgotten, ``games`` games packed a transaction."""
        self.store = store
        self.now = now
        self.clock = clock
        self.batch = batch
        self.games = games
        self._last: float | None = None

    async def run(self) -> Pass:
        """Forget what was posted before a week ago, then pack the games over whose last
        change was before a week ago, if the last pass was an hour ago or more (the first
        pass: at once); returns how many rows were forgotten and games packed."""
        started = self.clock()
        if self._last is not None and started - self._last < FORGET_SECONDS:
            return Pass()
        now = self.now()
        before = now - KEEP_SENT
        forgotten = await _in_batches(self.store.forget_sent, before, self.batch)
        if forgotten:
            log.info("forgot %d messages posted before %s", forgotten, before.isoformat())
        before = now - KEEP_UNPACKED
        packed = await _in_batches(self.store.compact_finished, before, self.games)
        if packed:
            log.info(
                "packed %d games over whose last change was before %s", packed, before.isoformat()
            )
        self._last = started
        return Pass(forgotten, packed)


async def _in_batches(step: Callable[..., Awaitable[int]], before: datetime, limit: int) -> int:
    """Call ``step(before, limit=limit)`` until a call does less than ``limit``, letting
    commands in between; returns the total it did."""
    done = 0
    while (batch := await step(before, limit=limit)) > 0:
        done += batch
        if batch < limit:
            break
        await asyncio.sleep(0)
    return done
