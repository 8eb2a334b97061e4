"""How a person hears of their turns, in every game on every server: the rules and texts
behind ``/cascadia notify``'s ``dm``, ``heads_up``, ``digest_hour``, ``channel_ping`` and
``reminder_hours``.

A person is reached in the channel (a mention in the turn message) and, if they asked, by
direct message (:class:`Reach`); quiet hours and time away hold both back. Direct messages
are outbox rows like any message (see :data:`~bot.game.outbox.DIRECT`), built here as
:class:`~bot.game.outbox.Announcement` values. Nothing here reads a clock or the store.

Every text is in the reader's language (:func:`i18n.speaking`): a direct message is built
inside its recipient's, an answer in the person's who asked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, tzinfo

from bot.attendance.presence import Presence
from bot.attendance.store import NotifySettings
from bot.game.buttons import PLAY_LABEL, play_custom_id
from bot.game.errors import BotError
from bot.game.hooks import Call
from bot.game.markdown import jump_url
from bot.game.messages import Player, progress_text, timestamp
from bot.game.outbox import (
    DIRECT_DIGEST,
    DIRECT_NEXT,
    DIRECT_REMINDER,
    DIRECT_TURN,
    MAX_TEXT,
    Announcement,
    Picture,
)
from bot.game.rows import OutboxMessage
from engine import GameState, Hex
from i18n import N_, _, _n

__all__ = [
    "MAX_REMINDER_HOURS",
    "UNHEARD",
    "BadNotifySetting",
    "DigestGame",
    "NotifyChange",
    "Reach",
    "adjust_call",
    "change_lines",
    "digest_direct",
    "digest_due",
    "direct_row",
    "heads_up_direct",
    "reach_of",
    "refusal_note",
    "reminder_direct",
    "reminder_hours",
    "settings_lines",
    "turn_direct",
    "unheard",
]

MAX_REMINDER_HOURS = 24 * 30
"""The longest interval of a person's own reminders."""


class BadNotifySetting(BotError):
    """An option of ``/cascadia notify`` out of its range, or two that contradict."""


@dataclass(frozen=True, slots=True)
class NotifyChange:
    """The notification options of one ``/cascadia notify`` (``None``: not given);
    ``clear_digest`` and ``clear_reminders`` turn the digest off and give the reminders back
    to each game's setting."""

    dm: bool | None = None
    heads_up: bool | None = None
    digest_hour: int | None = None
    channel_ping: bool | None = None
    reminder_hours: int | None = None
    clear_digest: bool = False
    clear_reminders: bool = False

    def is_empty(self) -> bool:
        """Whether no notification option was given."""
        return self == NotifyChange()

    def check(self) -> None:
        """:class:`BadNotifySetting` for an option that cannot be stored, before any is."""
        if self.digest_hour is not None and not 0 <= self.digest_hour <= 23:
            raise BadNotifySetting(
                N_("`digest_hour:` is an hour 0-23, not {hour}."), hour=self.digest_hour
            )
        hours = self.reminder_hours
        if hours is not None and not 0 <= hours <= MAX_REMINDER_HOURS:
            raise BadNotifySetting(
                N_("`reminder_hours:` is 0 (none) to {most}, not {hours}."),
                most=MAX_REMINDER_HOURS,
                hours=hours,
            )
        if self.clear_digest and self.digest_hour is not None:
            raise BadNotifySetting(N_("Give either `digest_hour:` or `clear:digest`, not both."))
        if self.clear_reminders and self.reminder_hours is not None:
            raise BadNotifySetting(
                N_("Give either `reminder_hours:` or `clear:reminders`, not both.")
            )

    def applied(self, settings: NotifySettings) -> NotifySettings:
        """``settings`` with this change made. Turning direct messages on tries them again
        after Discord refused them."""
        changed = settings
        if self.dm is not None:
            changed = dataclasses.replace(changed, dm=self.dm)
            if self.dm:
                changed = dataclasses.replace(changed, dms_refused_at=None, refusal_told=False)
        if self.heads_up is not None:
            changed = dataclasses.replace(changed, heads_up=self.heads_up)
        if self.channel_ping is not None:
            changed = dataclasses.replace(changed, channel_ping=self.channel_ping)
        if self.digest_hour is not None:
            changed = dataclasses.replace(changed, digest_hour=self.digest_hour)
        if self.clear_digest:
            changed = dataclasses.replace(changed, digest_hour=None)
        if self.reminder_hours is not None:
            changed = dataclasses.replace(changed, reminder_hours=self.reminder_hours)
        if self.clear_reminders:
            changed = dataclasses.replace(changed, reminder_hours=None)
        return changed


@dataclass(frozen=True, slots=True)
class Reach:
    """How a person is told it is their turn: a mention in the channel, a direct message."""

    channel: bool
    direct: bool


def reach_of(settings: NotifySettings) -> Reach:
    """How ``settings`` reach their person. One who asked for direct messages that Discord
    refuses keeps the channel ping."""
    refused = settings.dms_refused_at is not None
    return Reach(
        channel=settings.channel_ping or (settings.dm and refused),
        direct=settings.dm and not refused,
    )


def adjust_call(call: Call, settings: NotifySettings) -> Call:
    """``call`` (quiet hours, time away, the deadline) for a person who may not want the
    channel ping: then they are named without a mention, and after quiet hours only a direct
    message is owed (nothing, without direct messages)."""
    reach = reach_of(settings)
    if reach.channel:
        return call
    owed = call.ping_due_at if reach.direct else None
    return dataclasses.replace(call, ping=False, ping_due_at=owed)


def reminder_hours(settings: NotifySettings, game_hours: int) -> int:
    """The interval of a person's reminders in a game: their own, else the game's."""
    return game_hours if settings.reminder_hours is None else settings.reminder_hours


def digest_due(settings: NotifySettings, presence: Presence, now: datetime) -> str | None:
    """The person's own day (``YYYY-MM-DD``) whose digest is due at ``now``, if any: from the
    digest hour on (or the end of quiet hours, if it falls in them) to the end of their day,
    once, and not while they are away."""
    if settings.digest_hour is None:
        return None
    zone: tzinfo = presence.quiet.zone if presence.quiet is not None else UTC
    day = now.astimezone(zone).date()
    hour = datetime.combine(day, time(settings.digest_hour), tzinfo=zone).astimezone(UTC)
    if now < presence.ping_at(hour) or settings.digest_day == day.isoformat():
        return None
    if presence.away_at(now) is not None or presence.is_quiet(now):
        return None
    return day.isoformat()


# --- the direct messages ------------------------------------------------------------------


def direct_row(
    announcement: Announcement, user_id: int, *, state_text: str | None = None
) -> OutboxMessage:
    """The outbox row of a direct message to ``user_id`` (the row's channel is the user)."""
    return dataclasses.replace(announcement.to_outbox(state_text=state_text), channel_id=user_id)


def _players(players: Sequence[Player]) -> str:
    return ", ".join(p.shown for p in players)


def turn_direct(
    game_id: int,
    players: Sequence[Player],
    state: GameState,
    text: str,
    *,
    highlights: tuple[tuple[Hex, ...], ...] = (),
    held: bool = False,
) -> Announcement:
    """The direct message at a person's turn: the players, the turn message's ``text``, the
    display and their environment, and **Play** (the outbox adds where the game is and a link
    to the turn message). ``held``: it waited for the end of their quiet hours."""
    if held:
        head = _(
            "**Your turn in Cascadia** (held back in your quiet hours). Players: {players}.",
            players=_players(players),
        )
    else:
        head = _("**Your turn in Cascadia**. Players: {players}.", players=_players(players))
    return Announcement(
        kind=DIRECT_TURN,
        text=f"{head}\n{text}",
        pictures=(Picture.DISPLAY, Picture.TO_MOVE),
        state=state,
        names=tuple(p.name for p in players),
        highlights=highlights,
        buttons=((_(PLAY_LABEL), play_custom_id(game_id, state.turn)),),
    )


def heads_up_direct(players: Sequence[Player], state: GameState) -> Announcement:
    """The short direct message to the player after the one to move: they are next."""
    to_move = players[state.current]
    return Announcement(
        kind=DIRECT_NEXT,
        text=_(
            "**You're next in Cascadia**: {name} is playing now ({progress}). Players: {players}.",
            name=to_move.shown,
            progress=progress_text(state),
            players=_players(players),
        ),
    )


def reminder_direct(since: datetime) -> Announcement:
    """A reminder by direct message, for a person who turned the channel ping off."""
    return Announcement(
        kind=DIRECT_REMINDER,
        text=_(
            "A reminder: your turn in Cascadia has been waiting since {time}.",
            time=timestamp(since),
        ),
    )


@dataclass(frozen=True, slots=True)
class DigestGame:
    """A game waiting for the person's move, as the digest lists it."""

    guild_id: int
    channel_id: int
    message_id: int | None
    """The latest turn message, linked to (``None``: the channel is named instead)."""
    players: tuple[Player, ...]
    state: GameState

    @property
    def link(self) -> str:
        """The turn message's link, or the channel's mention."""
        if self.message_id is None:
            return f"<#{self.channel_id}>"
        return jump_url(self.guild_id, self.channel_id, self.message_id)


def digest_direct(games: Sequence[DigestGame]) -> Announcement:
    """The daily digest: every game where it is the person's turn, with links; as many as
    Discord's limit on a message holds, then how many more there are."""
    lines = [
        _n(
            "**Your Cascadia digest**: it's your turn in {n} game.",
            "**Your Cascadia digest**: it's your turn in {n} games.",
            len(games),
        )
    ]
    for shown, game in enumerate(games):
        line = _(
            "- {link} with {players}: {progress}",
            link=game.link,
            players=_players(game.players),
            progress=progress_text(game.state),
        )
        # Room is kept for the line that counts the rest, should the next not fit either.
        left = len(games) - shown - 1
        after = [_more_games(left)] if left else []
        if len("\n".join([*lines, line, *after])) > MAX_TEXT:
            lines.append(_more_games(len(games) - shown))
            break
        lines.append(line)
    return Announcement(kind=DIRECT_DIGEST, text="\n".join(lines))


def _more_games(count: int) -> str:
    return _n(
        "- and {n} more game: `/cascadia mygames` shows them all.",
        "- and {n} more games: `/cascadia mygames` shows them all.",
        count,
    )


# --- answers ------------------------------------------------------------------------------


def settings_lines(settings: NotifySettings, zone: str | None) -> list[str]:
    """The notification settings, as ``/cascadia notify`` without options shows them."""
    if not settings.dm:
        dm = _("Direct messages at your turns: off.")
    elif settings.dms_refused_at is not None:
        dm = _(
            "Direct messages at your turns: on (Discord refuses them: your turns are pinged in"
            " the channel)."
        )
    else:
        dm = _("Direct messages at your turns: on.")
    if settings.digest_hour is None:
        digest = _("Daily digest: off.")
    else:
        hour = f"{settings.digest_hour:02d}:00"
        digest = _("Daily digest: at {hour} ({zone}).", hour=hour, zone=zone or "UTC")
    if settings.reminder_hours is None:
        reminders = _("Your reminders: as each game has them.")
    elif settings.reminder_hours == 0:
        reminders = _("Your reminders: none.")
    else:
        reminders = _n(
            "Your reminders: every hour.",
            "Your reminders: every {n} hours.",
            settings.reminder_hours,
        )
    lines = [
        dm,
        _("Heads-up when you are next: on.")
        if settings.heads_up
        else _("Heads-up when you are next: off."),
        digest,
        _("Ping in the channel: on.") if settings.channel_ping else _("Ping in the channel: off."),
        reminders,
    ]
    if unheard(settings):
        lines.append(_(UNHEARD))
    return lines


UNHEARD = N_(
    "With the channel ping and direct messages both off, you will not hear of your turns:"
    " `/cascadia mygames` shows where it is your turn."
)
"""The warning to a person who hears of their turns in no way (translate it where used)."""


def unheard(settings: NotifySettings) -> bool:
    """Whether nothing tells the person of their turns."""
    return not settings.channel_ping and not settings.dm


def change_lines(settings: NotifySettings, zone: str | None) -> list[str]:
    """The answer to a change: the settings as they now stand."""
    return [_("Saved. Your notifications, in every game:"), *settings_lines(settings, zone)]


def refusal_note() -> str:
    """The one private word to a person whose direct messages Discord refused."""
    return _(
        "I could not send you a direct message: your Discord privacy settings refuse them."
        " Your turns are pinged in the channel instead. Allow direct messages from this"
        " server's members, then `/cascadia notify dm:True` to try again."
    )
