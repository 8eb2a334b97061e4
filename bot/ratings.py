"""``cascadia-bot ratings --rebuild``: the finished games' results kept for any game that has
none yet, then every league's ratings computed again from them (see :mod:`bot.standings.league`),
and every finished game's achievements counted again from its stored final state (see
:mod:`bot.achievements.service`; the rows kept are replaced, so a second run changes nothing).

Safe while the bot runs: each game's results are written once, and a game finishing during the
rebuild is rated by the bot as usual (the rebuild may then have to be run again to include it
in the order it finished). The database is checked first as the bot checks it at start (but
without its lock): a missing file, another application's or a newer bot's database is one line,
exit 2, nothing created or changed.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from bot.achievements.catalogue import AchievementRules
from bot.achievements.service import rebuild_achievements
from bot.db.errors import StoreError
from bot.db.schema import load_migrations, refuse_at_start
from bot.ops.config import database_from_env
from bot.ops.preflight import StartupError, check_existing, check_postgres
from bot.ops.target import describe, hide_passwords, is_postgres_url
from bot.standings.league import rebuild_ratings
from bot.standings.service import backfill_results
from bot.stores import open_store


async def rebuild(database: str, achievements: AchievementRules) -> str:
    """Fill in missing results, rebuild every rating and count every finished game's
    ``achievements`` again on ``database``; what was done."""
    async with open_store(database) as store:
        filled = await backfill_results(store)
        rebuilt = await rebuild_ratings(store)
        counted = await rebuild_achievements(store, achievements)
    return (
        f"{filled} finished games' results filled in; "
        f"{rebuilt.games} rated games replayed, {rebuilt.players} ratings kept; "
        f"{counted} finished games' achievements counted"
    )


def ratings_main(arguments: Sequence[str], achievements: AchievementRules) -> int:
    """``cascadia-bot ratings --rebuild``, counting ``achievements`` (the application's):
    returns the exit status (2 and one line on any refusal)."""
    parser = argparse.ArgumentParser(
        prog="cascadia-bot ratings",
        description=(
            "Recompute every league rating from the stored results, and every finished game's"
            " achievements from its final state (CASCADIA_DB)."
        ),
    )
    parser.add_argument(
        "--rebuild",
        action="store_true",
        required=True,
        help="drop and recompute the ratings and the achievements",
    )
    parser.parse_args(arguments)
    database = database_from_env()
    try:
        # The checks of a start, without the lock: the bot may be running on the database.
        if is_postgres_url(database):
            check_postgres(database, known_version=len(load_migrations("postgres")))
        else:
            check_existing(Path(database), contents=refuse_at_start)
    except StartupError as error:
        print(f"cascadia-bot ratings: {error}", file=sys.stderr)
        return 2
    try:
        said = asyncio.run(rebuild(database, achievements))
    except (StoreError, sqlite3.Error, asyncpg.PostgresError, OSError) as error:
        said = hide_passwords(str(error), database)
        print(f"cascadia-bot ratings: {describe(database)}: {said}", file=sys.stderr)
        return 2
    print(f"{describe(database)}: {said}")
    return 0
