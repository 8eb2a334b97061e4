"""Committing a turn reads each fact once: the features' hooks share what they read about the
turn, so the player to move's settings, their quiet hours and time away, and whether the game
is a daily trek, are each read at most once per commit, in mid-game and at the end.

A counting proxy over the real store records every call by method and arguments; the answers
are the store's own."""

from __future__ import annotations

import dataclasses
import inspect
from collections import Counter
from collections.abc import Hashable
from typing import Any, cast

from bot.app import game_service
from bot.game.records import move_text
from bot.game.service import LoadedGame
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock

GUILD, CHANNEL = 1, 10
ADA, BOB = 100, 200

# The store's methods that read facts about people or the game, by the fact they read.
FACTS = {
    "person": "presence",
    "people_of": "presence",
    "notify_settings": "settings",
    "notify_settings_of": "settings",
    "daily_attempt": "daily attempt",
    "daily_games": "daily attempt",
    "is_practice": "daily attempt",
}


def _key(value: object) -> Hashable:
    """A call's argument as a key: a set of ids as a sorted tuple, a list as a tuple, what
    cannot be hashed (rows holding dicts) as its text."""
    if isinstance(value, set | frozenset):
        return tuple(sorted(value))
    if isinstance(value, list | tuple):
        return tuple(_key(v) for v in value)
    if isinstance(value, Hashable):
        try:
            hash(value)
        except TypeError:  # a frozen row holding a dict
            return repr(value)
        return value
    return repr(value)


class CountingStore:
    """The real store, counting each call to it by method and arguments."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.calls: Counter[tuple[str, Hashable]] = Counter()

    def view(self, kind: type[Any]) -> Any:
        """Itself as any feature's store, as the real store is: every read stays counted."""
        return self

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)
        if not inspect.iscoroutinefunction(method):
            return method

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[(name, _key((*args, *sorted(kwargs.items()))))] += 1
            return await method(*args, **kwargs)

        return counted

    def facts(self) -> Counter[tuple[str, object]]:
        """How often each fact was read: a person's presence or settings (by user id), a
        game's daily attempt (by game id), whichever method read it."""
        found: Counter[tuple[str, object]] = Counter()
        for (name, args), count in self.calls.items():
            if name not in FACTS:
                continue
            first = cast(tuple[Any, ...], args)[0]
            for subject in first if isinstance(first, tuple) else (first,):
                found[(FACTS[name], subject)] += count
        return found


def _repeated(counts: Counter[Any]) -> list[Any]:
    return sorted((key for key, count in counts.items() if count > 1), key=repr)


async def test_a_turn_reads_each_fact_once(store: Store, clock: FakeClock) -> None:
    counting = CountingStore(store)
    service = game_service(cast(Store, counting), now=clock, seeds=lambda: 5)
    for user in (ADA, BOB):
        settings = await store.notify_settings(user)
        changed = dataclasses.replace(settings, dm=True, heads_up=True, reminder_hours=5)
        await store.save_notify_settings(changed)
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    await service.lobby.start(table.game.id, user_id=ADA)

    async def commit(table: LoadedGame) -> bool:
        """The player to move plays the ``fast`` player's choice; whether it ended the game."""
        state = table.require_state()
        move = Move.parse(move_text(choose(state, "fast", seed=1)))
        player = table.players[state.current]
        await service.commit_turn(table, state.current, move, user_id=player.user_id)
        return move.play(state, state.current).is_over

    table = await service.game(CHANNEL)
    counting.calls.clear()
    assert not await commit(table)
    middle = counting.facts()
    assert _repeated(counting.calls) == []
    assert _repeated(middle) == []
    # The facts the features need were read: both people's, and the daily attempt.
    people = {(fact, user) for fact in ("presence", "settings") for user in (ADA, BOB)}
    assert people <= set(middle)
    assert middle[("daily attempt", table.game.id)] == 1

    while True:
        table = await service.game_by_id(table.game.id)
        counting.calls.clear()
        if await commit(table):
            break
    end = counting.facts()
    assert (await service.game_by_id(table.game.id)).require_state().is_over
    assert _repeated(counting.calls) == []
    assert _repeated(end) == []
    assert end[("daily attempt", table.game.id)] == 1
    assert ("presence", ADA) in end, "the results read the players' time away"
