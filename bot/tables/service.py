"""Many tables on one server: its settings, the call for players a new lobby makes, the list
of its open tables and the lobbies that close when nobody starts them.

A server's admin (Manage Server) may name a role that wants to hear of open tables: a new
lobby with a free seat mentions it once, unless its host chooses not to, and the store notes
it before the message goes out, so that no restart, edit or refresh mentions it again. A lobby
not started :data:`LOBBY_LIFETIME` after it opened closes by itself in the periodic check
(:meth:`Tables.close_stale`), with one word in its channel to the people seated; a day
before, its host is told so once.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db.errors import DatabaseUnavailable
from bot.game.errors import BotError
from bot.game.kernel import LoadedGame
from bot.game.markdown import jump_url
from bot.game.outbox import Announcement
from bot.game.rows import GameRow, Seat
from bot.game.service import GameService
from bot.tables import texts
from bot.tables.store import OpenLobby, ServerSettings, TablesStore
from engine import MAX_PLAYERS
from i18n import _, speaking

log = logging.getLogger(__name__)

LOBBY_DAYS = 3
"""How many days a lobby stays open without a start."""
LOBBY_LIFETIME = timedelta(days=LOBBY_DAYS)
WARNED_BEFORE = timedelta(days=1)
"""How long before a lobby closes its channel is told so."""
CLOSED, CLOSING = "lobby_closed", "lobby_closing"
"""The outbox kinds of the word a lobby leaves when it closes unstarted, and of the warning a
day before."""
LISTED = 5
"""How many open tables the list shows at most (the newest; the rest are counted)."""


def _anywhere(channel_id: int) -> bool:
    return True


class NotManager(BotError):
    """A member without Manage Server tried to change the server's settings."""

    def __init__(self) -> None:
        super().__init__(_("Changing the server's settings needs Manage Server."))


@dataclass(frozen=True, slots=True)
class OpenTables:
    """The server's open tables with a free seat: the newest few, and how many in all."""

    tables: tuple[OpenLobby, ...]
    total: int
    text: str


AUTO = "auto"
"""The server language that follows Discord's (the server's own, its *Primary Language*)."""


class Tables:
    """Server settings, the lobbies' call for players, open tables and lobby expiry, over a
    :class:`GameService`."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store_as(TablesStore)

    async def settings(self, guild_id: int) -> ServerSettings:
        """The server's settings."""
        return await self.store.server_settings(guild_id)

    async def language(self, guild_id: int) -> str:
        """The line that says which language the server's new games speak, and why."""
        seen, chosen = await self.store.server_language(guild_id)
        return texts.language_line(seen, chosen)

    async def choose_language(self, guild_id: int, language: str, *, can_manage: bool) -> str:
        """Write the server's new games in ``language`` (a Discord locale, or :data:`AUTO`
        for Discord's own server language); Manage Server only. The line as it is then."""
        if not can_manage:
            raise NotManager()
        await self.store.choose_guild_locale(guild_id, None if language == AUTO else language)
        return await self.language(guild_id)

    async def change_settings(
        self,
        guild_id: int,
        *,
        can_manage: bool,
        lobby_role: int | None = None,
        lobby_role_off: bool = False,
        threads: bool | None = None,
    ) -> ServerSettings:
        """Change what is given (a role to call, no role, threads on or off); Manage Server
        only. Asking for a role and none at once is refused, changing nothing."""
        if not can_manage:
            raise NotManager()
        if lobby_role is not None and lobby_role_off:
            raise BotError(_("Name a lobby role or turn it off, not both."))
        if lobby_role == guild_id:
            # @everyone's id is the server's: calling it would ping every member.
            raise BotError(_("The lobby role cannot be @everyone: choose a role people join."))
        settings = await self.store.server_settings(guild_id)
        if lobby_role is not None or lobby_role_off:
            settings = await self.store.set_lobby_role(guild_id, lobby_role)
        if threads is not None:
            settings = await self.store.set_threads(guild_id, threads)
        return settings

    async def role_to_call(self, loaded: LoadedGame, *, ping: bool) -> int | None:
        """The role a new lobby's message mentions (noted now, so never again), or ``None``:
        the host chose not to, the server names no role, no seat is free, or the lobby
        mentioned one already."""
        if not ping or len(loaded.players) >= MAX_PLAYERS:
            return None
        role = (await self.store.server_settings(loaded.game.guild_id)).lobby_role_id
        if role is None or not await self.store.note_lobby_ping(loaded.game.id, role):
            return None
        return role

    async def open_tables(
        self, guild_id: int, *, visible: Callable[[int], bool] = _anywhere
    ) -> OpenTables:
        """The server's open tables with a free seat in the channels the asker sees
        (``visible``, by channel id), newest first (:data:`LISTED` at most), with their
        text."""
        every = await self.store.open_lobbies(guild_id, max_seats=MAX_PLAYERS)
        shown = [lobby for lobby in every if visible(lobby.game.channel_id)]
        found = shown[:LISTED]
        seats = await self.store.seats_of([lobby.game.id for lobby in found])
        listed = [
            texts.ListedTable(
                game_id=lobby.game.id,
                host=_host_name(lobby.game, seats.get(lobby.game.id, [])),
                seated=lobby.seated,
                max_seats=MAX_PLAYERS,
                cards=_("random cards")
                if lobby.game.cards == "random"
                else _("cards {cards}", cards=lobby.game.cards),
                opened_at=lobby.game.created_at,
                link=_link(lobby.game),
            )
            for lobby in found
        ]
        text = texts.open_tables_text(listed, len(shown), now=self.service.now())
        return OpenTables(tuple(found), len(shown), text)

    async def close_stale(self) -> list[int]:
        """The periodic work: close every lobby opened over :data:`LOBBY_LIFETIME` ago, each
        with a word in its channel naming the people seated (mentioned unless they turned the
        channel ping off), and tell the host of each lobby that closes within
        :data:`WARNED_BEFORE`, once. Returns the outbox ids queued; one lobby's failure is
        logged and does not stop the others. The database unavailable stops the pass with
        :class:`~bot.db.errors.DatabaseUnavailable`: the caller waits for it."""
        before = self.service.now() - LOBBY_LIFETIME
        queued: list[int] = []
        for game in await self.store.lobbies_opened_before(before):
            queued += await self._each(game, functools.partial(self._close, before=before))
        soon = before + WARNED_BEFORE
        for game in await self.store.lobbies_to_warn(soon, before):
            queued += await self._each(game, self._warn)
        return queued

    async def _each(
        self, game: GameRow, act: Callable[[GameRow], Awaitable[tuple[int, ...]]]
    ) -> tuple[int, ...]:
        """``act`` on one lobby if this process does its background work; a failure is
        logged and left to the next check."""
        try:
            if not await self.service.claim(game.id):
                return ()  # another process's shard: it does this one
            return await act(game)
        except DatabaseUnavailable:
            raise
        except Exception:
            log.exception("the lobby %d could not be closed or warned", game.id)
            return ()

    async def _warn(self, game: GameRow) -> tuple[int, ...]:
        """Tell the lobby's host that it closes in a day, unless told already."""
        loaded = await self.service.load(game)
        host = next((p for p in loaded.players if p.user_id == game.host_id), None)
        if host is None:
            return ()
        ping = bool(await self.service.hooks.caller.mentioned([host.user_id]))
        with speaking(game.locale):  # the channel's word: in the game's language
            text = texts.warning_text(host, ping=ping)
        announcement = Announcement(
            kind=CLOSING,
            text=text,
            mentions=(host.user_id,) if ping else (),
            locale=game.locale,
        )
        ids = await self.store.warn_lobby(game.id, outbox_messages=[announcement.to_outbox()])
        return () if ids is None else ids

    async def _close(self, game: GameRow, *, before: datetime) -> tuple[int, ...]:
        """Close ``game``'s lobby with its word, unless it was started or closed meanwhile."""
        loaded = await self.service.load(game)
        people = [p for p in loaded.players if p.computer is None]
        pinged = await self.service.hooks.caller.mentioned([p.user_id for p in people])
        with speaking(game.locale):  # the channel's word: in the game's language
            text = texts.closed_text(people, pinged, lifetime=LOBBY_LIFETIME)
        announcement = Announcement(
            kind=CLOSED,
            text=text,
            mentions=tuple(p.user_id for p in people if p.user_id in pinged),
            locale=game.locale,
        )
        ids = await self.store.close_stale_lobby(
            game.id, opened_before=before, outbox_messages=[announcement.to_outbox()]
        )
        if ids is None:
            return ()
        log.info("lobby %d closed after %d days without a start", game.id, LOBBY_DAYS)
        return ids


def _host_name(game: GameRow, seats: Sequence[Seat]) -> str:
    """The host's name as seated."""
    return next((taken.name for taken in seats if taken.user_id == game.host_id), "?")


def _link(game: GameRow) -> str:
    """The lobby message, or its channel when it has none."""
    return jump_url(game.guild_id, game.channel_id, game.lobby_message_id)
