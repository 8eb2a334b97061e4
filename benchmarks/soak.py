"""Soak: many games played at once for a long time through the bot as its own process, while
it is killed, Discord fails, the database restarts and backups are taken.

Run: ``python benchmarks/soak.py [--minutes 30] [--games 50] [--players 2] [--seed 1]
[--backend sqlite|postgresql] [--kill-every 300] [--fault-every 60] [--restart-db-every 600]
[--backup-every 300]``. The bot runs against the local Discord-compatible server of the
end-to-end tests, on a SQLite file or on a PostgreSQL server started in a temporary directory.

Every channel holds one game at a time, played to the end by its players and followed by the
next; each player moves as soon as the message calling them appears, through autocomplete and
``/cascadia play``, and tries again when the bot is down. Meanwhile:

- the bot is SIGKILLed every ``--kill-every`` seconds and started again on the same database;
- every ``--fault-every`` seconds Discord answers a few of the bot's posts with 500 or 429;
- on PostgreSQL the database server is restarted every ``--restart-db-every`` seconds;
- every ``--backup-every`` seconds a backup is taken while the bot plays (``cascadia-bot
  backup`` on SQLite, ``pg_dump`` on PostgreSQL).

When the time is up the players stop, the bot posts what it still owes and stops, and the run
prints: moves played; moves lost (a move whose player was told "Turn played." that is not in
the database: must be 0); messages doubled (one announcement posted twice: must be 0); the
bot's memory (its process tree's resident set) at the start and the end and its slope in MB
per hour, worked out within each run of the process between kills, with a reading every ten
minutes and the slope of each half of the soak (whether it levels off); and the database's own
integrity check with the check that every game's state has as many turns as its move log.
Exits with status 1 if a move was lost, a message doubled or a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

if __name__ == "__main__" and not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.load import choose
from bot.game.records import read_progress
from bot.ops.target import is_postgres_url
from engine import MOVE_SEPARATOR
from fakediscord import DiscordServer, MessageRecord
from sandbox import BotProcess, pgserver, process_tree
from sandbox.pgserver import PostgresServer

DB_NAME = "soak.sqlite3"
REPO_ROOT = Path(__file__).resolve().parent.parent
RETRY_SECONDS = 2.0
"""How long a player waits before trying again when the bot did not answer."""
MEMORY_EVERY = 10.0
"""Seconds between two readings of the bot's memory."""
SETTLE_TIMEOUT = 300.0
MARK_EVERY = 600.0
"""Seconds between two of the memory readings printed."""
WARM_UP = 120.0
"""Seconds after each start of the bot left out of the memory slope: its caches fill then."""


@dataclass
class Soak:
    """What one run counted."""

    minutes: float
    games: int
    players: int
    backend: str
    started: float = field(default_factory=time.monotonic)
    acknowledged: Counter[int] = field(default_factory=Counter)
    """Moves a player was told were played, by channel."""
    finished_games: int = 0
    kills: int = 0
    faults: int = 0
    database_restarts: int = 0
    backups: list[str] = field(default_factory=list)
    retries: int = 0
    doubled: list[str] = field(default_factory=list)
    """Announcements posted twice, the start of their text."""
    memory: list[tuple[int, float, float]] = field(default_factory=list)
    """(the process's run, seconds since that run's start, MB) readings of the whole tree."""
    own_memory: list[tuple[int, float, float]] = field(default_factory=list)
    """The same readings of the bot's own process alone, without its workers."""
    run_started: dict[int, float] = field(default_factory=dict)
    """When each run of the process started (monotonic)."""
    errors: list[str] = field(default_factory=list)
    stalls: list[float] = field(default_factory=list)
    """The soak's own event loop (the Discord server's) late by over a second, in seconds."""
    collections: list[float] = field(default_factory=list)
    """How long each full garbage collection of the soak's own process took, in seconds."""

    def elapsed(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.started


class Stop(Exception):
    """The run's time is up."""


def resident_mb(pid: int) -> float:
    """The resident set of ``pid`` and its children (the picture and computer players'
    workers), in MB (Linux)."""
    return sum(_resident_kb(each) for each in process_tree(pid)) / 1024


def _resident_kb(pid: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def slope_mb_per_hour(readings: list[tuple[int, float, float]]) -> float | None:
    """The memory's growth within each run of the process (least squares on the readings, each
    run's mean taken out, so the drops at the kills do not count; the first two minutes of each
    run left out, while its caches fill), in MB per hour."""
    runs: dict[int, list[tuple[float, float]]] = {}
    for run, seconds, mb in readings:
        if seconds >= WARM_UP:
            runs.setdefault(run, []).append((seconds, mb))
    top = bottom = 0.0
    for points in runs.values():
        if len(points) < 2:
            continue
        mean_t = statistics.fmean(t for t, _ in points)
        mean_m = statistics.fmean(m for _, m in points)
        top += sum((t - mean_t) * (m - mean_m) for t, m in points)
        bottom += sum((t - mean_t) ** 2 for t, _ in points)
    return None if bottom == 0 else top / bottom * 3600


def _soak_seconds(soak: Soak, run: int, seconds: float) -> float:
    """A reading's time since the soak began (readings count from their run's start)."""
    return soak.run_started[run] - soak.started + seconds


def marks(soak: Soak, readings: list[tuple[int, float, float]]) -> list[tuple[float, float]]:
    """(minutes into the soak, MB): the first reading at or after every :data:`MARK_EVERY`
    seconds, and the last one."""
    found: list[tuple[float, float]] = []
    for run, seconds, mb in readings:
        at = _soak_seconds(soak, run, seconds)
        if at >= len(found) * MARK_EVERY:
            found.append((at / 60, mb))
    if len(readings) > 1:
        run, seconds, mb = readings[-1]
        last = (_soak_seconds(soak, run, seconds) / 60, mb)
        if last != found[-1]:
            found.append(last)
    return found


def split_in_halves(
    soak: Soak, readings: list[tuple[int, float, float]]
) -> tuple[list[tuple[int, float, float]], list[tuple[int, float, float]]]:
    """The readings of the soak's first half of its time and of its second."""
    first: list[tuple[int, float, float]] = []
    second: list[tuple[int, float, float]] = []
    for reading in readings:
        early = _soak_seconds(soak, reading[0], reading[1]) < soak.minutes * 30
        (first if early else second).append(reading)
    return first, second


class Table:
    """One channel's games, played by its players one after another until the time is up."""

    def __init__(
        self, soak: Soak, server: DiscordServer, bot: BotProcess, channel: int, players: list[int]
    ) -> None:
        self.soak = soak
        self.server = server
        self.bot = bot
        self.channel = channel
        self.players = players
        self.rng = random.Random(channel)
        self.deadline = soak.started + soak.minutes * 60

    def time_up(self) -> bool:
        """Whether the run should stop starting anything new."""
        return time.monotonic() >= self.deadline

    def latest(self) -> MessageRecord | None:
        """The channel's newest public message from the bot."""
        found = [
            m
            for m in self.server.channel_messages(self.channel, include_ephemeral=False)
            if m.author_id == self.server.bot_user_id
        ]
        return found[-1] if found else None

    async def answer(self, user: int, command: str, options: dict[str, object]) -> str | None:
        """``/cascadia command`` as ``user``: the private answer's text, or ``None`` when the
        bot did not answer (it is down, or was killed meanwhile)."""
        try:
            handle = await self.server.slash(
                user, self.channel, "cascadia", command, options=options, timeout=10
            )
            await handle.response(timeout=10)

            def filled() -> str | None:
                message = handle.message
                if message is not None and not message.loading:
                    return message.text or " "
                followups = handle.followup_messages
                return followups[0].text if followups else None

            return await self.server.wait_for(filled, timeout=30, what=f"/cascadia {command}")
        except (AssertionError, TimeoutError, LookupError, ValueError, ConnectionError):
            self.soak.retries += 1
            return None

    async def until(self, what: Callable[[], Awaitable[bool]]) -> None:
        """Try ``what`` until it succeeds, waiting between tries; :class:`Stop` at the end."""
        while not await what():
            if self.time_up():
                raise Stop
            await asyncio.sleep(RETRY_SECONDS)  # the bot is restarting: try again soon

    async def run(self) -> None:
        """Play games until the time is up."""
        with contextlib.suppress(Stop):
            while not self.time_up():
                await self.game()

    async def game(self) -> None:
        """One game: open, join, start, every turn, until its final message."""
        host = self.players[0]

        async def opened() -> bool:
            said = await self.answer(host, "new", {})
            return said is not None and ("lobby" in said.lower() or "already" in said.lower())

        await self.until(opened)
        for player in self.players[1:]:

            async def joined(player: int = player) -> bool:
                said = await self.answer(player, "join", {})
                return said is not None

            await self.until(joined)

        async def started() -> bool:
            said = await self.answer(host, "start", {})
            return said is not None

        await self.until(started)
        acted: int | None = None
        while True:
            message = self.latest()
            if message is not None and "The game is over" in message.text:
                self.soak.finished_games += 1
                return
            if self.time_up():
                raise Stop
            if message is None or message.id == acted or len(message.notified) != 1:
                await self.server.next_change(timeout=5)
                continue
            [player] = message.notified
            if player not in self.players:
                await self.server.next_change(timeout=5)
                continue
            options = await self.options(player) if self.bot.running else {}
            said = await self.answer(player, "play", options) if options else None
            if said is None:
                await asyncio.sleep(RETRY_SECONDS)  # the bot is down: try again soon
            elif "Turn played" in said:
                self.soak.acknowledged[self.channel] += 1
                acted = message.id
            elif "not your turn" in said.lower() or "no game" in said.lower():
                acted = message.id  # played before a kill, its answer lost: wait for the post

    async def options(self, player: int) -> dict[str, object]:
        """A turn's options through autocomplete; empty when the bot did not answer."""
        try:
            return await choose(self.server, self.channel, player, self.rng)
        except (AssertionError, TimeoutError, LookupError, ConnectionError, IndexError):
            return {}


def time_collections(soak: Soak) -> None:
    """Record how long each full garbage collection of this process takes."""
    began: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            began[:] = [time.perf_counter()]
        elif began:
            soak.collections.append(time.perf_counter() - began[0])

    gc.callbacks.append(timed)


async def watch_loop(soak: Soak, tick: float = 0.1) -> None:
    """Note each time this process's event loop, which runs the Discord server, wakes over a
    second late: meanwhile the server answers nothing, so interactions the bot answered in
    time may count as late and expire (its heap holds every message of the run)."""
    while True:
        began = time.monotonic()
        await asyncio.sleep(tick)
        late = time.monotonic() - began - tick
        if late > 1.0:
            soak.stalls.append(late)


async def every(
    seconds: float, deadline: float, work: Callable[[], Awaitable[None]], *, offset: float = 0
) -> None:
    """Run ``work`` every ``seconds`` (the first time ``offset`` seconds later still) until
    ``deadline`` (monotonic); never when 0."""
    if seconds <= 0:
        return
    await asyncio.sleep(offset)
    while time.monotonic() + seconds < deadline:
        await asyncio.sleep(seconds)  # a schedule on the wall clock, as a host's cron would
        await work()


async def soak_run(
    args: argparse.Namespace, workdir: Path, pg: PostgresServer | None
) -> tuple[Soak, Kept]:
    """Start the server and the bot, play and disturb for the run's minutes, settle, stop."""
    soak = Soak(args.minutes, args.games, args.players, args.backend)
    time_collections(soak)
    server = await DiscordServer().start()
    guild = server.add_guild("Soak")
    channels = [server.add_channel(guild, f"table-{i}") for i in range(args.games)]
    seats = [[server.add_user(f"p{g}-{s}") for s in range(args.players)] for g in range(args.games)]
    for users in seats:
        for user in users:
            server.add_member(guild, user)
    db = pg.url(database="soak") if pg is not None else str(workdir / DB_NAME)
    bot = BotProcess(
        server,
        db_path=workdir / DB_NAME,
        guild_id=guild,
        log_path=workdir / "bot.log",
        cwd=REPO_ROOT,
        env={"CASCADIA_DB": db, "XDG_CACHE_HOME": str(workdir / "cache")},
    )
    deadline = soak.started + args.minutes * 60
    rng = random.Random(args.seed)

    async def kill() -> None:
        await bot.kill()
        soak.kills += 1
        await start()

    async def fault() -> None:
        status = rng.choice((500, 429))
        server.inject_fault("POST", "/channels/*/messages", status=status, count=3)
        soak.faults += 1

    async def restart_database() -> None:
        if pg is None:
            return
        # A restart as an operator does it: every connection ended with an error, then up
        # again on the same files a few seconds later.
        await asyncio.to_thread(pg.halt, "fast")
        await asyncio.sleep(3)  # the database is down for a while, as in a real restart
        await asyncio.to_thread(pg.launch)
        soak.database_restarts += 1

    async def backup() -> None:
        target = workdir / f"backup-{len(soak.backups) + 1}"
        if pg is None:
            command = [sys.executable, "-m", "bot", "backup", "--to", f"{target}.sqlite3"]
            env = {**os.environ, "CASCADIA_DB": db}
            done = await asyncio.to_thread(
                subprocess.run, command, env=env, cwd=REPO_ROOT, capture_output=True, text=True
            )
        else:
            # pg_dump runs as the server's user, which may write only the server's folder.
            dump = pg.base / f"{target.name}.dump"
            done = await asyncio.to_thread(
                pg.run, "pg_dump", "--format=custom", f"--file={dump}", db
            )
            if done.returncode == 0:
                done.stdout = f"pg_dump wrote {dump.stat().st_size // 1024} KiB"
        if done.returncode != 0:
            soak.errors.append(f"backup {target.name} failed: {done.stderr.strip()[-300:]}")
        else:
            soak.backups.append(done.stdout.strip().splitlines()[-1] if done.stdout else "ok")

    async def start() -> None:
        await bot.start(timeout=120)
        soak.run_started[bot.starts] = time.monotonic()

    async def memory() -> None:
        began = soak.run_started.get(bot.starts)
        if bot.running and began is not None:  # not while a start is under way
            seconds = time.monotonic() - began
            soak.memory.append((bot.starts, seconds, resident_mb(bot.pid)))
            soak.own_memory.append((bot.starts, seconds, _resident_kb(bot.pid) / 1024))

    await start()
    await memory()
    tables = [Table(soak, server, bot, c, u) for c, u in zip(channels, seats, strict=True)]
    chaos = [
        asyncio.create_task(every(args.kill_every, deadline, kill)),
        asyncio.create_task(every(args.fault_every, deadline, fault)),
        # Halfway between two kills: a bot started while its database is down stops at once
        # (the start-up check), which a host's restart policy retries but this run cannot.
        asyncio.create_task(
            every(args.restart_db_every, deadline, restart_database, offset=args.kill_every / 2)
        ),
        asyncio.create_task(every(args.backup_every, deadline, backup)),
        # The last two, the loop's watch and the memory readings, go on while the run
        # settles and end with it.
        asyncio.create_task(watch_loop(soak)),
        asyncio.create_task(every(MEMORY_EVERY, deadline + 3600, memory)),
    ]
    code: int | None = None
    try:
        results = await asyncio.gather(*(t.run() for t in tables), return_exceptions=True)
        soak.errors += [
            f"table {i}: {r!r}" for i, r in enumerate(results) if isinstance(r, Exception)
        ]
        for task in chaos[:-2]:
            await task
        if not bot.running:
            await start()
        await memory()
        await settle(server, db)
    finally:
        for task in chaos:
            task.cancel()
        if bot.running:
            code = await bot.stop()
        await server.close()
    soak.errors += [f"bot: {line}" for line in bot.log_problems()]
    soak.errors += [f"server: {c}" for c in server.crashes]
    if code not in (0, None):
        soak.errors.append(f"the bot exited with status {code}")
    soak.doubled = doubled(server)
    return soak, await kept_figures(db, pg)


async def rows(db: str, sql: str, *parameters: object) -> list[Any]:
    """One read query (``?`` placeholders) on the bot's database: its SQLite file, read only,
    or its PostgreSQL database, each on a connection of its own."""
    if is_postgres_url(db):
        numbered = iter(range(1, len(parameters) + 1))
        connection = await asyncpg.connect(db)
        try:
            query = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)
            return list(await connection.fetch(query, *parameters))
        finally:
            await connection.close()
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        return conn.execute(sql, parameters).fetchall()


async def settle(server: DiscordServer, db: str) -> None:
    """Wait until the bot has posted everything it owes."""
    ends = time.monotonic() + SETTLE_TIMEOUT
    unsent = "SELECT count(*) FROM outbox WHERE sent_at IS NULL"
    while (await rows(db, unsent))[0][0] and time.monotonic() < ends:
        await server.next_change(timeout=1)


def doubled(server: DiscordServer) -> list[str]:
    """Announcements posted more than once: the same text with the same pictures twice in a
    channel (every turn's message says a different move and shows a different board, so a
    repeat is a double post); the start of each one's text."""
    seen: Counter[tuple[int, str, tuple[str, ...]]] = Counter()
    for message in server.messages:
        if message.author_id != server.bot_user_id or message.ephemeral or message.deleted:
            continue
        if not message.text or "lobby" in message.text.lower():
            continue
        # The pictures too: two games' start messages may read alike, never look alike.
        names = tuple(
            sorted(
                f"{a.filename}:{hashlib.sha256(a.data).hexdigest()}" for a in message.attachments
            )
        )
        seen[(message.channel_id, message.text, names)] += 1
    return [f"{text[:120]!r} ({n} times)" for (_, text, _), n in seen.items() if n > 1]


@dataclass(frozen=True)
class Kept:
    """What the database holds at the end."""

    moves: dict[int, int]
    """Turns logged, by channel."""
    check: str
    """The database's own integrity check."""
    mismatched: int
    """Games whose stored state has another number of turns than their move log."""


async def kept_figures(db: str, pg: PostgresServer | None) -> Kept:
    """Read the moves kept per channel and check the database."""
    found = await rows(
        db,
        "SELECT g.channel_id, g.state, (SELECT count(*) FROM moves m WHERE m.game_id = g.id"
        " AND m.action LIKE ?) FROM games g WHERE g.state IS NOT NULL",
        f"%{MOVE_SEPARATOR}%",
    )
    kept: Counter[int] = Counter()
    mismatched = 0
    for channel, state, moves in found:
        kept[int(channel)] += int(moves)
        if read_progress(str(state)).turn != int(moves):
            mismatched += 1
    if pg is None:
        check = str((await rows(db, "PRAGMA integrity_check"))[0][0])
    else:
        pg.psql("CREATE EXTENSION IF NOT EXISTS amcheck", database="soak")
        indexes = pg.psql(
            "SELECT count(bt_index_check(c.oid)) FROM pg_index i JOIN pg_class c"
            " ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n"
            " ON n.oid = c.relnamespace WHERE a.amname = 'btree' AND n.nspname = 'public'",
            database="soak",
        )
        check = f"ok (amcheck on {indexes} B-tree indexes)"
    return Kept(dict(kept), check, mismatched)


def report(soak: Soak, kept: Kept) -> bool:
    """Print the figures; returns whether nothing was lost, doubled or damaged."""
    lost = sum(max(0, n - kept.moves.get(channel, 0)) for channel, n in soak.acknowledged.items())
    moves, check, mismatched = sum(kept.moves.values()), kept.check, kept.mismatched
    print(
        f"{soak.minutes:g} minutes on {soak.backend}, {soak.games} games at once of"
        f" {soak.players} players, {os.cpu_count()} CPUs"
    )
    print(
        f"disturbances: {soak.kills} kills, {soak.faults} Discord fault bursts,"
        f" {soak.database_restarts} database restarts, {len(soak.backups)} backups"
    )
    print(f"games finished: {soak.finished_games}; tries again after no answer: {soak.retries}")
    print(f"moves played: {moves} (told 'Turn played.': {sum(soak.acknowledged.values())})")
    print(f"moves lost: {lost} (must be 0)")
    print(f"messages doubled: {len(soak.doubled)} (must be 0)")
    for text in soak.doubled[:5]:
        print(f"  {text}")
    if soak.memory:
        first, last = soak.memory[0][2], soak.memory[-1][2]
        slope = slope_mb_per_hour(soak.memory)
        shown = "n/a" if slope is None else f"{slope:+.1f} MB per hour"
        print(f"bot memory: {first:.0f} MB at the start, {last:.0f} MB at the end; slope {shown}")
        own, own_slope = soak.own_memory[-1][2], slope_mb_per_hour(soak.own_memory)
        shown = "n/a" if own_slope is None else f"{own_slope:+.1f} MB per hour"
        print(f"  of which the bot's own process: {own:.0f} MB at the end; slope {shown}")
        for name, readings in (("with its workers", soak.memory), ("own", soak.own_memory)):
            shown = ", ".join(f"{minute:.0f} min {mb:.0f}" for minute, mb in marks(soak, readings))
            halves = [slope_mb_per_hour(half) for half in split_in_halves(soak, readings)]
            each = " and ".join("n/a" if h is None else f"{h:+.1f}" for h in halves)
            print(f"  {name}, MB every {MARK_EVERY / 60:.0f} minutes: {shown};"
                  f" slope in the first and second half {each} MB per hour")  # fmt: skip
    print(f"integrity: {check}; games whose state and move log disagree: {mismatched}")
    longest = max(soak.collections, default=0.0)
    print(
        f"the soak's own process (the Discord server): {len(soak.stalls)} stalls over a second"
        f" (longest {max(soak.stalls, default=0.0):.1f} s); {len(soak.collections)} full"
        f" collections, the longest {longest * 1000:.0f} ms"
    )
    for backup in soak.backups[:3]:
        print(f"  backup: {backup}")
    print(f"errors: {len(soak.errors)}")
    for error in soak.errors[:20]:
        print(f"  {error}")
    ok = check.startswith("ok")
    return ok and lost == 0 and not soak.doubled and mismatched == 0 and not soak.errors


def main() -> None:
    """Parse the options, soak, report; exit 1 on a loss, a double or a failed check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--kill-every", type=float, default=300.0, help="seconds; 0: never")
    parser.add_argument("--fault-every", type=float, default=60.0, help="seconds; 0: never")
    parser.add_argument("--restart-db-every", type=float, default=600.0, help="PostgreSQL")
    parser.add_argument("--backup-every", type=float, default=300.0, help="seconds; 0: never")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cascadia-soak-") as tmp:
        workdir = Path(tmp)
        if args.backend == "postgresql":
            # Durable: a commit is on disk before it is answered, so a restart loses nothing
            # the bot was told was saved.
            pg = pgserver.start(durable=True)
            try:
                pg.psql('CREATE DATABASE "soak"', database="postgres")
                soak, kept = asyncio.run(soak_run(args, workdir, pg))
            finally:
                pg.stop()
        else:
            soak, kept = asyncio.run(soak_run(args, workdir, None))
        ok = report(soak, kept)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
