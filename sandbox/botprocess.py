"""The bot as its own process: ``python -m bot`` pointed at a local Discord-compatible server.

:class:`BotProcess` starts the real, unchanged bot on one SQLite file with the server's API,
gateway and CDN addresses in its environment, and kills, restarts or stops it; an exit nobody
asked for is recorded on the server as a crash. The end-to-end tests, the load benchmark and
the sandbox all run the bot this way.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from fakediscord import DiscordServer
from fakediscord.sessions import shard_of

__all__ = ["ACK_LIMIT", "BotProcess", "process_tree"]

ACK_LIMIT = 3.0
"""Discord's limit for the first response to an interaction, in seconds."""
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py colours its log lines inside Docker
_LOG_PROBLEM = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)")


class BotProcess:
    """``python -m bot`` on one database file, pointed at ``server``; killable and restartable.

    Its output goes to ``log_path``; ``cwd`` is its working directory (default: this one's).
    ``guild_id`` is the server its commands are synced to (``None``: globally, for every
    guild). With ``shard_ids`` and ``shard_count`` it runs only those shards
    (``CASCADIA_SHARDS``), as one of several processes on the same server and database.
    An exit nobody asked for is recorded as a crash on the server, so every wait fails at once
    with the end of the log.
    """

    def __init__(
        self,
        server: DiscordServer,
        *,
        db_path: Path,
        guild_id: int | None,
        log_path: Path,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
    ) -> None:
        if (shard_ids is None) != (shard_count is None):
            raise ValueError("shard_ids and shard_count go together")
        self.server = server
        self.cwd = cwd
        self.db_path = db_path
        self.guild_id = guild_id
        self.shards = (
            None
            if shard_ids is None or shard_count is None
            else frozenset((shard, shard_count) for shard in shard_ids)
        )
        """The shards this process runs, as (id, count); ``None``: all of them."""
        self.log_path = log_path
        self.extra_env = dict(env or {})
        self.starts = 0
        #: Interactions dispatched to a process that was killed before it answered them.
        self.unanswered_at_kill: set[int] = set()
        #: The largest resident set of any run so far, in KiB (Linux ``VmHWM``).
        self.peak_rss_kib = 0
        self._process: asyncio.subprocess.Process | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def pid(self) -> int:
        """The running process's id."""
        if self._process is None:
            raise RuntimeError("the bot is not running")
        return self._process.pid

    @property
    def running(self) -> bool:
        """Whether a bot process is alive."""
        return self._process is not None and self._process.returncode is None

    def environment(self) -> dict[str, str]:
        """What the bot process gets: this environment, the server's, token, database, guild,
        shards."""
        env = {
            **os.environ,
            **self.server.env(),
            "DISCORD_TOKEN": self.server.token,
            "CASCADIA_DB": str(self.db_path),
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("CASCADIA_GUILD_ID", "CASCADIA_SHARDS", "CASCADIA_SHARD_COUNT"):
            env.pop(name, None)
        if self.guild_id is not None:
            env["CASCADIA_GUILD_ID"] = str(self.guild_id)
        if self.shards is not None:
            env["CASCADIA_SHARDS"] = ",".join(str(shard) for shard, _ in sorted(self.shards))
            env["CASCADIA_SHARD_COUNT"] = str(next(iter(self.shards))[1])
        return {**env, **self.extra_env}

    @property
    def connected(self) -> bool:
        """Whether the server has a live session for every shard of this process (any
        session at all, for a process that runs every shard)."""
        if self.shards is None:
            return self.server.connected
        return self.shards <= self.server.live_shards

    @property
    def disconnected(self) -> bool:
        """Whether the server has no live session for any shard of this process."""
        if self.shards is None:
            return not self.server.connected
        return not self.shards & self.server.live_shards

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (``None``: direct messages,
        shard 0's)."""
        if self.shards is None:
            return True
        return any(shard_of(guild_id, count) == shard for shard, count in self.shards)

    async def start(self, *, timeout: float = 30.0) -> None:
        """Start the process and wait until it has logged in with ``/cascadia`` synced."""
        if self.running:
            raise RuntimeError("the bot is already running")
        identifies = self.server.identify_count
        self.starts += 1
        self._stopping = False
        with self.log_path.open("ab") as log:
            log.write(f"----- bot start #{self.starts} -----\n".encode())
            log.flush()
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.cwd,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        self._watcher = asyncio.create_task(self._watch(self._process))
        await self.server.wait_for(
            lambda: (
                self.server.identify_count > identifies
                and self.connected
                and any(
                    c["name"] == "cascadia" for c in self.server.commands.get(self.guild_id, [])
                )
            ),
            timeout=timeout,
            what=f"bot start #{self.starts} to sync /cascadia and connect (log: {self.log_path})",
        )

    async def _watch(self, process: asyncio.subprocess.Process) -> None:
        code = await process.wait()
        if not self._stopping:
            self.server.record_problem(
                f"the bot process exited by itself with status {code}; its log ends:\n"
                f"{self.log_tail()}"
            )

    def _note_peak_memory(self) -> None:
        # The bot and its helper processes (the picture worker) together.
        total = sum(_peak_rss_kib(pid) for pid in process_tree(self.pid))
        self.peak_rss_kib = max(self.peak_rss_kib, total)

    async def kill(self) -> None:
        """SIGKILL the process (no clean-up runs) and wait until the server saw it go."""
        process = self._process
        if process is None or process.returncode is not None:
            raise RuntimeError("the bot is not running")
        self._stopping = True
        self._note_peak_memory()
        self.unanswered_at_kill |= {
            ix.id
            for ix in self.server.interactions
            if ix.callback_type is None and self.owns(ix.guild_id)
        }
        helpers = [_exit_watch(pid) for pid in process_tree(process.pid)[1:]]
        process.send_signal(signal.SIGKILL)
        await self._finish(process)
        await self.server.wait_for(
            lambda: self.disconnected,
            timeout=10,
            what="the server to see the killed bot's gateway connections close",
        )
        for pid, exited in helpers:
            try:
                async with asyncio.timeout(10):
                    await exited
            except TimeoutError:
                self.server.record_problem(
                    f"the bot's helper process {pid} was still running 10 s after the bot was"
                    " killed"
                )

    async def restart(self) -> None:
        """SIGKILL the process and start it again on the same database."""
        await self.kill()
        await self.start()

    async def stop(self, *, timeout: float = 15.0) -> int | None:
        """SIGTERM, wait for a clean exit (SIGKILL after ``timeout``); returns the status."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            self._stopping = True
            self._note_peak_memory()
            process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(timeout):
                    await process.wait()
            except TimeoutError:
                self.server.record_problem(f"the bot did not stop within {timeout}s of SIGTERM")
                process.kill()
        await self._finish(process)
        return process.returncode

    async def _finish(self, process: asyncio.subprocess.Process) -> None:
        await process.wait()
        if self._watcher is not None:
            await self._watcher
        self._process = self._watcher = None

    def log_text(self) -> str:
        """Everything the bot wrote so far, all runs."""
        try:
            return _ANSI.sub("", self.log_path.read_text(errors="replace"))
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        """The end of the log."""
        return "\n".join(self.log_text().splitlines()[-lines:])

    def log_problems(self) -> list[str]:
        """The ERROR and CRITICAL lines and tracebacks in the log."""
        return [line for line in self.log_text().splitlines() if _LOG_PROBLEM.search(line)]


def _peak_rss_kib(pid: int) -> int:
    """A process's largest resident set so far, in KiB (Linux ``VmHWM``; 0 if unknown)."""
    with contextlib.suppress(OSError, ValueError):
        status = Path(f"/proc/{pid}/status").read_text()
        found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
        if found:
            return int(found[1])
    return 0


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux ``/proc``)."""
    found = [pid]
    for parent in found:
        with contextlib.suppress(OSError, ValueError):
            for task in Path(f"/proc/{parent}/task").iterdir():
                children = (task / "children").read_text().split()
                found.extend(int(child) for child in children)
    return found


def _exit_watch(pid: int) -> tuple[int, asyncio.Future[None]]:
    """``pid`` and a future that completes when that process ends (a Linux pidfd becomes
    readable then; the process need not be our child)."""
    loop = asyncio.get_running_loop()
    exited: asyncio.Future[None] = loop.create_future()
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        exited.set_result(None)
        return pid, exited

    def done() -> None:
        loop.remove_reader(fd)
        os.close(fd)
        if not exited.done():
            exited.set_result(None)

    loop.add_reader(fd, done)
    return pid, exited
