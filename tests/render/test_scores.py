"""The score sheet: a crown only when the game is over, labels that fit, shared places."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from engine import PlayerScore, ScoreSheet, Wildlife
from render import render_scores, theme
from render.fonts import font
from render.palette import draw_text, new_image
from render.scores import HABITATS_KEY, label_column, places


def _player(name: str, elk: int, tokens: int = 2) -> PlayerScore:
    return PlayerScore(
        name, {w: (elk if w is Wildlife.ELK else 0) for w in Wildlife}, {}, {}, nature_tokens=tokens
    )


def _open(png: bytes) -> Image.Image:
    return Image.open(BytesIO(png))


def test_a_game_still_going_has_a_leader_but_no_crowned_winner() -> None:
    sheet = ScoreSheet((_player("a", 11), _player("b", 10), _player("c", 3)))
    final = _open(render_scores(sheet)).histogram()
    going = _open(render_scores(sheet, title="Scores so far", final=False)).histogram()
    assert final[theme.GOLD] > 0
    assert final[theme.WIN_A] > 0
    assert going[theme.GOLD] == 0
    assert going[theme.WIN_A] == 0
    # "leading" is written where "winner" was.
    assert going != final


def test_the_habitat_key_is_drawn_whole_on_the_three_player_sheet() -> None:
    # The first column is the winner's: its highlight must not cover the key's tail.
    sheet = ScoreSheet((_player("a", 11), _player("b", 10), _player("c", 3)))
    image = _open(render_scores(sheet))
    style = theme.ON_ROW_DIM[theme.HEADER]
    ramp = range(style.base + 1, style.base + style.levels)
    alone = new_image(theme.PALETTE, (200, 40), theme.HEADER)
    draw_text(alone, (0, 20), HABITATS_KEY, font(15), style, anchor="lm")
    expected = sum(alone.histogram()[index] for index in ramp)
    assert sum(image.histogram()[index] for index in ramp) == expected
    # And all of it left of the first player's column.
    left = (image.width - label_column() - 3 * 150) // 2
    columns = image.crop((left + label_column(), 0, image.width, image.height))
    assert sum(columns.histogram()[index] for index in ramp) == 0


def test_tied_players_share_their_place() -> None:
    sheet = ScoreSheet(
        (_player("a", 12), _player("b", 10), _player("c", 10), _player("d", 3)),
    )
    assert places(sheet) == {"a": 0, "b": 1, "c": 1, "d": 3}
    # Nature tokens break a tie on points.
    sheet = ScoreSheet((_player("a", 10, tokens=1), _player("b", 9, tokens=2), _player("c", 5)))
    assert places(sheet) == {"b": 0, "a": 1, "c": 2}
    shared = ScoreSheet((_player("a", 10), _player("b", 10), _player("c", 9)))
    assert places(shared) == {"a": 0, "b": 0, "c": 2}
