"""The achievements in German and French: the titles and descriptions the engine marks, the
solo scenarios' conditions, the final message's line and ``/cascadia stats``; and in the
pseudo-locale, the longest lines within Discord's limits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.achievements.service import AchievementsService
from bot.achievements.texts import finish_line, server_lines, stats_lines
from bot.app import ACHIEVEMENTS
from bot.game.service import GameService
from engine import ACHIEVEMENTS as ENGINE_ACHIEVEMENTS
from engine import SCENARIOS
from i18n import LANGUAGES, PSEUDO, lookup, speaking
from tests.bot.clocks import FakeClock
from tests.bot.daily.test_daily import ADA, GUILD, play_out, start


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_title_description_and_condition_has_a_translation(lang: str) -> None:
    texts = [a.title for a in ENGINE_ACHIEVEMENTS] + [a.description for a in ENGINE_ACHIEVEMENTS]
    texts += [c.words for s in SCENARIOS for c in s.extras]
    assert [t for t in texts if lookup(t, lang) is None] == []
    titles = {lookup(a.title, lang) for a in ENGINE_ACHIEVEMENTS}
    assert len(titles) == len(ENGINE_ACHIEVEMENTS), "every title its own"


def test_titles_are_shown_in_the_readers_language() -> None:
    assert ACHIEVEMENTS.shown("no-hawk") == "No hawk"
    with speaking("de"):
        assert ACHIEVEMENTS.shown("no-hawk") == "Kein Bussard"
        assert ACHIEVEMENTS.shown("score-100") == "100 Punkte"
    with speaking("fr"):
        assert ACHIEVEMENTS.shown("no-hawk") == "Aucune buse"
        assert ACHIEVEMENTS.shown("unknown-id") == "unknown-id"


def test_the_final_line_in_french_and_german() -> None:
    with speaking("fr"):
        line = finish_line(
            [("**ada**", ["Aucun ours", "Trois majorités", "Cinq partout", "Dix de chaque"])],
            [("**bo**", ["Deux fois vingt"])],
        )
    assert line == (
        "\nPour la première fois : **ada** · Aucun ours, Trois majorités, Cinq partout +1 autre."
        " Une première sur le serveur : **bo** · Deux fois vingt."
    )
    with speaking("de"):
        assert finish_line([], [("**bo**", ["Kein Fuchs"])]) == (
            "\nErstmals auf dem Server: **bo** · Kein Fuchs."
        )


def test_stats_and_server_lines_in_german() -> None:
    with speaking("de"):
        assert stats_lines([], 25) == "Erfolge: 0 von 25"
        assert stats_lines([("Kein Bär", 4)], 25) == "Erfolge: 1 von 25: Kein Bär (Partie 4)"
        assert server_lines([("Kein Bär", 3)]) == "Erfolge, die seltensten zuerst: Kein Bär (3)"


def test_in_the_pseudo_locale_the_longest_lines_fit_a_message() -> None:
    with speaking(PSEUDO):
        titles = [ACHIEVEMENTS.shown(a) for a in ACHIEVEMENTS.ids]
        assert len(stats_lines([(t, 1_000_000 + n) for n, t in enumerate(titles)], 25)) <= 2000
        assert len(server_lines([(t, 1000) for t in titles])) <= 2000
        people = [(f"**{'_' * 32}**", titles) for _unused in range(8)]
        assert len(finish_line(people, people)) <= 2000


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 2, 9, tzinfo=UTC))


async def test_stats_and_the_badges_speak_the_askers_language(service: GameService) -> None:
    await start(service, ADA)
    await play_out(service, ADA)
    achievements = AchievementsService(service, ACHIEVEMENTS)
    with speaking("fr"):
        member = await achievements.member(ADA, guild_id=GUILD)
        server = await achievements.server(GUILD)
    assert member.text.startswith("Succès : ")
    with speaking("fr"):
        french = {ACHIEVEMENTS.shown(a) for a in ACHIEVEMENTS.ids}
    assert {title for title, _earned in member.badges} == french
    assert server.startswith("Succès, les plus rares d\u2019abord : ")
