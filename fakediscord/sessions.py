"""Gateway sessions and the websocket connections they are delivered through.

A session outlives its connection: events dispatched while no connection is attached stay in
its history and are replayed on RESUME. Each dispatch gets the session's next sequence number
at the moment it is queued, and one writer task per connection sends in queue order, so the
client sees ``s`` grow by one in the order the server dispatched.
"""

from __future__ import annotations

import asyncio
import collections
import json
from typing import Any

from aiohttp import web

from fakediscord.protocol import JSON

__all__ = ["Connection", "Session", "shard_of"]


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard, out of ``count``, whose connection gets the events of ``guild_id``; events
    outside any guild (direct messages) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


class Session:
    """One identified gateway session: its intents, shard, sequence number and replay history.

    ``shard`` is the ``[id, count]`` the client identified with (``None``: unsharded, every
    guild). A guild belongs to shard ``(guild_id >> 22) % count``; direct messages to shard 0.
    """

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.conn: Connection | None = None
        self.history: collections.deque[tuple[int, str]] = collections.deque(maxlen=2000)

    def dispatch(self, event: str, data: JSON) -> None:
        """Send (or keep for a resume) the op 0 dispatch ``event``."""
        # The sequence number is assigned here, synchronously, so order follows call order.
        self.seq += 1
        text = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.history.append((self.seq, text))
        if self.conn is not None:
            self.conn.queue.put_nowait(text)

    def owns(self, guild_id: int | None) -> bool:
        """Whether events of ``guild_id`` (``None``: outside any guild) come to this session."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id

    @property
    def live(self) -> bool:
        """Whether the session is identified or resumed on an open connection."""
        return self.conn is not None and self.conn.ready


class Connection:
    """One gateway websocket and the task that writes to it in order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.ready = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while (text := await self.queue.get()) is not None:
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def send(self, op: int, data: Any) -> None:
        """Queue a non-dispatch opcode (HELLO, HEARTBEAT_ACK, INVALID_SESSION)."""
        self.queue.put_nowait(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def send_later(self, delay: float, op: int, data: Any) -> None:
        """Queue a non-dispatch opcode ``delay`` seconds from now (HEARTBEAT_ACK)."""
        asyncio.get_running_loop().call_later(delay, self.send, op, data)

    def detach(self) -> None:
        """Leave the session (it keeps its history) and stop the writer."""
        if self.session is not None and self.session.conn is self:
            self.session.conn = None
        self.ready = False
        self.queue.put_nowait(None)

    async def close(self, code: int, message: str = "") -> None:
        """Detach, then close the websocket with ``code``."""
        self.detach()
        await self.ws.close(code=code, message=message.encode())
