"""Waiting for Discord at start-up: a bot started before the network is up (or pointed at a
wrong ``DISCORD_API_BASE``) says so in one line and keeps trying, instead of exiting.

The probe is Discord's ``GET /gateway``, which needs no token: any answer with a gateway URL
means the API is there. Once it answers, logging in goes on as usual; later drops are
discord.py's own reconnecting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiohttp

log = logging.getLogger(__name__)

FIRST_DELAY = 1.0
"""Seconds before the second try; each failure doubles it, up to :data:`MAX_DELAY`."""
MAX_DELAY = 60.0
PROBE_TIMEOUT = 10.0


class Unreachable(Exception):
    """The API did not answer like Discord; the message says how."""


async def probe(api_base: str) -> None:
    """One ``GET {api_base}/gateway``; :class:`Unreachable` unless Discord answers."""
    url = f"{api_base}/gateway"
    try:
        timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT)
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url) as response,
        ):
            if response.status != 200:
                raise Unreachable(f"{url} answered HTTP {response.status}")
            data = await response.json(content_type=None)
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
        raise Unreachable(f"{url}: {_reason(error)}") from None
    if not isinstance(data, dict) or "url" not in data:
        raise Unreachable(f"{url} answered, but not like Discord's API")


async def wait_until_reachable(
    api_base: str,
    *,
    check: Callable[[str], Awaitable[None]] = probe,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> int:
    """Return once Discord answers at ``api_base``; returns how many tries failed first.

    The first failure is logged as one warning line saying what to check; the retries, with
    exponential backoff, are logged at debug level, and success after failures at info.
    """
    delay = FIRST_DELAY
    failures = 0
    while True:
        try:
            await check(api_base)
        except Unreachable as error:
            failures += 1
            if failures == 1:
                log.warning(
                    "cannot reach Discord (%s): check the network and DISCORD_API_BASE; "
                    "retrying with backoff up to every %.0fs",
                    error,
                    MAX_DELAY,
                )
            else:
                log.debug("Discord still unreachable (try %d): %s", failures, error)
            await sleep(delay)
            delay = min(delay * 2, MAX_DELAY)
            continue
        if failures:
            log.info("Discord is reachable after %d failed tries", failures)
        return failures


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer within {PROBE_TIMEOUT:.0f}s"
    text = str(error) or type(error).__name__
    return text.splitlines()[0]
