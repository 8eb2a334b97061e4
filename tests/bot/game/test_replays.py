"""The replay GIF and score chart of a finished game, and their alt text."""

from __future__ import annotations

import asyncio
import os
from io import BytesIO

import pytest
from PIL import Image

from bot.game.captions import MAX_DESCRIPTION, environment_files
from bot.game.pictures import start_renderer
from bot.game.replays import (
    CHART_FILE,
    REPLAY_FILE,
    Lead,
    chart_description,
    game_pictures,
    leads,
    replay_description,
    story,
)
from engine import (
    GameState,
    Habitat,
    PlayerScore,
    Round,
    ScoreSheet,
    new_game,
    record_for,
    score_state,
)
from engine.players import random_game

FINISHED, _ = random_game(players=2, seed=1)
GOING = new_game(players=2, seed=1)


def rounds_of(
    totals: list[dict[str, int]], *, over: bool = True, nature: dict[str, int] | None = None
) -> list[Round]:
    """Rounds with these totals (all in one habitat, for simplicity) and, in the last, these
    nature tokens left; the game over after the last or not."""
    found = []
    for number, scores in enumerate(totals, start=1):
        last = number == len(totals)
        tokens = (nature or {}) if last else {}
        sheet = ScoreSheet(
            tuple(
                PlayerScore(
                    name,
                    {},
                    {Habitat.FOREST: total - tokens.get(name, 0)},
                    {},
                    tokens.get(name, 0),
                )
                for name, total in scores.items()
            )
        )
        state: GameState = FINISHED if last and over else GOING
        found.append(Round(number, state, sheet, (None,) * len(scores)))
    return found


def test_leads_joins_the_rounds_of_the_same_leaders() -> None:
    rounds = rounds_of(
        [{"ann": 5, "bob": 7}, {"ann": 8, "bob": 8}, {"ann": 9, "bob": 8}, {"ann": 12, "bob": 9}]
    )
    assert leads(rounds) == [
        Lead(("bob",), 1, 1),
        Lead(("ann", "bob"), 2, 2),
        Lead(("ann",), 3, 4),
    ]


def test_the_story_says_since_when_the_winner_led_and_by_how_much() -> None:
    rounds = rounds_of(
        [
            {"alice": 3, "bob": 6},
            {"alice": 5, "bob": 9},
            {"alice": 12, "bob": 10},
            {"alice": 20, "bob": 16},
        ]
    )
    assert story(rounds) == (
        "alice led from round 3 and won by 4 points."
        " Before that the lead was held by bob in rounds 1-2."
        " Final scores: alice 20, bob 16."
    )


def test_a_winner_ahead_all_game_led_from_the_first_round() -> None:
    rounds = rounds_of([{"ann": 9, "bob": 2, "cy": 4}, {"ann": 20, "bob": 19, "cy": 4}])
    assert story(rounds) == (
        "ann led from the first round and won by 1 point. Final scores: ann 20, bob 19, cy 4."
    )


def test_a_tie_on_points_is_won_on_nature_tokens() -> None:
    rounds = rounds_of([{"ann": 9, "bob": 4}, {"ann": 30, "bob": 30}], nature={"ann": 1, "bob": 3})
    assert story(rounds) == (
        "bob took the lead in round 2 and won on nature tokens, level on 30 points with ann."
        " Before that the lead was held by ann in round 1. Final scores: bob 30, ann 30."
    )


def test_players_level_on_points_and_nature_tokens_share_the_win() -> None:
    rounds = rounds_of([{"ann": 9, "bob": 4, "cy": 1}, {"ann": 30, "bob": 30, "cy": 12}])
    assert story(rounds).startswith(
        "ann and bob drew level in round 2 and shared the win on 30 points."
    )


def test_a_game_ended_early_names_who_was_ahead_then() -> None:
    rounds = rounds_of([{"ann": 3, "bob": 6}, {"ann": 9, "bob": 6}], over=False)
    assert story(rounds) == (
        "ann took the lead in round 2 and was ahead by 3 points when the game was ended."
        " Before that the lead was held by bob in round 1."
        " Scores after round 2 of 20: ann 9, bob 6."
    )


def test_a_solo_story_follows_the_score() -> None:
    rounds = rounds_of([{"sam": 4}, {"sam": 9}, {"sam": 11}])
    assert story(rounds) == (
        "sam went from 4 points after round 1 to 11 after round 3; the best round was round 2, +5."
    )
    assert chart_description(rounds).startswith(
        "Chart of the score if the game had ended after every round, bonuses in. sam"
    )
    assert "the environment as it grew" in replay_description(rounds)


def test_many_lead_changes_between_long_names_fit_the_description_limit() -> None:
    names = [f"{letter * 28}{index}" for index, letter in enumerate("wxyz")]
    totals = [{name: (n + seat) % 4 + n for seat, name in enumerate(names)} for n in range(20)]
    rounds = rounds_of(totals)
    assert len(leads(rounds)) > 10
    for text in (replay_description(rounds), chart_description(rounds)):
        assert len(text) <= MAX_DESCRIPTION
        assert f"The lead changed hands {len(leads(rounds)) - 1} times before that." in text
        assert "Final scores: " in text


def test_the_descriptions_say_what_each_picture_shows() -> None:
    rounds = rounds_of([{"ann": 3, "bob": 6}, {"ann": 9, "bob": 6}])
    assert replay_description(rounds) == (
        "Replay of the game, one frame per round for 2 rounds: every environment as it grew,"
        " each round's new tile ringed, the totals so far. " + story(rounds)
    )
    assert chart_description(rounds) == (
        "Chart of each player's total score if the game had ended after every round, bonuses in. "
        + story(rounds)
    )


def test_a_game_s_pictures_are_its_replay_and_its_chart() -> None:
    state, actions = random_game(players=3, seed=9)
    files = game_pictures(record_for(state, actions, ("ann", "bob", "cy")))
    assert [f.name for f in files] == [REPLAY_FILE, CHART_FILE]
    assert files[0].name.endswith(".gif")
    assert "chart" in files[1].name
    assert files[1].name.endswith(".png")
    with Image.open(BytesIO(files[0].data)) as gif:
        assert gif.format == "GIF"
        assert getattr(gif, "n_frames", 1) >= 20
    with Image.open(BytesIO(files[1].data)) as chart:
        assert chart.format == "PNG"
    sheet = score_state(state, ("ann", "bob", "cy"))
    (winner,) = sheet.winners
    ranked = ", ".join(f"{name} {sheet.player(name).total}" for name in sheet.ranking)
    for file in files:
        assert len(file.description) <= MAX_DESCRIPTION
        assert f"{winner} " in file.description
        assert " and won " in file.description
        assert file.description.endswith(f"Final scores: {ranked}.")


def test_a_record_without_a_whole_turn_has_no_pictures() -> None:
    state = new_game(players=2, seed=4)
    assert game_pictures(record_for(state)) == []


def test_players_named_like_the_new_pictures_get_other_file_names() -> None:
    assert environment_files(["replay", "score-chart"]) == ["replay-1.png", "score-chart-2.png"]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the bot draws in threads")
async def test_the_picture_worker_draws_a_game_s_pictures() -> None:
    state, actions = random_game(players=4, seed=2)
    record = record_for(state, actions, ("a", "b", "c", "d"))
    renderer = start_renderer()
    assert renderer is not None
    try:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(60):  # the first job starts the worker (a fresh interpreter)
            files = await loop.run_in_executor(renderer, game_pictures, record)
    finally:
        renderer.shutdown(wait=True)
    assert files == game_pictures(record)
