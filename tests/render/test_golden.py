"""Golden images of seeded positions: the pictures players see must not change by accident."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from io import BytesIO

import pytest
from PIL import Image

from benchmarks import positions
from engine import Hex, Phase, ScoreSheet, apply_all, record_for, replay_rounds, turn_actions
from engine.players import random_game
from render import (
    environment_scale,
    render_board,
    render_display,
    render_environment,
    render_preview,
    render_score_chart,
    render_scores,
    turn_frame,
)
from render.fonts import SHAPING
from render.png import encode
from tests.render.golden import assert_matches_golden

NAMES_IN_EACH_SCRIPT = (
    "Chloé Łukasz Øyvind Ñúñez",
    "Ελένη Παπαδοπούλου",
    "Дмитрий Жуков",
    "田中さくら 王小明",
    "김민준 이서연",
    "محمد عبد الله",
    "שרה כהן",
    "🦊 Fox 👨‍👩‍👧 🎉👍🏽",
    "Ana 🦊 علي 12 名前",
    "Priya प्रिया สมชาย",
)


def _start_display() -> bytes:
    return render_display(positions.start_of_game())


def _start_environment() -> bytes:
    state = positions.start_of_game()
    return render_environment(state, state.current, name=positions.NAMES[state.current])


def _late_display() -> bytes:
    return render_display(positions.late_four_player())


def _late_display_taken() -> bytes:
    return render_display(positions.late_four_player(Phase.PLACE_TILE))


def _late_environment() -> bytes:
    state = positions.late_four_player()
    return render_environment(state, 3, name=positions.NAMES[3], score=43, highlight={Hex(-3, 4)})


def _late_preview() -> bytes:
    state = positions.late_four_player()
    actions = turn_actions(2, Hex(0, -4), 2, Hex(1, -3))
    return render_preview(
        apply_all(state, actions),
        state.current,
        name=positions.NAMES[state.current],
        highlight={Hex(0, -4), Hex(1, -3)},
        score=51,
    )


def _line_environment() -> bytes:
    return render_environment(positions.straight_line(), 0, name="Alice", score=37)


def _shared_scale_environment() -> bytes:
    """A compact environment drawn at the scale of a line beside it in the same message."""
    state = positions.line_and_cluster()
    scale = environment_scale(state)
    return render_environment(state, 1, name=positions.NAMES[1], score=24, hex_size=scale)


def _late_board() -> bytes:
    """The mover's board in a late four-player turn message: placed tiles only, in the
    frame every board of the message shares."""
    state = positions.late_four_player()
    return render_board(
        state,
        3,
        name=positions.NAMES[3],
        frame=turn_frame(state),
        score=43,
        highlight={Hex(-3, 4)},
    )


def _shared_frame_board() -> bytes:
    """A compact board drawn in the frame of a line beside it in the same turn message."""
    state = positions.line_and_cluster()
    return render_board(state, 1, name=positions.NAMES[1], frame=turn_frame(state), score=24)


def _solo_display() -> bytes:
    return render_display(positions.solo_game())


def _solo_environment() -> bytes:
    return render_environment(positions.solo_game(), 0, name="Solo Sam")


def _final_scores() -> bytes:
    return render_scores(positions.score_sheet(positions.finished_game()))


def _solo_scores() -> bytes:
    state = positions.finished_game(players=1, seed=77)
    return render_scores(positions.score_sheet(state), title="Solo game: final score")


def _names_in_headers() -> bytes:
    """The header of an environment picture for a name in each script, stacked."""
    state = positions.start_of_game()
    headers = []
    for name in NAMES_IN_EACH_SCRIPT:
        with Image.open(BytesIO(render_environment(state, 0, name=name, score=7))) as picture:
            headers.append(picture.crop((0, 0, picture.width, 60)))
    stacked = Image.new("P", (headers[0].width, 60 * len(headers)))
    stacked.putpalette(headers[0].getpalette() or [])
    for index, header in enumerate(headers):
        stacked.paste(header, (0, 60 * index))
    return encode(stacked)


def _named(sheet: ScoreSheet, names: tuple[str, ...]) -> ScoreSheet:
    players = [replace(p, name=n) for p, n in zip(sheet.players, names, strict=False)]
    return ScoreSheet(tuple(players))


def _scores_in_scripts() -> bytes:
    sheet = positions.score_sheet(positions.finished_game())
    return render_scores(_named(sheet, ("محمد علي", "田中さくら", "Ελένη 🦊", "שרה כהן")))


def _scores_so_far() -> bytes:
    state = positions.finished_game(players=3, seed=5)
    sheet = _named(positions.score_sheet(state), ("Chloé", "Дмитрий", "Ana 🦊 علي"))
    return render_scores(sheet, title="Scores so far", final=False)


def _chart(players: int, seed: int, names: tuple[str, ...]) -> bytes:
    state, actions = random_game(players=players, seed=seed)
    return render_score_chart(replay_rounds(record_for(state, actions, names)))


def _chart_four() -> bytes:
    return _chart(4, 8, positions.NAMES)


def _chart_solo() -> bytes:
    return _chart(1, 77, ("Solo Sam",))


def _chart_in_scripts() -> bytes:
    return _chart(3, 5, ("محمد علي", "田中さくら", "A name far too long to fit 🦊"))


CASES: dict[str, Callable[[], bytes]] = {
    "display_start": _start_display,
    "environment_start": _start_environment,
    "display_late": _late_display,
    "display_late_taken": _late_display_taken,
    "environment_late": _late_environment,
    "preview_late": _late_preview,
    "environment_line": _line_environment,
    "environment_shared_scale": _shared_scale_environment,
    "board_late": _late_board,
    "board_shared_frame": _shared_frame_board,
    "display_solo": _solo_display,
    "environment_solo": _solo_environment,
    "scores_final": _final_scores,
    "scores_solo": _solo_scores,
    "scores_in_scripts": _scores_in_scripts,
    "scores_so_far": _scores_so_far,
    "chart_four": _chart_four,
    "chart_solo": _chart_solo,
    "chart_in_scripts": _chart_in_scripts,
}

# Names in right-to-left and other complex scripts are drawn shaped only where Pillow has
# libraqm (the CI installs its FriBiDi); without it these pictures differ on purpose.
NEEDS_SHAPING = {"names_in_headers", "scores_in_scripts", "scores_so_far", "chart_in_scripts"}
CASES["names_in_headers"] = _names_in_headers


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(name: str) -> None:
    if name in NEEDS_SHAPING and not SHAPING:
        pytest.skip("names are drawn shaped only with libraqm")
    assert_matches_golden(name, CASES[name]())
