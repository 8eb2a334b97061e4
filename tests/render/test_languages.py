"""The pictures' words in the reader's language: German and French pictures differ from the
English ones, the cards' reminders keep their numbers, and longer words (German, the
pseudo-locale) shrink or wrap instead of running out of their room."""

from __future__ import annotations

import re
from dataclasses import replace
from io import BytesIO

import pytest
from PIL import Image

from benchmarks import positions
from engine import (
    CardSet,
    Habitat,
    Hex,
    Phase,
    ScoreSheet,
    Wildlife,
    record_for,
    replay_rounds,
)
from engine.players import random_game
from engine.scoring import CARDS
from i18n import PSEUDO, speaking, translate
from render import (
    render_badges,
    render_board,
    render_display,
    render_environment,
    render_preview,
    render_score_chart,
    render_scores,
    turn_frame,
)
from render.badges import BADGE_WIDTH, PADDING, _fitting
from render.cards import reminder
from render.display import WIDTH, _legend_size
from render.fonts import fit_text, fitting_size, text_width
from render.replay import _title
from render.scores import MAX_LABEL_COLUMN, label_column
from render.words import habitat_word

LOCALES = ("de", "fr", PSEUDO)


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(BytesIO(png)) as image:
        return image.size


def _sheet() -> ScoreSheet:
    return positions.score_sheet(positions.finished_game())


@pytest.mark.parametrize("locale", LOCALES)
def test_a_german_or_french_score_pad_differs_from_the_english_one(locale: str) -> None:
    english = render_scores(_sheet())
    with speaking(locale):
        spoken = render_scores(_sheet())
    assert spoken != english
    # The label column grows for longer words, within its bound; the players' columns stay.
    with speaking(locale):
        assert label_column() <= MAX_LABEL_COLUMN


@pytest.mark.parametrize("locale", LOCALES)
def test_a_translated_environment_differs_and_is_not_served_from_the_english_cache(
    locale: str,
) -> None:
    state = positions.late_four_player()
    english = render_environment(state, 3, name="Dmitri", score=43)
    with speaking(locale):
        spoken = render_environment(state, 3, name="Dmitri", score=43)
        board = render_board(state, 3, name="Dmitri", frame=turn_frame(state), score=43)
    assert spoken != english
    assert _size(spoken) == _size(english)
    assert board != render_board(state, 3, name="Dmitri", frame=turn_frame(state), score=43)
    # And back in English, the English picture again.
    assert render_environment(state, 3, name="Dmitri", score=43) == english


@pytest.mark.parametrize("locale", LOCALES)
def test_translated_displays_keep_their_size(locale: str) -> None:
    for state in (
        positions.start_of_game(),
        positions.solo_game(),
        positions.late_four_player(Phase.PLACE_TILE),
        replace(positions.late_four_player(), cards=CardSet.parse("intermediate")),
    ):
        english = render_display(state)
        with speaking(locale):
            spoken = render_display(state)
        assert spoken != english
        assert _size(spoken) == _size(english)


def test_a_preview_chart_and_replay_speak_german() -> None:
    state = positions.late_four_player()
    seat = state.current
    english = render_preview(state, seat, name="Bartholomew", highlight={Hex(0, 0)})
    with speaking("de"):
        german = render_preview(state, seat, name="Bartholomew", highlight={Hex(0, 0)})
    assert german != english
    played, actions = random_game(players=2, seed=8)
    rounds = replay_rounds(record_for(played, actions, ("Ada", "Bob")))
    english_chart = render_score_chart(rounds)
    with speaking("de"):
        assert render_score_chart(rounds) != english_chart
        assert _title(rounds[-1], True) == "Endstand nach Runde 20"
        assert _title(rounds[3], False) == "Runde 4 von 20"
    with speaking("fr"):
        assert _title(rounds[3], False) == "Manche 4 sur 20"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("wildlife", "card"), sorted(CARDS), ids=lambda v: str(v))
def test_every_reminder_keeps_its_numbers_in_every_language(
    locale: str, wildlife: Wildlife, card: str
) -> None:
    cards = CardSet.parse(card)
    english = reminder(cards, wildlife)
    with speaking(locale):
        spoken = reminder(cards, wildlife)
    assert spoken != english

    def numbers(text: str) -> list[str]:
        return re.findall(r"\d+\+?", text)

    assert numbers(spoken) == numbers(english)


def test_reminders_and_names_are_the_editions_words() -> None:
    with speaking("de"):
        assert reminder(CardSet.parse("B"), Wildlife.BEAR) == "jede Gruppe aus genau 3 Bären: 10"
        assert habitat_word(Habitat.MOUNTAIN) == "Gebirge"
    with speaking("fr"):
        assert habitat_word(Habitat.WETLAND) == "marais"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_legend_fits_across_the_display(locale: str) -> None:
    with speaking(locale):
        words = [habitat_word(habitat) for habitat in Habitat]
        keystone = translate("keystone", locale)
        size = _legend_size(words, keystone)
        used = sum(22 + text_width(word, size) + 34 for word in words)
    assert 14 + used + text_width(keystone, size) <= WIDTH - 2 * 16


def test_english_legend_keeps_its_size() -> None:
    assert _legend_size([h.value for h in Habitat], "keystone") == 19


@pytest.mark.parametrize(
    "title",
    [
        "Wildnisplättchensammlerin",
        "Hundert Punkte in einer einzigen Partie erreicht",
        "⟦10 from every wildlife¤¤¤¤¤¤¤⟧",
        "Überbevölkerungsabräumerin mit Zapfen",
    ],
)
def test_badge_titles_fit_their_badge(title: str) -> None:
    inner = BADGE_WIDTH - 2 * PADDING
    lines, size = _fitting(title, inner)
    assert 1 <= len(lines) <= 3
    assert all(text_width(line, size) <= inner for line in lines)
    assert _size(render_badges([(title, True)], title="Erfolge")) == (720, 218)


def test_fit_text_shrinks_then_shortens() -> None:
    assert fit_text("taken", 20, 200, least=14) == ("taken", 20)
    text, size = fit_text("Schlüsselplättchen", 20, 150, least=14)
    assert text == "Schlüsselplättchen"
    assert size < 20
    assert text_width(text, size) <= 150
    text, size = fit_text("Schlüsselplättchen " * 5, 20, 150, least=14)
    assert size == 14
    assert text.endswith("…")
    assert text_width(text, size) <= 150
    assert fitting_size("x" * 200, 20, 10, least=12) == 12
