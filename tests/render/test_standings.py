"""The standings' picture: a bar a game, the best in gold, phone-sized and deterministic."""

from __future__ import annotations

import io

from PIL import Image

from render import render_score_history, theme
from render.standings import HEIGHT, MAX_BARS, WIDTH, render_history_image


def _gold_columns(image: Image.Image) -> list[int]:
    rgb = image.convert("RGB")
    return [x for x in range(WIDTH) if rgb.getpixel((x, HEIGHT - 20)) == theme.GOLD_RGB]


def test_the_best_game_s_bar_is_gold_and_taller() -> None:
    image = render_history_image([50, 90, 70], title="ada")
    gold = _gold_columns(image)
    assert gold
    # The second of three bars, so in the middle third of the plot.
    assert WIDTH / 3 < sum(gold) / len(gold) < 2 * WIDTH / 3
    png = render_score_history([50, 90, 70], title="ada")
    assert png == render_score_history([50, 90, 70], title="ada")
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_only_the_latest_games_are_drawn_and_none_draws_the_title_alone() -> None:
    many = [10] * MAX_BARS + [99]
    assert (
        render_history_image(many, title="x").tobytes()
        != render_history_image([10] * (MAX_BARS + 1), title="x").tobytes()
    )
    assert _gold_columns(render_history_image([], title="x")) == []
