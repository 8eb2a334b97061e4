"""How fast the pictures are drawn and encoded, against the budgets of the render issue.

Run from the repository root: ``PYTHONPATH=. python benchmarks/render.py`` or
``python -m benchmarks.render`` (``--check`` exits 1 when a budget is exceeded; ``--runs N``
sets the number of timed runs). Budgets, for a 2-core
machine: an environment of 23 tiles <= 40 ms median, the display <= 25 ms, a whole turn's
set (display + four environments) <= 200 ms, the turn panel's picture <= 60 ms, and every PNG
<= 150 KB.

Then the pictures a finished game leaves behind, for whole four-player games (``--replays
N`` of them, half played by random people-like players, whose environments sprawl, half by
the ``fast`` computer player, whose are compact): the replay GIF's size and frames and the
CPU time to draw it, the score chart's, and both with the replay of the record as the picture
worker runs them. Budgets: the GIF <= 3 MiB and <= 2 s of CPU for the largest game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from io import BytesIO
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path, and this file's name would
    # hide the render package.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from PIL import Image

from benchmarks import positions
from benchmarks.panel import late_position, panel_steps
from bot.game.replays import game_pictures
from bot.panel.service import draw_panel
from engine import (
    Action,
    GameRecord,
    GameState,
    apply,
    apply_all,
    legal_actions,
    new_game,
    record_for,
    replay_rounds,
    turn_actions,
)
from engine.players import play_game
from render import (
    clear_picture_cache,
    fonts,
    glyphs,
    names,
    render_display,
    render_environment,
    render_preview,
    render_replay,
    render_score_chart,
    render_scores,
    theme,
)
from render.palette import new_image

BUDGET_MS = {
    "environment, 23 tiles (line + starter)": 40.0,
    "environment, 23 tiles": 40.0,
    "display": 25.0,
    "turn set (display + 4 environments)": 200.0,
    "turn panel, 23 tiles + the new tile": 60.0,
}
MAX_PNG_BYTES = 150_000
MAX_GIF_BYTES = 3 * 1024 * 1024
MAX_GIF_CPU_SECONDS = 2.0
SCRIPT_NAMES = (
    "Chloé Łukasz",
    "Ελένη",
    "Дмитрий",
    "田中さくら",
    "محمد عبد الله",
    "שרה כהן",
    "प्रिया",
    "🦊 Fox 👍🏽",
    "Ana 🦊 علي 12 名前",
)


def _time(job: Callable[[], object], runs: int) -> tuple[float, float]:
    for _ in range(3):
        job()
    samples = []
    for _ in range(runs):
        # Every run draws and encodes: finished pictures are not reused between runs.
        clear_picture_cache()
        start = time.perf_counter()
        job()
        samples.append((time.perf_counter() - start) * 1000.0)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9) - 1]


def _cpu(job: Callable[[], object], runs: int) -> float:
    """The median CPU seconds of ``job`` over ``runs`` runs, after one to warm the caches."""
    job()
    samples = []
    for _ in range(runs):
        start = time.process_time()
        job()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def _casual_game(seed: int) -> tuple[GameState, list[Action]]:
    """A four-player game of :func:`positions.casual` players, and its actions."""
    state = new_game(players=4, seed=seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_over:
        action = positions.casual(state, legal_actions(state), rng)
        state = apply(state, action)
        actions.append(action)
    return state, actions


def replay_records(games: int) -> list[tuple[str, GameRecord]]:
    """Whole four-player games, alternately played by :func:`positions.casual` players and
    by ``fast``, each with a label."""
    found = []
    for game in range(games):
        seed = 2024 + game
        if game % 2 == 0:
            state, actions = _casual_game(seed)
            found.append((f"casual, seed {seed}", record_for(state, actions, positions.NAMES)))
        else:
            played = play_game(players=4, seed=seed, cards="random", policies=["fast"] * 4)
            record = record_for(played.state, played.actions, positions.NAMES)
            found.append((f"fast, seed {seed}", record))
    return found


def replay_figures(games: int, runs: int) -> bool:
    """Print the replay and chart figures of ``games`` games; whether a budget was exceeded."""
    print(
        f"\n{'4 players, 20 rounds':24} {'GIF KiB':>8} {'frames':>7} {'GIF s':>6}"
        f" {'chart KiB':>10} {'chart s':>8} {'both s':>7}"
    )
    over = False
    for label, record in replay_records(games):
        rounds = replay_rounds(record)
        gif = render_replay(rounds)
        chart = render_score_chart(rounds)
        gif_seconds = _cpu(partial(render_replay, rounds), runs)
        chart_seconds = _cpu(partial(render_score_chart, rounds), runs)
        both = _cpu(partial(game_pictures, record), runs)
        with Image.open(BytesIO(gif)) as image:
            frames = getattr(image, "n_frames", 1)
        flag = ""
        if len(gif) > MAX_GIF_BYTES or gif_seconds > MAX_GIF_CPU_SECONDS:
            flag, over = "  OVER", True
        print(
            f"{label:24} {len(gif) / 1024:8.0f} {frames:7} {gif_seconds:6.2f}"
            f" {len(chart) / 1024:10.1f} {chart_seconds:8.3f} {both:7.2f}{flag}"
        )
    return over


def main(argv: list[str] | None = None) -> int:
    """Print the timings and sizes; with ``--check`` return 1 if a budget is exceeded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--replays", type=int, default=4, help="four-player games to replay")
    args = parser.parse_args(argv)

    line = positions.straight_line()
    finished = positions.finished_game()
    late = positions.late_four_player()
    players = positions.NAMES

    def turn_set() -> list[bytes]:
        return [render_display(late)] + [
            render_environment(finished, seat, name=players[seat], score=99) for seat in range(4)
        ]

    panel = panel_steps(late_position(0))[-1]
    jobs: dict[str, Callable[[], object]] = {
        "environment, 23 tiles (line + starter)": lambda: render_environment(
            line, 0, name=players[0], score=99
        ),
        "environment, 23 tiles": lambda: render_environment(finished, 0, name=players[0], score=9),
        "display": lambda: render_display(late),
        "turn set (display + 4 environments)": turn_set,
        # The panel's p99 is measured with many positions in benchmarks/panel.py.
        "turn panel, 23 tiles + the new tile": lambda: draw_panel(panel, 0, players[1]),
    }

    def cold() -> bytes:
        # As the first picture after a start: no font or habitat sprite cached yet.
        for cached in (fonts.font, fonts.face_font, fonts.coverage):
            cached.cache_clear()
        names.clear_caches()
        glyphs.habitat_sprite.cache_clear()
        glyphs.hex_mask.cache_clear()
        clear_picture_cache()
        return render_environment(finished, 0, name=players[0], score=9)

    def new_names() -> None:
        # Names never drawn before, in every script the fallback chain has a face for.
        names.clear_caches()
        image = new_image(theme.PALETTE, (560, 60), theme.HEADER)
        for name in SCRIPT_NAMES:
            names.draw_line(image, (14, 30), names.fit_name(name, 28, 400), theme.TITLE)

    over = False
    print(f"{'picture':40} {'median ms':>10} {'p90 ms':>8} {'budget':>8}")
    for label, job in jobs.items():
        median, p90 = _time(job, args.runs)
        budget = BUDGET_MS[label]
        flag = "" if median <= budget else "  OVER"
        over |= median > budget
        print(f"{label:40} {median:10.1f} {p90:8.1f} {budget:8.0f}{flag}")
    median, p90 = _time(cold, max(5, args.runs // 5))
    print(f"{'environment, 23 tiles, nothing cached':40} {median:10.1f} {p90:8.1f} {'-':>8}")
    median, p90 = _time(new_names, max(5, args.runs // 5))
    label = f"{len(SCRIPT_NAMES)} new names, one per script"
    print(f"{label:40} {median:10.1f} {p90:8.1f} {'-':>8}")

    preview_at = late.current_player.environment.frontier()[0]
    pictures = {
        "display": render_display(late),
        "environment (line)": render_environment(line, 0, name=players[0], score=99),
        **{
            f"environment (seat {seat})": render_environment(finished, seat, name=players[seat])
            for seat in range(4)
        },
        "preview": render_preview(
            apply_all(late, turn_actions(1, preview_at, 0, None)),
            late.current,
            name=players[late.current],
            highlight=(preview_at,),
        ),
        "scores": render_scores(positions.score_sheet(finished)),
    }
    print(f"\n{'picture':40} {'PNG KB':>10}")
    for label, png in pictures.items():
        flag = "" if len(png) <= MAX_PNG_BYTES else "  OVER"
        over |= len(png) > MAX_PNG_BYTES
        print(f"{label:40} {len(png) / 1000:10.1f}{flag}")
    over |= replay_figures(args.replays, max(1, args.runs // 10))
    return 1 if over and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
