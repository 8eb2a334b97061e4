"""The texts translated so far, in each language: the help and the start message."""

from __future__ import annotations

import pytest

from bot.game.messages import HELP, help_message
from bot.i18n import LANGUAGES, PSEUDO

DISCORD_MESSAGE_LIMIT = 2000


@pytest.mark.parametrize("locale", [None, "en-US", "pt-BR", "de", "fr"])
def test_the_help_fits_one_message_in_every_language(locale: str | None) -> None:
    assert len(help_message(locale)) <= DISCORD_MESSAGE_LIMIT


def test_the_help_is_german_for_german_and_french_for_french() -> None:
    assert help_message() == HELP
    assert help_message("en-GB") == HELP
    assert help_message("de").startswith("**So spielt man Cascadia.**")
    assert help_message("fr").startswith("**Comment jouer à Cascadia.**")
    assert help_message(PSEUDO).startswith("⟦")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_keeps_every_command_and_button(lang: str) -> None:
    def commands(text: str) -> list[str]:
        return [word for word in text.split("`") if word.startswith("/cascadia")]

    def buttons(text: str) -> set[str]:
        return {word for word in text.split("**")[1::2] if word[:1].isupper() and " " not in word}

    assert commands(help_message(lang)) == commands(HELP)
    english_buttons = {"Play", "Pair", "Where", "Next", "Token", "Check", "Confirm", "Back"}
    assert english_buttons <= buttons(help_message(lang))
