"""The pictures' descriptions (alt text) in the reader's language; their file names in none."""

from __future__ import annotations

import pytest

from benchmarks import positions
from bot.game.captions import (
    MAX_DESCRIPTION,
    display_description,
    environment_description,
    environment_files,
    scores_description,
)
from i18n import PSEUDO, speaking


def test_descriptions_are_german_in_german() -> None:
    state = positions.late_four_player()
    sheet = positions.score_sheet(positions.finished_game())
    with speaking("de"):
        about = environment_description("Ada", state, 0, 47)
        display = display_description(state)
        final = scores_description(sheet, final=True)
        so_far = scores_description(sheet, final=False)
    tiles = len(state.seats[0].environment)
    assert (
        about
        == f"Umgebung von Ada: {tiles} Plättchen, 47 Punkte, wenn die Partie jetzt endete, mit Boni"
    )
    assert display.startswith("Die Auslage: 1: Plättchen ")
    assert " und " in display
    assert final.startswith("Endstand: 1. Dmitri 43 Punkte, ")
    assert so_far.startswith("Zwischenstand: 1. ")


def test_descriptions_are_french_in_french() -> None:
    state = positions.finished_game()
    sheet = positions.score_sheet(state)
    with speaking("fr"):
        about = environment_description("Ada", state, 0, 1)
        final = scores_description(sheet, final=True)
        display = display_description(state)
    tiles = len(state.seats[0].environment)
    assert about == f"Environnement de Ada\u00a0: {tiles} tuiles, 1 point"
    assert final.startswith("Scores finaux\u00a0: 1. Dmitri 43 points")
    assert display.startswith("L\u2019offre\u00a0: 2\u00a0: tuile marais-rivière et wapiti; ")


def test_english_descriptions_are_unchanged() -> None:
    state = positions.finished_game()
    tiles = len(state.seats[0].environment)
    assert (
        environment_description("Ada", state, 0, 1) == f"Ada's environment: {tiles} tiles, 1 point"
    )
    assert display_description(state).startswith(
        "The display: 2: wetland-river tile and elk; 3: mountain-wetland tile and bear"
    )


@pytest.mark.parametrize("locale", ["de", "fr", PSEUDO])
def test_file_names_are_the_same_in_every_language(locale: str) -> None:
    names = ["Ada", "Zoë", "田中"]
    english = environment_files(names)
    with speaking(locale):
        assert environment_files(names) == english


def test_a_pseudo_description_stays_within_discord_limits() -> None:
    state = positions.late_four_player()
    sheet = positions.score_sheet(positions.finished_game())
    with speaking(PSEUDO):
        texts = [
            environment_description("x" * 32, state, 0, 47),
            display_description(state),
            scores_description(sheet, final=False),
        ]
    for text in texts:
        assert text.startswith("⟦")
        assert len(text) <= MAX_DESCRIPTION
