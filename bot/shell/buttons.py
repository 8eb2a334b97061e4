"""What every restart-proof button of the bot has in common, and the private question that
carries some of them.

A button (or the turn panel's select) is a :class:`discord.ui.DynamicItem` whose
``custom_id`` carries the ids it needs, so a press after a restart is rebuilt from the id
alone: :class:`IdItem` reads the fields of its template and builds the item from them. Every
press is admitted like a command (refused while the bot shuts down) and any error it raises is
answered privately, as a command's is. The lobby's, the confirmations' and the votes' buttons
are built on these.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self, TypeVar

import discord

from bot.shell import errors
from bot.shell.client import CascadiaBot

Interaction = discord.Interaction[CascadiaBot]
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

QUESTION_SECONDS = 120
"""How long a private question keeps its buttons when nobody answers it."""


class Question(discord.ui.View):
    """A private question with restart-proof buttons; unanswered, it is closed after
    :data:`QUESTION_SECONDS` with ``expired`` as its text."""

    expired: str

    def __init__(self, original: Interaction, *items: discord.ui.Item[Any]) -> None:
        super().__init__(timeout=QUESTION_SECONDS)
        self.original = original
        for item in items:
            self.add_item(item)

    async def on_timeout(self) -> None:
        """Take the buttons away, unless a press answered the question already."""
        with contextlib.suppress(discord.HTTPException):
            message = await self.original.original_response()
            if message.components:
                await self.original.edit_original_response(content=self.expired, view=None)


class IdItem(discord.ui.DynamicItem[ItemT], template=r"$^"):
    """A component rebuilt from the fields of its custom id after a press: each named group of
    the subclass's template, read as a number unless it is one of :attr:`text_fields` (an
    optional group that did not match is ``None``), is handed to :meth:`from_fields`."""

    text_fields: ClassVar[frozenset[str]] = frozenset()
    """The fields that are text, not numbers."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """Rebuild the component from a press: the fields of its custom id."""
        fields = {
            name: text if text is None or name in cls.text_fields else int(text)
            for name, text in match.groupdict().items()
        }
        return cls.from_fields(fields)

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Self:
        """The component of these fields: by default, built with them as keywords."""
        return cls(**fields)


class ActionButton(IdItem[discord.ui.Button[discord.ui.View]], template=r"$^"):
    """A button that does :meth:`act` when pressed; the subclass gives its template, how it is
    built and what it does. With ``defer`` the press is acknowledged before it acts."""

    defer = False

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the press like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Do what the button says; any refusal is answered privately like a command's."""
        try:
            if self.defer:
                await interaction.response.defer()
            await self.act(interaction)
        except Exception as error:
            await errors.report(interaction, error)

    async def act(self, interaction: Interaction) -> None:
        """What pressing the button does."""
        raise NotImplementedError


class GameButton(ActionButton, template=r"$^"):
    """A button about one game, ``cascadia:<action>:<game id>`` (and a subclass's own ids
    after it); the subclass says which action and how it looks."""

    action: str
    label: str
    style: discord.ButtonStyle

    def __init__(self, game_id: int, *, tail: str = "") -> None:
        """``tail``: more of the custom id after the game id (a subclass's own ids)."""
        custom_id = f"cascadia:{self.action}:{game_id}{tail}"
        super().__init__(discord.ui.Button(label=self.label, style=self.style, custom_id=custom_id))
        self.game_id = game_id
