"""Computer players in the bot: who they are, and thinking off the event loop.

A computer's turn and a hint are worked out by the engine's players (:mod:`engine.players`)
in worker processes, at most one per core at once, so that the bot keeps answering while a
``strong`` computer searches for seconds. This sits below the game service, which asks its
:class:`Thinker`; :mod:`bot.computers.turns` plays the computer turns that are due.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TypeVar

from bot.game.pictures import worker_setup
from bot.game.records import move_text, read_state, state_text
from engine import (
    Action,
    Budget,
    GameState,
    Move,
    WipeThree,
    choose,
    ranked_moves,
)
from i18n import _

log = logging.getLogger(__name__)

_T = TypeVar("_T")

COMPUTER_PLAYERS = ("fast", "strong")
"""The computer players a host may seat: ``fast`` moves at once, ``strong`` thinks longer."""
REPLACEMENT = "fast"
"""The computer player that takes over the seat of a player who left a game in play."""
STRONG_SECONDS = 2.0
"""How long ``strong`` may think about one turn, by default."""
HINT_MOVES = 3
"""How many moves a hint suggests."""


def computer_name(policy: str) -> str:
    """The seat name of a computer player in the lobby, e.g. ``"Computer (strong)"``, in the
    reader's language (the game's, where it is seated)."""
    return _("Computer ({policy})", policy=policy)


def think(state_json: str, policy: str, seed: int, seconds: float | None) -> str:
    """The whole turn ``policy`` plays for the seat to move in the stored state ``state_json``,
    as the text of a logged move. Runs in a worker process; ``seconds`` caps
    the time a searching player takes."""
    state = read_state(state_json)
    budget = Budget() if seconds is None else Budget(seconds=seconds, clock=time.monotonic)
    actions: list[Action] = []
    actions += choose(state, policy, seed=seed, budget=budget)
    if WipeThree() in actions:
        # fast and strong never wipe: a turn in the bot is one whole move.
        raise ValueError(f"{policy} wiped tokens: {move_text(actions)}")
    return str(Move.from_actions(actions))


def suggest(state_json: str, count: int) -> list[str]:
    """The ``count`` best moves of the ``fast`` player for the seat to move, best first, each
    as its actions' text. Runs in a worker process."""
    return [str(scored.move) for _rank, scored in ranked_moves(read_state(state_json), count)]


class Thinker:
    """Runs the computer players' thinking in worker processes, at most ``workers`` at once.

    Without an executor (one core, or tests) it thinks in a thread of the default pool.
    """

    def __init__(
        self,
        executor: Executor | None = None,
        *,
        workers: int = 1,
        strong_seconds: float = STRONG_SECONDS,
    ) -> None:
        self.executor = executor
        self.strong_seconds = strong_seconds
        self._slots = asyncio.Semaphore(workers)

    async def _run(self, function: Callable[..., _T], *args: object) -> _T:
        async with self._slots:
            if self.executor is None:
                return await asyncio.to_thread(function, *args)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor, function, *args)

    async def choose(self, state: GameState, policy: str, *, seed: int) -> Move:
        """The whole turn ``policy`` plays for the seat to move."""
        seconds = self.strong_seconds if policy == "strong" else None
        return Move.parse(await self._run(think, state_text(state), policy, seed, seconds))

    async def suggest(self, state: GameState, count: int = HINT_MOVES) -> list[Move]:
        """The ``fast`` player's ``count`` best moves for the seat to move, best first."""
        return [Move.parse(text) for text in await self._run(suggest, state_text(state), count)]

    async def close(self) -> None:
        """Stop the worker processes (thinking under way is abandoned)."""
        if self.executor is not None:
            await asyncio.to_thread(self.executor.shutdown, wait=True, cancel_futures=True)


def start_thinker(*, strong_seconds: float = STRONG_SECONDS) -> Thinker:
    """A thinker with one worker process per core (started lazily, on first use); on a
    machine with a single core it thinks in a thread instead."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return Thinker(workers=1, strong_seconds=strong_seconds)
    executor = ProcessPoolExecutor(
        max_workers=cores,
        # Not fork: the bot has threads that a fork would copy in an unknown state.
        mp_context=multiprocessing.get_context("spawn"),
        initializer=worker_setup,
        initargs=(os.getpid(),),
    )
    return Thinker(executor, workers=cores, strong_seconds=strong_seconds)
