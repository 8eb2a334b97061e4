"""The REST API under ``/api/v10`` and the CDN under ``/cdn``.

Routes modelled (``{app}`` is the application id, which is the bot user's id):

* login: ``GET /users/@me`` (401 without ``Authorization: Bot <token>``) and
  ``GET /oauth2/applications/@me``; ``GET /gateway`` and ``/gateway/bot``;
* command sync: ``GET|PUT /applications/{app}/commands`` and
  ``/applications/{app}/guilds/{guild}/commands`` (a bulk overwrite; a command keeps its id
  when its name and type stay);
* interactions: ``POST /interactions/{id}/{token}/callback``, ``POST /webhooks/{app}/{token}``
  (followups) and ``GET|PATCH|DELETE /webhooks/{app}/{token}/messages/{@original|id}``, which
  authenticate by the interaction token alone (see :mod:`fakediscord.interactions`);
* channels: ``GET /channels/{c}`` (a thread with its ``thread_metadata``), ``DELETE
  /channels/{c}`` (Manage Threads for a thread, Manage Channels for a channel), history,
  ``POST`` messages (with an enforced ``nonce`` answered by the earlier message instead of a
  second one; into an archived thread: reopening it, or 400 50083 when it is locked),
  ``GET|PATCH|DELETE`` a message (ephemeral messages are not reachable here: 10008 Unknown
  Message; an edit in an archived thread is 400 50083), typing;
* threads: ``POST /channels/{c}/threads`` (a thread without a message: private, type 12, by
  default as on API v9+, or public, type 11; Create Private or Public Threads needed;
  ``auto_archive_duration`` 60, 1440, 4320 or 10080), ``PATCH /channels/{thread}`` (``name``,
  ``archived``, ``locked``, ``auto_archive_duration``: the owner may change an unlocked
  thread's name, duration and archived, anyone who may send there only reopen it, and
  locking, unlocking or touching a locked thread needs Manage Threads; an archived thread
  takes only a PATCH that reopens it, 400 50083 otherwise; PATCH of a channel that is not a
  thread is unmodelled) and ``PUT|DELETE /channels/{thread}/thread-members/{u|@me}`` (Send
  Messages in Threads to add someone; a private thread that is not ``invitable`` takes new
  members only from its owner or a moderator; removing someone else needs Manage Threads
  or, in a private thread, being its owner; an archived thread is 400 50083);
* users and members: ``POST /users/@me/channels`` (open a DM; a post there to a user who
  refuses DMs is 403 50007 Cannot send messages to this user), ``GET /users/{u}``,
  ``GET /guilds/{g}/members/{u}``.

Every JSON answer has the Content-Type exactly ``application/json``. Errors are Discord's JSON
``{"code", "message"}`` with Discord's codes. Any other route answers 404 and is recorded in
``unhandled``, so a test can insist the bot used nothing the server does not model. The CDN
serves attachments by id and a 1x1 PNG for every other path (avatars, icons).
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Awaitable, Callable

from aiohttp import web

from fakediscord.directory import ARCHIVED_THREAD, check_thread_fields
from fakediscord.faults import Faults
from fakediscord.interactions import Interactions
from fakediscord.model import CommandSync, RequestRecord
from fakediscord.protocol import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM_CHANNEL,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    PNG,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    THREAD_TYPES,
    VIEW_CHANNEL,
    ApiError,
    json_response,
    read_body,
)
from fakediscord.recorder import Recorder
from fakediscord.world import World

__all__ = ["RestApi"]

_Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]


class RestApi:
    """The REST routes and the CDN, for one bot token.

    ``gateway_url`` is what ``GET /gateway`` answers (set once the server has its address).
    """

    def __init__(
        self,
        world: World,
        recorder: Recorder,
        faults: Faults,
        interactions: Interactions,
        *,
        token: str,
    ) -> None:
        self.world = world
        self.recorder = recorder
        self.faults = faults
        self.interactions = interactions
        self.token = token
        self.gateway_url = ""
        self._nonces: dict[tuple[int, int, str], int] = {}
        #: Channel posts answered with an earlier message because their nonce was enforced.
        self.nonce_replays = 0
        self._routes = self._route_table()

    def _route_table(self) -> list[tuple[str, re.Pattern[str], bool, _Handler]]:
        webhook_message = "/webhooks/{app}/{token}/messages/{msg}"
        channel_message = "/channels/{channel}/messages/{msg}"
        gpd = ("GET", "PATCH", "DELETE")
        # (method, path, needs bot auth, handler); interaction webhooks authenticate by token.
        # fmt: off
        table: list[tuple[str, str, bool, _Handler]] = [
            ("GET", "/users/@me", True, self._get_me),
            ("GET", "/oauth2/applications/@me", True, self._get_app),
            ("GET", "/gateway", False, self._get_gateway),
            ("GET", "/gateway/bot", True, self._get_gateway),
            ("GET", "/applications/{app}/commands", True, self._get_commands),
            ("PUT", "/applications/{app}/commands", True, self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", True, self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", True, self._put_commands),
            ("POST", "/interactions/{ix}/{token}/callback", False, self.interactions.callback),
            ("POST", "/webhooks/{app}/{token}", False, self.interactions.followup),
            *[(m, webhook_message, False, self.interactions.webhook_message) for m in gpd],
            ("GET", "/channels/{channel}", True, self._get_channel),
            ("PATCH", "/channels/{channel}", True, self._patch_channel),
            ("DELETE", "/channels/{channel}", True, self._delete_channel),
            ("GET", "/channels/{channel}/messages", True, self._history),
            ("POST", "/channels/{channel}/messages", True, self._post_message),
            *[(m, channel_message, True, self._channel_message) for m in gpd],
            ("POST", "/channels/{channel}/typing", True, self._typing),
            ("POST", "/channels/{channel}/threads", True, self._create_thread),
            ("PUT", "/channels/{channel}/thread-members/{user}", True, self._thread_member),
            ("DELETE", "/channels/{channel}/thread-members/{user}", True, self._thread_member),
            ("POST", "/users/@me/channels", True, self._open_dm),
            ("GET", "/users/{user}", True, self._get_user),
            ("GET", "/guilds/{guild}/members/{user}", True, self._get_member),
        ]
        # fmt: on
        return [
            (method, re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)), auth, handler)
            for method, path, auth, handler in table
        ]

    async def handle_api(self, request: web.Request) -> web.StreamResponse:
        """Serve one request under /api/v10, after any hold or injected fault."""
        path = "/" + request.match_info["tail"]
        hold = self.faults.take_hold(request.method, path)
        if (
            hold is not None
            and not hold.after
            and not await self.faults.wait_held(request, path, hold)
        ):
            return web.Response(status=499)  # nobody is listening any more
        response: web.StreamResponse | None = self.faults.take_fault(request.method, path)
        if response is None:
            response = await self._route(request, path)
        if hold is not None and hold.after and not await self.faults.wait_held(request, path, hold):
            return web.Response(status=499)
        record = RequestRecord(
            request.method,
            path,
            response.status,
            request.query_string,
            request.content_length or 0,
        )
        self.recorder.requests.append(record)
        self.recorder.bump()
        return response

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        params: dict[str, str] = {}
        try:
            for method, pattern, auth, handler in self._routes:
                if method == request.method and (match := pattern.fullmatch(path)):
                    params = match.groupdict()
                    if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                        raise ApiError(401, 0, "401: Unauthorized")
                    return await handler(request, params)
            self.recorder.unhandled.append(
                RequestRecord(request.method, path, 404, request.query_string)
            )
            raise ApiError(404, 0, "404: Not Found")
        except ApiError as e:
            if (ix := self.world.interactions_by_token.get(params.get("token", ""))) is not None:
                ix.errors.append((e.status, e.code))
            return json_response({"code": e.code, "message": e.message}, e.status)
        except Exception:
            # A server bug must fail the test, not look like a Discord error the bot handles.
            self.recorder.crashes.append(
                f"server failed on {request.method} {path}:\n{traceback.format_exc()}"
            )
            return json_response({"code": 0, "message": "test server bug"}, 400)

    async def handle_cdn(self, request: web.Request) -> web.StreamResponse:
        """Serve an attachment by id, or the 1x1 PNG for any other CDN path."""
        parts = request.match_info["tail"].split("/")
        if len(parts) == 4 and parts[0] == "attachments" and parts[2].isdigit():
            for m in self.world.messages:
                for a in m.attachments:
                    if a.id == int(parts[2]):
                        return web.Response(body=a.data, headers={"Content-Type": a.content_type})
        return web.Response(body=PNG, headers={"Content-Type": "image/png"})

    # ---------------------------------------------------------------------- REST handlers

    async def _typing(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self.world.channel(p["channel"])
        self._require(ch.id, SEND_MESSAGES_IN_THREADS if ch.type in THREAD_TYPES else SEND_MESSAGES)
        return web.Response(status=204)

    async def _get_me(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return json_response(
            {**self.world.directory.user_payload(self.world.bot_user_id), "verified": True}
        )

    async def _get_app(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        bot = self.world.directory.user_payload(self.world.bot_user_id)
        # fmt: off
        return json_response({
            "id": str(self.world.application_id), "name": bot["username"], "description": "",
            "icon": None, "bot_public": False, "bot_require_code_grant": False, "owner": bot,
            "verify_key": "0" * 64, "flags": 0, "team": None, "bot": bot, "summary": "",
            "interactions_endpoint_url": None,  # non-null makes discord.py warn
        })
        # fmt: on

    async def _get_gateway(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        shards = self.world.shard_count
        return json_response(
            {"url": self.gateway_url, "shards": shards, "session_start_limit": limit}
        )

    def _command_scope(self, p: dict[str, str]) -> int | None:
        if int(p["app"]) != self.world.application_id:
            raise ApiError(404, 10002, "Unknown Application")
        if "guild" not in p:
            return None
        if int(p["guild"]) not in self.world.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return int(p["guild"])

    async def _get_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return json_response(self.world.commands.get(self._command_scope(p), []))

    async def _put_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        scope = self._command_scope(p)
        body = await request.json()
        old = {(c["name"], c["type"]): c["id"] for c in self.world.commands.get(scope, [])}
        stored = []
        for cmd in body:
            ctype = int(cmd.get("type", 1))
            stored.append(
                {
                    "description": "",
                    "options": [],
                    "default_member_permissions": None,
                    "nsfw": False,
                    **cmd,
                    "type": ctype,
                    # Discord keeps a command's id across overwrites when name and type match.
                    "id": old.get((cmd["name"], ctype)) or str(self.world.next_id()),
                    "application_id": str(self.world.application_id),
                    "version": str(self.world.next_id()),
                    **({"guild_id": str(scope)} if scope is not None else {}),
                }
            )
        self.world.commands[scope] = stored
        self.world.command_syncs.append(CommandSync(scope, stored))
        return json_response(stored)

    def _require(self, channel_id: int, needed: int) -> None:
        """Refuse a request about ``channel_id`` unless the bot holds ``needed`` there: 403
        Missing Access without View Channel, else 403 Missing Permissions."""
        perms = self.world.directory.channel_permissions(channel_id, self.world.bot_user_id)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if perms & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")

    async def _get_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self.world.channel(p["channel"])
        self._require(ch.id, VIEW_CHANNEL)
        return json_response(self.world.directory.channel_payload(ch))

    async def _patch_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self.world.channel(p["channel"])
        if ch.type not in THREAD_TYPES:
            # Only threads are modelled here; a channel's own settings are not.
            self.recorder.unhandled.append(
                RequestRecord(request.method, "/channels/" + p["channel"], 404, "")
            )
            raise ApiError(404, 0, "404: Not Found")
        body, _files = await read_body(request)
        name = None if body.get("name") is None else str(body["name"])
        duration = body.get("auto_archive_duration")
        duration = None if duration is None else int(duration)
        archived = None if body.get("archived") is None else bool(body["archived"])
        locked = None if body.get("locked") is None else bool(body["locked"])
        check_thread_fields(name, duration)
        self._require(ch.id, VIEW_CHANNEL)
        bot = self.world.bot_user_id
        perms = self.world.directory.channel_permissions(ch.id, bot)
        moderator = bool(perms & MANAGE_THREADS)
        # Discord: Manage Threads, or the thread's owner changing name, archived and duration
        # of an unlocked thread; reopening an unlocked thread needs only Send Messages (in
        # Threads); locking and unlocking, or anything on a locked thread, is for moderators.
        only_reopens = archived is False and name is None and duration is None and locked is None
        if not moderator and (
            locked is not None
            or ch.locked
            or (ch.owner_id != bot and not (only_reopens and perms & SEND_MESSAGES_IN_THREADS))
        ):
            raise ApiError(403, 50013, "Missing Permissions")
        if ch.archived and archived is not False:
            # "Requires the thread to have archived set to false or be set to false."
            raise ApiError(400, 50083, ARCHIVED_THREAD)
        self.world.directory.update_thread(
            ch.id, name=name, archived=archived, locked=locked, auto_archive_duration=duration
        )
        return json_response(self.world.directory.channel_payload(ch))

    async def _delete_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self.world.channel(p["channel"])
        if ch.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(ch.id, MANAGE_THREADS if ch.type in THREAD_TYPES else MANAGE_CHANNELS)
        payload = self.world.directory.channel_payload(ch)
        self.world.directory.delete_channel(ch.id)
        return json_response(payload)

    async def _history(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self.world.channel(p["channel"])
        self._require(ch.id, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        q = request.query
        limit = min(int(q.get("limit", 50)), 100)
        before, after = int(q.get("before", 1 << 63)), int(q.get("after", 0))
        found = [
            m
            for m in self.world.messages
            if m.channel_id == ch.id and not m.deleted and not m.ephemeral and after < m.id < before
        ]
        # Discord returns newest first; with only `after` it pages from the oldest side.
        found = found[:limit] if "after" in q and "before" not in q else found[-limit:]
        return json_response([self.world.messaging.message_payload(m) for m in reversed(found)])

    async def _post_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body, files = await read_body(request)
        channel = self.world.channel(p["channel"])
        send = SEND_MESSAGES_IN_THREADS if channel.type in THREAD_TYPES else SEND_MESSAGES
        self._require(channel.id, send | (ATTACH_FILES if files else 0))
        recipient = self.world.users.get(channel.recipient_id or 0)
        if channel.type == DM_CHANNEL and recipient is not None and not recipient.accepts_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        enforced = body.get("nonce") is not None and bool(body.get("enforce_nonce"))
        key = (channel.id, self.world.bot_user_id, str(body.get("nonce")))
        # Like Discord: a repeated enforced nonce gets the earlier message, none is created.
        if enforced and (earlier := self.world.messages_by_id.get(self._nonces.get(key, 0))):
            self.nonce_replays += 1
            return json_response(self.world.messaging.message_payload(earlier))
        m = self.world.messaging.create_message(channel.id, self.world.bot_user_id, body, files)
        if enforced:
            self._nonces[key] = m.id
        return json_response(self.world.messaging.message_payload(m))

    async def _channel_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        # Reading one message back is reading history, as Discord has it.
        needed = VIEW_CHANNEL | (READ_MESSAGE_HISTORY if request.method == "GET" else 0)
        self._require(self.world.channel(p["channel"]).id, needed)
        m = self.world.messaging.visible_message(p["channel"], p["msg"])
        if request.method == "DELETE":
            self.world.messaging.delete_message(m)
            return web.Response(status=204)
        if request.method == "PATCH":
            if m.author_id != self.world.bot_user_id:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
            body, files = await read_body(request)
            self.world.messaging.edit_message(m, body, files)
        return json_response(self.world.messaging.message_payload(m))

    async def _create_thread(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        parent = self.world.channel(p["channel"])
        if parent.guild_id is None or parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body, _files = await read_body(request)
        kind = int(body.get("type") or PRIVATE_THREAD)
        name = str(body.get("name") or "")
        duration = int(body.get("auto_archive_duration") or 1440)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(400, 50035, f"Invalid Form Body: type {kind} is not a thread type")
        check_thread_fields(name, duration)
        private = kind == PRIVATE_THREAD
        self._require(parent.id, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        tid = self.world.directory.add_thread(
            parent.id,
            name,
            owner=self.world.bot_user_id,
            private=private,
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=duration,
        )
        return json_response(self.world.directory.channel_payload(self.world.channels[tid]), 201)

    async def _thread_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        thread = self.world.channel(p["channel"])
        if thread.type not in THREAD_TYPES or thread.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        bot = self.world.bot_user_id
        raw = p["user"]
        uid = bot if raw == "@me" else int(raw) if raw.isdigit() else 0
        if uid not in self.world.users:
            raise ApiError(404, 10013, "Unknown User")
        if uid not in self.world.guilds[thread.guild_id].members:
            raise ApiError(404, 10007, "Unknown Member")
        perms = self.world.directory.channel_permissions(thread.id, bot)
        owner = thread.owner_id == bot
        if perms & VIEW_CHANNEL and thread.archived:
            # Joining, adding and removing all need the thread open, as Discord has it.
            raise ApiError(400, 50083, ARCHIVED_THREAD)
        if request.method == "PUT":
            self._require(thread.id, SEND_MESSAGES_IN_THREADS)
            closed = thread.type == PRIVATE_THREAD and not thread.invitable
            if closed and uid != bot and not owner and not perms & MANAGE_THREADS:
                raise ApiError(403, 50013, "Missing Permissions")
            self.world.directory.add_thread_member(thread.id, uid)
        else:
            self._require(thread.id, VIEW_CHANNEL)
            own_private = owner and thread.type == PRIVATE_THREAD
            if uid != bot and not own_private and not perms & MANAGE_THREADS:
                raise ApiError(403, 50013, "Missing Permissions")
            self.world.directory.remove_thread_member(thread.id, uid)
        return web.Response(status=204)

    async def _open_dm(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        uid = int((await request.json())["recipient_id"])
        if uid not in self.world.users:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(
            self.world.directory.channel_payload(
                self.world.channels[self.world.directory.dm_channel(uid)]
            )
        )

    async def _get_user(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        if not p["user"].isdigit() or int(p["user"]) not in self.world.users:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(self.world.directory.user_payload(int(p["user"])))

    async def _get_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        guild = self.world.guild(p["guild"])
        if not p["user"].isdigit() or int(p["user"]) not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self.world.directory.member_payload(guild, int(p["user"])))
