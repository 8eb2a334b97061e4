"""The line a finished daily trek attempt's **Share** button posts in the server's daily
channel: spoiler-free (the date, the score against the par, the streak, the points of each
wildlife and the achievements earned for the first time; no board, no tile, no move), words
and numbers first so that a screen reader reads it well. Pure: it takes names and figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.names import safe
from engine import Wildlife

__all__ = ["POINTS_PER_SQUARE", "SHARE_LABEL", "par_words", "share_custom_id", "share_line"]

SHARE_LABEL = "Share"
"""The label of the button on a daily attempt's final message."""
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
        return f"{score - par} over par"
    if score < par:
        return f"{par - score} under par"
    return "at par"


def bar(wildlife: Wildlife, points: int) -> str:
    """A wildlife's points, words first: "Bear 12 🟫🟫🟫" (no squares under 2 points)."""
    squares = SQUARES[wildlife] * ((max(points, 0) + POINTS_PER_SQUARE // 2) // POINTS_PER_SQUARE)
    return f"{wildlife.value.capitalize()} {points} {squares}".rstrip()


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
    what = "daily trek" if counted else "daily trek practice"
    head = f"**{safe(name)}**'s {what}, {day}: {total} points, {par_words(total, par)}"
    if counted and streak > 0:
        head += f", a {streak}-day streak"
    bars = ", ".join(bar(w, wildlife.get(w, 0)) for w in Wildlife)
    line = f"{head}. {bars}."
    if firsts:
        shown = ", ".join(firsts[:MAX_TITLES])
        more = len(firsts) - MAX_TITLES
        line += f" First time: {shown}{f' +{more} more' if more > 0 else ''}."
    return line
