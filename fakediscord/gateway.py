"""The gateway websocket: HELLO, heartbeats, IDENTIFY, RESUME and member requests.

The sequence a discord.py client goes through:

* on connect the server sends op 10 HELLO with ``heartbeat_interval``, and answers every op 1
  HEARTBEAT with op 11 HEARTBEAT_ACK :data:`HEARTBEAT_ACK_DELAY` later, as after a round trip
  to Discord;
* op 2 IDENTIFY with a wrong token is closed with 4004 (discord.py raises ``LoginFailure``),
  with privileged intents the application is not allowed with 4014
  (``PrivilegedIntentsRequired``), with a ``shard`` that is not ``[id, count]`` with
  ``0 <= id < count`` with 4010 (Invalid shard), and without a ``shard`` when the server wants
  more than one with 4011 (Sharding required); otherwise READY lists the session's guilds as
  unavailable, with the ``session_id`` and a ``resume_gateway_url`` pointing back here, and a
  full GUILD_CREATE per guild follows. A session with shard ``[id, count]`` has the guilds
  with ``(guild_id >> 22) % count == id``, and only their events (direct messages: shard 0);
* op 6 RESUME with a known session replays the events after the client's ``seq`` and sends
  RESUMED; an unknown session gets op 9 INVALID_SESSION ``false`` (identify afresh);
* op 8 REQUEST_GUILD_MEMBERS is answered with one GUILD_MEMBERS_CHUNK.

Frames go out as text JSON: discord.py asks for zlib-stream compression but only inflates
binary frames, so plain text frames need no compression at all.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import json
import secrets
import traceback

from aiohttp import WSMsgType, web

from fakediscord.protocol import JSON, PRIVILEGED_INTENTS
from fakediscord.recorder import Recorder
from fakediscord.sessions import Connection, Session
from fakediscord.world import World

__all__ = ["HEARTBEAT_ACK_DELAY", "Gateway"]

HEARTBEAT_ACK_DELAY = 0.05
"""Seconds from a HEARTBEAT to its HEARTBEAT_ACK: a round trip to Discord.

discord.py's keep-alive thread records a heartbeat's send time only once the send has
completed on the event loop; an instant local ack is often taken before that, against the
previous send, and then reads as a latency of the whole interval ("Can't keep up, shard ID 0
websocket is 41.3s behind" at every heartbeat).
"""


class Gateway:
    """The websocket side of the server for one bot token.

    ``url`` is the address clients connect to (sent as ``resume_gateway_url``).
    """

    def __init__(
        self,
        world: World,
        recorder: Recorder,
        *,
        token: str,
        privileged_intents: int,
        heartbeat_interval_ms: int,
    ) -> None:
        self.world = world
        self.recorder = recorder
        self.token = token
        self.privileged_intents = privileged_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""
        self.identify_count = 0
        self.resume_count = 0
        self.connections: set[Connection] = set()

    async def close(self) -> None:
        """Close every open connection with 1001 and stop the writers."""
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.close(1001, "server shutting down")
            conn.writer.cancel()

    @property
    def connected(self) -> bool:
        """Whether a bot session is identified (or resumed) on a live websocket."""
        return any(c.ready for c in self.connections)

    @property
    def live_shards(self) -> set[tuple[int, int] | None]:
        """The shards, as (id, count), that a session is live for (``None``: an unsharded
        session, which gets every guild's events)."""
        return {s.shard for s in self.world.sessions.values() if s.live}

    def serves(self, guild_id: int | None) -> bool:
        """Whether a live session gets the events of ``guild_id`` (``None``: outside any
        guild, which shard 0 gets)."""
        return any(s.live and s.owns(guild_id) for s in self.world.sessions.values())

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot session is live on the gateway."""
        await self.recorder.wait_for(
            lambda: self.connected, timeout=timeout, what="a live gateway session"
        )

    async def wait_serving(self, guild_id: int | None, timeout: float = 5.0) -> None:
        """Wait until a session that gets the events of ``guild_id`` is live (while the
        process running that shard restarts, say)."""
        await self.recorder.wait_for(
            lambda: self.serves(guild_id),
            timeout=timeout,
            what=f"a live gateway session for guild {guild_id}",
        )

    async def drop(self, code: int = 4000) -> int:
        """Close every gateway websocket with ``code`` (4000 makes discord.py resume).

        Returns how many connections were closed.
        """
        conns = [c for c in self.connections if not c.ws.closed]
        for conn in conns:
            await conn.close(code, "dropped by test")
        self.recorder.bump()
        return len(conns)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Serve one gateway websocket until it closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        conn.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_message(conn, json.loads(msg.data))
        except Exception:
            self.recorder.crashes.append(
                f"server gateway handler failed:\n{traceback.format_exc()}"
            )
            raise
        finally:
            conn.detach()
            self.connections.discard(conn)
            self.recorder.bump()
        return ws

    async def _on_message(self, conn: Connection, msg: JSON) -> None:
        op, data = msg.get("op"), msg.get("d") or {}
        if op == 1:
            conn.send_later(HEARTBEAT_ACK_DELAY, 11, None)
        elif op == 2:
            await self._identify(conn, data)
        elif op == 6:
            await self._resume(conn, data)
        elif op == 8:
            self._request_members(conn, data)

    async def _identify(self, conn: Connection, data: JSON) -> None:
        if data.get("token") not in (self.token, f"Bot {self.token}"):
            await conn.close(4004, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return
        try:
            shard = _shard(data.get("shard"))
        except ValueError:
            await conn.close(4010, "Invalid shard.")
            return
        if shard is None and self.world.shard_count > 1:
            await conn.close(4011, "Sharding required.")
            return
        session = Session(secrets.token_hex(16), intents, shard)
        self.world.sessions[session.id] = session
        session.conn, conn.session = conn, session
        self.identify_count += 1
        guilds = [guild for guild in self.world.guilds.values() if session.owns(guild.id)]
        ready: JSON = {
            "v": 10,
            "user": {
                **self.world.directory.user_payload(self.world.bot_user_id),
                "verified": True,
                "flags": 0,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self.world.directory.guild_payload(guild))
        conn.ready = True
        self.recorder.bump()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        session = self.world.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") not in (self.token, f"Bot {self.token}"):
            conn.send(9, False)
            return
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000, "session resumed elsewhere")
        last_seen = int(data.get("seq") or 0)
        for seq, text in session.history:
            if seq > last_seen:
                conn.queue.put_nowait(text)
        session.conn, conn.session = conn, session
        session.dispatch("RESUMED", {})  # discord.py writes a key into this dict
        conn.ready = True
        self.resume_count += 1
        self.recorder.bump()

    def _request_members(self, conn: Connection, data: JSON) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None or conn.session is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            self.world.directory.member_payload(guild, uid)
            for uid in guild.members
            if (uid in wanted if wanted else self.world.users[uid].name.lower().startswith(query))
        ]
        if limit := int(data.get("limit") or 0):
            members = members[:limit]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _shard(value: object) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` as (id, count), ``None`` when absent; ``ValueError`` when it is
    not ``[id, count]`` with ``0 <= id < count``."""
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(type(part) is int for part in value)
        and 0 <= value[0] < value[1]
    ):
        return value[0], value[1]
    raise ValueError(f"invalid shard {value!r}")
