"""Whose language a text of attendance is read in, outside any interaction: the game's public
language for what is posted in its channel, the person's own for a direct message.

The periodic passes (reminders, votes, pings, digests) run with no reader set, so every text
they build is made inside :func:`i18n.speaking` with one of these.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.game.rows import GameRow, Seat
from bot.game.store import GameStore

__all__ = ["game_locale", "people_locales", "person_locale", "seat_locale"]


def game_locale(game: GameRow) -> str | None:
    """The game's public language (``None``: English)."""
    return getattr(game, "locale", None)


def seat_locale(seat: Seat) -> str | None:
    """The language last seen of the person in ``seat`` (``None``: a computer, or unknown)."""
    return getattr(seat, "locale", None)


async def person_locale(store: GameStore, user_id: int) -> str | None:
    """The person's language as last seen (``None``: unknown, English)."""
    read = getattr(store, "person_locale", None)
    return None if read is None else await read(user_id)


async def people_locales(store: GameStore, user_ids: Collection[int]) -> dict[int, str | None]:
    """:func:`person_locale` of each of the users, by user id."""
    return {user_id: await person_locale(store, user_id) for user_id in sorted(set(user_ids))}
