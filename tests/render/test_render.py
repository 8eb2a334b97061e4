"""The public render API: PNG bytes that suit Discord, deterministic, from engine values."""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from benchmarks import positions
from engine import Hex, Phase, Wildlife, apply_all, turn_actions
from engine.scoring.sheet import PlayerScore, ScoreSheet
from render import (
    environment_scale,
    render_display,
    render_environment,
    render_preview,
    render_scores,
    theme,
)
from render.environment import MAX_HEX_SIZE, fitting_hex_size, plan_environment
from render.fonts import font
from render.theme import PALETTE

ROOT = Path(__file__).resolve().parents[2]
MAX_SIDE = 1200
MAX_BYTES = 150_000


def _open(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(BytesIO(png))
    image.load()
    return image


def _all_pictures() -> dict[str, bytes]:
    late = positions.late_four_player()
    return {
        "display": render_display(late),
        **{
            f"environment{seat}": render_environment(late, seat, name=positions.NAMES[seat])
            for seat in range(4)
        },
        "line": render_environment(positions.straight_line(), 0, name="Alice", score=80),
        "scores": render_scores(positions.score_sheet(positions.finished_game())),
    }


@pytest.mark.parametrize(("name", "png"), sorted(_all_pictures().items()))
def test_pictures_suit_discord(name: str, png: bytes) -> None:
    image = _open(png)
    assert max(image.size) <= MAX_SIDE, name
    assert len(png) <= MAX_BYTES, name
    assert image.mode == "P"
    assert not image.info.keys() - {"transparency", "dpi"}, image.info


def test_same_state_same_bytes() -> None:
    assert _all_pictures() == _all_pictures()


def test_same_bytes_in_a_fresh_process() -> None:
    # Nothing a process did before (fonts or sprites cached, other pictures drawn) may
    # change a picture.
    code = (
        "import hashlib, sys\n"
        "from benchmarks import positions\n"
        "from render import render_environment\n"
        "state = positions.late_four_player()\n"
        "png = render_environment(state, 2, name='Chloé', score=12)\n"
        "sys.stdout.write(hashlib.sha256(png).hexdigest())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    state = positions.late_four_player()
    import hashlib

    assert (
        result.stdout
        == hashlib.sha256(render_environment(state, 2, name="Chloé", score=12)).hexdigest()
    )


def test_the_font_is_bundled_and_freetype() -> None:
    face = font(14)
    assert isinstance(face, ImageFont.FreeTypeFont)
    assert face.getname() == ("DejaVu Sans", "Condensed Bold")
    assert (ROOT / "render" / "fonts" / "DejaVuSansCondensed-Bold.ttf").is_file()


def test_the_palette_fits_one_png_palette() -> None:
    assert len(PALETTE) <= 256


def test_render_imports_only_engine_i18n_pillow_and_the_standard_library() -> None:
    # i18n: the pictures' words are in the reader's language; never the bot.
    allowed = {"engine", "i18n", "PIL", "render", "__future__"} | set(sys.stdlib_module_names)
    for path in sorted((ROOT / "render").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in allowed, (path.name, name)


def test_preview_draws_the_state_it_is_given_tagged() -> None:
    state = positions.late_four_player()
    seat = state.current
    after = apply_all(state, turn_actions(2, Hex(0, -4), 2, Hex(1, -3)))
    placed = {Hex(0, -4), Hex(1, -3)}
    png = render_preview(after, seat, name="Bartholomew", highlight=placed)
    ringed = render_environment(after, seat, name="Bartholomew", highlight=placed)
    before = render_preview(state, seat, name="Bartholomew", highlight=())
    assert _open(png).size == _open(ringed).size
    assert png != ringed  # the "preview" tag
    assert png != before  # the new tile is drawn


def test_display_renders_in_every_phase_and_at_the_end() -> None:
    for phase in (Phase.CHOOSE, Phase.PLACE_TILE, Phase.PLACE_TOKEN):
        _open(render_display(positions.late_four_player(phase)))
    _open(render_display(positions.finished_game()))
    _open(render_display(positions.finished_game(players=1, seed=77)))


def test_wipe_hint_shows_only_when_the_wipe_is_allowed() -> None:
    state = positions.start_of_game()
    assert state.three_of_a_kind() is Wildlife.ELK
    with_hint = _open(render_display(state))
    used = _open(render_display(replace(state, three_wipe_used=True)))
    assert with_hint.height > used.height


def test_scores_mark_shared_winners() -> None:
    def player(name: str, elk: int) -> PlayerScore:
        return PlayerScore(
            name,
            {w: (elk if w is Wildlife.ELK else 0) for w in Wildlife},
            {},
            {},
            nature_tokens=2,
        )

    shared = ScoreSheet((player("a", 10), player("b", 10), player("c", 3)))
    assert shared.winners == ("a", "b")
    single = ScoreSheet((player("a", 11), player("b", 10), player("c", 3)))

    def crown_pixels(png: bytes) -> int:
        return _open(png).histogram()[theme.GOLD]

    # One crown per winner.
    assert crown_pixels(render_scores(single)) > 0
    assert crown_pixels(render_scores(shared)) == 2 * crown_pixels(render_scores(single))
    # A solo game has a score, not a winner.
    assert crown_pixels(render_scores(ScoreSheet((player("a", 5),)))) == 0


def test_threads_draw_the_same_pictures() -> None:
    # The bot renders several pictures at once in worker threads.
    state = positions.late_four_player()

    def picture(seat: int) -> bytes:
        return render_environment(state, seat, name=positions.NAMES[seat], score=seat)

    expected = [picture(seat) for seat in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            assert list(pool.map(picture, range(4))) == expected


def test_environment_pictures_are_reused_only_for_identical_inputs() -> None:
    from engine.players import random_game
    from render import clear_picture_cache, render_environment

    state, _ = random_game(players=2, seed=4)
    clear_picture_cache()
    first = render_environment(state, 0, name="Ada", score=10)
    assert render_environment(state, 0, name="Ada", score=10) is first
    assert render_environment(state, 0, name="Ada", score=11) != first
    assert render_environment(state, 1, name="Ada", score=10) != first
    clear_picture_cache()
    again = render_environment(state, 0, name="Ada", score=10)
    assert again == first
    assert again is not first


def test_the_environments_of_one_state_share_the_largest_ones_scale() -> None:
    state = positions.line_and_cluster()
    line, cluster = (seat.environment for seat in state.seats)
    assert fitting_hex_size(line) < fitting_hex_size(cluster) == MAX_HEX_SIZE
    scale = environment_scale(state)
    assert scale == fitting_hex_size(line)
    assert plan_environment(cluster, hex_size=scale).hex_size == scale
    assert plan_environment(line, hex_size=scale) == plan_environment(line)
    alone = _open(render_environment(state, 1, name="Bob"))
    beside = _open(render_environment(state, 1, name="Bob", hex_size=scale))
    assert beside.height < alone.height
    # Drawn alone (a board, a panel), an environment still takes the room it has.
    assert render_environment(state, 1, name="Bob") == render_environment(
        state, 1, name="Bob", hex_size=MAX_HEX_SIZE
    )
