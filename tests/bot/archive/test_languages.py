"""The archive's texts in the reader's language: the history's pages, entries, dates and
buttons in German and French, and the pseudo-locale's longer texts inside Discord's limits."""

from __future__ import annotations

import dataclasses

import discord

from bot.archive.cog import HistoryButton, history_view
from bot.archive.service import PAGE_SIZE, HistoryPage, NoArchivedGame, game_entry, history_text
from i18n import speaking
from tests.bot.archive.test_archive import _game

MESSAGE, LABEL, CHOICE = 2000, 80, 100
"""Discord's limits: a message's text, a button's label, an autocomplete choice's name."""


def test_a_history_entry_in_german_and_french() -> None:
    shared = _game(2, ("*Ada*", "Bob", "Cy"), (80, 91, 91))
    with speaking("de"):
        german = game_entry(shared)
        again = game_entry(dataclasses.replace(_game(3, ("Ada",), (70,)), continues=2))
    assert german == (
        "**Partie 2**, 02.12.2026, Karten AAAAA: **Bob** und **Cy** haben sich den Sieg geteilt\n"
        "Bob 91 · Cy 91 · \\*Ada\\* 80 · [Schlussnachricht](https://discord.com/channels/1/2/3)"
    )
    assert again.startswith("**Partie 3** (Revanche nach Partie 2), 03.12.2026,")
    with speaking("fr"):
        french = game_entry(_game(1, ("Ada",), (70,)))
        three = game_entry(_game(4, ("Ada", "Bob", "Cy"), (70, 70, 70)))
    assert french == "**Partie 1**, 1 déc. 2026, cartes AAAAA : **Ada** a gagné\nAda 70"
    assert "**Ada**, **Bob** et **Cy** ont partagé la victoire" in three


def test_a_history_page_and_its_refusals_in_the_reader_s_language() -> None:
    games = tuple(_game(n, ("Ada", "Bob"), (90, 80)) for n in range(2, 2 + PAGE_SIZE))
    with speaking("de"):
        page = history_text(HistoryPage(games, page=3, pages=3, total=13, whose="Bob", asked=7))
        nothing = history_text(HistoryPage((), page=1, pages=1, total=0))
        missing = NoArchivedGame("12").message()
    assert page.startswith(
        "Es gibt keine Seite 7: Das ist die letzte, Seite 3.\n"
        "**Beendete Partien mit Bob** (13 insgesamt, Seite 3 von 3)"
    )
    assert nothing == "Noch keine beendeten Partien auf diesem Server."
    assert missing.startswith("Keine beendete Partie '12' auf diesem Server")
    with speaking("fr"):
        assert history_text(HistoryPage(games, page=1, pages=1, total=5)).startswith(
            "**Parties terminées sur ce serveur** (5 en tout)"
        )
        assert _game(2, ("Ada",), (70,)).label() == "Partie 2, 2 déc. 2026 : Ada 70"


async def test_the_page_buttons_are_labelled_in_the_reader_s_language() -> None:
    games = tuple(_game(n, ("Ada",), (70,)) for n in range(2, 4))
    with speaking("fr"):
        french = _labels(history_view(HistoryPage(games, page=2, pages=3, total=13), 0))
    assert french == ["Plus récentes", "Plus anciennes"]
    with speaking("en-XA"):
        pseudo = _labels(history_view(HistoryPage(games, page=2, pages=3, total=13), 0))
    assert all(len(label) <= LABEL for label in pseudo)


def _labels(view: object) -> list[str]:
    assert isinstance(view, discord.ui.View)
    return [str(item.item.label) for item in view.children if isinstance(item, HistoryButton)]


def test_the_pseudo_locale_s_history_fits_a_message_and_a_choice() -> None:
    long_names = ("x" * 32, "y" * 32, "z" * 32, "w" * 32)
    games = tuple(_game(n, long_names, (90, 80, 70, 60)) for n in range(2, 2 + PAGE_SIZE))
    with speaking("en-XA"):
        text = history_text(HistoryPage(games, page=2, pages=3, total=13, asked=7))
        label = games[0].label()
    assert text.count("⟦") >= PAGE_SIZE
    assert len(text) <= MESSAGE
    assert label.startswith("⟦")
    assert len(label) <= CHOICE
