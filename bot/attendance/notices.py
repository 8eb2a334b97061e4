"""A person's notification settings and the direct messages that are not part of a turn: the
daily digest, and what follows when Discord refuses a direct message.

The direct messages of a turn (at a person's turn, the heads-up of the next) are queued with
the turn message itself (see :meth:`~bot.attendance.hooks.AttendanceHooks.for_turn`); the ones
held back in quiet hours by the periodic check of :mod:`bot.attendance.service`. Here: storing
the settings of ``/cascadia notify``, the periodic digest check, and a refusal (recorded once; the
person keeps the channel ping, is pinged there for the turn the refused message was about,
and is told once, privately, on their next command or **Play**).
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from bot.attendance import notify
from bot.attendance.notify import DigestGame, NotifyChange
from bot.attendance.presence import presence_of
from bot.attendance.store import AttendanceStore, NotifySettings
from bot.game.errors import DamagedState, RevisionConflict
from bot.game.kernel import GameKernel
from bot.game.outbox import DIRECT_TURN, Announcement
from bot.game.rows import GameStatus, OutboxRow
from i18n import _, speaking

__all__ = ["Notices"]

log = logging.getLogger(__name__)


class Notices:
    """People's notification settings, the daily digests and refused direct messages, over
    the game service's :class:`GameKernel`."""

    def __init__(self, kernel: GameKernel) -> None:
        self.kernel = kernel
        self.store = kernel.store_as(AttendanceStore)

    async def settings(self, user_id: int) -> tuple[NotifySettings, str | None]:
        """The person's notification settings and the zone of their quiet hours (``None``:
        UTC), which their digest hour is in."""
        presence = presence_of(await self.store.person(user_id))
        zone = presence.quiet.zone_name if presence.quiet is not None else None
        return await self.store.notify_settings(user_id), zone

    async def change(self, user_id: int, change: NotifyChange) -> list[str]:
        """Store a checked change and answer with the settings as they now stand. A digest
        hour already past today starts tomorrow."""
        change.check()
        before, zone = await self.settings(user_id)
        after = change.applied(before)
        if change.digest_hour is not None:
            presence = presence_of(await self.store.person(user_id))
            fresh = dataclasses.replace(after, digest_day=None)
            after = dataclasses.replace(
                fresh, digest_day=notify.digest_due(fresh, presence, self.kernel.now())
            )
        saved = await self.store.save_notify_settings(after)
        return notify.change_lines(saved, zone)

    async def refusal_note(self, user_id: int) -> str | None:
        """The word owed once to a person whose direct messages Discord refused, if owed now
        (then it is recorded as told)."""
        # Asked at every command: a read first, the write only when a word is owed.
        settings = await self.store.notify_settings(user_id)
        if settings.dms_refused_at is None or settings.refusal_told:
            return None
        if await self.store.take_refusal_note(user_id):
            return notify.refusal_note()
        return None

    async def refusal_note_lost(self, user_id: int) -> None:
        """The word :meth:`refusal_note` gave could not be sent: owed again, for the next
        command."""
        await self.store.untake_refusal_note(user_id)

    async def refused(self, row: OutboxRow) -> list[int]:
        """Discord refused the direct message ``row``: record it (no more are tried) and, if
        it called its person to a turn still theirs that the channel named without a ping,
        ping them there. Returns the outbox ids queued."""
        user_id = row.channel_id
        await self.store.refuse_direct(row.id, user_id, "403 50007: the user refuses DMs")
        settings = await self.store.notify_settings(user_id)
        if row.kind != DIRECT_TURN or settings.channel_ping:
            return []
        try:
            loaded = await self.kernel.game_by_id(row.game_id)
        except DamagedState:
            return []
        state = loaded.state
        if loaded.game.status is not GameStatus.ACTIVE or state is None or state.is_over:
            return []
        player = loaded.players[state.current]
        if player.user_id != user_id or player.computer is not None:
            return []
        with speaking(loaded.game.locale):
            text = _("{mention}, it's your turn in Cascadia.", mention=player.mention)
            ping = Announcement("ping", text, mentions=(user_id,))
        try:
            result = await self.store.record_ping(
                loaded.game.id,
                loaded.game.revision,
                ping_due_at=None,
                next_reminder_at=loaded.game.next_reminder_at,
                outbox_messages=[ping.to_outbox()],
            )
        except RevisionConflict:
            return []  # a move landed meanwhile: its turn message calls whoever is next
        return list(result.outbox_ids)

    async def check(self) -> list[int]:
        """The periodic work: queue the daily digests that are due. Returns the outbox ids;
        one person's failure is logged and does not stop the others."""
        now = self.kernel.now()
        queued: list[int] = []
        for settings in await self.store.digest_people():
            if settings.dms_refused_at is not None:
                continue
            try:
                presence = presence_of(await self.store.person(settings.user_id))
                day = notify.digest_due(settings, presence, now)
                if day is None:
                    continue
                games = await self._waiting(settings.user_id)
                rows = []
                if games:
                    # In the person's own language, whatever the games' languages.
                    with speaking(await self.store.person_locale(settings.user_id)):
                        digest = notify.digest_direct([shown for _unused, shown in games])
                    rows = [notify.direct_row(digest, settings.user_id)]
                first = games[0][0] if games else None
                ids = await self.store.queue_digest(
                    settings.user_id, day, game_id=first, outbox_messages=rows
                )
            except Exception:
                log.exception("the digest of user %d failed", settings.user_id)
                continue
            queued.extend(ids or ())
        return queued

    async def _waiting(self, user_id: int) -> list[tuple[int, DigestGame]]:
        """The games where it is the person's turn (game id, as the digest lists it), the
        longest waiting first."""
        waiting: list[tuple[datetime, int, DigestGame]] = []
        games = await self.store.games_for_user(user_id, statuses=(GameStatus.ACTIVE,))
        # A daily trek waits in the person's own direct messages: one read for all the games.
        private = await self.kernel.hooks.venue.private_games({s.game.id for s in games})
        for seated in games:
            if seated.game.id in private:
                continue
            try:
                loaded = await self.kernel.load(seated.game)
            except DamagedState:
                continue
            state = loaded.state
            if state is None or state.is_over or loaded.seat_of(user_id) != state.current:
                continue
            game = loaded.game
            message_id = await self.store.latest_message(game.id)
            shown = DigestGame(game.guild_id, game.channel_id, message_id, loaded.players, state)
            waiting.append((game.turn_started_at or game.updated_at, game.id, shown))
        waiting.sort(key=lambda entry: (entry[0], entry[1]))
        return [(game_id, shown) for _unused, game_id, shown in waiting]
