"""The line a finished daily trek attempt's **Share** button posts in the server's daily
channel: spoiler-free (the date, the score against the par, the streak, the points of each
wildlife and the achievements earned for the first time; no board, no tile, no move), words
and numbers first so that a screen reader reads it well, in the reader's language (the
server's: the line is public). Pure: it takes names and figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.names import safe
from engine import Wildlife
from i18n import N_, _, _n

__all__ = ["POINTS_PER_SQUARE", "SHARE_LABEL", "par_words", "share_custom_id", "share_line"]

SHARE_LABEL = N_("Share")
"""The label of the button on a daily attempt's final message (English: translated where the
message is made)."""
POINTS_PER_SQUARE = 4
"""How many points of a wildlife one square of its bar stands for (rounded to the nearest)."""
SQUARES = {
    Wildlife.BEAR: "🟫",
    Wildlife.ELK: "🟨",
    Wildlife.SALMON: "🟥",
    Wildlife.HAWK: "🟦",
    Wildlife.FOX: "🟧",
}
"""Each wildlife's square, in score-pad order."""
MAX_TITLES = 3
"""The most achievement titles the line names; the rest are counted."""


def share_custom_id(game_id: int) -> str:
    """The custom id of the **Share** button of the finished attempt ``game_id``."""
    return f"cascadia:share:{game_id}"


def par_words(score: int, par: int) -> str:
    """The score against the par: "4 over par", "2 under par", "at par"."""
    if score > par:
        return _("{points} over par", points=score - par)
    if score < par:
        return _("{points} under par", points=par - score)
    return _("at par")


def bar(wildlife: Wildlife, points: int) -> str:
    """A wildlife's points, words first: "Bear 12 🟫🟫🟫" (no squares under 2 points)."""
    squares = SQUARES[wildlife] * ((max(points, 0) + POINTS_PER_SQUARE // 2) // POINTS_PER_SQUARE)
    return f"{_(wildlife.value.capitalize())} {points} {squares}".rstrip()


def share_line(
    name: str,
    day: str,
    *,
    total: int,
    par: int,
    streak: int,
    wildlife: dict[Wildlife, int],
    counted: bool,
    firsts: Sequence[str] = (),
) -> str:
    """The shared line of ``name``'s attempt at ``day``'s deal: total against ``par``, the
    ``streak`` (an attempt that counts only), a bar per wildlife in score-pad order, and the
    titles of the achievements ``firsts`` earned for the first time."""
    details = par_words(total, par)
    if counted and streak > 0:
        details += ", " + _n("a {n}-day streak", "a {n}-day streak", streak)
    fields = {
        "name": safe(name),
        "day": day,
        "details": details,
        "bars": ", ".join(bar(w, wildlife.get(w, 0)) for w in Wildlife),
    }
    if counted:
        line = _n(
            "**{name}**'s daily trek, {day}: {n} point, {details}. {bars}.",
            "**{name}**'s daily trek, {day}: {n} points, {details}. {bars}.",
            total,
            **fields,
        )
    else:
        line = _n(
            "**{name}**'s daily trek practice, {day}: {n} point, {details}. {bars}.",
            "**{name}**'s daily trek practice, {day}: {n} points, {details}. {bars}.",
            total,
            **fields,
        )
    if firsts:
        shown = ", ".join(firsts[:MAX_TITLES])
        more = len(firsts) - MAX_TITLES
        if more > 0:
            shown = _n("{titles} +{n} more", "{titles} +{n} more", more, titles=shown)
        line += " " + _("First time: {titles}.", titles=shown)
    return line
