"""Locks by key: one block at a time per key, keys apart run side by side, and a key's lock is
forgotten once nobody holds or waits for it, however they leave."""

from __future__ import annotations

import asyncio

import pytest

from bot.ops.locks import KeyedLocks


async def test_one_block_at_a_time_per_key_and_nothing_kept_after() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []
    first_in, other_done, release = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            order.append("first in")
            first_in.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with locks.hold(1):
            order.append("second in")

    async def other_key() -> None:
        await first_in.wait()
        async with locks.hold(2):
            order.append("other key")
        other_done.set()

    tasks = [asyncio.create_task(job()) for job in (first, second, other_key)]
    await other_done.wait()
    assert order == ["first in", "other key"]
    assert len(locks) == 1, "key 1 is held and waited for; key 2 is done with"
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "other key", "first out", "second in"]
    assert len(locks) == 0


async def test_a_waiter_cancelled_or_a_block_that_raises_leaves_nothing() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    held, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with locks.hold("ada"):
            held.set()
            await release.wait()
            raise RuntimeError("the block failed")

    async def waiter() -> None:
        async with locks.hold("ada"):
            raise AssertionError("never gets in")

    holding = asyncio.create_task(holder())
    await held.wait()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    with pytest.raises(RuntimeError, match="the block failed"):
        await holding
    assert len(locks) == 0
    await locks.wait_idle()
