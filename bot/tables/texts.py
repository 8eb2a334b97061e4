"""The words of the tables feature: the settings line, the list of open tables, the call for
players and the word a lobby leaves when it closes unstarted. Pure functions of their
arguments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.game.messages import Player
from bot.game.names import safe
from i18n import _, _n, language_name


@dataclass(frozen=True, slots=True)
class ListedTable:
    """One open table as the list shows it."""

    game_id: int
    host: str
    """The host's name as seated."""
    seated: int
    max_seats: int
    cards: str
    """The cards as the lobby message words them."""
    opened_at: datetime
    link: str
    """The lobby message, or the channel when it has none."""


def settings_line(lobby_role_id: int | None, threads: bool) -> str:
    """The server's settings in one line (the role named, never mentioned: answers go out with
    no mentions allowed)."""
    if lobby_role_id is None:
        if threads:
            return _("Settings: open tables call none; new tables in threads: on.")
        return _("Settings: open tables call none; new tables in threads: off.")
    role = f"<@&{lobby_role_id}>"
    if threads:
        return _("Settings: open tables call {role}; new tables in threads: on.", role=role)
    return _("Settings: open tables call {role}; new tables in threads: off.", role=role)


def language_line(seen: str | None, chosen: str | None) -> str:
    """Which language the server's new games are told in: the one an admin chose, else
    Discord's server language (English while neither is known)."""
    if chosen is not None:
        return _(
            "New games speak {language} (chosen here; `language:` auto follows Discord's).",
            language=language_name(chosen),
        )
    return _(
        "New games speak {language}, the server's language in Discord.",
        language=language_name(seen),
    )


def call_line(role_id: int) -> str:
    """The line above a new lobby's message that calls the role once."""
    role = f"<@&{role_id}>"
    return _("{role} a new table is open: press **Join** to take a seat.", role=role)


def age(seconds: float) -> str:
    """How long ago, roughly: minutes, hours or days."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return _("just now") if minutes < 1 else _n("{n} min ago", "{n} min ago", minutes)
    hours = minutes // 60
    if hours < 48:
        return _n("{n} h ago", "{n} h ago", hours)
    return _n("{n} day ago", "{n} days ago", hours // 24)


def open_tables_text(tables: Sequence[ListedTable], total: int, *, now: datetime) -> str:
    """The server's open tables with free seats, newest first, and how many more there are."""
    if not tables:
        return _(
            "There is no game in this channel, and no open table with a free seat on this "
            "server. Open one with `/cascadia new`."
        )
    lines = [
        _("There is no lobby in this channel. Open tables with a free seat on this server:")
        if total == len(tables)
        else _n(
            "There is no lobby in this channel. The {n} newest of {total} open tables with a "
            "free seat on this server:",
            "There is no lobby in this channel. The {n} newest of {total} open tables with a "
            "free seat on this server:",
            len(tables),
            total=total,
        )
    ]
    for number, table in enumerate(tables, start=1):
        opened = age((now - table.opened_at).total_seconds())
        lines.append(
            _(
                "{number}. **{host}**'s table, {seated}/{max_seats} seated, {cards}, opened "
                "{opened}: [lobby]({link})",
                number=number,
                host=safe(table.host),
                seated=table.seated,
                max_seats=table.max_seats,
                cards=table.cards,
                opened=opened,
                link=table.link,
            )
        )
    rest = total - len(tables)
    if rest > 0:
        lines.append(_n("…and {n} more.", "…and {n} more.", rest))
    lines.append(_("Press **Join** below for a seat."))
    return "\n".join(lines)


def closed_text(players: Sequence[Player], pinged: set[int], *, lifetime: timedelta) -> str:
    """The word in a lobby's channel when it closes unstarted after ``lifetime``, naming the
    seated people (mentioned when in ``pinged``, else named)."""
    who = " ".join(p.mention if p.user_id in pinged else p.shown for p in players)
    days = lifetime.days
    if not who:
        return _n(
            "This table closed after {n} day without a start. `/cascadia new` opens another.",
            "This table closed after {n} days without a start. `/cascadia new` opens another.",
            days,
        )
    return _n(
        "This table closed after {n} day without a start: {who}. `/cascadia new` opens another.",
        "This table closed after {n} days without a start: {who}. `/cascadia new` opens another.",
        days,
        who=who,
    )


def warning_text(host: Player, *, ping: bool) -> str:
    """The word in a lobby's channel a day before it closes unstarted, to its host
    (mentioned with ``ping``, else named)."""
    return _(
        "This table closes in a day without a start. {who}, press **Start** to play with "
        "those seated.",
        who=host.mention if ping else host.shown,
    )
