"""What the application hands the Discord client besides the game service, named by role.

The client names no feature: each feature's service reaches it as one of these roles, put
together by :mod:`bot.app`. A cog finds its feature's service with
:meth:`~bot.shell.client.CascadiaBot.part`, by type.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.game.rows import OutboxRow

Announce = Callable[[Sequence[int]], Awaitable[bool]]
"""Post the outbox rows a write just queued; whether they went out now."""


@dataclass(frozen=True, slots=True)
class Pass:
    """A piece of periodic work: ``run`` returns something true when it queued messages to
    post. ``what`` names it in the log when it fails."""

    what: str
    run: Callable[[], Awaitable[object]]


class Players(Protocol):
    """Who plays the turns that nobody is asked for (the computer seats)."""

    def wake(self, game_ids: Collection[int]) -> None:
        """Play the due turns of these games soon."""

    async def wake_all(self) -> None:
        """Play every due turn (after a restart, and after each drain)."""

    async def close(self) -> None:
        """Stop; a turn being played finishes."""


class Refusals(Protocol):
    """What follows Discord refusing to send someone a direct message."""

    async def refused(self, row: OutboxRow) -> list[int]:
        """Record the refusal; the outbox ids of what goes out instead."""

    async def refusal_note(self, user_id: int) -> str | None:
        """The word owed to ``user_id`` that their DMs are refused, taken once; ``None``."""

    async def refusal_note_lost(self, user_id: int) -> None:
        """The word could not be given: owed again."""


class Background(Protocol):
    """A task of its own that runs while the bot does (backups)."""

    def start(self) -> None:
        """Start it on the running loop."""

    async def close(self) -> None:
        """Stop it."""


@dataclass(slots=True)
class Parts:
    """The features' parts the client runs: the extensions it loads (in order), the services
    their cogs look up, the reminder check's passes, the chores after each outbox drain, the
    computer seats' player, the answer to refused direct messages and any background task."""

    extensions: Sequence[str] = ()
    services: Sequence[object] = ()
    reminder_passes: Sequence[Pass] = ()
    drain_chores: Sequence[Pass] = ()
    players: Callable[[Announce], Players] | None = None
    refusals: Refusals | None = None
    background: Sequence[Background] = ()
