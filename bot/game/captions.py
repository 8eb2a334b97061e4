"""File names and descriptions (alt text) of the pictures the bot attaches.

Discord shows an attachment's description to screen readers and on hover, and its file name
when the picture is saved, so both say what the picture is: ``alice.png`` described as
"alice's environment: 23 tiles, 47 points", rather than ``player1.png``. The descriptions are
in the reader's language (see :func:`i18n.speaking`), as the picture's words are; the file
names are the same in every language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.messages import places
from engine import GameState, ScoreSheet, score_state
from i18n import _, _n
from render.words import habitat_word, wildlife_word

MAX_CHOICES = 25
"""The most choices Discord takes in one autocomplete answer."""
MAX_DESCRIPTION = 1024
"""Discord's limit on an attachment's description."""
MAX_STEM = 40
_RESERVED = frozenset({"display", "scores", "preview", "replay", "score-chart"})
"""Stems of the bot's other pictures, which a player's file must not take."""


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to attach: its name, its bytes and what it shows (for screen readers)."""

    name: str
    data: bytes
    description: str = ""


def file_stem(name: str) -> str:
    """``name`` as a portable file name stem: accents dropped, anything but ASCII letters,
    digits, ``-`` and ``_`` as ``-``; empty when nothing is left (a name in another
    script)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9_]+", "-", ascii_name).strip("-_")[:MAX_STEM].strip("-_")


def environment_files(names: Sequence[str]) -> list[str]:
    """Per seat, the file name of that player's environment picture: the sanitised name,
    else ``player2.png``; made unique within the message with the seat number."""
    taken: set[str] = set(_RESERVED)
    found = []
    for seat, name in enumerate(names, start=1):
        stem = file_stem(name) or f"player{seat}"
        if stem.casefold() in taken:
            stem = f"{stem}-{seat}"
        taken.add(stem.casefold())
        found.append(f"{stem}.png")
    return found


def environment_score(state: GameState, seat: int) -> int:
    """The score an environment's picture is headed by: the seat's total if the game ended
    now, majority bonuses in (once it is over, its final total), the number the standings,
    ``/cascadia score`` and the replay show."""
    return score_state(state).players[seat].total


def environment_description(name: str, state: GameState, seat: int, points: int) -> str:
    """E.g. "alice's environment: 23 tiles, 47 points" (mid-game "47 points if it ended
    now, bonuses in")."""
    # An environment holds at least its starting tiles (three), always "tiles".
    tiles = len(state.seats[seat].environment)
    if state.is_over:
        text = _n(
            "{name}'s environment: {tiles} tiles, {n} point",
            "{name}'s environment: {tiles} tiles, {n} points",
            points,
            name=name,
            tiles=tiles,
        )
    else:
        text = _n(
            "{name}'s environment: {tiles} tiles, {n} point if it ended now, bonuses in",
            "{name}'s environment: {tiles} tiles, {n} points if it ended now, bonuses in",
            points,
            name=name,
            tiles=tiles,
        )
    return _clip(text)


def display_description(state: GameState) -> str:
    """The four pairs on offer, e.g. "The display: 1 forest-river tile and a bear; ..."."""
    pairs = []
    for slot, (tile, token) in enumerate(
        zip(state.display_tiles, state.display_tokens, strict=True), start=1
    ):
        if tile is None or token is None:
            continue
        habitats = "-".join(habitat_word(h) for h in tile.habitats)
        pairs.append(
            _(
                "{slot}: {habitats} tile and {wildlife}",
                slot=slot,
                habitats=habitats,
                wildlife=wildlife_word(token),
            )
        )
    if not pairs:
        return _clip(_("The display (empty)"))
    return _clip(_("The display: {pairs}", pairs="; ".join(pairs)))


def scores_description(sheet: ScoreSheet, *, final: bool) -> str:
    """E.g. "Final scores: 1. alice 80 points, 2. bob 75 points"."""
    ranked = ", ".join(
        _n(
            "{place}. {name} {n} point",
            "{place}. {name} {n} points",
            sheet.player(name).total,
            place=place,
            name=name,
        )
        for place, name in places(sheet)
    )
    if final:
        return _clip(_("Final scores: {ranking}", ranking=ranked))
    return _clip(_("Scores so far: {ranking}", ranking=ranked))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"
