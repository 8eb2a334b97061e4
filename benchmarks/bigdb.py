"""A big database: 10,000 finished and 1,000 running games, and what the bot's reads cost on it.

Run: ``python benchmarks/bigdb.py`` or ``python -m benchmarks.bigdb``, with the options
``[--backend sqlite|postgresql] [--finished 10000] [--running 1000] [--seed 1] [--samples 300]
[--db PATH]``. With ``postgresql`` the games are generated into SQLite as well, then copied
with ``cascadia-bot migrate`` into a PostgreSQL server started in a temporary directory (as the
tests start theirs; durability off there, so its commits are cheaper than a real server's).

The games are played by the engine's random players; each one is written as the rows the bot
writes for it (the game with its state, the seats, one logged move per turn or wipe, every
channel message as sent, with its real text), in batches through the store's own transaction,
so generation takes a minute or two rather than an hour of single commits. People get quiet
hours and time away now and then; some running games have deadlines, a ping owed after quiet
hours or a seat handed to the computer. One "heavy" user sits at about one game in twenty.

Then it measures, each against its target:

* start-up: the database check and store opening as ``python -m bot`` does them, and the real
  ``python -m bot`` process against the local Discord-compatible server until it is connected
  with its commands synced (the same with an empty database, for comparison);
* ``/cascadia mygames`` and ``/cascadia status`` through the service calls the commands make,
  for the heavy user and for random users: p50 and p99;
* one reminder pass after an hour of downtime, then passes a minute apart, and the other
  periodic checks (deadlines, votes, computer seats, pings owed after quiet hours);
* the database size per game;
* the bot's first hourly pass on it: forgetting messages posted over a week ago (see
  :meth:`bot.store.Store.forget_sent`), then packing the games finished over a week ago (see
  :meth:`bot.store.Store.compact_finished`; one finished game in fifty ended within the week
  and stays as played), after which the figures above are measured (with ``--keep-sent``,
  they are measured on every message and every move row kept).

Exits with status 1 if a target was missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path: look in the repository root.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.app import game_service
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance
from bot.game import messages
from bot.game.messages import Player
from bot.game.records import move_text, state_text
from bot.game.rows import GameStatus, UserGame
from bot.migrate import copy_database
from bot.ops.preflight import check_database
from bot.ops.target import is_postgres_url
from bot.retention.forgetting import FORGET_BATCH, KEEP_SENT, KEEP_UNPACKED, PACK_BATCH
from bot.stores import SqliteStore, Store, open_store
from engine import GameState, NatureWipe, PlaceToken, WipeThree, apply, new_game, score_state
from engine.actions import Action
from engine.players import random_action
from fakediscord import DiscordServer
from sandbox import BotProcess, pgserver

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
"""The moment the games are generated around and the passes measured from."""
STARTUP_TARGET = 2.0
MYGAMES_P99_TARGET = 0.050
REMINDER_PASS_TARGET = 0.100
BATCH = 250
"""Games written per transaction while generating."""
USERS = 4_000
GUILDS = 400
CHANNELS = 3_000
HEAVY_USER = 10**17
"""The user seated at about one game in twenty."""
HEAVY_SHARE = 0.05
CARDS = ("ABCDA", "AAAAA", "BBBBB", "CDABA", "DCBAD")
RECENT_SHARE = 0.02
"""Finished games that ended within the week before ``NOW`` (the games end evenly over about
a year): these are not packed yet; the others ended weeks or months before."""


def user_id(index: int) -> int:
    """A snowflake-sized user id."""
    return HEAVY_USER + 1 + index


def channel_guild(channel: int) -> int:
    """The guild id of a channel id."""
    return 5 * 10**17 + channel % GUILDS


def channel_id(index: int) -> int:
    """A snowflake-sized channel id."""
    return 6 * 10**17 + index


def stamp(moment: datetime) -> str:
    """A time as the store writes it (fixed-width ISO-8601 in UTC)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


# --- generating the games ---------------------------------------------------------------------


@dataclass
class Rows:
    """The rows of a batch of games, as the store keeps them, table by table."""

    games: list[tuple[object, ...]] = field(default_factory=list)
    seats: list[tuple[object, ...]] = field(default_factory=list)
    moves: list[tuple[object, ...]] = field(default_factory=list)
    outbox: list[tuple[object, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.games)


@dataclass
class Generator:
    """Plays games with the engine's random players and turns each into its rows."""

    seed: int
    now: datetime
    rng: random.Random = field(init=False)
    next_outbox: int = 1
    next_message: int = 7 * 10**17

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def seats_for(self) -> list[Player]:
        """A table of 1 to 4 people (mostly 2 or 3), the heavy user now and then."""
        count = self.rng.choices((1, 2, 3, 4), weights=(1, 5, 3, 2))[0]
        users = self.rng.sample(range(USERS), count)
        people = [Player(user_id(u), f"Player {u}") for u in users]
        if self.rng.random() < HEAVY_SHARE:
            people[self.rng.randrange(count)] = Player(HEAVY_USER, "Heavy")
        return people

    def message(self, rows: Rows, game_id: int, channel: int, kind: str, text: str,
                mentions: Sequence[int], at: datetime) -> None:  # fmt: skip
        """One channel message, sent a second after it was queued."""
        payload = json.dumps({"text": text, "mentions": list(mentions)}, ensure_ascii=False)
        sent = stamp(at + timedelta(seconds=1))
        rows.outbox.append((self.next_outbox, game_id, channel, kind, payload, stamp(at), 0,
                            None, sent, self.next_message))  # fmt: skip
        self.next_outbox += 1
        self.next_message += 1

    def game(self, rows: Rows, game_id: int, channel: int, *, running: bool) -> None:
        """Play one game (to its end, or to a random turn when ``running``) and add its rows."""
        rng = self.rng
        players = self.seats_for()
        cards = rng.choice(CARDS)
        state = new_game(players=len(players), seed=rng.getrandbits(63), cards=cards)
        moves_rng = random.Random(rng.getrandbits(63))
        turns = 20 * len(players)
        stop = rng.randrange(turns) if running else turns
        recent = not running and rng.random() < RECENT_SHARE
        if running:
            at = self.now - timedelta(hours=rng.uniform(1, 30 * 24))
        else:
            at = self.now - timedelta(days=rng.uniform(31, 400))
        created = at - timedelta(minutes=rng.uniform(1, 60))
        first_move, first_message = len(rows.moves), len(rows.outbox)
        self.message(rows, game_id, channel, "start",
                     messages.start_message(state, players), [players[state.current].user_id],
                     at)  # fmt: skip
        seq = 0
        turn: list[Action] = []
        before = state
        while not state.is_over and state.turn < stop:
            action = random_action(state, moves_rng)
            after = apply(state, action)
            mover = players[state.current]
            done: list[Action]
            if isinstance(action, WipeThree | NatureWipe):
                text, kind, done = messages.wipe_message(state, action, mover), "wipe", [action]
            elif isinstance(action, PlaceToken):
                done, kind = [*turn, action], "turn"
                line = messages.describe_turn(before, done, mover)
                if after.is_over:
                    sheet = score_state(after, tuple(p.name for p in players))
                    everyone = [p.user_id for p in players]
                    text = messages.game_over_message(line, sheet, players, pinged=everyone)
                    kind = "finish"
                else:
                    text = f"{line}\n{messages.your_turn_line(after, players[after.current])}"
            else:
                if not turn:
                    before = state
                turn.append(action)
                state = after
                continue
            seq += 1
            at += timedelta(minutes=rng.expovariate(1 / 240))
            rows.moves.append((game_id, seq, mover.user_id, move_text(done), stamp(at), None))
            mentions = [p.user_id for p in players] if kind == "finish" else []
            if kind == "turn":
                mentions = [players[after.current].user_id]
            self.message(rows, game_id, channel, kind, text, mentions, at)
            turn, state = [], after
        if recent:
            # Moved whole to end within the week before now: its last change is that recent.
            shift = self.now - timedelta(days=rng.uniform(0.1, 7)) - at
            _shift(rows, first_move, first_message, shift)
            created, at = created + shift, at + shift
        self._game_row(rows, game_id, channel, players, cards, state, created, at, seq)

    def _game_row(
        self,
        rows: Rows,
        game_id: int,
        channel: int,
        players: list[Player],
        cards: str,
        state: GameState,
        created: datetime,
        at: datetime,
        moves: int,
    ) -> None:
        rng = self.rng
        running = not state.is_over
        status = GameStatus.ACTIVE if running else GameStatus.FINISHED
        reminder_hours = 0 if rng.random() < 0.1 else 24
        deadline_hours = 48 if rng.random() < 0.3 else 0
        next_reminder = ping_due = None
        if running:
            # The turn began within the last 25 hours: about one game in 25 is due a reminder
            # after an hour of downtime, and about one a minute after that.
            at = self.now - timedelta(hours=rng.uniform(0, 25))
            if reminder_hours:
                next_reminder = stamp(at + timedelta(hours=reminder_hours))
            if rng.random() < 0.02:
                ping_due = stamp(self.now + timedelta(hours=rng.uniform(-0.05, 8)))
            if rng.random() < 0.05 and len(players) > 1:
                # A seat handed to the computer; the computer just played, a person is next.
                seat = rng.choice([s for s in range(len(players)) if s != state.current])
                players[seat] = Player(players[seat].user_id, players[seat].name, "fast")
        for seat, player in enumerate(players):
            rows.seats.append((game_id, seat, player.user_id, player.name, player.computer))
        revision = len(players) + 1 + moves
        rows.games.append((
            game_id, channel_guild(channel), channel, status, players[0].user_id, cards,
            stamp(created), stamp(at), revision, state_text(state), reminder_hours, stamp(at),
            next_reminder, 0, self.next_message, deadline_hours, ping_due,
        ))  # fmt: skip
        self.next_message += 1

    def people(self) -> Iterator[tuple[tuple[object, ...], tuple[object, ...] | None]]:
        """Quiet hours for one user in ten, time away going on for one in thirty."""
        rng = self.rng
        for index in range(USERS):
            quiet = away = None
            if rng.random() < 0.1:
                start = rng.randrange(24)
                zone = rng.choice(("Europe/Berlin", "America/New_York", "Asia/Tokyo"))
                quiet = (user_id(index), start, (start + 8) % 24, zone, stamp(self.now))
            if rng.random() < 1 / 30:
                starts = self.now - timedelta(days=rng.uniform(0, 3))
                ends = self.now + timedelta(days=rng.uniform(0.1, 7))
                away = (user_id(index), stamp(starts), stamp(ends), "holiday")
            if quiet is not None or away is not None:
                yield quiet or (user_id(index), None, None, None, stamp(self.now)), away


def _shift(rows: Rows, first_move: int, first_message: int, by: timedelta) -> None:
    """Move the times of the moves and messages from those indexes on by ``by``."""

    def later(text: object) -> str:
        return stamp(datetime.fromisoformat(str(text)) + by)

    rows.moves[first_move:] = [(*m[:4], later(m[4]), *m[5:]) for m in rows.moves[first_move:]]
    rows.outbox[first_message:] = [
        (*o[:5], later(o[5]), *o[6:8], later(o[8]), *o[9:]) for o in rows.outbox[first_message:]
    ]


async def write_rows(store: SqliteStore, rows: Rows) -> None:
    """Write a batch in one transaction of the store."""
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, status, host_id, cards, created_at,"
            " updated_at, revision, state, reminder_hours, turn_started_at, next_reminder_at,"
            " reminders_sent, lobby_message_id, deadline_hours, ping_due_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows.games,
        )
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
            rows.seats,
        )
        await db.executemany(
            "INSERT INTO moves (game_id, seq, user_id, action, created_at, played_for)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows.moves,
        )
        await db.executemany(
            "INSERT INTO outbox (id, game_id, channel_id, kind, payload, created_at, attempts,"
            " last_error, sent_at, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows.outbox,
        )


async def generate(path: Path, *, finished: int, running: int, seed: int, now: datetime) -> None:
    """Fill a new database file with games; finished ones first (older ids), running last."""
    generator = Generator(seed, now)
    channels = list(range(CHANNELS))
    generator.rng.shuffle(channels)
    open_channels = channels[:running]
    async with SqliteStore.open(path, now=lambda: now) as store:
        rows = Rows()
        for index in range(finished + running):
            is_running = index >= finished
            if is_running:
                channel = channel_id(open_channels[index - finished])
            else:
                channel = channel_id(generator.rng.randrange(CHANNELS))
            generator.game(rows, index + 1, channel, running=is_running)
            if len(rows) >= BATCH:
                await write_rows(store, rows)
                rows = Rows()
        await write_rows(store, rows)
        people = list(generator.people())
        async with store.transaction() as db:
            await db.executemany(
                "INSERT INTO people (user_id, quiet_from, quiet_to, quiet_zone, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [quiet for quiet, _ in people],
            )
            await db.executemany(
                "INSERT INTO away_periods (user_id, starts_at, ends_at, note) VALUES (?, ?, ?, ?)",
                [away for _, away in people if away is not None],
            )


# --- measuring ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def timed(call: Callable[[], Awaitable[object]]) -> float:
    """Seconds one call takes."""
    began = time.perf_counter()
    await call()
    return time.perf_counter() - began


@dataclass
class Report:
    """Figures printed as they come, and whether every target was met."""

    ok: bool = True

    def line(self, name: str, seconds: float, target: float | None = None) -> None:
        """Print one figure in milliseconds, with its target if it has one."""
        text = f"{name}: {seconds * 1000:.1f} ms"
        if target is not None:
            met = seconds <= target
            self.ok &= met
            text += f" (target <= {target * 1000:.0f} ms: {'ok' if met else 'MISSED'})"
        print(text, flush=True)

    def spread(self, name: str, times: Sequence[float], target: float | None = None) -> None:
        """Print p50 and p99 of many timings; the target applies to p99."""
        self.line(f"{name}, p50", statistics.median(times))
        self.line(f"{name}, p99", percentile(times, 0.99), target)


async def measure_reads(target: str, now: datetime, samples: int, report: Report) -> None:
    """mygames, status, and the periodic passes, through the service on the store."""
    clock = [now]
    async with open_store(target, now=lambda: clock[0]) as store:
        service = game_service(store, now=lambda: clock[0])
        attendance = Attendance(service)
        rng = random.Random(2)
        heavy_games = await store.games_for_user(HEAVY_USER, statuses=tuple(GameStatus))
        heavy_open = sum(1 for g in heavy_games if g.game.status is GameStatus.ACTIVE)
        print(f"heavy user: {len(heavy_games)} games, {heavy_open} of them running")

        async def mygames(user: int) -> None:
            messages.my_games_message(await service.lookups.my_games(user))

        async def status(channel: int, user: int) -> None:
            table = await service.last_game(channel, user_id=user)
            if table.state is not None:
                deadline, away = await service.lookups.turn_facts(table)
                messages.status_message(
                    table.state, table.players, turn_started_at=table.game.turn_started_at,
                    ended=table.game.status is GameStatus.ENDED, deadline=deadline, away=away,
                )  # fmt: skip

        heavy = [await timed(lambda: mygames(HEAVY_USER)) for _ in range(samples)]
        report.spread("mygames, heavy user", heavy, MYGAMES_P99_TARGET)
        users = [user_id(rng.randrange(USERS)) for _ in range(samples)]
        anyone = [await timed(lambda u=u: mygames(u)) for u in users]  # type: ignore[misc]
        report.spread("mygames, random user", anyone, MYGAMES_P99_TARGET)

        running_at = [g for g in heavy_games if g.game.status is GameStatus.ACTIVE]
        finished_at = {g.game.channel_id for g in heavy_games} - {
            g.game.channel_id for g in running_at
        }
        open_channels = {g.game.channel_id for g in running_at}
        quiet = sorted([c for c in finished_at if await store.get_active_game(c) is None])
        for name, channels in (
            ("status, heavy user, channel of a running game", sorted(open_channels)),
            ("status, heavy user, channel of finished games only", quiet),
        ):
            picks = [rng.choice(channels) for _ in range(samples)]
            times = [await timed(lambda c=c: status(c, HEAVY_USER)) for c in picks]  # type: ignore[misc]
            report.spread(name, times, MYGAMES_P99_TARGET)
        seated = [(g.game.channel_id, g.seat.user_id) for g in
                  await _random_seats(store, rng, samples)]  # fmt: skip
        times = [await timed(lambda c=c, u=u: status(c, u)) for c, u in seated]  # type: ignore[misc]
        report.spread("status, random player of a random game", times, MYGAMES_P99_TARGET)

        # An hour of downtime, then the passes the bot runs every minute.
        clock[0] = now + timedelta(hours=1)
        queued: list[int] = []
        first = await timed(lambda: _extend(queued, ReminderQueue(service).queue_reminders()))
        report.line(f"reminder pass after an hour's downtime ({len(queued)} reminders queued)",
                    first, REMINDER_PASS_TARGET)  # fmt: skip
        checks: list[int] = []
        first_check = await timed(lambda: _extend(checks, attendance.check()))
        report.line(f"deadline, vote, computer and ping checks, first ({len(checks)} queued)",
                    first_check, REMINDER_PASS_TARGET)  # fmt: skip
        passes, later_checks, counts = [], [], []
        for minute in range(1, 31):
            clock[0] = now + timedelta(hours=1, minutes=minute)
            due: list[int] = []
            queue = ReminderQueue(service)
            passes.append(await timed(lambda: _extend(due, queue.queue_reminders())))  # noqa: B023
            counts.append(len(due))
            later_checks.append(await timed(lambda: _extend(checks, attendance.check())))
        print(f"30 passes a minute apart queued {sum(counts)} reminders")
        report.line("reminder pass a minute later, max of 30", max(passes), REMINDER_PASS_TARGET)
        report.line("deadline, vote, computer and ping checks a minute later, max of 30",
                    max(later_checks), REMINDER_PASS_TARGET)  # fmt: skip


async def _extend(into: list[int], work: Awaitable[list[int]]) -> None:
    into.extend(await work)


async def _random_seats(store: Store, rng: random.Random, count: int) -> list[UserGame]:
    found: list[UserGame] = []
    while len(found) < count:
        games = await store.games_for_user(
            user_id(rng.randrange(USERS)), statuses=tuple(GameStatus)
        )
        if games:
            found.append(rng.choice(games))
    return found


async def measure_startup(target: str, now: datetime, workdir: Path, report: Report) -> None:
    """The start-up steps in this process, then the real ``python -m bot`` until ready, its
    clock set an hour after ``now`` (so its first reminder pass finds what the passes below
    find)."""
    began = time.perf_counter()
    lock = None if is_postgres_url(target) else check_database(Path(target))
    checked = time.perf_counter()
    try:
        async with open_store(target):
            opened = time.perf_counter()
    finally:
        if lock is not None:
            lock.release()
    if lock is not None:
        report.line("database check (file, lock, quick_check)", checked - began)
    report.line("store open (connect, configure, migrations check)", opened - checked)
    clock = workdir / "clock"
    offset = now + timedelta(hours=1) - datetime.now(UTC)
    clock.write_text(f"{offset.total_seconds():.3f}")
    for name, db in (("an empty SQLite", str(workdir / "empty.sqlite3")), ("the big", target)):
        server = await DiscordServer().start()
        guild = server.add_guild("Bench")
        # CASCADIA_DB in the environment: a URL is no file path.
        env = {"CASCADIA_TEST_CLOCK_FILE": str(clock), "CASCADIA_DB": db}
        # In the work folder: on PostgreSQL the bot keeps its command-sync record there.
        bot = BotProcess(
            server,
            db_path=Path(db),
            guild_id=guild,
            log_path=workdir / "bot.log",
            env=env,
            cwd=workdir,
        )
        try:
            began = time.perf_counter()
            await bot.start(timeout=60)
            took = time.perf_counter() - began
        finally:
            await bot.stop()
            await server.close()
        report.line(f"python -m bot until connected with commands synced, {name} database",
                    took, STARTUP_TARGET)  # fmt: skip


def database_bytes(path: Path) -> int:
    """The database file with its journal files."""
    return sum(p.stat().st_size for p in path.parent.glob(f"{path.name}*") if p.is_file()
               and not p.name.endswith((".lock", ".json")))  # fmt: skip


async def measure(startup: str, reads: str, now: datetime, workdir: Path, samples: int) -> bool:
    """Start-up on one copy of the database, reads and passes on another (both write);
    returns whether every target was met."""
    report = Report()
    await measure_startup(startup, now, workdir, report)
    await measure_reads(reads, now, samples, report)
    return report.ok


async def _batches(work: Callable[[], Awaitable[int]], size: int) -> tuple[int, list[float]]:
    """Call ``work`` until it does less than ``size``: how much it did, and each call's time."""
    times: list[float] = []
    done = 0
    while True:
        began = time.perf_counter()
        batch = await work()
        times.append(time.perf_counter() - began)
        done += batch
        if batch < size:
            return done, times


def _took(times: Sequence[float], what: str) -> str:
    return f"{sum(times):.1f}s ({len(times)} {what}, the longest {max(times) * 1000:.0f} ms)"


def forget_and_pack(path: Path, now: datetime) -> None:
    """The bot's first hourly pass on the file, batch by batch as the bot does it: forgetting
    old sent messages, packing the games over a week ago, then the space given back; prints
    how long each part took."""

    async def run() -> tuple[tuple[int, list[float]], ...]:
        async with SqliteStore.open(path, now=lambda: now) as store:
            forgotten = await _batches(
                lambda: store.forget_sent(now - KEEP_SENT, limit=FORGET_BATCH), FORGET_BATCH
            )
            packed = await _batches(
                lambda: store.compact_finished(now - KEEP_UNPACKED, limit=PACK_BATCH), PACK_BATCH
            )
            given = await _batches(store.reclaim_space, 1)
            return forgotten, packed, given

    before = database_bytes(path)
    (forgotten, forgetting), (packed, packing), (pages, giving) = asyncio.run(run())
    after = database_bytes(path)
    print(f"forgot {forgotten} sent messages in {_took(forgetting, 'batches')}, packed {packed}"
          f" games in {_took(packing, 'batches')}, gave {pages} pages back in"
          f" {_took(giving, 'calls')}: {before / 2**20:.1f} MiB before,"
          f" {after / 2**20:.1f} MiB after")  # fmt: skip


def sqlite_run(path: Path, workdir: Path, args: argparse.Namespace) -> bool:
    """Measure on copies of the SQLite file."""
    size = database_bytes(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        finished = db.execute("SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0]
    print(f"SQLite: {games} games, {size / 2**20:.1f} MiB, {size / games / 1024:.1f} KiB a game,"
          f" {size / finished / 1024:.1f} KiB a finished game (the whole file over them)")  # fmt: skip  # noqa: E501
    for name in ("startup.sqlite3", "reads.sqlite3"):
        shutil.copyfile(path, workdir / name)
    copies = (str(workdir / "startup.sqlite3"), str(workdir / "reads.sqlite3"))
    return asyncio.run(measure(*copies, NOW, workdir, args.samples))


def postgres_run(path: Path, workdir: Path, args: argparse.Namespace) -> bool:
    """Copy the SQLite file into a temporary PostgreSQL server with ``cascadia-bot migrate``,
    then measure on copies of that database."""
    with pgserver.running() as server:
        server.psql('CREATE DATABASE "big"', database="postgres")
        began = time.perf_counter()
        copy_database(path, server.url(database="big"), say=lambda _: None)
        print(
            f"copied into PostgreSQL (cascadia-bot migrate) in {time.perf_counter() - began:.0f}s"
        )
        server.psql("VACUUM ANALYZE", database="big")
        size = int(server.psql("SELECT pg_database_size('big')", database="big"))
        games = int(server.psql("SELECT count(*) FROM games", database="big"))
        print(f"PostgreSQL: {games} games, {size / 2**20:.1f} MiB, "
              f"{size / games / 1024:.1f} KiB a game")  # fmt: skip
        for name in ("startup", "reads"):
            server.psql(f'CREATE DATABASE "{name}" TEMPLATE "big"', database="postgres")
        copies = (server.url(database="startup"), server.url(database="reads"))
        return asyncio.run(measure(*copies, NOW, workdir, args.samples))


def main() -> None:
    """Parse the options, generate, measure, and exit 1 if a target was missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--running", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=300, help="timings per figure")
    parser.add_argument("--db", help="generate into this SQLite file and keep it, or reuse it")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--keep-sent", action="store_true", help="measure without forgetting old messages"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cascadia-bigdb-") as tmp:
        workdir = Path(tmp)
        path = Path(args.db) if args.db else workdir / "big.sqlite3"
        if not path.exists():
            began = time.perf_counter()
            asyncio.run(generate(path, finished=args.finished, running=args.running,
                                 seed=args.seed, now=NOW))  # fmt: skip
            took = time.perf_counter() - began
            games = args.finished + args.running
            print(f"generated {args.finished} finished and {args.running} running games in "
                  f"{took:.0f}s ({took / games * 1000:.1f} ms a game)")  # fmt: skip
        if not args.keep_sent:
            forgetting = workdir / "forgetting.sqlite3"
            shutil.copyfile(path, forgetting)
            forget_and_pack(forgetting, NOW)
            path = forgetting
        run = sqlite_run if args.backend == "sqlite" else postgres_run
        ok = run(path, workdir, args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
