"""The commands' descriptions and choices in the reader's language, from the catalogs.

Discord asks an app for each text in every locale it knows when the commands are synced;
this translator answers from :mod:`i18n`. Command, group and option names stay English,
so typed commands, the help and the docs read the same everywhere.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes, locale_str

from i18n import lookup

NAMES = frozenset({Location.command_name, Location.group_name, Location.parameter_name})
"""What is never translated: what people type."""


class CatalogTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogs; ``None`` (Discord shows English)
    for a name, a language without a catalog, or a text the catalog lacks."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        """The catalog's translation of ``string`` for ``locale``, if any."""
        if context.location in NAMES:
            return None
        return lookup(string.message, locale.value)
