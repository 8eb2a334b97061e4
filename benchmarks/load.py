"""Load: many games played at once to the end, in a channel each or in threads of one
channel, against the bot as its own process and the local Discord-compatible server of the
end-to-end tests.

Run: ``python benchmarks/load.py`` or ``python -m benchmarks.load``, with the options
``[--games 50] [--players 2] [--think 0] [--seed 1] [--backend sqlite|postgresql]
[--processes 1] [--threads] [--keep]``. With ``postgresql`` the bot runs on a PostgreSQL server
started in a temporary directory (as the tests start theirs; durability off there, so commits
cost less than on a real server). ``--processes 2`` (PostgreSQL only) runs the bot as two
processes on that one database, shards 0 and 1 of 2 (``CASCADIA_SHARDS``), with the games
spread over a server of each shard, so each process plays half of them. ``--threads`` (one
process) opens every game in a thread of one channel (``/cascadia new thread:True``) instead of
a channel of its own, and checks that each game was played in its own thread: the channel holds
the line that opened each table and one result line for each finished game, nothing else.

Each game is played the way people play it: ``/cascadia new``, ``/cascadia join``, the Start
button, then every turn through autocomplete for ``tile_at`` and ``token_at`` and
``/cascadia play``; a player moves as soon as the message calling them appears (after
``--think`` seconds on average, if given). Prints interactions per second, the time from
``/cascadia play`` to its first response and to the turn message in the channel (median and
99th percentile), the bot's peak memory (its largest process's) and the database size per
finished game, each against its target, and any error; also the time to the private "Turn
played." answer (apart for each game's last play), the time from ``/cascadia new`` to its lobby
message and the bot's CPU time (all its processes'), which explain the rest, and per turn
message the size of the request that posts it, of the edit that takes **Play** off the previous
one, and the time from the commit of its move (its outbox row) to the message in the channel.
Exits with status 1 if a target was missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path: the packages are found from
    # the repository root instead.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.game.rows import OutboxRow
from bot.stores import open_store
from fakediscord import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES_IN_THREADS,
    DiscordServer,
    InteractionHandle,
    MessageRecord,
)
from sandbox import ACK_LIMIT, BotProcess, pgserver, process_tree

FIRST_RESPONSE_P99 = 0.5
TURN_MESSAGE_P50 = 0.4
TURN_MESSAGE_P99 = 2.0
PEAK_MEMORY_MB = 300
GAME_TIMEOUT = 1800.0
MESSAGE_TIMEOUT = 60.0
DB_NAME = "load.sqlite3"
REPO_ROOT = Path(__file__).resolve().parent.parent
THREADS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
"""What the bot needs in a channel to open tables in threads there."""
OPENED, FINISHED = "opened a Cascadia table in <#", "A table finished in <#"
"""How the channel's line for a new table, and the one for its result, read."""


@dataclass
class Run:
    """What one run measured."""

    games: int
    players: int
    think: float
    processes: int = 1
    threads: bool = False
    """Every game in a thread of one channel, not in a channel of its own."""
    opening: list[float] = field(default_factory=list)
    """Seconds from each ``/cascadia new`` to its lobby message (in its thread, with threads)."""
    first_response: list[float] = field(default_factory=list)
    """Seconds from each ``/cascadia play`` to its first response."""
    turn_message: list[float] = field(default_factory=list)
    """Seconds from each ``/cascadia play`` to the channel message that follows it."""
    plays: list[tuple[float, InteractionHandle]] = field(default_factory=list)
    """Each ``/cascadia play`` with the time it was sent, for its private answer."""
    last_plays: list[tuple[float, InteractionHandle]] = field(default_factory=list)
    """The same of each game's last play, whose answer waits for the game's final posts."""
    finished: int = 0
    interactions: int = 0
    elapsed: float = 0.0
    ended: float = 0.0
    bot_cpu: float = 0.0
    """CPU seconds of every bot process and its picture worker."""
    driver_cpu: float = 0.0
    """CPU seconds of this process (the Discord server and the players) while the games ran."""
    database_cpu: float | None = None
    """CPU seconds of the PostgreSQL server's processes while the games ran."""
    peak_rss_kib: list[int] = field(default_factory=list)
    """The largest resident set of each bot process (with its picture worker), in KiB."""
    errors: list[str] = field(default_factory=list)
    post_bytes: list[int] = field(default_factory=list)
    """The size of the request that posted each turn message."""
    post_words_bytes: list[int] = field(default_factory=list)
    """The same less the pictures' bytes: the words, the layout and the multipart framing."""
    edit_bytes: list[int] = field(default_factory=list)
    """The size of each edit that took **Play** off a past turn message."""
    commit_to_post: list[float] = field(default_factory=list)
    """Seconds from each turn's commit (its outbox row) to its message in the channel."""
    tables: list[int] = field(default_factory=list)
    """With ``threads``: the thread each game was opened in."""
    channel_lines: dict[str, int] = field(default_factory=dict)
    """With ``threads``: the bot's messages in the channel, by kind (opening, result, other)."""
    thread_messages: int = 0
    """With ``threads``: the bot's messages in the channel's threads."""
    own_thread: int = 0
    """With ``threads``: the games whose every posted message went to their own thread."""
    result_after: list[float] = field(default_factory=list)
    """With ``threads``: seconds from a game's final message in its thread to its result line
    in the channel."""


class Channels:
    """Routes the bot's public channel messages to one queue per channel, as they are posted
    (one pass over new messages per server change, however many games wait)."""

    def __init__(self, server: DiscordServer) -> None:
        self.server = server
        self.queues: dict[int, asyncio.Queue[MessageRecord]] = {}
        self._cursor = 0

    def queue(self, channel: int) -> asyncio.Queue[MessageRecord]:
        """The queue of a channel's new bot messages."""
        return self.queues.setdefault(channel, asyncio.Queue())

    def _route(self) -> None:
        messages = self.server.messages
        while self._cursor < len(messages):
            message = messages[self._cursor]
            self._cursor += 1
            if message.author_id == self.server.bot_user_id and not message.ephemeral:
                self.queue(message.channel_id).put_nowait(message)

    async def run(self) -> None:
        """Route until cancelled."""
        await self.server.wait_for(self._route, timeout=GAME_TIMEOUT, what="the end of the run")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a live process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int | None) -> float:
    """CPU time used so far by ``pid`` and the processes below it that are alive."""
    total = 0.0
    for each in process_tree(pid) if pid is not None else []:
        with contextlib.suppress(OSError):  # ended meanwhile
            total += cpu_seconds(each)
    return total


def answered(handle: InteractionHandle) -> float:
    """When the private answer filled the deferred reply (infinity if it never did)."""
    message = handle.message
    if message is None or message.loading or message.edited_at is None:
        return float("inf")
    return datetime.fromisoformat(message.edited_at).timestamp()


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def created(message: MessageRecord) -> float:
    """When the server created a message (wall clock seconds)."""
    return datetime.fromisoformat(message.created_at).timestamp()


async def next_message(queue: asyncio.Queue[MessageRecord], what: str) -> MessageRecord:
    """The next bot message of a channel."""
    try:
        async with asyncio.timeout(MESSAGE_TIMEOUT):
            return await queue.get()
    except TimeoutError:
        raise AssertionError(f"no {what} within {MESSAGE_TIMEOUT}s") from None


async def play_game(
    server: DiscordServer,
    channels: Channels,
    channel: int,
    players: list[int],
    rng: random.Random,
    think: float,
    run: Run,
) -> None:
    """One game from ``/cascadia new`` to the final scores; with ``run.threads``, opened in a
    thread of ``channel`` and played there."""
    host = players[0]
    options: dict[str, object] = {"thread": True} if run.threads else {}
    started = time.time()
    opening = await server.slash(host, channel, "cascadia", "new", options=options)
    [answer] = await opening.followups(1, timeout=30)
    if run.threads:
        found = re.search(r"<#(\d+)>", answer.text)
        if found is None:
            raise AssertionError(f"no thread named in the answer to /cascadia new: {answer.text}")
        channel = int(found[1])
        run.tables.append(channel)
    inbox = channels.queue(channel)
    lobby = await next_message(inbox, "lobby message")
    run.opening.append(created(lobby) - started)
    for player in players[1:]:
        await (await server.slash(player, channel, "cascadia", "join")).followups(1, timeout=30)
    start = next(c for c in lobby.custom_ids() if c.startswith("cascadia:start:"))
    await (await server.click(host, lobby, start, timeout=30)).response(timeout=30)
    message = await next_message(inbox, "start message")
    while "The game is over" not in message.content:
        [player] = message.notified
        if player not in players:
            raise AssertionError(f"a turn message in channel {channel} calls another game's player")
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))  # a person looking at the pictures
        options = await choose(server, channel, player, rng)
        started = time.time()
        handle = await server.slash(player, channel, "cascadia", "play", options=options)
        run.plays.append((started, handle))
        last = (started, handle)
        record = await handle.response(timeout=30)
        assert record.ack_latency is not None
        run.first_response.append(record.ack_latency)
        message = await next_message(inbox, "turn message")
        run.turn_message.append(created(message) - started)
    run.last_plays.append(last)
    run.finished += 1


async def choose(
    server: DiscordServer, channel: int, player: int, rng: random.Random
) -> dict[str, object]:
    """The options of a ``/cascadia play`` picked through autocomplete, as a player would."""
    pair, rotation = rng.randint(1, 4), rng.randint(0, 5)
    options: dict[str, object] = {"pair": pair, "rotation": rotation}

    async def suggest(focused: str) -> str:
        choices = await server.autocomplete(
            player, channel, "cascadia", "play", options={**options, focused: ""},
            focused=focused, timeout=30,
        )  # fmt: skip
        return str(rng.choice(choices)["value"])

    options["tile_at"] = await suggest("tile_at")
    options["token_at"] = await suggest("token_at")
    return options


async def measure(
    games: int,
    players: int,
    think: float,
    seed: int,
    workdir: Path,
    db: str,
    processes: int = 1,
    postgres_pid: int | None = None,
    *,
    threads: bool = False,
) -> Run:
    """Start the server and the bot on ``db`` (``CASCADIA_DB``: a file or a URL), as one
    process or as ``processes`` shard processes, play every game at once, stop; returns the
    figures. ``postgres_pid``: the PostgreSQL server's, whose CPU time is measured too.
    ``threads`` (one process): every game in a thread of one channel."""
    server = await DiscordServer(shard_count=processes).start()
    guilds = [server.add_guild(f"Load {n}", shard=(n, processes)) for n in range(processes)]
    # Game i is in the server of shard i % processes: each process plays its share.
    homes = [guilds[i % processes] for i in range(games)]
    if threads:
        tables = server.add_channel(guilds[0], "tables")
        server.set_overwrite(tables, server.bot_user_id, allow=THREADS)
        channel_ids = [tables] * games
    else:
        channel_ids = [server.add_channel(guild, f"table-{i}") for i, guild in enumerate(homes)]
    seats = [[server.add_user(f"p{g}-{s}") for s in range(players)] for g in range(games)]
    for guild, users in zip(homes, seats, strict=True):
        for user in users:
            server.add_member(guild, user)
    sharded = processes > 1
    bots = [
        BotProcess(
            server,
            db_path=workdir / DB_NAME,
            # One process syncs its commands to its one server; shards sync them globally.
            guild_id=None if sharded else guilds[0],
            log_path=workdir / (f"bot-{n}.log" if sharded else "bot.log"),
            cwd=REPO_ROOT,
            # On PostgreSQL the bot keeps its command sync record in the cache folder.
            env={"CASCADIA_DB": db, "XDG_CACHE_HOME": str(workdir / f"cache-{n}")},
            shard_ids=[n] if sharded else None,
            shard_count=processes if sharded else None,
        )
        for n in range(processes)
    ]
    channels = Channels(server)
    router = asyncio.create_task(channels.run())
    run = Run(games, players, think, processes, threads)
    codes: list[int | None] = []
    try:
        for bot in bots:
            await bot.start()
        before = len(server.interactions)
        began = time.perf_counter()
        driver, database = time.process_time(), tree_cpu_seconds(postgres_pid)
        rng = random.Random(seed)
        results = await asyncio.gather(
            *(
                play_game(server, channels, ch, users, random.Random(rng.random()), think, run)
                for ch, users in zip(channel_ids, seats, strict=True)
            ),
            return_exceptions=True,
        )
        run.elapsed, run.ended = time.perf_counter() - began, time.time()
        run.driver_cpu = time.process_time() - driver
        if postgres_pid is not None:
            run.database_cpu = tree_cpu_seconds(postgres_pid) - database
        # Each bot process and its picture worker together.
        run.bot_cpu = sum(tree_cpu_seconds(bot.pid) for bot in bots)
        interactions = server.interactions[before:]
        run.interactions = len(interactions)
    finally:
        for bot in bots:
            codes.append(await bot.stop())
        router.cancel()
        await server.close()
    rows = await outbox_rows(db, len(server.messages))
    measure_turn_messages(server, rows, run)
    if threads:
        count_threads(server, channel_ids[0], rows, run)
    run.peak_rss_kib = [bot.peak_rss_kib for bot in bots]
    run.errors += [f"game {i}: {r!r}" for i, r in enumerate(results) if isinstance(r, Exception)]
    for n, bot in enumerate(bots):
        name = f"bot {n}" if sharded else "bot"
        run.errors += [f"{name}: {line}" for line in bot.log_problems()]
    run.errors += [f"server: {c}" for c in server.crashes]
    run.errors += [f"unmodelled route {r.method} {r.path}" for r in server.unhandled]
    late = [ix for ix in interactions if ix.ack_latency is None or ix.ack_latency >= ACK_LIMIT]
    run.errors += [f"interaction {ix.name!r} not answered within {ACK_LIMIT}s" for ix in late]
    run.errors += [f"the bot exited with status {code}" for code in codes if code != 0]
    return run


async def outbox_rows(db: str, most: int) -> list[OutboxRow]:
    """The outbox rows of the run, up to ``most`` posted ones (the server's message count)."""
    rows: list[OutboxRow] = []
    posted = 0
    async with open_store(db) as store:
        outbox_id = 1
        # Outbox ids count from 1; every posted row has its message.
        while posted < most:
            row = await store.get_outbox(outbox_id)
            if row is None:
                break
            rows.append(row)
            posted += row.message_id is not None
            outbox_id += 1
    return rows


def measure_turn_messages(server: DiscordServer, outbox: list[OutboxRow], run: Run) -> None:
    """Per turn message, the size of the requests that posted it and took **Play** off the
    previous one, and the time from its outbox row (written with the move) to the message."""
    rows = {row.message_id: row for row in outbox if row.message_id is not None}
    posted: dict[int, list[MessageRecord]] = {}
    for message in server.messages:
        if message.author_id == server.bot_user_id and message.interaction_id is None:
            posted.setdefault(message.channel_id, []).append(message)
    seen: dict[int, int] = {}
    for request in server.requests:
        parts = request.path.split("/")
        if request.status != 200 or len(parts) < 4 or parts[1] != "channels":
            continue
        channel = int(parts[2])
        if request.method == "POST" and request.path.endswith("/messages"):
            # A channel's posts and the bot's messages there come in the same order.
            index = seen.get(channel, 0)
            seen[channel] = index + 1
            message = posted[channel][index]
            row = rows.get(message.id)
            if row is not None and row.kind == "turn":
                run.post_bytes.append(request.size)
                pictures = sum(len(a.data) for a in message.attachments)
                run.post_words_bytes.append(request.size - pictures)
                run.commit_to_post.append(created(message) - row.created_at.timestamp())
        elif request.method == "PATCH" and "/messages/" in request.path:
            run.edit_bytes.append(request.size)


def count_threads(server: DiscordServer, channel: int, outbox: list[OutboxRow], run: Run) -> None:
    """The threads made in ``channel``, the bot's messages in the channel by kind and in the
    threads, and the games whose outbox rows were all posted to their own thread (the result
    line to the channel aside); anything out of place is an error of the run."""
    threads = {c.id for c in server.world.channels.values() if c.parent_id == channel}
    lines = {"opening": 0, "result": 0, "other": 0}
    elsewhere = 0
    latest: dict[int, float] = {}
    results: list[MessageRecord] = []
    for message in server.messages:
        if message.author_id != server.bot_user_id or message.ephemeral:
            continue
        if message.channel_id == channel:
            if OPENED in message.text:
                lines["opening"] += 1
            elif message.text.startswith(FINISHED):
                lines["result"] += 1
                results.append(message)
            else:
                lines["other"] += 1
        elif message.channel_id in threads:
            run.thread_messages += 1
            latest[message.channel_id] = max(created(message), latest.get(message.channel_id, 0))
        else:
            elsewhere += 1
    run.channel_lines = lines
    for result in results:
        thread = int(result.text[len(FINISHED) :].split(">", 1)[0])
        run.result_after.append(created(result) - latest[thread])
    where: dict[int, set[int]] = {}
    for row in outbox:
        if row.kind != "table":
            where.setdefault(row.game_id, set()).add(row.channel_id)
        elif row.channel_id != channel:
            run.errors.append(f"game {row.game_id}'s result line went to channel {row.channel_id}")
    homes = [next(iter(seen)) for seen in where.values() if len(seen) == 1]
    run.own_thread = sum(1 for home in homes if home in threads and homes.count(home) == 1)
    if len(threads) != run.games or set(run.tables) != threads:
        run.errors.append(f"{len(threads)} threads made for {run.games} games")
    if lines != {"opening": run.games, "result": run.finished, "other": 0}:
        run.errors.append(f"the channel's messages: {lines}")
    if elsewhere:
        run.errors.append(f"{elsewhere} messages outside the channel and its threads")
    if run.own_thread != run.games:
        run.errors.append(f"{run.games - run.own_thread} games posted outside their own thread")


def report(run: Run, db_bytes: int) -> bool:
    """Print the figures against their targets; returns whether every target was met."""
    where = "threads of one channel" if run.threads else f"{run.games} channels"
    print(f"{run.games} games of {run.players} players in {where} on "
          f"{os.cpu_count()} CPUs, think time {run.think}s")  # fmt: skip
    if run.processes > 1:
        shares = [len(range(n, run.games, run.processes)) for n in range(run.processes)]
        print(f"bot processes: {run.processes}, one shard each, games each: "
              f"{', '.join(map(str, shares))}")  # fmt: skip
    print(f"finished games: {run.finished}/{run.games} in {run.elapsed:.1f}s")
    print(f"interactions: {run.interactions} ({run.interactions / run.elapsed:.1f} per second)")
    if run.threads:
        lines = run.channel_lines
        print(f"threads made: {len(set(run.tables))}; games played in their own thread only: "
              f"{run.own_thread}/{run.games}")  # fmt: skip
        print(f"the channel's messages: {sum(lines.values())} ({lines['opening']} opening lines, "
              f"{lines['result']} result lines, {lines['other']} other)")  # fmt: skip
        print(f"messages in the threads: {run.thread_messages} "
              f"({run.thread_messages / max(1, len(run.tables)):.1f} per thread)")  # fmt: skip
        if run.result_after:
            after = run.result_after
            print(f"a game's final message to its result line in the channel: "
                  f"{statistics.median(after) * 1000:.0f} ms p50, "
                  f"{percentile(after, 0.99) * 1000:.0f} ms p99")  # fmt: skip
    ok = not run.errors and run.finished == run.games

    def check(name: str, value: float, target: float | None, unit: str = "ms") -> None:
        nonlocal ok
        scale = 1000 if unit == "ms" else 1
        line = f"{name}: {value * scale:.0f} {unit}"
        if target is not None:
            met = value < target
            ok &= met
            line += f" (target < {target * scale:.0f} {unit}: {'ok' if met else 'MISSED'})"
        print(line)

    first, turn = run.first_response, run.turn_message
    check("/cascadia new to its lobby message, p50", statistics.median(run.opening), None)
    check("/cascadia new to its lobby message, p99", percentile(run.opening, 0.99), None)
    check("first response to /cascadia play, p50", statistics.median(first), None)
    check("first response to /cascadia play, p99", percentile(first, 0.99), FIRST_RESPONSE_P99)
    check("/cascadia play to turn message, p50", statistics.median(turn), TURN_MESSAGE_P50)
    check("/cascadia play to turn message, p99", percentile(turn, 0.99), TURN_MESSAGE_P99)
    answers = [answered(handle) - started for started, handle in run.plays]
    unanswered = sum(1 for (started, handle) in run.plays if answered(handle) > run.ended)
    check("/cascadia play to its private answer, p50", statistics.median(answers), None)
    check("/cascadia play to its private answer, p99", percentile(answers, 0.99), None)
    print(f"  ({unanswered} plays not answered privately before the last game ended)")
    if run.last_plays:
        lasts = [answered(handle) - started for started, handle in run.last_plays]
        check("a game's last play to its private answer, p50", statistics.median(lasts), None)
        check("a game's last play to its private answer, p99", percentile(lasts, 0.99), None)
    if run.commit_to_post:
        check("turn commit to turn message, p50", statistics.median(run.commit_to_post), None)
        check("turn commit to turn message, p99", percentile(run.commit_to_post, 0.99), None)
        sizes = run.post_bytes
        print(f"turn message request: {statistics.median(sizes) / 1024:.1f} KiB p50, "
              f"{percentile(sizes, 0.99) / 1024:.1f} KiB p99")  # fmt: skip
        words = run.post_words_bytes
        print(f"  less the pictures: {statistics.median(words):.0f} B p50, "
              f"{percentile(words, 0.99):.0f} B p99")  # fmt: skip
    if run.edit_bytes:
        edits = run.edit_bytes
        print(f"edit taking Play off the previous turn message: {statistics.median(edits)} B p50, "
              f"{percentile(edits, 0.99)} B p99")  # fmt: skip
    share = run.bot_cpu / run.elapsed
    workers = (
        "every process with its picture worker" if run.processes > 1 else "with its picture worker"
    )
    print(f"bot CPU time ({workers}): {run.bot_cpu:.1f}s, {share:.0%} of one core")
    print(f"  this process's (the Discord server and the players): {run.driver_cpu:.1f}s, "
          f"{run.driver_cpu / run.elapsed:.0%} of one core")  # fmt: skip
    if run.database_cpu is not None:
        print(f"  the PostgreSQL server's: {run.database_cpu:.1f}s, "
              f"{run.database_cpu / run.elapsed:.0%} of one core")  # fmt: skip
    check("bot peak memory", max(run.peak_rss_kib) / 1024, PEAK_MEMORY_MB, "MB")
    if run.processes > 1:
        each = ", ".join(f"{kib / 1024:.0f}" for kib in run.peak_rss_kib)
        print(f"  (each process: {each} MB)")
    per_game = db_bytes / max(1, run.finished) / 1024
    print(f"database: {db_bytes / 1024:.0f} KiB, {per_game:.1f} KiB per finished game")
    print(f"errors: {len(run.errors)}")
    for error in run.errors[:20]:
        print(f"  {error}")
    return ok


def main() -> None:
    """Parse the options, run, and exit 1 if a target was missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds before a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, on one PostgreSQL database",
    )
    parser.add_argument(
        "--threads",
        action="store_true",
        help="every game in a thread of one channel, not in a channel of its own",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the bot log (and the SQLite database)"
    )
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    if args.processes > 1 and args.backend != "postgresql":
        parser.error("--processes above 1 needs --backend postgresql: an SQLite file serves one")
    if args.threads and args.processes > 1:
        parser.error("--threads plays in one channel of one server: with one process")
    options = (args.games, args.players, args.think, args.seed)
    with tempfile.TemporaryDirectory(prefix="cascadia-load-") as tmp:
        workdir = Path(tmp)
        if args.backend == "postgresql":
            with pgserver.running() as server:
                server.psql('CREATE DATABASE "load"', database="postgres")
                url = server.url(database="load")
                postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
                run = asyncio.run(
                    measure(
                        *options, workdir, url, args.processes, postmaster, threads=args.threads
                    )
                )
                db_bytes = int(server.psql("SELECT pg_database_size('load')", database="load"))
        else:
            run = asyncio.run(
                measure(*options, workdir, str(workdir / DB_NAME), threads=args.threads)
            )
            db_bytes = sum(p.stat().st_size for p in workdir.glob(f"{DB_NAME}*"))
        ok = report(run, db_bytes)
        if args.keep:
            kept = Path(tempfile.mkdtemp(prefix="cascadia-load-kept-"))
            for path in workdir.iterdir():
                path.rename(kept / path.name)
            print(f"kept the database and bot log in {kept}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
