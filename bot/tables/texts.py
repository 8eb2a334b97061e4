"""The words of the tables feature: the settings line, the list of open tables, the call for
players and the word a lobby leaves when it closes unstarted. Pure functions of their
arguments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.game.messages import Player
from bot.game.names import safe


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
    role = "none" if lobby_role_id is None else f"<@&{lobby_role_id}>"
    return (
        f"Settings: open tables call {role}; new tables in threads: {'on' if threads else 'off'}."
    )


def call_line(role_id: int) -> str:
    """The line above a new lobby's message that calls the role once."""
    return f"<@&{role_id}> a new table is open: press **Join** to take a seat."


def age(seconds: float) -> str:
    """How long ago, roughly: minutes, hours or days."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return "just now" if minutes < 1 else f"{minutes} min ago"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} h ago"
    return f"{hours // 24} days ago"


def open_tables_text(tables: Sequence[ListedTable], total: int, *, now: datetime) -> str:
    """The server's open tables with free seats, newest first, and how many more there are."""
    if not tables:
        return (
            "There is no game in this channel, and no open table with a free seat on this "
            "server. Open one with `/cascadia new`."
        )
    lines = [
        "There is no lobby in this channel. Open tables with a free seat on this server:"
        if total == len(tables)
        else f"There is no lobby in this channel. The {len(tables)} newest of {total} open "
        "tables with a free seat on this server:"
    ]
    for number, table in enumerate(tables, start=1):
        opened = age((now - table.opened_at).total_seconds())
        lines.append(
            f"{number}. **{safe(table.host)}**'s table, {table.seated}/{table.max_seats} seated,"
            f" {table.cards}, opened {opened}: [lobby]({table.link})"
        )
    rest = total - len(tables)
    if rest > 0:
        lines.append(f"…and {rest} more.")
    lines.append("Press **Join** below for a seat.")
    return "\n".join(lines)


def closed_text(players: Sequence[Player], pinged: set[int], *, lifetime: timedelta) -> str:
    """The word in a lobby's channel when it closes unstarted after ``lifetime``, naming the
    seated people (mentioned when in ``pinged``, else named)."""
    who = " ".join(p.mention if p.user_id in pinged else p.shown for p in players)
    seated = f": {who}" if who else ""
    return (
        f"This table closed after {_days(lifetime)} without a start{seated}. "
        "`/cascadia new` opens another."
    )


def warning_text(host: Player, *, ping: bool) -> str:
    """The word in a lobby's channel a day before it closes unstarted, to its host
    (mentioned with ``ping``, else named)."""
    who = host.mention if ping else host.shown
    return (
        f"This table closes in a day without a start. {who}, press **Start** to play with "
        "those seated."
    )


def _days(lifetime: timedelta) -> str:
    days = lifetime.days
    return f"{days} days" if days != 1 else "1 day"
