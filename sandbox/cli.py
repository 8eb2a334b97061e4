"""``cascadia-bot sandbox [--port 8080] [--players 3] [--db PATH]``: the bot on this machine,
played in a web page, without Discord.

Starts the local Discord-compatible server on 127.0.0.1 with a guild, two channels (where the
bot may open public threads for its tables) and the pretend players (each with direct messages
with the bot; the first holds the guild's :data:`MANAGER_ROLE`, so the settings that need
Manage Server can be tried); the real bot as its own process (``python -m bot``, only the API,
gateway and CDN addresses differ from production; its commands global, as direct messages
need) on an SQLite file; and the page.
Prints the page's address, then runs until Ctrl-C or SIGTERM, and stops the page, the bot and
the server in that order. Everything runs in this process group; nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import secrets
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from fakediscord import (
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
    SEND_MESSAGES_IN_THREADS,
    DiscordServer,
)
from sandbox.botprocess import BotProcess
from sandbox.page import Sandbox, serve

__all__ = ["MANAGER_ROLE", "PLAYER_NAMES", "main", "run"]

PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
MANAGER_ROLE = "Server manager"
"""The role the first pretend player holds: Manage Server (the league's on, off and season,
the daily channel) and Manage Channels (ending or skipping any game), as a server's owner or
moderator would have. The others hold none."""
MANAGER_PERMISSIONS = MANAGE_GUILD | MANAGE_CHANNELS
BOT_PERMISSIONS = DEFAULT_BOT_PERMISSIONS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
"""What the bot's invite asks for: the usual ones, and opening tables in public threads of
the channels and playing there (``/cascadia new thread:True``)."""
CHANNEL_NAMES = ("table-1", "table-2")
BOT_START_TIMEOUT = 60.0
_CRASH_GRACE = 2.0


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line; exits with status 2 and a usage line on a bad one."""
    parser = argparse.ArgumentParser(
        prog="cascadia-bot sandbox",
        description="Play Cascadia in a web page on this machine: the real bot against a local"
        " Discord-compatible server, with pretend players. No token or network needed.",
    )
    parser.add_argument(
        "--port", type=int, default=8080, help="port of the page on 127.0.0.1 (0: any free one)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=3,
        choices=range(1, len(PLAYER_NAMES) + 1),
        metavar=f"1-{len(PLAYER_NAMES)}",
        help="how many pretend players to switch between (default 3)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the bot's SQLite file (default: a temporary one, removed at the end)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is not a port number")
    return args


async def run(*, port: int, players: int, db_path: Path, log_path: Path) -> int:
    """Run the sandbox until a signal; returns the exit status."""
    server = await DiscordServer(token=secrets.token_urlsafe(24), bot_name="Cascadia").start()
    try:
        guild = server.add_guild("Sandbox", bot_permissions=BOT_PERMISSIONS)
        channels = tuple(server.add_channel(guild, name) for name in CHANNEL_NAMES)
        people = tuple(server.add_user(name) for name in PLAYER_NAMES[:players])
        manager = server.add_role(guild, MANAGER_ROLE, MANAGER_PERMISSIONS)
        for person in people:
            server.add_member(guild, person, roles=(manager,) if person == people[0] else ())
        # Global commands, as on a real deployment: a guild's commands cannot be used in
        # direct messages, where the daily trek is played.
        bot = BotProcess(server, db_path=db_path, guild_id=None, log_path=log_path)
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stopping.set)
        print(f"starting the bot (its log: {log_path})", flush=True)
        try:
            await bot.start(timeout=BOT_START_TIMEOUT)
        except AssertionError:
            await bot.stop()
            if stopping.is_set():
                return 0
            print(f"the bot did not start; its log ends:\n{bot.log_tail()}", file=sys.stderr)
            return 1
        try:
            runner, bound = await serve(
                Sandbox(server, guild, channels, people, managers=people[:1]), port=port
            )
        except OSError as error:
            await bot.stop()
            print(cannot_serve(port, error), file=sys.stderr)
            return 2
        print(f"Cascadia sandbox: open http://127.0.0.1:{bound}/ (Ctrl-C stops it)", flush=True)
        status = await _until_stopped(server, stopping)
        await runner.cleanup()
        await bot.stop()
        if status:
            print(f"the bot stopped by itself; its log ends:\n{bot.log_tail()}", file=sys.stderr)
        return status
    finally:
        await server.close()


def cannot_serve(port: int, error: OSError) -> str:
    """Why the page could not be served on ``port``; a port in use names the way out."""
    text = f"cannot serve the page on 127.0.0.1:{port}: {error.strerror or error}"
    if error.errno == errno.EADDRINUSE:
        text += "\nanother program has that port: try --port 0 for any free one"
    return text


async def _until_stopped(server: DiscordServer, stopping: asyncio.Event) -> int:
    """Wait for a signal (status 0) or for the bot process to end by itself (status 1)."""
    signalled = asyncio.ensure_future(stopping.wait())
    try:
        while not stopping.is_set():
            if server.crashes:
                # Ctrl-C reaches the whole process group: the bot may see it a moment first.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(_CRASH_GRACE):
                        await stopping.wait()
                return 0 if stopping.is_set() else 1
            changed = asyncio.ensure_future(server.next_change(60.0))
            await asyncio.wait([signalled, changed], return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()
        return 0
    finally:
        signalled.cancel()


def main(argv: Sequence[str] | None = None) -> None:
    """The ``sandbox`` entry point (``cascadia-bot sandbox`` and ``python -m sandbox``)."""
    args = parse(sys.argv[1:] if argv is None else argv)
    # The sandbox's own log, on standard error: the page's refusals (one line each) and any
    # error of the page or the local server.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="cascadia-sandbox-") as workdir:
        db_path = args.db if args.db is not None else Path(workdir) / "cascadia.sqlite3"
        log_path = Path(workdir) / "bot.log"
        if args.db is not None:
            log_path = args.db.with_name(args.db.name + ".log")
        status = asyncio.run(
            run(port=args.port, players=args.players, db_path=db_path, log_path=log_path)
        )
    raise SystemExit(status)
