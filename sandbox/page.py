"""The sandbox's web page: a small Discord app for pretend players, served by aiohttp.

The page shows one channel, or the player's direct messages with the bot, as one player sees
it and acts as that player through the local server's user API, so the bot receives exactly
the interactions Discord would send: slash commands (with autocomplete while typing), button
clicks and select choices. What a player sees is a :func:`view` of the server's messages:
everything public in the channel, plus the private answers to that player's own interactions.
``/events`` streams that view (server-sent events) each time it changes; the page itself is
static HTML, CSS and JavaScript from ``sandbox/web``.

Only the page itself may use it: a request must name the page's own address as its
``Host`` (another name is a DNS rebinding page reading the world), and a POST must come from
the page's own origin and carry JSON (another site's form or ``text/plain`` post would play
as any pretend player). A request refused, or one the page would never send, is answered
with a short JSON error and one line in the log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web

from fakediscord import JSON, DiscordServer, InteractionHandle, MessageRecord

__all__ = ["Sandbox", "make_app", "view"]

log = logging.getLogger("sandbox.page")

ANSWER_TIMEOUT = 5.0
"""How long the page waits for the bot's first answer before saying the interaction failed
(Discord's own limit is 3 seconds)."""
SETTLE_TIMEOUT = 20.0
"""How long the page waits for the bot's whole answer to a command (pictures are drawn first)
before it leaves the typed options in the composer as they are."""
_KEEPALIVE = 15.0
_HTTP_PORT = 80
_PUBLIC_THREAD = 11
"""Discord's channel type of a public thread."""
_STATIC = {
    "": ("index.html", "text/html"),
    "app.js": ("app.js", "text/javascript"),
    "style.css": ("style.css", "text/css"),
}


@dataclass(frozen=True)
class Sandbox:
    """The pretend world the page shows: one guild, its channels and its players, of whom
    ``managers`` may manage the server (Manage Server and Manage Channels)."""

    server: DiscordServer
    guild: int
    channels: tuple[int, ...]
    players: tuple[int, ...]
    managers: tuple[int, ...] = ()

    def dm(self, player: int) -> int:
        """The id of ``player``'s direct-message channel with the bot (made on first use)."""
        return self.server.dm_channel(player)

    def threads(self) -> tuple[int, ...]:
        """The public threads of the server's channels (those the bot opens for its tables),
        oldest first, archived ones too: anyone may open them, as on Discord."""
        return tuple(
            c.id
            for c in self.server.channels.values()
            if c.type == _PUBLIC_THREAD and c.parent_id in self.channels
        )

    def sees(self, player: int) -> tuple[int, ...]:
        """The channels ``player`` may open: the server's, their threads and the player's own
        DMs with the bot."""
        return (*self.channels, *self.threads(), self.dm(player))

    def holds(self, channel: int) -> bool:
        """Whether ``channel`` is one of the page's: a server channel, a public thread of one
        or a player's DMs."""
        found = self.server.channels.get(channel)
        dms = found is not None and found.guild_id is None and found.recipient_id in self.players
        return channel in self.channels or channel in self.threads() or dms

    def places(self) -> JSON:
        """The server's channels and their threads as the page lists them: id, name, and a
        thread's parent and whether it is archived."""
        server = self.server
        return {
            "channels": [{"id": str(c), "name": server.channels[c].name} for c in self.channels],
            "threads": [
                {
                    "id": str(t),
                    "name": server.channels[t].name,
                    "parent": str(server.channels[t].parent_id),
                    "archived": server.channels[t].archived,
                }
                for t in self.threads()
            ],
        }


def _invoker(server: DiscordServer, message: MessageRecord) -> int | None:
    """Who made the interaction that ``message`` answers, if it answers one."""
    ix = server.world.interactions_by_id.get(message.interaction_id or 0)
    return None if ix is None else ix.user_id


def _walk(components: Iterable[JSON]) -> Iterable[JSON]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))


def _rows(message: MessageRecord) -> list[JSON]:
    """The message's action rows: a layout's are inside its container (its pictures are its
    attachments, listed with their alt text)."""
    if not message.components_v2:
        return message.components
    return [c for c in _walk(message.components) if c.get("type") == 1]


def _message(server: DiscordServer, message: MessageRecord, viewer: int) -> JSON:
    author = server.users[message.author_id]
    ix = server.world.interactions_by_id.get(message.interaction_id or 0)
    invoker = None if ix is None else ix.user_id
    command = None
    if ix is not None and ix.type == 2:
        command = {"user": server.users[ix.user_id].name, "name": ix.name}
    attachments = [
        {
            "url": f"/files/{message.id}/{a.id}/{a.filename}",
            "filename": a.filename,
            "description": a.description or a.filename,
            "image": a.content_type.startswith("image/"),
        }
        for a in message.attachments
    ]
    shown: JSON = {
        "id": str(message.id),
        "author": author.name,
        "bot": author.bot,
        # A Components V2 message says its words in text displays.
        "content": message.text,
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "mentioned": viewer in message.mentions or viewer in message.notified,
        "edited": message.edited_at is not None,
        "command": command,
        "mine": invoker == viewer,
        "attachments": attachments,
        "embeds": [
            {"title": e.get("title", ""), "description": e.get("description", "")}
            for e in message.embeds
        ],
        "components": _rows(message),
    }
    shown["rev"] = hashlib.sha1(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]
    return shown


def view(sandbox: Sandbox, channel: int, viewer: int) -> JSON:
    """What ``viewer`` sees of ``channel`` (a server channel or their own DMs with the bot):
    its messages in order (the private ones only if they answer ``viewer``), the players, the
    channels and their threads, ``viewer``'s DM channel, and who the newest ping was for."""
    server = sandbox.server
    messages = [
        m
        for m in server.channel_messages(channel, include_ephemeral=True)
        if not m.ephemeral or _invoker(server, m) == viewer
    ]
    public = [m for m in messages if not m.ephemeral and m.author_id == server.bot_user_id]
    pinged = sorted(public[-1].notified) if public else []
    return {
        "bot": server.users[server.bot_user_id].name,
        "bot_id": str(server.bot_user_id),
        "me": str(viewer),
        "channel": str(channel),
        "players": [
            {
                "id": str(u),
                "name": server.users[u].name,
                "pinged": u in pinged,
                "manager": u in sandbox.managers,
            }
            for u in sandbox.players
        ],
        **sandbox.places(),
        "dm": str(sandbox.dm(viewer)),
        "guild": str(sandbox.guild),
        "connected": server.connected,
        "messages": [_message(server, m, viewer) for m in messages],
    }


def commands(sandbox: Sandbox) -> list[JSON]:
    """The chat-input commands the bot synced (for the guild or globally), flattened to one
    entry per invocable path (``cascadia play``), each with its options as Discord's app lists
    them."""
    found: list[JSON] = []

    def visit(path: list[str], description: str, options: list[JSON]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            found.append({"path": path, "description": description, "options": options})
        for sub in subs:
            visit([*path, sub["name"]], sub.get("description", ""), sub.get("options") or [])

    synced = sandbox.server.commands
    for command in [*synced.get(sandbox.guild, []), *synced.get(None, [])]:
        if command.get("type", 1) == 1:
            visit([command["name"]], command.get("description", ""), command.get("options") or [])
    return found


class _Refused(Exception):
    """A request the page answers with ``status`` and a short reason, logged in one line."""

    status: int


class _BadRequest(_Refused):
    """A request the page should never send (unknown player, channel or message; a body
    that is not JSON)."""

    status = 400


class _OtherSite(_Refused):
    """A POST from a page of another origin: only the page's own script may play."""

    status = 403


class _NotThisPage(_Refused):
    """A ``Host`` that is not the page's own address.

    421 Misdirected Request rather than 403: the request is not refused for who sent it but
    because it names a site this server does not serve (RFC 9110, 15.5.20), which is what a
    page of another name reaching 127.0.0.1 through DNS rebinding does."""

    status = 421


class _NotJSON(_Refused):
    """A POST whose body is not declared JSON (a form or ``text/plain``, which any other
    site's page may send without asking)."""

    status = 415


def _own_hosts(request: web.Request) -> set[str]:
    """The ``Host`` values that name the page: its address and ``localhost``, each with the
    port the request came in on (which a browser leaves out when it is 80)."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not sockname:
        return set()
    address, port = sockname[0], sockname[1]
    names = {f"[{address}]" if ":" in address else address, "localhost"}
    return {f"{name}:{port}" for name in names} | (names if port == _HTTP_PORT else set())


def _check_sender(request: web.Request) -> None:
    """Refuse a request that does not come from the page itself (see the module docstring)."""
    host = request.headers.get("Host", "").lower()
    if host not in _own_hosts(request):
        raise _NotThisPage(f"this page does not answer to the name {host[:80]!r}")
    if request.method in ("GET", "HEAD"):
        return
    origin = request.headers.get("Origin")
    if origin is not None and origin.lower() != f"http://{host}":
        raise _OtherSite(f"a request from another site ({origin[:80]!r})")
    # Another port of this machine is the same site but another origin: refused as well.
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        raise _OtherSite("a request from another site")
    if request.content_type != "application/json":
        raise _NotJSON("expected Content-Type: application/json")


@web.middleware
async def _guard(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Answer a refused request with its status and ``{"ok": false, "error": ...}``."""
    try:
        _check_sender(request)
        return await handler(request)
    except _Refused as refusal:
        log.warning(
            "refused %s %s (%d): %s",
            request.method,
            request.raw_path[:80],
            refusal.status,
            refusal,
        )
        return web.json_response({"ok": False, "error": str(refusal)}, status=refusal.status)


def _int(body: Mapping[str, Any], key: str, allowed: Iterable[int] | None = None) -> int:
    try:
        value = int(body[key])
    except (KeyError, TypeError, ValueError, OverflowError):  # Overflow: 1e400 is infinity
        raise _BadRequest(f"{key} is missing or not a number") from None
    if allowed is not None and value not in allowed:
        raise _BadRequest(f"unknown {key} {value}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


async def _body(request: web.Request) -> JSON:
    """The request's JSON object. Whatever ``json`` cannot read (malformed, not UTF-8, nested
    too deep, a number too long) and ``NaN`` or ``Infinity`` are refused as a bad request."""
    try:
        data = await request.read()
    except ConnectionResetError:
        raise _BadRequest("the connection closed before the whole body came") from None
    try:
        body = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        reason = (str(error) or type(error).__name__).splitlines()[0][:120]
        raise _BadRequest(f"the body is not JSON: {reason}") from None
    if not isinstance(body, dict):
        raise _BadRequest("expected a JSON object")
    return body


async def _answered(server: DiscordServer, handle: InteractionHandle) -> JSON:
    """Wait for the bot's first answer; a refusal or silence becomes the words Discord's app
    shows."""
    try:
        record = await handle.response(timeout=ANSWER_TIMEOUT)
    except AssertionError:
        return {"ok": False, "error": "The application did not respond"}
    if record.expired or record.callback_type is None:
        return {"ok": False, "error": "This interaction failed"}
    return {"ok": True}


async def _shown_to_all(
    server: DiscordServer, handle: InteractionHandle, channel: int, since: int
) -> bool:
    """Whether the bot's answer to a command showed the channel something new: a public
    message posted before its answer was complete. A private answer alone (a refusal, a
    preview) shows nothing to the others."""

    def settled() -> bool:
        message = handle.message
        return message is not None and not message.loading

    # A bot that never completes its answer leaves its placeholder thinking; the options stay.
    with contextlib.suppress(AssertionError):
        await server.wait_for(settled, timeout=SETTLE_TIMEOUT, what="the bot's whole answer")
    return any(
        m.channel_id == channel
        and m.author_id == server.bot_user_id
        and not m.ephemeral
        and not m.deleted
        for m in server.messages[since:]
    )


def make_app(sandbox: Sandbox) -> web.Application:
    """The page's aiohttp application."""
    server = sandbox.server
    players = sandbox.players

    def route(
        act: Callable[[JSON], Awaitable[JSON]],
    ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            body = await _body(request)
            try:
                return web.json_response(await act(body))
            except (LookupError, ValueError) as error:
                # Discord's app refuses such input before any bot sees it; so does the page.
                return web.json_response({"ok": False, "error": str(error)})

        return handle

    def message_of(body: JSON, user: int) -> MessageRecord:
        message = server.messages_by_id.get(_int(body, "message"))
        if message is None or message.deleted or message.channel_id not in sandbox.sees(user):
            raise _BadRequest("unknown message")
        if message.ephemeral and _invoker(server, message) != user:
            raise _BadRequest("unknown message")
        return message

    def path_and_options(body: JSON) -> tuple[list[str], dict[str, Any]]:
        path, options = body.get("path"), body.get("options") or {}
        if not isinstance(path, list) or not all(isinstance(p, str) for p in path) or not path:
            raise _BadRequest("path must be a list of names")
        if not isinstance(options, dict):
            raise _BadRequest("options must be an object")
        return path, {str(k): v for k, v in options.items() if v not in ("", None)}

    def user_and_channel(body: Mapping[str, Any]) -> tuple[int, int]:
        user = _int(body, "user", players)
        return user, _int(body, "channel", sandbox.sees(user))

    async def slash(body: JSON) -> JSON:
        user, channel = user_and_channel(body)
        path, options = path_and_options(body)
        since = len(server.messages)
        handle = await server.slash(user, channel, *path, options=options)
        answer = await _answered(server, handle)
        if answer["ok"]:
            # The page empties the composer after a command the channel saw, not after a
            # refusal, so that a mistyped move can be fixed and sent again.
            answer["shown"] = await _shown_to_all(server, handle, channel, since)
        return answer

    async def autocomplete(body: JSON) -> JSON:
        user, channel = user_and_channel(body)
        path, options = path_and_options(body)
        focused = str(body.get("focused", ""))
        options[focused] = str((body.get("options") or {}).get(focused) or "")
        try:
            choices = await server.autocomplete(
                user, channel, *path, options=options, focused=focused, timeout=ANSWER_TIMEOUT
            )
        except AssertionError:
            return {"ok": False, "error": "Loading options failed", "choices": []}
        return {"ok": True, "choices": choices}

    async def click(body: JSON) -> JSON:
        user = _int(body, "user", players)
        message = message_of(body, user)
        handle = await server.click(user, message, str(body.get("custom_id", "")))
        return await _answered(server, handle)

    async def select(body: JSON) -> JSON:
        user = _int(body, "user", players)
        message = message_of(body, user)
        values = body.get("values")
        if not isinstance(values, list):
            raise _BadRequest("values must be a list")
        handle = await server.select(
            user, message, str(body.get("custom_id", "")), [str(v) for v in values]
        )
        return await _answered(server, handle)

    async def command_list(request: web.Request) -> web.StreamResponse:
        return web.json_response(commands(sandbox))

    async def world(request: web.Request) -> web.StreamResponse:
        return web.json_response(
            {
                "players": [
                    {
                        "id": str(u),
                        "name": server.users[u].name,
                        "dm": str(sandbox.dm(u)),
                        "manager": u in sandbox.managers,
                    }
                    for u in players
                ],
                **sandbox.places(),
            }
        )

    async def state(request: web.Request) -> web.StreamResponse:
        user, channel = user_and_channel(request.query)
        return web.json_response(view(sandbox, channel, user))

    async def events(request: web.Request) -> web.StreamResponse:
        user, channel = user_and_channel(request.query)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        sent = ""
        # Until the page goes away (or the sandbox stops).
        with contextlib.suppress(ConnectionResetError):
            while True:
                text = json.dumps(view(sandbox, channel, user))
                if text != sent:
                    await response.write(f"data: {text}\n\n".encode())
                    sent = text
                if not await server.next_change(_KEEPALIVE):
                    await response.write(b": still here\n\n")
        return response

    async def file(request: web.Request) -> web.StreamResponse:
        message = server.messages_by_id.get(_int(request.match_info, "message"))
        if message is None or not sandbox.holds(message.channel_id):
            raise web.HTTPNotFound()
        for attachment in message.attachments:
            if str(attachment.id) == request.match_info["attachment"]:
                return web.Response(
                    body=attachment.data,
                    content_type=attachment.content_type,
                    headers={"Cache-Control": "max-age=86400, immutable"},
                )
        raise web.HTTPNotFound()

    def static(name: str, content_type: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        text = resources.files("sandbox").joinpath("web", name).read_text(encoding="utf-8")

        async def serve(request: web.Request) -> web.Response:
            return web.Response(text=text, content_type=content_type)

        return serve

    app = web.Application(middlewares=[_guard])
    for path, (name, content_type) in _STATIC.items():
        app.router.add_get(f"/{path}", static(name, content_type))
    app.router.add_get("/api/world", world)
    app.router.add_get("/api/commands", command_list)
    app.router.add_get("/api/state", state)
    app.router.add_get("/events", events)
    app.router.add_get("/files/{message:\\d+}/{attachment:\\d+}/{name}", file)
    app.router.add_post("/api/slash", route(slash))
    app.router.add_post("/api/autocomplete", route(autocomplete))
    app.router.add_post("/api/click", route(click))
    app.router.add_post("/api/select", route(select))
    return app


async def serve(sandbox: Sandbox, *, port: int) -> tuple[web.AppRunner, int]:
    """Serve the page on 127.0.0.1:``port`` (0: any free port); returns the runner (to clean
    up) and the port."""
    runner = web.AppRunner(make_app(sandbox), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    return runner, int(runner.addresses[0][1])
