"""The commands as Discord is sent them: every description and choice in German and French,
every name English."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.shell.client import CascadiaBot
from bot.shell.translator import CatalogTranslator
from i18n import LANGUAGES

SUBCOMMAND, GROUP = 1, 2


async def _payload(bot: CascadiaBot) -> dict[str, Any]:
    translator = CatalogTranslator()
    await bot.tree.set_translator(translator)
    commands = bot.tree.get_commands()
    (group,) = [await c.get_translated_payload(bot.tree, translator) for c in commands]
    return group


def _walk(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield command
    for option in command.get("options", []):
        yield from _walk(option)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_command_option_and_choice_has_a_translation(
    bot: CascadiaBot, lang: str
) -> None:
    group = await _payload(bot)
    assert group["name"] == "cascadia"
    untranslated = []
    for item in _walk(group):
        localized = item.get("description_localizations", {}).get(lang)
        if not localized or localized == item["description"]:
            untranslated.append(item["name"])
        elif len(localized) > 100:
            untranslated.append(f"{item['name']} (over 100 characters)")
        for choice in item.get("choices", []):
            name = choice.get("name_localizations", {}).get(lang)
            if not name or len(name) > 100:
                untranslated.append(f"{item['name']}: {choice['name']}")
    assert untranslated == []


async def test_every_subcommand_has_a_german_and_french_description(bot: CascadiaBot) -> None:
    group = await _payload(bot)
    commands = [o for o in _walk(group) if o.get("type") in (SUBCOMMAND, GROUP)]
    assert len(commands) >= 25
    for command in [group, *commands]:
        assert set(command["description_localizations"]) >= {"de", "fr"}, command["name"]
    (help_command,) = [c for c in commands if c["name"] == "help"]
    assert help_command["description_localizations"]["de"] == "Wie man spielt, und die Befehle"


async def test_names_stay_english(bot: CascadiaBot) -> None:
    group = await _payload(bot)
    assert [item for item in _walk(group) if item.get("name_localizations")] == []
