"""The standings' answers in the reader's language: German and French figures, numbers
written the locale's way, the editions' names of the species and cards, and the pseudo-locale's
longer texts still inside Discord's limits."""

from __future__ import annotations

import pytest

from bot.game.errors import BotError
from bot.standings.service import NoSeason, NotManager, OthersEverywhere, league_answer
from bot.standings.stats import (
    duration,
    leaderboard_message,
    member_stats,
    server_message,
    server_stats,
    stats_message,
)
from bot.stores import Store
from i18n import speaking
from tests.bot.standings.test_stats import ADA, GUILD, MINE, RESULTS, _mates, _own, _rating

MESSAGE = 2000
"""Discord's limit on a message's text."""


def _ada(locale: str) -> list[str]:
    with speaking(locale):
        return stats_message("ada", member_stats(_own(ADA), _mates(MINE), ADA)).splitlines()


def test_a_member_s_figures_in_german() -> None:
    lines = _ada("de")
    assert lines[0] == "**ada** auf diesem Server: 3 Partien, 2 gewonnen; 1 Partie solo"
    assert "Punkte: Schnitt 83,5, Bestwert 99 (Partie 3, Karten ABCDA)" in lines
    assert "Platz im Schnitt: 1,33" in lines
    assert "Beste Karten: Bär B 6,0, Bär A 4,0, Hirsch B 4,0" in lines
    assert "Median je Zug 1 min, 3 Zapfen ausgegeben, größtes Gebiet 9" in lines
    assert "gegen bob: 1-1-1" in lines
    with speaking("de"):
        assert stats_message("cy", member_stats([], [], 300), here=False) == (
            "**cy** hat noch nirgends eine beendete Partie."
        )


def test_a_member_s_figures_in_french() -> None:
    lines = _ada("fr")
    assert lines[0] == "**ada** sur ce serveur : 3 parties, 2 gagnées ; 1 partie en solo"
    assert "Place moyenne : 1,33" in lines
    assert any(line.startswith("Par espèce : ours 4,5, wapiti 4,0, saumon 0,0") for line in lines)
    assert "Tour médian 1 min, 3 jetons Nature dépensés, plus grande zone 9" in lines
    assert "contre bob : 1-1-1" in lines


@pytest.mark.parametrize(
    ("locale", "seconds", "shown"),
    [("de", 3 * 3600 + 300, "3 h 5 min"), ("fr", 52 * 3600, "2 j 4 h"), ("de", 45, "45 s")],
)
def test_durations_in_the_reader_s_language(locale: str, seconds: float, shown: str) -> None:
    with speaking(locale):
        assert duration(seconds) == shown


def test_the_server_s_figures_in_german_and_french() -> None:
    stats = server_stats(RESULTS)
    with speaking("de"):
        german = server_message(stats, link="https://discord.com/channels/1/10").splitlines()
    assert german == [
        "Dieser Server: 5 Partien beendet",
        "Am aktivsten: ada (4), bob (4), cy (1)",
        "Siegpunkte im Schnitt: 86,2",
        "Höchste Punktzahl: 99 von ada (Partie 3) https://discord.com/channels/1/10",
        "Computer strong: 0 von 1 Partie gewonnen",
    ]
    with speaking("fr"):
        french = server_message(stats).splitlines()
        assert server_message(server_stats([])) == (
            "Aucune partie terminée sur ce serveur pour l\u2019instant."
        )
    assert french[0] == "Ce serveur : 5 parties terminées"
    assert french[-1] == "Ordinateur strong : 0 gagnée sur 1 partie"


def test_the_leaderboard_writes_ratings_as_the_locale_does() -> None:
    board = [_rating("1", 1234.5), _rating("fast", -5.0)]
    with speaking("de"):
        text = leaderboard_message(board, season=2, caller="fast", place=2, own=board[1])
    assert text.splitlines() == [
        "**Saison 2** (Wertung = mu - 3 sigma)",
        "1. p1 1.234,5 (+0,5), 3 Partien, 1 gewonnen",
        "**2. pfast -5,0 (+0,5), 3 Partien, 1 gewonnen**",
    ]
    with speaking("fr"):
        assert leaderboard_message([], season=3, caller="1", place=None, own=None) == (
            "La saison 3 n\u2019a encore aucune partie classée."
        )


async def test_the_league_answers_and_refusals_in_the_reader_s_language(store: Store) -> None:
    with speaking("de"):
        on = await league_answer(store, GUILD, ADA, "on", can_manage=True)
        joined = await league_answer(store, GUILD, ADA, "join", can_manage=False)
        refused = NotManager("season").message()
        wrong = await _refusal(league_answer(store, GUILD, ADA, "maybe", can_manage=False))
    assert on.startswith("Die Liga läuft (Saison 1).")
    assert joined == "Du bist der Liga beigetreten."
    assert refused == "Nur wer „Server verwalten“ darf, kann `/cascadia league season` nutzen."
    assert wrong == "Die Aktionen der Liga sind on, off, join, leave, season, nicht 'maybe'."
    # The log keeps the English.
    assert str(NotManager("season")).startswith("Only someone with Manage Server")
    with speaking("fr"):
        closed = await league_answer(store, GUILD, ADA, "season", can_manage=True)
        assert NoSeason(4, 2).message().startswith("Il n\u2019y a pas de saison 4 :")
        assert "`/cascadia stats everywhere:True` montre les tiens." in OthersEverywhere().message()
    assert closed.startswith("La saison 1 est close ; la saison 2 commence.")


async def _refusal(answer: object) -> str:
    try:
        await answer  # type: ignore[misc]
    except BotError as error:
        return error.message()
    raise AssertionError("no refusal")


def test_the_pseudo_locale_s_longer_answers_fit_a_message() -> None:
    with speaking("en-XA"):
        figures = stats_message("a" * 32, member_stats(_own(ADA), _mates(MINE), ADA))
        server = server_message(server_stats(RESULTS), link="https://discord.com/channels/1/10")
        board = [_rating(str(n), 30.0 - n) for n in range(20)]
        ranks = leaderboard_message(board, season=1, caller="99", place=40, own=_rating("99", 1))
    for text in (figures, server, ranks):
        assert "⟦" in text
        assert len(text) <= MESSAGE
