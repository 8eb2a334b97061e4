"""Old messages forgotten: once an hour, the rows of messages posted more than a week ago that
nothing reads any more (see :meth:`bot.store.Store.forget_sent`), a batch a transaction so
that no command waits long; the outbox drain then gives their space back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import timedelta

from bot.store import Clock, Store

log = logging.getLogger(__name__)

KEEP_SENT = timedelta(days=7)
"""How long a posted message's row is kept before it is forgotten (what is still read is kept
for good)."""
FORGET_SECONDS = 3600.0
"""How often the rows past :data:`KEEP_SENT` are looked for."""
FORGET_BATCH = 1000
"""Rows forgotten a transaction."""


class Forgetting:
    """Forgets the store's old sent messages, at most once every :data:`FORGET_SECONDS`."""

    def __init__(
        self,
        store: Store,
        now: Clock,
        *,
        clock: Callable[[], float] = time.monotonic,
        batch: int = FORGET_BATCH,
    ) -> None:
        """``now`` is the bot's clock (what a week is counted on); ``clock`` times the hours
        between passes; ``batch`` rows are forgotten a transaction."""
        self.store = store
        self.now = now
        self.clock = clock
        self.batch = batch
        self._last: float | None = None

    async def run(self) -> int:
        """Forget what was posted before a week ago, if the last pass was an hour ago or
        more (the first pass: at once); returns how many rows were forgotten."""
        started = self.clock()
        if self._last is not None and started - self._last < FORGET_SECONDS:
            return 0
        before = self.now() - KEEP_SENT
        forgotten = 0
        while (batch := await self.store.forget_sent(before, limit=self.batch)) > 0:
            forgotten += batch
            if batch < self.batch:
                break
            await asyncio.sleep(0)  # let commands in between batches
        self._last = started
        if forgotten:
            log.info("forgot %d messages posted before %s", forgotten, before.isoformat())
        return forgotten
