"""The texts translated so far, in each language: the help and the start message."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.game.hooks import AwayPeriod, Call
from bot.game.messages import HELP, Player, help_message, start_message
from engine import SCENARIOS, new_game
from i18n import LANGUAGES, PSEUDO

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


ADA, BOB = Player(101, "Ada"), Player(102, "Bob")
AWAY = AwayPeriod(
    start=datetime(2026, 12, 1, tzinfo=UTC), end=datetime(2026, 12, 24, tzinfo=UTC), note=None
)
CALL = Call(ping=True, deadline=datetime(2026, 12, 5, tzinfo=UTC), away=AWAY)


def test_the_start_message_in_german_names_the_cards_as_the_german_edition() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), CALL, locale="de")
    assert text.startswith("Die Partie beginnt! Mitspielende: **Ada**, **Bob**.")
    assert "Wertungskarten: Bär A · Hirsch B · Lachs C · Bussard D · Fuchs A." in text
    assert "du bist am Zug: Runde 1 von 20 · Zug 1 von 40 · noch " in text
    assert " · zieht bis <t:" in text
    assert "ist abwesend bis <t:" in text
    assert text.endswith("`/cascadia help` erklärt die Regeln.")


def test_the_start_message_in_french_names_the_cards_as_the_french_edition() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), locale="fr")
    assert text.startswith("La partie commence ! Joueurs : **Ada**, **Bob**.")
    assert "Cartes : Ours A · Wapiti B · Saumon C · Buse D · Renard A." in text
    assert "est ton tour : manche 1 sur 20 · tour 1 sur 40 · " in text
    assert text.endswith("`/cascadia help` explique les règles.")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_start_message_keeps_its_shape_and_mentions(locale: str) -> None:
    state = new_game(players=2, seed=5, cards="family")
    english = start_message(state, (ADA, BOB), CALL)
    translated = start_message(state, (ADA, BOB), CALL, locale=locale)
    assert translated != english
    assert translated.count("\n") == english.count("\n")
    assert re.findall(r"<[@t][^>]*>", translated) == re.findall(r"<[@t][^>]*>", english)
    assert "family" not in translated.lower()


def test_a_solo_scenario_start_reads_its_target_in_german() -> None:
    scenario = SCENARIOS[0]
    state = new_game(players=1, seed=5, cards=scenario.cards)
    text = start_message(state, (ADA,), locale="de")
    assert text.startswith("Die Partie beginnt (Solo-Regeln)!")
    assert f"**Solo-Szenario {scenario.number}**: {scenario.target} Punkte oder mehr" in text


def test_the_pseudo_locale_wraps_every_word_of_the_start_message() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = start_message(state, (ADA, BOB), locale=PSEUDO)
    unwrapped = ""
    while unwrapped != text:  # inside out: a text may be filled into another
        unwrapped, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    assert re.sub(r"[\s·.,!;:A-D]|\*\*\w+\*\*|<@\d+>", "", unwrapped) == ""
