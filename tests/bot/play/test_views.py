"""The confirmations before ending or leaving a game speak the asker's language, their button
labels too (the custom ids never change), and fit Discord's limits in a long language."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.play.views import EndConfirmation, LeaveConfirmation
from i18n import PSEUDO, speaking

MAX_LABEL = 80

ASKER = cast("discord.Interaction[Any]", None)  # read only when the question times out


def _buttons(view: discord.ui.View) -> list[discord.ui.Button[Any]]:
    """The buttons as Discord is sent them (each restart-proof item wraps one)."""
    return [cast("discord.ui.DynamicItem[Any]", item).item for item in view.children]


def _labels(view: discord.ui.View) -> list[str]:
    return [str(button.label) for button in _buttons(view)]


def _ids(view: discord.ui.View) -> list[str]:
    return [str(button.custom_id) for button in _buttons(view)]


async def test_the_end_question_is_english_by_default_and_french_for_a_french_asker() -> None:
    english = EndConfirmation(ASKER, game_id=7)
    assert _labels(english) == ["End the game", "Keep playing"]
    assert english.expired == "No answer: nothing was changed."
    with speaking("fr"):
        french = EndConfirmation(ASKER, game_id=7)
    assert _labels(french) == ["Terminer la partie", "Continuer"]
    assert french.expired == "Pas de réponse : rien n\u2019a changé."
    assert _ids(french) == _ids(english) == ["cascadia:endgame:7", "cascadia:keepgame:7"]


async def test_the_leave_question_is_german_for_a_german_asker() -> None:
    with speaking("de"):
        german = LeaveConfirmation(ASKER, game_id=7)
    assert _labels(german) == ["Partie verlassen", "Bleiben"]
    assert german.expired == "Keine Antwort: Du spielst weiter."


@pytest.mark.parametrize("question", [EndConfirmation, LeaveConfirmation])
async def test_the_questions_labels_fit_in_a_long_language(question: Any) -> None:
    with speaking(PSEUDO):
        view = question(ASKER, game_id=7)
    assert all(label.startswith("⟦") and len(label) <= MAX_LABEL for label in _labels(view))
