"""The languages people and servers were last seen with, noted as requests come in.

Discord sends the person's locale and the server's with every request, but a reminder, digest
or direct message is written outside any request: the store keeps the latest of each (see
:meth:`~bot.game.store.GameStore.person_locale`). This process writes one only when it differs
from what it last wrote, so a request costs no write in the usual case.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.game.store import GameStore


class LocaleNotes:
    """Notes each person's and server's locale in ``store`` when it changes."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._written: dict[tuple[str, int], str] = {}

    async def note(self, interaction: discord.Interaction[Any]) -> None:
        """Note the locales ``interaction`` came with, where they changed."""
        locale = interaction.locale.value
        if self._changed("person", interaction.user.id, locale):
            await self.store.note_person_locale(interaction.user.id, locale)
            self._written["person", interaction.user.id] = locale
        guild_id, guild_locale = interaction.guild_id, interaction.guild_locale
        if guild_id is None or guild_locale is None:
            return
        if self._changed("server", guild_id, guild_locale.value):
            await self.store.note_guild_locale(guild_id, guild_locale.value)
            self._written["server", guild_id] = guild_locale.value

    def _changed(self, kind: str, key: int, locale: str) -> bool:
        return self._written.get((kind, key)) != locale
