"""Run the bot: ``cascadia-bot`` or ``python -m bot``; or try it without Discord:
``cascadia-bot sandbox [--port 8080] [--players 3] [--db PATH]``.

Reads its settings from the environment (see :mod:`bot.ops.config`), checks the database
and takes its lock (see :mod:`bot.ops.preflight`), waits until Discord answers (see
:mod:`bot.shell.reach`), opens the database, then runs the client until SIGTERM or Ctrl-C,
and shuts down in order: the client first (a post in progress finishes), then the database.

An operator mistake (bad settings, an unusable database, unknown arguments) is one line on
standard error and exit status 2, before any file is touched.

``cascadia-bot migrate --from FILE --to URL`` copies an SQLite database into PostgreSQL
instead (see :mod:`bot.migrate`); ``cascadia-bot backup --to FILE`` and ``cascadia-bot restore
--from FILE`` back the database of ``CASCADIA_DB`` up and put a backup back (see
:mod:`bot.db.backup`); ``cascadia-bot ratings --rebuild`` recomputes the league ratings (see
:mod:`bot.ratings`). ``cascadia-bot sandbox`` hands the process over to
``python -m sandbox``, which runs this very bot as a process of its own against a local
Discord-compatible server; the bot never imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot import migrate
from bot.app import ACHIEVEMENTS, Application
from bot.db import backup
from bot.db.errors import DatabaseTooNew, MigrationFailed, StoreError
from bot.db.schema import load_migrations, refuse_at_start
from bot.ops import allocator
from bot.ops.clock import Clock, clock_for
from bot.ops.config import ConfigError, Settings, database_from_env
from bot.ops.preflight import DatabaseLock, StartupError, check_database, check_postgres
from bot.ops.redact import Redactor, redact_uncaught
from bot.ops.target import describe, passwords
from bot.ratings import ratings_main
from bot.shell.client import CascadiaBot
from bot.shell.errors import LateSuggestions
from bot.shell.reach import wait_until_reachable
from bot.stores import Store, open_store

log = logging.getLogger("bot")


def discord_client(app: Application, **options: Any) -> CascadiaBot:
    """The Discord client over the application (``options`` go to discord.py)."""
    return CascadiaBot(app.settings, app.service, app.parts(), renderer=app.renderer, **options)


async def run(settings: Settings) -> None:
    """Open the store (migrating it), wait for Discord and run the bot on the store until it
    is closed (by a signal or an error)."""
    now = clock_for(settings.clock_file)
    if settings.clock_file is not None:
        log.warning("test clock: moved by the seconds in %s", settings.clock_file)
    # The store first: a migration that fails says so at once, not once Discord answers.
    async with open_store(settings.database, now=now) as store:
        await wait_until_reachable(settings.api_base or discord.http.Route.BASE)
        await serve(settings, store, now)


async def serve(settings: Settings, store: Store, now: Clock) -> None:
    """Run the application and its Discord client on the open ``store`` until the client is
    closed."""
    async with (
        Application(settings, store, now=now) as app,
        discord_client(app) as bot,
    ):
        loop = asyncio.get_running_loop()
        closing: set[asyncio.Task[None]] = set()

        def stop(name: str) -> None:
            log.info("%s received: shutting down", name)
            task = loop.create_task(bot.close())
            closing.add(task)
            task.add_done_callback(closing.discard)

        for sig in (signal.SIGINT, signal.SIGTERM):
            # Windows has no loop signal handlers; Ctrl-C still ends asyncio.run there.
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop, sig.name)
        if settings.db_url is None:
            # The file's lock proves every earlier process on it gone: their claims are void.
            released = await store.release_claims()
            if released:
                log.info("released %d claim(s) of a bot that stopped", released)
        log.info("database %s; starting", describe(settings.database))
        await bot.start(settings.token)


def configure_logging(level_name: str, *, secrets: Iterable[str] = ()) -> None:
    """Plain one-line records on standard error (no colour codes: logs end up in files), with
    ``secrets``, interaction and webhook tokens and database passwords masked at every level
    (see :mod:`bot.ops.redact`)."""
    level = logging.getLevelName(level_name)
    formatter = logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    discord.utils.setup_logging(level=level, formatter=formatter, root=True)
    redactor = Redactor(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)
    # An autocomplete answered too late is a busy moment, not a bug: a line, no traceback.
    logging.getLogger("discord.app_commands.tree").addFilter(LateSuggestions())
    # At DEBUG, aiosqlite logs every statement it runs: more noise than help.
    logging.getLogger("aiosqlite").setLevel(max(level, logging.INFO))


def secrets_given(arguments: Sequence[str]) -> list[str]:
    """The secrets this process is given, as its settings would read them: the token, the
    passwords of ``CASCADIA_DB`` and ``PGPASSWORD``, and those of a URL among ``arguments``
    (``migrate --to``)."""
    found = [os.environ.get("DISCORD_TOKEN", "").strip(), *passwords(database_from_env())]
    return found + [secret for argument in arguments for secret in passwords(argument, {})]


def main() -> None:
    """The console entry point; exits with status 2 on bad settings or an unusable database,
    1 on a fatal error."""
    arguments = sys.argv[1:]
    # Whatever fails from here on, its text passes the redactor on its way to standard error.
    redact_uncaught(Redactor(secrets_given(arguments)))
    if arguments[:1] == ["migrate"]:
        raise SystemExit(migrate.main(arguments[1:]))
    if arguments[:1] == ["backup"]:
        raise SystemExit(backup.backup_main(arguments[1:]))
    if arguments[:1] == ["restore"]:
        raise SystemExit(backup.restore_main(arguments[1:]))
    if arguments[:1] == ["ratings"]:
        raise SystemExit(ratings_main(arguments[1:], ACHIEVEMENTS))
    if arguments[:1] == ["sandbox"]:
        os.execv(sys.executable, [sys.executable, "-m", "sandbox", *arguments[1:]])
    if arguments:
        print(
            "usage: cascadia-bot (settings from the environment)\n"
            "       cascadia-bot migrate --from FILE --to URL\n"
            "       cascadia-bot backup --to FILE\n"
            "       cascadia-bot restore --from FILE\n"
            "       cascadia-bot ratings --rebuild\n"
            "       cascadia-bot sandbox [--port 8080] [--players 3] [--db PATH]",
            file=sys.stderr,
        )
        raise SystemExit(2)
    try:
        settings = Settings.from_env()
        lock: DatabaseLock | None = None
        if settings.db_url is None:
            lock = check_database(settings.db_path, contents=refuse_at_start)
        else:
            check_postgres(settings.db_url, known_version=len(load_migrations("postgres")))
    except (ConfigError, StartupError) as error:
        print(f"cascadia-bot: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    configure_logging(settings.log_level, secrets=(settings.token, *passwords(settings.db_url)))
    # Before any thread starts: the arenas are set as threads first allocate.
    tuned = allocator.tune()
    log.debug("allocator settings: %s", ", ".join(tuned) or "the C library's own")
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN")
        raise SystemExit(1) from None
    except (DatabaseTooNew, MigrationFailed) as error:
        # The database as it was found, like the checks above: exit 2, one line, and no lock
        # file left behind by this start.
        log.error("cannot use the database %s: %s", describe(settings.database), error)
        if lock is not None:
            lock.abandon()
        raise SystemExit(2) from None
    except StoreError as error:
        log.error("cannot use the database %s: %s", describe(settings.database), error)
        raise SystemExit(1) from None
    except Exception:
        # Through the log, whose handlers mask the secrets, never straight to stderr.
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        raise SystemExit(1) from None
    finally:
        if lock is not None:
            lock.release()
    log.info("stopped")


if __name__ == "__main__":
    main()
