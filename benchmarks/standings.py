"""The standings on the big database of :mod:`benchmarks.bigdb`: what ``stats``, ``server`` and
``leaderboard`` cost, and a rating update at game end.

Run: ``python benchmarks/standings.py --db BIG.sqlite3 [--samples 300]``, where the database
was made by ``python benchmarks/bigdb.py --db BIG.sqlite3``. The file is copied first (the
original is never written). The copy is upgraded to this schema, its finished games' results
are filled in (the backfill the bot and ``cascadia-bot ratings --rebuild`` run once), every
server's league is turned on with every game of two or more seats counted as rated, and the
ratings are rebuilt. Then, for the member with the most finished games (the heavy user):
``/cascadia stats`` in their busiest server and across every server; ``/cascadia server`` and
``/cascadia leaderboard`` in the busiest server; and the rating update of a four-player game.

Exits with status 1 if a target was missed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.bigdb import HEAVY_USER, Report, timed
from bot.standings.league import player_key, rate, rebuild_ratings, update_ratings
from bot.standings.service import backfill_results, leaderboard_answer, server_answer, stats_answer
from bot.standings.stats import member_stats, stats_message
from bot.stores import SqliteStore

STATS_P99_TARGET = 0.050
LEADERBOARD_P99_TARGET = 0.050
RATING_UPDATE_TARGET = 0.005


def _busiest(path: Path) -> tuple[int, int, int]:
    """The heavy user's busiest server, their games there, and the busiest server overall."""
    with sqlite3.connect(path) as db:
        guild, games = db.execute(
            "SELECT guild_id, COUNT(*) FROM results WHERE user_id = ? GROUP BY guild_id"
            " ORDER BY COUNT(*) DESC LIMIT 1",
            (HEAVY_USER,),
        ).fetchone()
        (busiest,) = db.execute(
            "SELECT guild_id FROM results GROUP BY guild_id ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()
    return int(guild), int(games), int(busiest)


def _rate_everything(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET rated = 1 WHERE players > 1")
        db.execute(
            "INSERT INTO leagues (guild_id, enabled, season)"
            " SELECT DISTINCT guild_id, 1, 1 FROM results"
        )


async def run(source: Path, samples: int, report: Report) -> None:
    """Prepare a copy of ``source`` and print every figure."""
    with tempfile.TemporaryDirectory(prefix="standings-") as folder:
        path = Path(folder) / "big.sqlite3"
        shutil.copyfile(source, path)
        began = time.perf_counter()
        async with SqliteStore.open(path) as store:
            report.line("schema upgrade", time.perf_counter() - began)
            began = time.perf_counter()
            filled = await backfill_results(store)
            report.line(f"backfill of {filled} finished games", time.perf_counter() - began)
        _rate_everything(path)
        guild, games, busiest = _busiest(path)
        async with SqliteStore.open(path) as store:
            began = time.perf_counter()
            rebuilt = await rebuild_ratings(store)
            report.line(
                f"ratings rebuilt ({rebuilt.games} rated games, {rebuilt.players} ratings)",
                time.perf_counter() - began,
            )
            everywhere = len(await store.member_results(HEAVY_USER, guild_id=None))
            print(
                f"heavy user: {games} games in their busiest server, {everywhere} everywhere",
                flush=True,
            )

            async def mine_here() -> object:
                return await stats_answer(store, guild, HEAVY_USER, "heavy")

            async def mine_everywhere() -> object:
                results = await store.member_results(HEAVY_USER, guild_id=None)
                mates = await store.tablemates(HEAVY_USER, guild_id=None)
                return stats_message("heavy", member_stats(results, mates, HEAVY_USER), here=False)

            async def board() -> object:
                return await leaderboard_answer(store, busiest, HEAVY_USER)

            async def figures() -> object:
                return await server_answer(store, busiest)

            for name, call, target in (
                ("stats, heavy user, their busiest server", mine_here, STATS_P99_TARGET),
                ("stats everywhere:True, heavy user", mine_everywhere, STATS_P99_TARGET),
                ("leaderboard, busiest server", board, LEADERBOARD_P99_TARGET),
                ("server, busiest server", figures, None),
            ):
                await call()
                times = [await timed(call) for _ in range(samples)]
                report.spread(name, times, target)

            rng = random.Random(1)
            rated = [r for r in await store.guild_results(busiest) if r.rated]
            four = sorted({r.game_id for r in rated if r.players == 4})
            computed, updates = [], []
            for _ in range(samples):
                game = rng.choice(four)
                seats = [r for r in rated if r.game_id == game]
                before = {
                    r.player: r
                    for r in await store.ratings(busiest, 1, [player_key(r) for r in seats])
                }
                began = time.perf_counter()
                rate(seats, before)
                computed.append(time.perf_counter() - began)
                began = time.perf_counter()
                await update_ratings(store, seats)
                updates.append(time.perf_counter() - began)
            report.spread("rating computed, 4 players", computed)
            report.spread(
                "rating update at game end (read, compute, commit), 4 players",
                updates,
                RATING_UPDATE_TARGET,
            )


def main() -> None:
    """Parse the options, run, and exit 1 if a target was missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="a database of benchmarks/bigdb.py")
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    report = Report()
    asyncio.run(run(args.db, args.samples, report))
    raise SystemExit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
