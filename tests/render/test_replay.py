"""The replay GIF and the score chart, drawn from a game replayed round by round."""

from __future__ import annotations

from functools import cache
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageSequence

from engine import GameState, Round, apply_all, new_game, play_rounds, record_for, replay_rounds
from engine.players import random_game
from render import render_replay, render_score_chart, theme
from render.chart import score_step, spread_labels
from render.replay import (
    LAST_FRAME_MS,
    PANEL_HEADER,
    ROUND_MS,
    frame_size,
    panel_box,
    replay_frames,
)

NAMES = ("Alice", "Bartholomew", "Chloé", "Dmitri")
MAX_GIF_BYTES = 3 * 1024 * 1024
"""The issue's target for a four-player game, well within Discord's 10 MiB."""
HIGHLIGHT = theme.PALETTE.rgb(theme.HIGHLIGHT)


@cache
def game_rounds(players: int, seed: int = 8) -> tuple[Round, ...]:
    state, actions = random_game(players=players, seed=seed)
    return replay_rounds(record_for(state, actions, NAMES[:players]))


def first_turns(players: int, seed: int, turns: int) -> tuple[GameState, list[Round]]:
    """The start of a random game and its rounds when it is ended after ``turns`` turns."""
    state, actions = random_game(players=players, seed=seed)
    start = new_game(players=players, seed=seed, cards=state.cards)
    taken, replayed = [], start
    for action in actions:
        replayed = apply_all(replayed, [action])
        taken.append(action)
        if replayed.turn == turns:
            break
    return start, list(play_rounds(start, taken, NAMES[:players]))


def frames_of(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as Pillow composes it (RGB) and its duration in milliseconds."""
    found = []
    with Image.open(BytesIO(gif)) as image:
        assert image.format == "GIF"
        for frame in ImageSequence.Iterator(image):
            found.append((frame.convert("RGB"), int(frame.info["duration"])))
    return found


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_frame_per_round_the_last_held(players: int) -> None:
    rounds = game_rounds(players)
    gif = render_replay(rounds)
    frames = frames_of(gif)
    assert len(frames) == len(rounds) == 20
    assert [duration for _, duration in frames] == [ROUND_MS] * 19 + [LAST_FRAME_MS]
    assert LAST_FRAME_MS >= 3000
    assert all(frame.size == frame_size(players) for frame, _ in frames)
    with Image.open(BytesIO(gif)) as image:
        assert image.info["loop"] == 0


def test_a_four_player_game_fits_well_within_the_upload_limit() -> None:
    rounds = game_rounds(4)
    gif = render_replay(rounds)
    assert len(gif) < MAX_GIF_BYTES
    # Only what changed is stored: far less than every frame as a picture of its own.
    alone = 0
    for frame in replay_frames(rounds):
        buffer = BytesIO()
        frame.save(buffer, "GIF")
        alone += len(buffer.getvalue())
    assert len(gif) < alone / 3, (len(gif), alone)


def test_the_stored_frames_are_the_drawn_frames_exactly() -> None:
    rounds = game_rounds(2)
    drawn = replay_frames(rounds)
    for (decoded, _), frame in zip(frames_of(render_replay(rounds)), drawn, strict=True):
        assert ImageChops.difference(decoded, frame.convert("RGB")).getbbox() is None


def _highlight_pixels(frame: Image.Image, box: tuple[int, int, int, int]) -> int:
    region = frame.crop(box).convert("RGB")
    colours = region.getcolors(region.width * region.height) or []
    return sum(count for count, rgb in colours if rgb == HIGHLIGHT)


def test_each_panel_rings_the_tile_its_player_placed_that_round() -> None:
    rounds = game_rounds(4)
    frames = replay_frames(rounds)
    for played, frame in zip(rounds, frames, strict=True):
        for seat, placed in enumerate(played.placed):
            assert placed is not None
            left, top, right, bottom = panel_box(4, seat)
            assert _highlight_pixels(frame, (left, top + PANEL_HEADER, right, bottom)) > 50
    # The ring moves with the new tile: two rounds never ring the same pixels of a panel.
    first = frames[0].crop(panel_box(4, 0)).convert("RGB")
    second = frames[1].crop(panel_box(4, 0)).convert("RGB")
    assert ImageChops.difference(first, second).getbbox() is not None


def test_a_game_ended_early_ends_its_replay_with_the_round_it_stopped_in() -> None:
    start, rounds = first_turns(3, 21, 16)
    frames = frames_of(render_replay(rounds))
    assert len(frames) == len(rounds) == 6
    assert frames[-1][1] == LAST_FRAME_MS
    # Only the first seat played in round 6: the others' panels show no ring.
    rings = [_highlight_pixels(frames[-1][0], panel_box(3, seat)) for seat in range(3)]
    mover = start.first_player
    assert [seat for seat, count in enumerate(rings) if count] == [mover]


def test_a_game_ended_in_its_first_round_is_one_frame_held() -> None:
    _, rounds = first_turns(2, 3, 2)
    frames = frames_of(render_replay(rounds))
    assert [duration for _, duration in frames] == [LAST_FRAME_MS]
    assert frames[0][0].size == frame_size(2)


def test_the_replay_is_the_same_bytes_every_time() -> None:
    assert render_replay(game_rounds(3)) == render_replay(game_rounds(3))


def test_no_round_is_no_replay() -> None:
    with pytest.raises(ValueError, match="at least one round"):
        render_replay(())


def test_the_chart_is_a_png_of_the_same_size_for_every_game() -> None:
    sizes = set()
    for players in (1, 4):
        png = render_score_chart(game_rounds(players))
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        with Image.open(BytesIO(png)) as image:
            sizes.add(image.size)
    assert len(sizes) == 1


@pytest.mark.parametrize(
    ("highest", "step"), [(0, 5), (30, 5), (31, 10), (60, 10), (61, 20), (120, 20), (121, 25)]
)
def test_score_gridlines_are_at_most_six(highest: int, step: int) -> None:
    assert score_step(highest) == step


def test_labels_keep_their_targets_when_they_do_not_crowd() -> None:
    assert spread_labels([100.0, 300.0, 200.0], gap=30, low=0, high=400) == [100.0, 300.0, 200.0]


def test_crowded_labels_are_pushed_apart_in_their_order() -> None:
    placed = spread_labels([200.0, 205.0, 210.0, 400.0], gap=30, low=0, high=400)
    assert placed[0] < placed[1] < placed[2] < placed[3]
    assert all(b - a >= 30 for a, b in zip(sorted(placed), sorted(placed)[1:], strict=False))
    assert placed[3] == 400.0


def test_labels_at_the_bottom_edge_stay_inside_it() -> None:
    placed = spread_labels([400.0, 400.0, 399.0], gap=30, low=0, high=400)
    assert max(placed) == 400.0
    assert sorted(placed) == [340.0, 370.0, 400.0]
