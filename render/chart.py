"""The score-by-round chart: each player's total after every round, one line a player.

Each line is in its seat's colour (:data:`render.theme.PLAYER_RGB`) and ends in its seat's
mark, with the player's name just after the end of the line and the final score at the
picture's right edge, so the chart reads without a legend. Names that would overlap are
pushed apart and joined to their line's end by a short stroke.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import Round
from i18n import N_, _
from render import glyphs, theme
from render.fonts import font
from render.names import draw_line, fit_name, fit_title
from render.palette import draw_text, new_image

WIDTH = 880
CHART_TITLE = N_("Score if it had ended after each round, bonuses in")
"""What the chart's lines mean, said on it: like every running score the bot shows, the
total with the majority bonuses as they stood then, so a line may dip when a bonus moves."""
HEIGHT = 560
TITLE_HEIGHT = 60
MARGIN = 18
SCORE_AXIS = 46
"""Room left of the plot for the score labels."""
ROUND_AXIS = 46
"""Room under the plot for the round numbers."""
LABELS = 270
"""Room right of the plot for the names and the final scores."""
LINE_WIDTH = 5
MARK_RADIUS = 10
AXIS_SIZE = 21
NAME_SIZE = 26
SCORE_SIZE = 30
LABEL_GAP = 34
"""The least distance between two names' middles at the right."""
STEPS = (5, 10, 20, 25, 50, 100)
"""Score gridline spacings, the first that needs at most :data:`MAX_GRIDLINES` is used."""
MAX_GRIDLINES = 6


def score_step(highest: int) -> int:
    """The spacing of the score gridlines for a chart reaching ``highest`` points."""
    for step in STEPS:
        if math.ceil(max(highest, 1) / step) <= MAX_GRIDLINES:
            return step
    return STEPS[-1] * math.ceil(highest / (STEPS[-1] * MAX_GRIDLINES))


def spread_labels(targets: Sequence[float], *, gap: float, low: float, high: float) -> list[float]:
    """Where to put labels wanted at ``targets`` (pixel rows) so that any two are at least
    ``gap`` apart and all lie within ``low``..``high``, each as near its target as that
    allows; in the order given."""
    order = sorted(range(len(targets)), key=lambda i: targets[i])
    placed = [0.0] * len(targets)
    previous = low - gap
    for i in order:
        placed[i] = max(targets[i], previous + gap)
        previous = placed[i]
    following = high + gap
    for i in reversed(order):
        placed[i] = min(placed[i], following - gap)
        following = placed[i]
    return placed


def render_chart_image(rounds: Sequence[Round], *, title: str | None = None) -> Image.Image:
    """The chart of ``rounds`` (those of one game, in order) as a palette image; with no
    round, the title alone. ``title`` defaults to :data:`CHART_TITLE`, in the reader's
    language."""
    if title is None:
        title = _(CHART_TITLE)
    image = new_image(theme.PALETTE, (WIDTH, HEIGHT), theme.BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, TITLE_HEIGHT - 1), fill=theme.HEADER)
    draw_line(
        image,
        (MARGIN, TITLE_HEIGHT / 2),
        fit_title(title, 28, WIDTH - 2 * MARGIN, least=20),
        theme.TITLE,
    )
    if not rounds:
        return image
    names = [score.name for score in rounds[-1].sheet.players]
    series = [[played.totals[name] for played in rounds] for name in names]
    highest = max(max(points) for points in series)
    step = score_step(highest)
    ceiling = step * math.ceil(max(highest, 1) / step)
    left, right = MARGIN + SCORE_AXIS, WIDTH - MARGIN - LABELS
    top, bottom = TITLE_HEIGHT + 28, HEIGHT - ROUND_AXIS

    def x_of(index: int) -> float:
        if len(rounds) == 1:
            return float(right)
        return left + index * (right - left) / (len(rounds) - 1)

    def y_of(points: int) -> float:
        return bottom - points * (bottom - top) / ceiling

    for points in range(0, ceiling + 1, step):
        y = round(y_of(points))
        draw.line((left, y, right, y), fill=theme.ROW_B if points else theme.DIM, width=2)
        draw_text(image, (left - 10, y), str(points), font(AXIS_SIZE), theme.BODY_DIM, anchor="rm")
    numbers = [played.number for played in rounds]
    shown = {0, len(rounds) - 1} | {i for i, n in enumerate(numbers) if n % 5 == 0}
    for index in sorted(shown):
        x = round(x_of(index))
        draw.line((x, bottom, x, bottom + 6), fill=theme.DIM, width=2)
        draw_text(
            image,
            (x, bottom + 20),
            str(numbers[index]),
            font(AXIS_SIZE),
            theme.BODY_DIM,
            anchor="mm",
        )

    ends = [y_of(points[-1]) for points in series]
    # The leader is drawn last, on top of the others.
    order = sorted(range(len(names)), key=lambda seat: (series[seat][-1], -seat))
    for seat in order:
        colour = theme.PLAYER[seat % len(theme.PLAYER)]
        line = [(x_of(i), y_of(points)) for i, points in enumerate(series[seat])]
        if len(line) > 1:
            draw.line(line, fill=colour, width=LINE_WIDTH, joint="curve")
    labels = spread_labels(ends, gap=LABEL_GAP, low=top, high=bottom)
    name_left = right + MARK_RADIUS + 22
    for seat in order:
        colour = theme.PLAYER[seat % len(theme.PLAYER)]
        style = theme.PLAYER_TEXT[seat % len(theme.PLAYER_TEXT)]
        if abs(labels[seat] - ends[seat]) > 1:
            draw.line((right, ends[seat], name_left - 6, labels[seat]), fill=colour, width=2)
        glyphs.draw_player_mark(draw, seat, right, ends[seat], MARK_RADIUS, colour)
        score = draw_text(
            image,
            (WIDTH - MARGIN, labels[seat]),
            str(series[seat][-1]),
            font(SCORE_SIZE),
            style,
            anchor="rm",
        )
        room = score[0] - 12 - name_left
        draw_line(image, (name_left, labels[seat]), fit_name(names[seat], NAME_SIZE, room), style)
    return image
