"""How the bot's games reach their players: the :class:`~bot.game.hooks.Caller` and the
:class:`~bot.game.hooks.Directs` of quiet hours, time away and deadlines
(:mod:`bot.attendance.presence`) and of each person's notification settings
(:mod:`bot.attendance.notify`).

A turn concerns two people: the player to move and the one after them. Their settings and
their quiet hours and time away are read once per turn, in one query each, for the call, the
reminders and the direct messages together.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from bot.attendance import notify
from bot.attendance.presence import Presence, presence_of
from bot.attendance.store import AttendanceStore, NotifySettings
from bot.game.hooks import Call, InChannel, Turn, Venue, Whereabouts
from bot.game.messages import progress_text
from bot.game.rows import OutboxMessage
from engine import Hex
from i18n import _, language, speaking

__all__ = ["AttendanceHooks"]


@dataclass(frozen=True, slots=True)
class _Concerned:
    """The people a turn concerns (computers aside), by user id: how they may be reached
    and how they asked to be."""

    presences: dict[int, Presence]
    settings: dict[int, NotifySettings]


class AttendanceHooks:
    """The caller and the direct messages of the bot's games, over a store. ``venue`` says
    which games are played where their one player is alone with the bot (default: none)."""

    def __init__(self, store: AttendanceStore, *, venue: Venue | None = None) -> None:
        self.store = store
        self.venue = InChannel() if venue is None else venue

    async def _concerned(self, turn: Turn) -> _Concerned:
        async def read() -> _Concerned:
            ids = {p.user_id for p in (turn.player, turn.following) if p.computer is None}
            people = await self.store.people_of(ids)
            settings = await self.store.notify_settings_of(ids)
            return _Concerned({u: presence_of(p) for u, p in people.items()}, settings)

        return await turn.once((__name__, "concerned"), read)

    async def call(self, turn: Turn) -> Call:
        """Pinged unless in quiet hours (then a ping is owed for when they end) or they turned
        the channel ping off; the deadline moved on by time away (see
        :meth:`~bot.attendance.presence.Presence.call` and
        :func:`~bot.attendance.notify.adjust_call`)."""
        concerned = await self._concerned(turn)
        user_id = turn.player.user_id
        call = concerned.presences[user_id].call(
            turn.now, turn_started_at=turn.now, budget=turn.budget
        )
        return notify.adjust_call(call, concerned.settings[user_id])

    async def reminder_hours(self, turn: Turn) -> int:
        """The player's own hours between reminders, if they set them, else the game's (and
        always the game's where the player is alone with the bot)."""
        game_hours = turn.loaded.game.reminder_hours
        if await self.venue.is_private(turn):
            return game_hours
        concerned = await self._concerned(turn)
        return notify.reminder_hours(concerned.settings[turn.player.user_id], game_hours)

    async def whereabouts(self, user_ids: Collection[int]) -> Mapping[int, Whereabouts]:
        """Their quiet hours and time away, in one read."""
        people = await self.store.people_of(user_ids)
        return {user_id: presence_of(person) for user_id, person in people.items()}

    async def mentioned(self, user_ids: Collection[int]) -> set[int]:
        """Those who kept the channel ping (see :func:`~bot.attendance.notify.reach_of`)."""
        settings = await self.store.notify_settings_of(user_ids)
        return {user_id for user_id, s in settings.items() if notify.reach_of(s).channel}

    async def for_turn(
        self,
        turn: Turn,
        text: str,
        *,
        highlights: tuple[tuple[Hex, ...], ...] = (),
        state_json: str | None = None,
    ) -> list[OutboxMessage]:
        """The turn's direct message to the player to move if they asked for one, and the
        heads-up of the player after them if they asked (not to the one who just played).
        Held back in quiet hours (a turn's comes when they end) and time away; none where the
        player is alone with the bot already."""
        if await self.venue.is_private(turn):
            return []
        concerned = await self._concerned(turn)
        to_move, following, now = turn.player, turn.following, turn.now
        players, state = turn.loaded.players, turn.state
        rows: list[OutboxMessage] = []
        settings = concerned.settings.get(to_move.user_id)
        if (
            settings is not None
            and notify.reach_of(settings).direct
            and concerned.presences[to_move.user_id].may_remind(now)
        ):
            game_id = turn.loaded.game.id
            with speaking(to_move.locale):
                if language(to_move.locale) != language(turn.loaded.game.locale):
                    # The turn message is in the game's language, another than theirs: theirs
                    # says where the game stands (its link leads to the message itself).
                    text = _("It is your turn: {progress}.", progress=progress_text(state))
                message = notify.turn_direct(game_id, players, state, text, highlights=highlights)
            rows.append(notify.direct_row(message, to_move.user_id, state_text=state_json))
        heads_up = concerned.settings.get(following.user_id)
        if (
            heads_up is not None
            and heads_up.heads_up
            and heads_up.dms_refused_at is None
            and following.user_id not in (to_move.user_id, turn.mover)
            and concerned.presences[following.user_id].may_remind(now)
        ):
            with speaking(following.locale):
                message = notify.heads_up_direct(players, state)
            rows.append(notify.direct_row(message, following.user_id))
        return rows
