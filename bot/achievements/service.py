"""The achievements: the parts of ``/cascadia stats`` and ``server``, and the count of games
finished before achievements were kept (``cascadia-bot ratings --rebuild``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.achievements import texts
from bot.achievements.catalogue import AchievementRules, scenario_numbers
from bot.achievements.store import AchievementsStore, Earned
from bot.game.errors import DamagedLog
from bot.game.names import seat_names
from bot.game.records import UNREADABLE, read_state
from bot.game.rows import GameStatus
from bot.game.service import GameService
from engine import SCENARIOS, CascadiaError, score_state
from i18n import _

__all__ = ["AchievementsService", "MemberAchievements", "rebuild_achievements"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MemberAchievements:
    """A member's achievements as ``/cascadia stats`` shows them: its lines, and every
    achievement's title with whether they earned it (catalogue order), for the picture; in
    the reader's language."""

    text: str
    badges: tuple[tuple[str, bool], ...]

    @property
    def earned(self) -> tuple[str, ...]:
        """The titles earned, in catalogue order."""
        return tuple(title for title, earned in self.badges if earned)


class AchievementsService:
    """The achievements' answers, over a :class:`GameService` and the rules handed in."""

    def __init__(self, service: GameService, rules: AchievementRules) -> None:
        self.service = service
        self.rules = rules
        self.store = service.store_as(AchievementsStore)

    async def member(self, user_id: int, *, guild_id: int | None) -> MemberAchievements:
        """What the member earned in the server's games (``None``: in every server)."""
        firsts = {f.achievement: f for f in await self.store.firsts(user_id, guild_id=guild_id)}
        rules = self.rules
        shown = [(rules.shown(a), firsts[a].game_id) for a in rules.ids if a in firsts]
        text = texts.stats_lines(shown, len(rules.catalogue))
        met = scenario_numbers(firsts)
        if met:
            text += "\n" + _(
                "Solo scenarios met: {numbers} (of {total}).",
                numbers=", ".join(map(str, met)),
                total=len(SCENARIOS),
            )
        badges = tuple((rules.shown(a), a in firsts) for a in rules.ids)
        return MemberAchievements(text, badges)

    async def server(self, guild_id: int) -> str:
        """How many members earned each achievement someone earned here, rarest first."""
        counts = await self.store.members_per_achievement(guild_id)
        return texts.server_lines(
            [(self.rules.shown(a), counts[a]) for a in self.rules.ids if a in counts]
        )


async def rebuild_achievements(
    store: AchievementsStore, rules: AchievementRules, *, batch: int = 200
) -> int:
    """Count again every finished game's achievements from its stored final state (not a
    daily trek's practice attempt), replacing what was kept: run twice, the same rows.
    Returns how many games were counted."""
    counted, after = 0, 0
    while game_ids := await store.finished_games_after(after, batch):
        after = game_ids[-1]
        seats = await store.seats_of(game_ids)
        rows: list[Earned] = []
        done: list[int] = []
        for game_id in game_ids:
            game = await store.get_game(game_id)
            if game is None or game.state is None or game.status is not GameStatus.FINISHED:
                continue
            try:
                state = read_state(game.state)
                moves = await store.moves(game_id)
                people = seats.get(game_id, [])
                sheet = score_state(state, seat_names([s.name for s in people]))
                earned = list(zip(people, rules.earn(state, sheet), strict=True))
            except (*UNREADABLE, CascadiaError, DamagedLog) as error:
                # What was kept for the game stays.
                why = f"{type(error).__name__}: {error}"
                log.warning("game %d: no achievements counted (%s)", game_id, why)
                continue
            finished_at = moves[-1].created_at if moves else game.updated_at
            for seat, ids in earned:
                if seat.computer is None and seat.user_id > 0:
                    rows += [
                        Earned(game_id, seat.user_id, a, game.guild_id, finished_at) for a in ids
                    ]
            done.append(game_id)
        await store.replace_earned(done, rows)
        counted += len(done)
    return counted
