"""Backups with the real bot process: ``cascadia-bot backup`` of the running bot's database,
``restore`` refused while it runs and done once it stopped, the bot started again on the
restored database and the game played to its end; and the bot's own backups every
``CASCADIA_BACKUP_HOURS``, each one whole."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.db.backup import backups_in, inspect
from tests.e2e.harness import REPO_ROOT, World, poll_until

BACKUP_HOURS = 0.0005
"""1.8 seconds: more than the second that tells two backups' names apart."""


@pytest.fixture
def bot_env(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "backups"
    folder.mkdir()
    return {"CASCADIA_BACKUP_DIR": str(folder), "CASCADIA_BACKUP_HOURS": str(BACKUP_HOURS)}


async def command(world: World, *arguments: str) -> tuple[int, str, str]:
    """``python -m bot ARGUMENTS`` on the world's database; its status, output and errors."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *arguments,
        cwd=REPO_ROOT,
        env={**env, "CASCADIA_DB": str(world.bot.db_path)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(60):
        out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_backup_while_running_then_restore_and_play_on(world: World, tmp_path: Path) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.play()
    await table.play()
    await table.settled()
    saved = tmp_path / "saved.sqlite3"
    status, out, err = await command(world, "backup", "--to", str(saved))
    assert status == 0, err
    moves = len(world.db.moves(table.game_id))
    assert f"1 games, {moves} moves; integrity check ok" in out

    status, _, err = await command(world, "restore", "--from", str(saved))
    assert status == 2
    assert "a bot is running on" in err

    # A lobby opened after the backup: the restore takes the database back to before it.
    later = world.table(world.new_channel())
    await later.open(world.carol)
    assert world.db.game_id(later.channel) is not None
    await world.bot.stop()
    status, out, err = await command(world, "restore", "--from", str(saved))
    assert status == 0, err
    assert f"1 games, {moves} moves" in out
    assert "the database it replaced is kept as" in out

    await world.bot.start()
    assert world.db.game_id(later.channel) is None
    final = await table.play_to_end()
    table.check_final(final)
    assert len(world.db.moves(table.game_id)) == 40


async def test_the_bot_backs_itself_up_every_few_hours(world: World, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.play()
    await poll_until(
        lambda: len(backups_in(folder)) >= 3,
        timeout=30,
        what="three backups in CASCADIA_BACKUP_DIR",
        server=world.server,
    )
    await table.play()
    await table.settled()
    # Each one whole (inspect runs integrity_check), each a moment of the game, in order.
    seen = [inspect(path) for _, path in backups_in(folder)]
    assert [(c.games, c.moves) for c in seen] == sorted((c.games, c.moves) for c in seen)
    assert seen[-1].games == 1
    assert seen[-1].moves <= len(world.db.moves(table.game_id))
    log = world.bot.log_text()
    assert f"backed the database up to {backups_in(folder)[0][1]}" in log
    with closing(sqlite3.connect(backups_in(folder)[-1][1])) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
