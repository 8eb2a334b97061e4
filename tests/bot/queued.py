"""What the service queued in the outbox, read the way the bot's drain reads it."""

from __future__ import annotations

from bot.game.outbox import Announcement
from bot.stores import Store


async def queued(store: Store, kind: str | None = None) -> list[Announcement]:
    """The unsent messages (of ``kind``), and mark them sent."""
    found = []
    for row in await store.pending(500):
        await store.mark_sent(row.id, 1_000 + row.id)
        if kind is None or row.kind == kind:
            found.append(Announcement.from_row(row))
    return found
