"""A provisional reading of the achievements, until the engine's own lands.

The engine's function (every one of the 25, the board's keystones and the majorities
included) replaces :func:`provisional_earned` in :mod:`bot.app`; the catalogue's titles are
the engine's to keep then. Here: only what reads simply off the score sheet and the boards'
tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import GameState, ScoreSheet, Wildlife

__all__ = ["PROVISIONAL_CATALOGUE", "provisional_earned"]

PROVISIONAL_CATALOGUE: tuple[tuple[str, str], ...] = (
    ("score-80", "80 points"),
    ("score-85", "85 points"),
    ("score-90", "90 points"),
    ("score-95", "95 points"),
    ("score-100", "100 points"),
    ("score-105", "105 points"),
    ("score-110", "110 points"),
    ("no-nature-left", "No nature token left"),
    ("no-bear", "No bears"),
    ("no-elk", "No elk"),
    ("no-salmon", "No salmon"),
    ("no-hawk", "No hawks"),
    ("no-fox", "No foxes"),
    ("ten-of-one", "10 of one wildlife"),
    ("three-majorities", "3 habitat majorities"),
    ("five-every-habitat", "5 in every habitat"),
    ("twelve-one-habitat", "A corridor of 12"),
    ("fifteen-one-habitat", "A corridor of 15"),
    ("ten-every-wildlife", "10 from every wildlife"),
    ("twenty-two-wildlife", "20 from two wildlife"),
    ("thirty-one-wildlife", "30 from one wildlife"),
    ("five-nature", "5 nature tokens left"),
    ("ten-nature", "10 nature tokens left"),
    ("no-keystone-completed", "No keystone taken"),
    ("three-wildlife-kinds", "3 kinds of wildlife"),
)
"""Every achievement's id and short title, in the order they are shown."""

_THRESHOLDS = (80, 85, 90, 95, 100, 105, 110)
_NO_WILDLIFE = {
    Wildlife.BEAR: "no-bear",
    Wildlife.ELK: "no-elk",
    Wildlife.SALMON: "no-salmon",
    Wildlife.HAWK: "no-hawk",
    Wildlife.FOX: "no-fox",
}


def provisional_earned(state: GameState, sheet: ScoreSheet) -> Sequence[frozenset[str]]:
    """Each seat's earned ids, in seat order, of those that read simply: the score
    thresholds, the nature tokens left, the wildlife on the board, the largest corridors and
    the points per wildlife (not the majorities nor the keystones). The engine's full
    function replaces it."""
    earned: list[frozenset[str]] = []
    for seat, score in zip(state.seats, sheet.players, strict=True):
        ids = {f"score-{points}" for points in _THRESHOLDS if score.total >= points}
        nature = seat.nature_tokens
        ids |= {
            i
            for i, met in (
                ("no-nature-left", nature == 0),
                ("five-nature", nature >= 5),
                ("ten-nature", nature >= 10),
            )
            if met
        }
        counts = {w: 0 for w in Wildlife}
        for token in seat.environment.tokens().values():
            counts[token] += 1
        ids |= {_NO_WILDLIFE[w] for w, n in counts.items() if n == 0}
        if max(counts.values()) >= 10:
            ids.add("ten-of-one")
        if sum(1 for n in counts.values() if n) == 3:
            ids.add("three-wildlife-kinds")
        corridors = score.habitats.values()
        if len(score.habitats) == 5 and min(corridors) >= 5:
            ids.add("five-every-habitat")
        if max(corridors, default=0) >= 12:
            ids.add("twelve-one-habitat")
        if max(corridors, default=0) >= 15:
            ids.add("fifteen-one-habitat")
        points = [score.wildlife.get(w, 0) for w in Wildlife]
        if min(points) >= 10:
            ids.add("ten-every-wildlife")
        if sum(1 for p in points if p >= 20) >= 2:
            ids.add("twenty-two-wildlife")
        if max(points) >= 30:
            ids.add("thirty-one-wildlife")
        earned.append(frozenset(ids))
    return earned
