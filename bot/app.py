"""The composition root: the whole bot built from its settings and an open store.

:class:`Application` builds the game service and each feature's service over one store, in
one place, without Discord: the console script (:mod:`bot.__main__`) opens the store, builds
the application and hands its service and parts to the Discord client; tests and tools build
it the same way. Adding a feature is lines here (its service, its hooks, its extension, its
passes), not an edit of the client or the game floor.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import timedelta

from bot.achievements.catalogue import ENGINE_RULES, AchievementRules
from bot.achievements.hooks import AchievementsHooks
from bot.achievements.service import AchievementsService
from bot.archive.hooks import ArchiveHooks
from bot.attendance.hooks import AttendanceHooks
from bot.attendance.notices import Notices
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance
from bot.computers.turns import ComputerTurns
from bot.daily.hooks import DailyHooks
from bot.daily.service import DailyTrek
from bot.db.backup import Backups
from bot.game.computers import Thinker, start_thinker
from bot.game.hooks import TurnHooks
from bot.game.kernel import HOUR, new_seed
from bot.game.pictures import start_renderer
from bot.game.rows import THIS_PROCESS, Claimer
from bot.game.service import GameService
from bot.ops.clock import Clock, utc_now
from bot.ops.config import Settings
from bot.retention.forgetting import Forgetting
from bot.shell.parts import Announce, Parts, Pass
from bot.standings.hooks import StandingsHooks
from bot.stores import Store
from bot.tables.service import Tables

ACHIEVEMENTS: AchievementRules = ENGINE_RULES
"""Which achievements there are and who earned which in a finished game: the engine's
catalogue and reading, the same ``python -m engine achievements`` prints."""

EXTENSIONS = (
    "bot.play.cog",
    "bot.lobby.cog",
    "bot.panel.cog",
    "bot.attendance.cog",
    "bot.daily.cog",
    "bot.archive.cog",
    "bot.standings.cog",
)
"""Each feature's extension, in the order the client loads them: each adds its commands to
the one ``/cascadia`` group and registers its buttons."""


def standard_hooks(store: Store) -> TurnHooks:
    """The features' hooks into a turn, over ``store``: attendance calls the player to move
    and sends the direct messages (told by the daily trek which games are played in direct
    messages); a finished game gets the daily trek's par, then the standings' results and
    ratings, then the achievements earned, then the archive's round totals."""
    daily = DailyHooks(store)
    attendance = AttendanceHooks(store, venue=daily)
    achievements = AchievementsHooks(store, ACHIEVEMENTS)
    return TurnHooks(
        caller=attendance,
        directs=attendance,
        finish=(daily, StandingsHooks(store), achievements, ArchiveHooks(store)),
        venue=daily,
    )


def game_service(
    store: Store,
    *,
    now: Clock = utc_now,
    seeds: Callable[[], int] = new_seed,
    reminder_hour: timedelta = HOUR,
    thinker: Thinker | None = None,
    claimer: Claimer = THIS_PROCESS,
) -> GameService:
    """The game service as the bot runs it: over ``store``, with every feature's hooks (see
    :class:`~bot.game.kernel.GameKernel` for the options)."""
    return GameService(
        store,
        now=now,
        seeds=seeds,
        reminder_hour=reminder_hour,
        thinker=thinker,
        claimer=claimer,
        hooks=standard_hooks(store),
    )


def claimer_for(settings: Settings) -> Claimer:
    """This process as it claims work in the database: a name no other process has (the host,
    the process id and a random part), its shards, and the lease of ``CASCADIA_LEASE_SECONDS``.
    Without ``CASCADIA_SHARDS`` the process runs every shard, so it owns every guild."""
    # Short and ASCII: PostgreSQL shows it as the name of this process's connection.
    host = socket.gethostname().encode("ascii", "replace").decode()[:32]
    name = f"{host}:{os.getpid()}:{secrets.token_hex(4)}"
    lease = timedelta(seconds=settings.lease_seconds)
    if settings.shard_ids is None or settings.shard_count is None:
        return Claimer(name, lease=lease)
    return Claimer(name, settings.shard_ids, settings.shard_count, lease)


class Application:
    """The bot without Discord: the store, the game service and every feature's service,
    built once from ``settings`` (see :mod:`bot.ops.config`)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        now: Clock = utc_now,
        renderer: Executor | None = None,
        thinker_seconds: float | None = None,
    ) -> None:
        """``renderer`` draws the pictures (default: a worker process of its own, shut down
        by :meth:`close`); ``thinker_seconds`` overrides ``CASCADIA_STRONG_SECONDS``."""
        self.settings = settings
        self.store = store
        self.service = game_service(
            store,
            now=now,
            reminder_hour=timedelta(seconds=settings.reminder_unit_seconds),
            thinker=start_thinker(
                strong_seconds=(
                    settings.strong_seconds if thinker_seconds is None else thinker_seconds
                )
            ),
            claimer=claimer_for(settings),
        )
        self.reminders = ReminderQueue(self.service)
        self.attendance = Attendance(self.service)
        self.notices = Notices(self.service)
        self.daily = DailyTrek(self.service, titles=dict(ACHIEVEMENTS.catalogue))
        self.tables = Tables(self.service)
        self.achievements = AchievementsService(self.service, ACHIEVEMENTS)
        self.forgetting = Forgetting(store, now)
        self._own_renderer = renderer is None
        self.renderer = start_renderer() if renderer is None else renderer
        self.backups = (
            None
            if settings.backup_dir is None or settings.db_url is not None
            else Backups(
                settings.db_path,
                settings.backup_dir,
                every=timedelta(hours=settings.backup_hours),
            )
        )

    def parts(self) -> Parts:
        """What the features hand the Discord client, in the order it runs them."""
        return Parts(
            extensions=EXTENSIONS,
            services=(
                self.attendance,
                self.notices,
                self.daily,
                self.reminders,
                self.tables,
                self.achievements,
            ),
            reminder_passes=(
                Pass("the reminder check", self.reminders.queue_reminders),
                Pass("the deadline check", self.attendance.check),
                Pass("queueing the daily posts", self.daily.queue_posts),
                Pass("the digest check", self.notices.check),
                Pass("closing the lobbies nobody started", self.tables.close_stale),
            ),
            drain_chores=(
                Pass("forgetting old messages", self.forgetting.run),
                Pass("reclaiming space", self.store.reclaim_space),
            ),
            players=self._players,
            refusals=self.notices,
            background=() if self.backups is None else (self.backups,),
        )

    def _players(self, announce: Announce) -> ComputerTurns:
        return ComputerTurns(self.service, announce)

    async def close(self) -> None:
        """Stop the computer players' workers and the picture worker (after the client
        closed: a post in progress has finished)."""
        await self.service.thinker.close()
        if self._own_renderer and self.renderer is not None:
            await asyncio.to_thread(self.renderer.shutdown, wait=True, cancel_futures=True)

    async def __aenter__(self) -> Application:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
