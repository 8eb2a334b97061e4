"""The achievements' part in a finished game (a :class:`~bot.game.hooks.FinishHook`): what
each person earned, written in the same transaction as the final move, and the line the final
message ends with (first times, and firsts on the server).
"""

from __future__ import annotations

import asyncio

from bot.achievements.catalogue import AchievementRules
from bot.achievements.store import AchievementsStore, Earned
from bot.achievements.texts import Named, finish_line
from bot.game.hooks import Finish, FinishPart
from i18n import speaking

__all__ = ["AchievementsHooks"]


class AchievementsHooks:
    """The finish hook of the achievements, over a store and the achievements handed in."""

    def __init__(self, store: AchievementsStore, achievements: AchievementRules) -> None:
        self.store = store
        self.achievements = achievements

    async def before_commit(self, finish: Finish) -> FinishPart:
        """Each person's earned achievements as rows of the final commit, and the line naming
        those earned for the first time (by them, and on the server). A daily trek's practice
        attempt earns nothing; computer seats are not kept."""
        game = finish.loaded.game
        # Only a daily trek, played alone with the bot, may be a practice attempt.
        if finish.private and await self.store.is_practice(game.id):
            return FinishPart()
        # The engine's reading walks every board: off the event loop.
        earned = await asyncio.to_thread(self.achievements.earn, finish.state, finish.sheet)
        order = {achievement: i for i, achievement in enumerate(self.achievements.ids)}
        rows: list[Earned] = []
        people: list[tuple[str, list[str], set[str]]] = []
        for player, ids in zip(finish.loaded.players, earned, strict=True):
            if player.computer is not None or player.user_id <= 0 or not ids:
                continue
            rows += [Earned(game.id, player.user_id, a, game.guild_id, finish.now) for a in ids]
            before = await self.store.achievements_of(player.user_id)
            # The final message says by itself which solo scenario was met.
            ordered = sorted((a for a in ids if a in order), key=order.__getitem__)
            people.append((player.shown, ordered, before))
        every = {a for _unused, ids, _before in people for a in ids}
        known = await self.store.earned_in_guild(game.guild_id, every)
        title = self.achievements.shown
        first_time: list[Named] = []
        first_here: list[Named] = []
        # The final message is the game's: in its language.
        with speaking(game.locale):
            for shown, ordered, before in people:
                # A first on the server is a first time too: named once, as the server's.
                here = _highest_score_only([a for a in ordered if a not in known])
                fresh = _highest_score_only([a for a in ordered if a not in before and a in known])
                first_here.append((shown, [title(a) for a in here]))
                first_time.append((shown, [title(a) for a in fresh]))
            tail = finish_line(first_time, first_here)
        return FinishPart(tail=tail, writes=(self.store.earned_write(rows),) if rows else ())

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        """Nothing."""


def _highest_score_only(ids: list[str]) -> list[str]:
    """``ids`` with only the highest of the score thresholds among them (100 points says 80 to
    95 points too), so that a line names what matters."""
    scores = [a for a in ids if a.startswith(SCORE_PREFIX)]
    if len(scores) < 2:
        return ids
    best = max(scores, key=lambda a: int(a.removeprefix(SCORE_PREFIX)))
    return [a for a in ids if not a.startswith(SCORE_PREFIX) or a == best]


SCORE_PREFIX = "score-"
"""How the ids of the score thresholds begin (``score-80`` to ``score-110``)."""
