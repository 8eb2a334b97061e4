"""Pictures of a game for the bot to post: PNG bytes from engine values.

Pictures, each a pure function of engine values (no clock, no system fonts, fixed sizes),
so the same state always gives the same bytes:

- :func:`render_display`: the four numbered pairs, tiles left, scoring cards, wipe hint;
- :func:`render_environment`: one player's tiles with a label on every placed hex and every
  place a tile may go (the ``"q,r"`` text the commands accept); the environments shown
  together share :func:`environment_scale`;
- :func:`render_board`: the same, compact, for a turn message: the placed tiles only, in the
  :func:`board_frame` every board of the message shares;
- :func:`render_preview`: the same after a proposed move, the move highlighted;
- :func:`render_scores`: the score sheet, final or so far;
- :func:`render_score_chart`: every player's total after each round of a game (PNG);
- :func:`render_replay`: the game as an animated GIF, one frame per round;
- :func:`render_score_history`: a member's scores over their games, one bar a game.

This package depends on :mod:`engine`, :mod:`i18n` and Pillow only. Rendering takes a few
tens of milliseconds of CPU: callers on an event loop should run it in a thread.

The words a picture shows are in the reader's language, the one :func:`i18n.speaking` names
around the call (English when none is). :func:`asyncio.to_thread` carries the reader into
its thread; a process pool or ``loop.run_in_executor`` does not, so whatever draws there
sets it itself (see :func:`bot.game.pictures.drawn_in`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from engine import Environment, GameState, Hex, Round, ScoreSheet
from i18n import _, reader
from render.badges import render_badges_image
from render.chart import render_chart_image
from render.display import render_display_image
from render.environment import (
    BoardFrame,
    board_frame,
    draw_environment,
    plan_board,
    plan_environment,
    shared_hex_size,
)
from render.png import encode
from render.replay import encode_gif, replay_frames
from render.scores import render_scores_image
from render.standings import render_history_image


def render_display(state: GameState) -> bytes:
    """The display of ``state`` as PNG bytes: pairs 1-4 (tile and token), tiles left in
    the stack, the scoring cards with a one-line reminder each, and a banner when three
    display tokens match and the current player may wipe them."""
    return encode(render_display_image(state))


def render_environment(
    state: GameState,
    seat: int,
    *,
    name: str,
    score: int | None = None,
    highlight: Collection[Hex] = (),
    hex_size: int | None = None,
) -> bytes:
    """Seat ``seat``'s environment as PNG bytes, headed by ``name``, the seat's nature
    tokens and ``score`` (when given). Every placed tile and every empty position where a
    tile could go is labelled with its hex text form; hexes in ``highlight`` get a ring.
    The hexes are as large as fits, or at most ``hex_size`` pixels (centre to corner): pass
    :func:`environment_scale` to draw every environment of a message at one scale."""
    player = state.seats[seat]
    return _environment_png(
        player.environment,
        name,
        player.nature_tokens,
        score,
        frozenset(highlight),
        hex_size,
        reader(),
    )


def environment_scale(state: GameState) -> int:
    """The hex size (pixels, centre to corner) at which the environments of ``state`` are
    drawn side by side in one message: the largest environment's, the one that needs the
    smallest hexes to fit, so that a tile is the same size in every picture."""
    return shared_hex_size(seat.environment for seat in state.seats)


def turn_frame(state: GameState) -> BoardFrame:
    """The frame (hex size and canvas) every board of ``state``'s turn message is drawn in:
    the largest board's placed tiles fit it, and each board is centred in the same canvas,
    so boards shown in cells of one width show at one scale."""
    return board_frame(seat.environment for seat in state.seats)


def render_board(
    state: GameState,
    seat: int,
    *,
    name: str,
    frame: BoardFrame,
    score: int | None = None,
    highlight: Collection[Hex] = (),
) -> bytes:
    """Seat ``seat``'s board for a turn message as PNG bytes: like
    :func:`render_environment`, but the placed tiles only (each labelled), in ``frame``
    (see :func:`turn_frame`), under a header scaled to the width, so that a phone's chat
    shows it small and readable."""
    player = state.seats[seat]
    return _board_png(
        player.environment, name, player.nature_tokens, score, frozenset(highlight), frame, reader()
    )


def clear_picture_cache() -> None:
    """Forget the environment pictures kept for reuse (benchmarks measure fresh drawing)."""
    _environment_png.cache_clear()
    _board_png.cache_clear()


@lru_cache(maxsize=256)
def _board_png(
    env: Environment,
    name: str,
    nature_tokens: int,
    score: int | None,
    highlight: frozenset[Hex],
    frame: BoardFrame,
    locale: str | None,
) -> bytes:
    # ``locale``: the header's words are the reader's, so a picture is kept per language.
    image = draw_environment(
        plan_board(env, frame),
        env,
        name=name,
        nature_tokens=nature_tokens,
        score=score,
        highlight=highlight,
    )
    return encode(image)


# The bot posts every environment after every turn, but only the mover's changes: keep the
# last pictures (about 40 KB each) instead of drawing the others again.
@lru_cache(maxsize=256)
def _environment_png(
    env: Environment,
    name: str,
    nature_tokens: int,
    score: int | None,
    highlight: frozenset[Hex],
    hex_size: int | None,
    locale: str | None,
) -> bytes:
    image = draw_environment(
        plan_environment(env, hex_size=hex_size),
        env,
        name=name,
        nature_tokens=nature_tokens,
        score=score,
        highlight=highlight,
    )
    return encode(image)


def render_preview(
    after: GameState,
    seat: int,
    *,
    name: str,
    highlight: Collection[Hex],
    score: int | None = None,
) -> bytes:
    """Seat ``seat``'s environment in ``after``, the state a proposed turn would lead to
    (worked out by the caller), as PNG bytes: the hexes in ``highlight`` (the new tile and
    the hex given the token) ringed and the header tagged "preview"."""
    player = after.seats[seat]
    env = player.environment
    image = draw_environment(
        plan_environment(env),
        env,
        name=name,
        nature_tokens=player.nature_tokens,
        score=score,
        highlight=frozenset(highlight),
        tag=_("preview"),
    )
    return encode(image)


def render_scores(sheet: ScoreSheet, *, title: str | None = None, final: bool = True) -> bytes:
    """The score sheet as PNG bytes, like the paper score pad: per player each wildlife
    card, each habitat's largest corridor and bonus, nature tokens, total and place (tied
    players share a place). When ``final``, the winner (or every winner of a shared
    victory) is crowned; during a game the leader is only marked "leading". ``title``
    defaults to "Final scores"; the pad's words are in the reader's language (see
    :func:`i18n.speaking`), as are every picture's."""
    return encode(render_scores_image(sheet, title=title, final=final))


def render_score_chart(rounds: Sequence[Round], *, title: str | None = None) -> bytes:
    """The score-by-round chart of ``rounds`` (one game's, from :func:`engine.replay_rounds`)
    as PNG bytes: one line a player in the seat's colour, ending in the seat's mark, the
    player's name and the final score at the right edge; ``title`` defaults to
    :data:`~render.chart.CHART_TITLE` in the reader's language."""
    return encode(render_chart_image(rounds, title=title))


def render_replay(rounds: Sequence[Round]) -> bytes:
    """The game of ``rounds`` (from :func:`engine.replay_rounds`) as an animated GIF: one
    frame per round with every environment after it, the tile each player placed that round
    ringed, the round and every total so far; the last frame is held about 3 s. Empty
    ``rounds`` give no frame to draw: :class:`ValueError`."""
    if not rounds:
        raise ValueError("a replay needs at least one round")
    return encode_gif(replay_frames(rounds))


def render_score_history(scores: Sequence[int], *, title: str) -> bytes:
    """A member's scores, oldest first, as PNG bytes: one bar a game (the latest 60), the
    best in gold, the average as a line across."""
    return encode(render_history_image(scores, title=title))


def render_badges(badges: Sequence[tuple[str, bool]], *, title: str) -> bytes:
    """Achievements as PNG bytes: every ``(title, earned)`` a badge in rows of five, those
    earned in colour, the rest grey."""
    return encode(render_badges_image(badges, title=title))


__all__ = [
    "BoardFrame",
    "clear_picture_cache",
    "environment_scale",
    "render_badges",
    "render_board",
    "render_display",
    "render_environment",
    "render_preview",
    "render_replay",
    "render_score_chart",
    "render_score_history",
    "render_scores",
    "turn_frame",
]
