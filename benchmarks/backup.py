"""The bot's own backup of the big database, and how long it holds the event loop up.

Run: ``python benchmarks/backup.py`` or ``python -m benchmarks.backup``, with the options
``[--db PATH] [--runs 3]``. ``--db`` names the 11,000-game SQLite file of
:mod:`benchmarks.bigdb` (``python benchmarks/bigdb.py --db PATH`` keeps one); without it, or
when the file does not exist yet, the same database is generated first.

On a copy of that file, with the store open on it as in the bot, each run writes one backup
through :class:`bot.db.backup.Backups` (the bot's path: a thread, steps of
:data:`bot.db.backup.STEP_PAGES` pages, ``integrity_check``), while the event loop goes on:

* a ticker, alone on the loop, asks to wake every 5 ms and records how late each wake-up
  is: the longest is the event loop's longest stall (target <= 50 ms), printed beside the
  same figure over a pause as long without a backup (what the machine's load alone does);
* then, during a second backup, ``/cascadia mygames`` reads for the heavy user and
  quiet-hours writes go through the store one after the other: their p50 and p99, with
  and without a backup.

Exits with status 1 if a target was missed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path: look in the repository root.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.bigdb import HEAVY_USER, NOW, generate, percentile
from bot.db.backup import Backups, backups_in, inspect
from bot.game.rows import GameStatus
from bot.stores import SqliteStore

STALL_TARGET = 0.050
TICK = 0.005
"""How often the ticker asks to wake, in seconds."""


@dataclass
class Watch:
    """What the event loop did while it was watched: wake-up lateness, or store calls."""

    stalls: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)

    def stall_line(self) -> str:
        """The longest stall and the p99, in milliseconds."""
        return (
            f"longest stall {max(self.stalls) * 1000:.1f} ms "
            f"(p99 {percentile(self.stalls, 0.99) * 1000:.1f} ms, {len(self.stalls)} wake-ups)"
        )

    def calls_line(self) -> str:
        """The store calls' p50 and p99, in milliseconds."""
        return (
            f"mygames p50 {statistics.median(self.reads) * 1000:.1f} / "
            f"p99 {percentile(self.reads, 0.99) * 1000:.1f} ms ({len(self.reads)} reads); "
            f"quiet-hours write p50 {statistics.median(self.writes) * 1000:.1f} / "
            f"p99 {percentile(self.writes, 0.99) * 1000:.1f} ms"
        )


async def ticking(work: Awaitable[object]) -> Watch:
    """Run ``work`` while a ticker asks to wake every :data:`TICK`; nothing else runs on the
    loop, so each late wake-up is the loop held up by the work."""
    watch = Watch()
    done = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def tick() -> None:
        while not done.is_set():
            began = loop.time()
            await asyncio.sleep(TICK)
            watch.stalls.append(max(0.0, loop.time() - began - TICK))

    await asyncio.gather(tick(), _until_done(work, done))
    return watch


async def playing(store: SqliteStore, work: Awaitable[object]) -> Watch:
    """Run ``work`` while the heavy user's mygames reads and quiet-hours writes go through
    the store one after the other; returns their timings."""
    watch = Watch()
    done = asyncio.Event()

    async def play() -> None:
        for user in itertools.count(1):
            if done.is_set():
                return
            began = time.perf_counter()
            await store.games_for_user(HEAVY_USER, statuses=tuple(GameStatus))
            watch.reads.append(time.perf_counter() - began)
            began = time.perf_counter()
            await store.set_quiet(user, start=22, end=7, zone="UTC")
            watch.writes.append(time.perf_counter() - began)

    await asyncio.gather(play(), _until_done(work, done))
    return watch


async def _until_done(work: Awaitable[object], done: asyncio.Event) -> None:
    try:
        await work
    finally:
        done.set()


async def measure(path: Path, folder: Path, runs: int) -> bool:
    """Backups of ``path`` into ``folder``, watched by the ticker and then with the store
    busy, each beside a pause of the same length without a backup; returns whether the stall
    target was met."""
    ok = True
    async with SqliteStore.open(path) as store:
        # An hour later at each reading: two quick backups never get the same name.
        hours = itertools.count()
        backups = Backups(
            path, folder, every=timedelta(hours=1), now=lambda: NOW + timedelta(hours=next(hours))
        )
        for run in range(1, runs + 1):
            began = time.perf_counter()
            during = await ticking(backups.write())
            took = time.perf_counter() - began
            idle = await ticking(asyncio.sleep(took))
            busy = await playing(store, backups.write())
            calm = await playing(store, asyncio.sleep(took))
            longest = max(during.stalls)
            met = longest <= STALL_TARGET
            ok &= met
            print(f"backup {run}: {took:.1f} s", flush=True)
            print(f"  during the backup: {during.stall_line()}", flush=True)
            print(f"  without one:       {idle.stall_line()}", flush=True)
            print(f"  store calls during a backup: {busy.calls_line()}", flush=True)
            print(f"  store calls without one:     {calm.calls_line()}", flush=True)
            print(
                f"  longest stall during the backup {longest * 1000:.1f} ms "
                f"(target <= {STALL_TARGET * 1000:.0f} ms: {'ok' if met else 'MISSED'})",
                flush=True,
            )
        await backups.close()
    [*_, (_, newest)] = await asyncio.to_thread(backups_in, folder)
    contents = await asyncio.to_thread(inspect, newest)
    print(f"the newest backup: {contents}", flush=True)
    return ok


def main() -> None:
    """Parse the options, generate the database if needed, measure, exit 1 on a miss."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="the big SQLite database: reused, or generated and kept")
    parser.add_argument("--runs", type=int, default=3, help="backups to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cascadia-backup-") as tmp:
        workdir = Path(tmp)
        path = Path(args.db) if args.db else workdir / "big.sqlite3"
        if not path.exists():
            began = time.perf_counter()
            asyncio.run(generate(path, finished=10_000, running=1_000, seed=1, now=NOW))
            print(f"generated the big database in {time.perf_counter() - began:.0f}s")
        # The store writes into the copy it measures on; the kept file stays as generated.
        copy = workdir / "live.sqlite3"
        shutil.copyfile(path, copy)
        folder = workdir / "backups"
        folder.mkdir()
        ok = asyncio.run(measure(copy, folder, args.runs))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
