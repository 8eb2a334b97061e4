"""One asyncio lock per key (a member, a channel), kept only while it is in use.

A ``dict`` of locks filled with ``setdefault`` keeps a lock for every key it ever saw, for as
long as the process runs: one per member who ever opened a lobby, one per channel that ever
had a message. :class:`KeyedLocks` counts who holds or waits for each lock and forgets it when
the last of them leaves, so it holds only the keys in use at the moment.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Tasks holding the lock or waiting for it."""


class KeyedLocks(Generic[K]):
    """Locks by key: ``async with locks.hold(key):`` runs one block at a time per key."""

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    def __len__(self) -> int:
        """How many keys have a lock now (held or waited for)."""
        return len(self._entries)

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the block; the lock is forgotten once nobody holds or waits
        for it (a task cancelled while waiting counts out as well)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0 and self._entries.get(key) is entry:
                del self._entries[key]

    async def wait_idle(self) -> None:
        """Return once every block holding a lock now has ended."""
        for key in list(self._entries):
            async with self.hold(key):
                pass
