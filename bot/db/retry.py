"""Background work that waits out the database: tried again with backoff while the database is
unavailable (its server restarting, its disk full), instead of failing or filling the log.

The outbox drain, the reminder check and the computer turns run through :func:`when_available`.
Requests from users do not: they are answered at once that the database is not answering (see
:mod:`bot.shell.errors`). The store's log says once that the database fails and once that it works
again; this module adds one line per piece of work that waited.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.db.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_WAIT = 0.5
"""Seconds before the first retry; doubled on each failure up to :data:`LONGEST_WAIT`."""
LONGEST_WAIT = 30.0
"""The longest wait between two tries: a database that is back is found within this."""


async def when_available(
    work: Callable[[], Awaitable[T]],
    *,
    what: str,
    first: float = FIRST_WAIT,
    longest: float = LONGEST_WAIT,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> T:
    """Run ``work`` until it is done without :class:`DatabaseUnavailable`, waiting between
    tries (``first`` seconds, doubled each time up to ``longest``), and return what it returns.

    ``work`` is run again from its start, so it must be safe to repeat: the store's writes
    are (a write that failed changed nothing; one whose answer was lost meets its revision
    check). Any other error is raised; cancelling stops the wait.
    """
    wait = first
    waited = False
    while True:
        try:
            result = await work()
        except DatabaseUnavailable as error:
            if not waited:
                log.info("%s waits for the database: %s", what, error)
            waited = True
            await sleep(wait)
            wait = min(wait * 2, longest)
            continue
        if waited:
            log.info("%s goes on: the database works again", what)
        return result
