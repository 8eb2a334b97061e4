"""Training the learned value (:mod:`engine.players.value`) by self-play, seeded.

:func:`positions` plays games with one policy for every seat and records, at each seat's
move with turns still to come, the board features of the move made and its *score to go*
(the seat's final own score minus its own score right after the move). :func:`fit` solves
ridge least squares over :data:`engine.players.value.FEATURES` on those positions, in pure
Python (about fifty unknowns: the normal equations and Gaussian elimination suffice).

The same seed, games and policy give the same positions and the same weights. The command
line (``python -m engine.players.train``) writes the weights file with this provenance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import mul

from engine.actions import PlaceTile, PlaceToken, Take
from engine.components import TURNS_PER_PLAYER
from engine.game import GameState, Phase, apply, new_game
from engine.move import Move
from engine.players import choose
from engine.players.base import Budget, turns_left
from engine.players.fast import Opportunity, fast_player_with, frontier
from engine.players.value import (
    CONTROLS,
    FEATURES,
    ValueModel,
    control_inputs,
    model_inputs,
    shipped_model,
)
from engine.scorer import MoveScorer, own_score

RIDGE = 1e-3
"""The ridge penalty, per position, on standardised inputs (keeps rare features tame)."""
EXPLORE = 0.2
"""The share of moves drawn from the fast player's frontier instead of the policy's."""


@dataclass(frozen=True, slots=True)
class Position:
    """One seat's move in a self-play game: the board features it left, the seat's turns
    left after it, the points the seat scored from then to the end (the label), and the
    board features its previous move left (None for its first)."""

    board: tuple[float, ...]
    turns_after: int
    to_go: float
    before: tuple[float, ...] | None = None


def _own(state: GameState, seat: int) -> int:
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def game_positions(
    *,
    players: int,
    seed: int,
    cards: str,
    policy: str,
    explore: float = 0.0,
    model: ValueModel | None = None,
) -> list[Position]:
    """Every labelled position of one self-play game from ``seed``. With ``explore``, that
    share of the moves (chosen by a generator seeded from ``seed``) is a move drawn from the
    fast player's frontier instead of the policy's: the value has to rank those too, and
    learns what they lead to only if some are played. With ``model``, every seat is the fast
    player valuing boards by it (``policy`` names it in the provenance only)."""
    state = new_game(players=players, seed=seed, cards=cards)
    policy_seed = random.Random(f"train:{seed}").getrandbits(64)
    explorer = random.Random(f"explore:{seed}")
    player = None if model is None else fast_player_with(model)
    pending: list[tuple[int, tuple[float, ...], int, int, tuple[float, ...] | None]] = []
    previous: dict[int, tuple[float, ...]] = {}
    while not state.is_over:
        seat = state.current
        if player is None:
            chosen = choose(state, policy, seed=policy_seed)
        else:
            rng = random.Random(f"{policy}:{policy_seed}:{state.turn}:{state.current}")
            chosen = player(state, rng, Budget())
        if explore and state.phase is Phase.CHOOSE and explorer.random() < explore:
            _, other = explorer.choice(frontier(MoveScorer(state)))
            chosen = list(other.actions())
        move = _whole_move(state, chosen)
        after_turns = turns_left(state, seat) - 1
        board = None
        if move is not None and after_turns > 0:
            tile = state.display_tiles[move.tile - 1]
            token = state.display_tokens[move.token - 1]
            if tile is not None and token is not None:
                board = Opportunity(state, MoveScorer(state)).features(move, tile, token)
        for action in chosen:
            state = apply(state, action)
        if board is not None:
            before = previous.get(seat)
            previous[seat] = tuple(board)
            pending.append((seat, tuple(board), after_turns, _own(state, seat), before))
    final = [_own(state, seat) for seat in range(players)]
    return [
        Position(board, turns, float(final[seat] - score), before)
        for seat, board, turns, score, before in pending
    ]


def _whole_move(state: GameState, actions: Sequence[object]) -> Move | None:
    """The move ``actions`` make when they are a whole turn from the start, else None."""
    if state.phase is not Phase.CHOOSE or len(actions) != 3:
        return None
    take, tile, token = actions
    if isinstance(take, Take) and isinstance(tile, PlaceTile) and isinstance(token, PlaceToken):
        return Move(take.tile, take.token, tile.at, tile.rotation, token.at)
    return None


def positions(
    *,
    players: int,
    games: int,
    seed: int,
    cards: str,
    policy: str,
    explore: float = 0.0,
    model: ValueModel | None = None,
) -> Iterator[Position]:
    """The positions of ``games`` self-play games, on the game seeds ``seed``, ``seed + 1``..."""
    for game in range(games):
        yield from game_positions(
            players=players,
            seed=seed + game,
            cards=cards,
            policy=policy,
            explore=explore,
            model=model,
        )


@dataclass(frozen=True, slots=True)
class Fit:
    """Fitted weights (:data:`FEATURES` then :data:`CONTROLS`) with the figures of the fit:
    positions, and the root mean square error of the score to go before (around its mean)
    and after the fit."""

    weights: tuple[float, ...]
    count: int
    spread: float
    error: float


def fit(samples: Sequence[Position], *, ridge: float = RIDGE) -> Fit:
    """Ridge least squares of the score to go on :data:`FEATURES` and :data:`CONTROLS`
    (inputs standardised for the penalty, the constant left free; weights given back in raw
    units, the features' first)."""
    rows = [
        model_inputs(p.board, p.turns_after) + control_inputs(p.before, p.turns_after)
        for p in samples
    ]
    labels = [p.to_go for p in samples]
    count, width = len(rows), len(FEATURES) + len(CONTROLS)
    if count < 2:
        raise ValueError("at least two positions are needed to fit")
    means = [math.fsum(row[i] for row in rows) / count for i in range(width)]
    scales = []
    for i in range(width):
        deviation = math.sqrt(math.fsum((row[i] - means[i]) ** 2 for row in rows) / count)
        scales.append(deviation if deviation > 1e-12 else 0.0)
    # The constant column stays as 1; the others are centred and scaled (or dropped when
    # they never vary).
    scaled = [
        [1.0] + [(row[i] - means[i]) / scales[i] if scales[i] else 0.0 for i in range(1, width)]
        for row in rows
    ]
    columns = list(zip(*scaled, strict=True))
    normal = [[0.0] * width for _ in range(width)]
    for i in range(width):
        for j in range(i, width):
            normal[i][j] = normal[j][i] = math.fsum(map(mul, columns[i], columns[j]))
        if i > 0:
            normal[i][i] += ridge * count
    target = [math.fsum(map(mul, column, labels)) for column in columns]
    solved = _solve(normal, target)
    weights = [0.0] * width
    weights[0] = solved[0]
    for i in range(1, width):
        if scales[i]:
            weights[i] = solved[i] / scales[i]
            weights[0] -= weights[i] * means[i]
    mean_label = math.fsum(labels) / count
    spread = math.sqrt(math.fsum((y - mean_label) ** 2 for y in labels) / count)
    residual = math.fsum(
        (y - math.fsum(w * x for w, x in zip(weights, row, strict=True))) ** 2
        for row, y in zip(rows, labels, strict=True)
    )
    return Fit(tuple(weights), count, spread, math.sqrt(residual / count))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` by Gaussian elimination with partial pivoting."""
    size = len(vector)
    a = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            continue
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, size):
            factor = a[r][col] / a[col][col]
            if factor:
                row, top = a[r], a[col]
                for c in range(col, size + 1):
                    row[c] -= factor * top[c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        if abs(a[r][r]) < 1e-12:
            continue
        x[r] = (a[r][size] - math.fsum(a[r][c] * x[c] for c in range(r + 1, size))) / a[r][r]
    return x


def train(
    *,
    players: int,
    games: int,
    seed: int,
    cards: str,
    policy: str,
    explore: float = EXPLORE,
    ridge: float = RIDGE,
    weights: str | None = None,
    command: str,
) -> ValueModel:
    """Self-play ``games`` games and fit the value on them; the model records ``command``,
    the settings and the fit's figures as its provenance. With ``weights`` (a shipped
    weights file's name), the players are the fast player valuing boards by that model."""
    model = None if weights is None else shipped_model(weights)
    played = policy if weights is None else f"fast with {weights}"
    samples = positions(
        players=players,
        games=games,
        seed=seed,
        cards=cards,
        policy=played,
        explore=explore,
        model=model,
    )
    result = fit(list(samples), ridge=ridge)
    provenance = {
        "command": command,
        "seed": seed,
        "games": games,
        "players": players,
        "cards": cards,
        "policy": played,
        "explore": explore,
        "positions": result.count,
        "turns_per_player": TURNS_PER_PLAYER,
        "ridge": ridge,
        "label_rms": round(result.spread, 4),
        "fit_rms": round(result.error, 4),
    }
    rounded = [float(f"{w:.6g}") for w in result.weights]
    split = len(FEATURES)
    return ValueModel(tuple(rounded[:split]), tuple(rounded[split:]), provenance)
