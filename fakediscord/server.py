"""The server as one object: start it, build a world, act as users, wait for outcomes.

:class:`DiscordServer` puts together the :class:`~fakediscord.world.World` (users, guilds,
messages), the :class:`~fakediscord.gateway.Gateway`, the :class:`~fakediscord.rest.RestApi`
with its :class:`~fakediscord.interactions.Interactions` endpoints, the injected
:class:`~fakediscord.faults.Faults`, and the :class:`~fakediscord.recorder.Recorder` every
wait goes through, and serves them over one aiohttp application. What a test calls to build
the world, act as users and inject faults is those parts' own methods, under the server's
names.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Self, TypeVar

from aiohttp import web

from fakediscord.faults import Faults
from fakediscord.gateway import Gateway
from fakediscord.interactions import Interactions
from fakediscord.model import (
    Channel,
    CommandSync,
    Guild,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    User,
)
from fakediscord.protocol import JSON, TEXTS, TextHook
from fakediscord.recorder import Recorder
from fakediscord.rest import RestApi
from fakediscord.world import World

__all__ = ["DiscordServer"]

_T = TypeVar("_T")


class DiscordServer:
    """A local Discord-compatible REST + gateway + CDN server.

    Use ``async with DiscordServer() as server`` or ``await start()`` / ``await close()``.
    The bot logs in with ``server.token``; the bot user's id is also the application id.
    """

    def __init__(
        self,
        *,
        token: str = "test-token",
        bot_name: str = "TestBot",
        ack_timeout: float = 3.0,
        privileged_intents: int = 0,
        heartbeat_interval_ms: int = 41_250,
        shard_count: int = 1,
        texts: TextHook | None = None,
        locale: str = "en-US",
    ) -> None:
        self.token = token
        self.texts = texts
        self.recorder = Recorder()
        self.recorder.summary = self._summary
        self.world = World(self.recorder, bot_name=bot_name, shard_count=shard_count)
        self.world.locale = locale
        self.gateway = Gateway(
            self.world,
            self.recorder,
            token=token,
            privileged_intents=privileged_intents,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self.faults = Faults(self.recorder)
        self.interaction_api = Interactions(
            self.world, self.recorder, self.gateway, ack_timeout=ack_timeout
        )
        self.rest = RestApi(
            self.world, self.recorder, self.faults, self.interaction_api, token=token
        )
        self._runner: web.AppRunner | None = None
        self._host = ""
        self._port = 0
        # The lists are shared, never replaced: reading them here sees every change.
        self.users: dict[int, User] = self.world.users
        self.guilds: dict[int, Guild] = self.world.guilds
        self.channels: dict[int, Channel] = self.world.channels
        self.bot_user_id = self.world.bot_user_id
        self.application_id = self.world.application_id
        self.messages: list[MessageRecord] = self.world.messages
        self.messages_by_id: dict[int, MessageRecord] = self.world.messages_by_id
        self.interactions: list[InteractionRecord] = self.world.interactions
        self.commands: dict[int | None, list[JSON]] = self.world.commands
        self.command_syncs: list[CommandSync] = self.world.command_syncs
        self.requests: list[RequestRecord] = self.recorder.requests
        self.unhandled: list[RequestRecord] = self.recorder.unhandled
        self.crashes: list[str] = self.recorder.crashes
        self.error_logs: list[str] = self.recorder.error_logs
        # Building the world, acting as users, injecting faults: the parts' own methods,
        # bound under the server's names.
        directory, messaging = self.world.directory, self.world.messaging
        self.add_user = directory.add_user
        self.add_guild = directory.add_guild
        self.add_role = directory.add_role
        self.add_member = directory.add_member
        self.remove_member = directory.remove_member
        self.add_channel = directory.add_channel
        self.delete_channel = directory.delete_channel
        self.add_thread = directory.add_thread
        self.add_thread_member = directory.add_thread_member
        self.remove_thread_member = directory.remove_thread_member
        self.archive_idle = directory.archive_idle
        self.lock_thread = directory.lock_thread
        self.set_overwrite = directory.set_overwrite
        self.set_role_permissions = directory.set_role_permissions
        self.permissions = directory.permissions
        self.channel_permissions = directory.channel_permissions
        self.dm_channel = directory.dm_channel
        self.set_accepts_dms = directory.set_accepts_dms
        self.message_payload = messaging.message_payload
        self.channel_messages = messaging.channel_messages
        self.dm_messages = messaging.dm_messages
        self.say = messaging.say
        self.slash = self.interaction_api.slash
        self.autocomplete = self.interaction_api.autocomplete
        self.click = self.interaction_api.click
        self.select = self.interaction_api.select
        self.inject_fault = self.faults.inject
        self.hold = self.faults.hold

    # ----------------------------------------------------------------- lifecycle and addresses

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> Self:
        """Start listening on ``host``:``port`` (port 0: an ephemeral one, see :attr:`port`)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app[TEXTS] = self._pass_text
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle_api)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/cdn/{tail:.*}", self.rest.handle_cdn)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        self._host, self._port = host, sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.world.cdn_base = self.cdn_base
        self.gateway.url = self.rest.gateway_url = self.gateway_url
        return self

    def _pass_text(self, key: str, text: str) -> str:
        """A text the bot sent, through :attr:`texts` if the test set one (then or since)."""
        return text if self.texts is None else self.texts(key, text)

    async def close(self) -> None:
        """Close gateway connections, stop listening and remove installed log handlers."""
        self.faults.release_all()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.recorder.release_logs()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def port(self) -> int:
        """The port listened on (0 before :meth:`start`)."""
        return self._port

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT``."""
        if not self._port:
            raise RuntimeError("DiscordServer is not started")
        return f"http://{self._host}:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (wrap it in ``yarl.URL``)."""
        return f"ws://{self.base_url.removeprefix('http://')}/gateway"

    @property
    def cdn_base(self) -> str:
        """Value for ``discord.asset.Asset.BASE``."""
        return f"{self.base_url}/cdn"

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot subprocess at this server."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_CDN_BASE": self.cdn_base,
        }

    # -------------------------------------------------------------------------- the world

    def thread_members(self, thread: int) -> set[int]:
        """The user ids of ``thread``'s members."""
        return set(self.world.channels[thread].thread_members)

    # --------------------------------------------------------------- acting as users

    @property
    def ack_timeout(self) -> float:
        """Seconds after dispatch within which an interaction callback is accepted."""
        return self.interaction_api.ack_timeout

    @ack_timeout.setter
    def ack_timeout(self, seconds: float) -> None:
        self.interaction_api.ack_timeout = seconds

    @property
    def ack_latencies(self) -> list[float]:
        """Dispatch-to-first-callback times of all answered interactions, in dispatch order."""
        return self.interaction_api.ack_latencies

    # ---------------------------------------------------------------------- gateway

    @property
    def connected(self) -> bool:
        """Whether a bot session is identified (or resumed) on a live websocket."""
        return self.gateway.connected

    @property
    def identify_count(self) -> int:
        """How many IDENTIFYs were accepted."""
        return self.gateway.identify_count

    @property
    def resume_count(self) -> int:
        """How many RESUMEs were accepted."""
        return self.gateway.resume_count

    @property
    def live_shards(self) -> set[tuple[int, int] | None]:
        """The shards, as (id, count), that a bot session is live for (``None``: an unsharded
        session); with several bot processes, which of them are connected."""
        return self.gateway.live_shards

    def serves(self, guild_id: int | None) -> bool:
        """Whether a live bot session gets the events and interactions of ``guild_id``."""
        return self.gateway.serves(guild_id)

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot session is live on the gateway."""
        await self.gateway.wait_connected(timeout)

    async def drop_gateway(self, code: int = 4000) -> int:
        """Close every gateway websocket with ``code`` (4000 makes discord.py resume).

        Returns how many connections were closed.
        """
        return await self.gateway.drop(code)

    # ---------------------------------------------------------------------- faults

    @property
    def pending_faults(self) -> int:
        """How many injected fault responses have not been served yet."""
        return self.faults.pending

    @property
    def nonce_replays(self) -> int:
        """Channel posts answered with an earlier message because their nonce was enforced."""
        return self.rest.nonce_replays

    # ---------------------------------------------------------------- waiting and diagnostics

    def record_problem(self, text: str) -> None:
        """Record a fatal client-side problem (e.g. a bot subprocess died); waits fail fast."""
        self.recorder.record_problem(text)

    def watch_task(self, task: asyncio.Task[Any], name: str = "client") -> None:
        """Record an exception ending ``task`` (e.g. ``client.start()``) as a crash."""
        self.recorder.watch_task(task, name)

    def capture_error_logs(self, logger_name: str = "discord") -> None:
        """Record ERROR log records of ``logger_name`` (discord.py only logs swallowed errors)."""
        self.recorder.capture_error_logs(logger_name)

    def describe(self, limit: int = 10) -> str:
        """A human-readable summary of recent state, for assertion messages."""
        return self.recorder.describe(limit)

    def _shards_text(self) -> str:
        shards = self.live_shards
        named = sorted(f"{s[0]}/{s[1]}" for s in shards if s is not None)
        return ",".join(named + (["all"] if None in shards else [])) or "none"

    def _summary(self, limit: int) -> str:
        lines = [
            f"gateway: connected={self.connected} live shards={self._shards_text()} "
            f"identifies={self.identify_count} "
            f"resumes={self.resume_count}; command syncs={len(self.command_syncs)}"
        ]
        lines.append(f"recent messages ({len(self.messages)} total):")
        for m in self.messages[-limit:]:
            state = " ".join(
                s for s, on in (("ephemeral", m.ephemeral), ("loading", m.loading),
                                ("deleted", m.deleted)) if on
            )  # fmt: skip
            author = self.users[m.author_id].name
            lines.append(
                f"  #{m.order} {m.id} in {m.channel_id} by {author} {state}: {m.content!r:.120}"
            )
        lines.append("recent interactions:")
        for ix in self.interactions[-limit:]:
            lines.append(
                f"  {ix.name!r} callback={ix.callback_type} followups={len(ix.followup_ids)} "
                f"errors={ix.errors}"
            )
        lines.append("recent requests: " + ", ".join(
            f"{r.method} {r.path} {r.status}" for r in self.requests[-limit:]
        ))  # fmt: skip
        if self.unhandled:
            lines.append(f"unmodelled routes: {[(r.method, r.path) for r in self.unhandled]}")
        return "\n".join(lines)

    async def wait_for(
        self, check: Callable[[], _T | None], *, timeout: float = 5.0, what: str
    ) -> _T:
        """Wait until ``check()`` returns a truthy value and return that value.

        Re-checked after every server-side change; fails fast on a recorded crash and raises
        AssertionError naming ``what`` with a summary of recent state on timeout.
        """
        return await self.recorder.wait_for(check, timeout=timeout, what=what)

    async def next_change(self, timeout: float) -> bool:
        """Wait for the next change of any kind, at most ``timeout`` seconds; returns whether
        one came."""
        return await self.recorder.next_change(timeout)

    async def guard(self, awaitable: Awaitable[_T], *, timeout: float = 5.0, what: str) -> _T:
        """Await ``awaitable`` (e.g. ``client.wait_until_ready()``) with :meth:`wait_for`'s
        timeout and crash reporting."""
        return await self.recorder.guard(awaitable, timeout=timeout, what=what)

    async def wait_for_message(
        self,
        predicate: Callable[[MessageRecord], bool],
        *,
        timeout: float = 5.0,
        what: str = "a matching message",
        since: int = 0,
    ) -> MessageRecord:
        """Wait for a (non-deleted) message with ``order >= since`` satisfying ``predicate``."""

        def check() -> MessageRecord | None:
            candidates = self.messages[since:]
            return next((m for m in candidates if not m.deleted and predicate(m)), None)

        return await self.wait_for(check, timeout=timeout, what=what)

    def assert_clean(self, *, allow_unhandled: bool = False) -> None:
        """Fail if a crash, an error log or (unless allowed) an unmodelled route was recorded."""
        problems = bool(self.crashes or self.error_logs)
        if problems or (self.unhandled and not allow_unhandled):
            raise AssertionError(f"problems recorded by the Discord test server\n{self.describe()}")
