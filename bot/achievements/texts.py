"""The achievements' texts: the final message's line, and the parts of ``/cascadia stats``
and ``server``, in the reader's language (see :func:`i18n.speaking`). Pure: they take names,
titles (already in that language) and figures."""

from __future__ import annotations

from collections.abc import Sequence

from i18n import _, _n

__all__ = ["MAX_NAMED", "finish_line", "server_lines", "stats_lines"]

MAX_NAMED = 3
"""The most titles the final message names per person and part; the rest are counted."""

MAX_SERVER_LINES = 25
"""At most every achievement once: the server's list stays well within a message."""

Named = tuple[str, Sequence[str]]
"""A person as a message shows them (their name in bold) and the titles they earned."""


def _titles(titles: Sequence[str]) -> str:
    shown = ", ".join(titles[:MAX_NAMED])
    more = len(titles) - MAX_NAMED
    return _n("{titles} +{n} more", "{titles} +{n} more", more, titles=shown) if more > 0 else shown


def _named(people: Sequence[Named]) -> str:
    return "; ".join(f"{who} · {_titles(titles)}" for who, titles in people if titles)


def finish_line(first_time: Sequence[Named], first_here: Sequence[Named]) -> str:
    """The line a finished game's message ends with: what each person earned for the first
    time, and what nobody on the server had earned before (not named again among the first
    times); empty when there is neither."""
    parts = []
    if named := _named(first_time):
        parts.append(_("First time: {titles}.", titles=named))
    if named := _named(first_here):
        parts.append(_("First on the server: {titles}.", titles=named))
    line = " ".join(parts)
    return f"\n{line}" if line else ""


def stats_lines(firsts: Sequence[tuple[str, int]], total: int) -> str:
    """``/cascadia stats``'s achievements: how many of ``total``, then each earned one's title
    with the game it was first earned in (``(title, game id)`` in catalogue order)."""
    if not firsts:
        return _("Achievements: {count} of {total}", count=0, total=total)
    titles = [_("{title} (game {game})", title=title, game=game) for title, game in firsts]
    return _(
        "Achievements: {count} of {total}: {titles}",
        count=len(firsts),
        total=total,
        titles=", ".join(titles),
    )


def server_lines(counts: Sequence[tuple[str, int]]) -> str:
    """``/cascadia server``'s achievements: how many members earned each one someone earned
    (``(title, members)``), rarest first; empty when nobody earned any."""
    if not counts:
        return ""
    ranked = sorted(counts, key=lambda count: count[1])[:MAX_SERVER_LINES]
    return _(
        "Achievements, rarest first: {titles}",
        titles=", ".join(f"{title} ({members})" for title, members in ranked),
    )
