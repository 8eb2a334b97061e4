"""Computer players: random, greedy, fast and strong, behind one interface.

:func:`choose` gives the next actions of the seat to play for a policy named in
:data:`POLICIES`, deterministically from a seed; :func:`play_game` plays a whole game with one
policy per seat. Players see only what a person at the table sees (see
:mod:`engine.players.base`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.components import CardSet
from engine.errors import InvalidInput
from engine.game import GameState, apply, new_game
from engine.players.base import Budget, Player
from engine.players.fast import fast_player, opportunity_player, ranked_moves
from engine.players.greedy import greedy_player
from engine.players.random_player import random_action, random_game
from engine.players.strong import strong_player


def random_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The random player as a :class:`Player`: one random legal action at a time."""
    return [random_action(state, rng)]


POLICIES: dict[str, Player] = {
    "random": random_player,
    "greedy": greedy_player,
    "opportunity": opportunity_player,
    "fast": fast_player,
    "strong": strong_player,
}
"""Every player by the name ``selfplay`` and the bot use."""


def policy_names(text: str) -> list[str]:
    """Read ``"greedy,fast"``: policy names separated by commas, each one of :data:`POLICIES`."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise InvalidInput("name at least one policy")
    for name in names:
        if name not in POLICIES:
            raise InvalidInput(f"unknown policy: {name!r} (one of {', '.join(POLICIES)})")
    return names


def choose(
    state: GameState, policy: str, *, seed: int, budget: Budget | None = None
) -> list[Action]:
    """The next actions of the seat to play by ``policy``: ``[WipeThree()]`` (apply it and ask
    again) or the actions that finish the turn.

    The same state, policy, seed and budget give the same actions (a wall-clock budget may
    let a search finish more or less work). ``seed`` should not be the game's own seed, which
    decides the hidden order.
    """
    player = POLICIES.get(policy)
    if player is None:
        raise InvalidInput(f"unknown policy: {policy!r} (one of {', '.join(POLICIES)})")
    rng = random.Random(f"{policy}:{seed}:{state.turn}:{state.current}:{state.phase}")
    return player(state, rng, budget or Budget())


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game: its last state, every action, the policy of each seat and, per
    decision, the seat and the seconds it took (0 without a clock)."""

    state: GameState
    actions: tuple[Action, ...]
    policies: tuple[str, ...]
    seconds: tuple[tuple[int, float], ...]


def play_game(
    *,
    players: int,
    seed: int,
    cards: str | CardSet,
    policies: Sequence[str],
    budget: Budget | None = None,
    clock: Callable[[], float] | None = None,
) -> PlayedGame:
    """A whole game from ``seed``, seat ``i`` played by ``policies[i]``; ``clock`` times each
    decision. The players' seeds come from ``seed`` through their own stream."""
    if len(policies) != players:
        raise InvalidInput(f"{len(policies)} policies for {players} players")
    state = new_game(players=players, seed=seed, cards=cards)
    actions: list[Action] = []
    seconds: list[tuple[int, float]] = []
    policy_seed = random.Random(f"players:{seed}").getrandbits(64)
    while not state.is_over:
        seat = state.current
        start = clock() if clock is not None else 0.0
        chosen = choose(state, policies[seat], seed=policy_seed, budget=budget)
        seconds.append((seat, clock() - start if clock is not None else 0.0))
        for action in chosen:
            state = apply(state, action)
            actions.append(action)
    return PlayedGame(state, tuple(actions), tuple(policies), tuple(seconds))


__all__ = [
    "POLICIES",
    "Budget",
    "PlayedGame",
    "Player",
    "choose",
    "fast_player",
    "greedy_player",
    "opportunity_player",
    "play_game",
    "policy_names",
    "random_action",
    "random_game",
    "random_player",
    "ranked_moves",
    "strong_player",
]
