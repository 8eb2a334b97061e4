"""The achievements' texts: the final message's line, and the parts of ``/cascadia stats``
and ``server``. Pure: they take names, titles and figures."""

from __future__ import annotations

from collections.abc import Sequence

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
    return f"{shown} +{more} more" if more > 0 else shown


def _part(label: str, people: Sequence[Named]) -> str:
    named = "; ".join(f"{who} · {_titles(titles)}" for who, titles in people if titles)
    return f"{label}: {named}." if named else ""


def finish_line(first_time: Sequence[Named], first_here: Sequence[Named]) -> str:
    """The line a finished game's message ends with: what each person earned for the first
    time, and what nobody on the server had earned before (not named again among the first
    times); empty when there is neither."""
    parts = [_part("First time", first_time), _part("First on the server", first_here)]
    line = " ".join(part for part in parts if part)
    return f"\n{line}" if line else ""


def stats_lines(firsts: Sequence[tuple[str, int]], total: int) -> str:
    """``/cascadia stats``'s achievements: how many of ``total``, then each earned one's title
    with the game it was first earned in (``(title, game id)`` in catalogue order)."""
    head = f"Achievements: {len(firsts)} of {total}"
    if not firsts:
        return head
    return f"{head}: " + ", ".join(f"{title} (game {game_id})" for title, game_id in firsts)


def server_lines(counts: Sequence[tuple[str, int]]) -> str:
    """``/cascadia server``'s achievements: how many members earned each one someone earned
    (``(title, members)``), rarest first; empty when nobody earned any."""
    if not counts:
        return ""
    ranked = sorted(counts, key=lambda count: count[1])[:MAX_SERVER_LINES]
    return "Achievements, rarest first: " + ", ".join(
        f"{title} ({members})" for title, members in ranked
    )
