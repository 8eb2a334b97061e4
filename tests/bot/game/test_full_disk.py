"""SQLite refusing to save (its page limit reached, as on a full disk; its file read-only): the
move is refused whole with a clear reason, reads go on, the log tells the operator once, and
play goes on when the space is back, on the same store."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.db.errors import CannotSave
from bot.game.service import GameService
from bot.shell.errors import user_message
from bot.stores import SqliteStore, Store, open_store
from tests.bot.clocks import START, FakeClock
from tests.bot.game.test_service import _any_turn, _current_user

GUILD, CHANNEL = 1, 10
ADA, BOB = 100, 200
TABLES = ("games", "seats", "moves", "outbox", "outbox_snapshots")
TURNS = 20


async def _sent(store: Store) -> None:
    """Mark what a move queued as posted, as the outbox would."""
    for row in await store.pending():
        await store.mark_sent(row.id, 1000 + row.id)


async def _start(service: GameService) -> None:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="ada", cards="A"
    )
    await service.lobby.join(table.game.id, user_id=BOB, name="bob")
    await service.lobby.start(table.game.id, user_id=ADA)


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


async def _limit_pages(store: SqliteStore, extra: int | None, *, at: int | None = None) -> int:
    """Let the file grow by ``extra`` pages more (``None``: as far as SQLite allows), or up
    to ``at`` pages; returns the limit set."""
    async with store.transaction() as db:
        # One connection, one setting: the store's own connection is the one limited.
        [(pages,)] = await db.execute_fetchall("PRAGMA page_count")
        limit = at if at is not None else 4_294_967_294 if extra is None else pages + extra
        await db.execute(f"PRAGMA max_page_count = {limit:d}")
        return limit


async def _sent_unlimited(store: SqliteStore, limit: int) -> None:
    """Mark what a move queued as posted with room to do it, then limit the file again (to
    ``limit``, or its size if marking took the last free page): the disk fills on a move,
    which the test watches, not on marking, which could take a page as rows grow."""
    await _limit_pages(store, None)
    await _sent(store)
    await _limit_pages(store, None, at=limit)


async def test_a_full_disk_refuses_the_move_whole_and_play_goes_on_when_space_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with SqliteStore.open(path, now=FakeClock(START)) as store:
        service = GameService(store, now=FakeClock(START), seeds=lambda: 5)
        await _start(service)
        limit = await _limit_pages(store, 1)
        rng = random.Random(3)
        with caplog.at_level(logging.INFO, logger="bot"):
            # The moves fill the pages' room, then the one page more, then one is refused.
            played = 0
            while True:
                table = await service.game(CHANNEL)
                mover, move = _current_user(table), _any_turn(table, rng)
                before = _rows(path)
                try:
                    await service.turns.play(CHANNEL, user_id=mover, move=move)
                except CannotSave:
                    break
                await _sent_unlimited(store, limit)
                played += 1
                assert played < TURNS, f"{TURNS} moves fitted in one page more"
            assert played > 0, "the first move was refused: the test shows nothing"
            for _ in range(3):
                with pytest.raises(CannotSave) as refused:
                    await service.turns.play(CHANNEL, user_id=mover, move=move)
                assert user_message(refused.value) == (
                    "The bot cannot save right now (the disk is full); nothing was changed."
                )
                assert _rows(path) == before, "a refused move left something written"
                looked = await service.game(CHANNEL)
                assert looked.game.revision == table.game.revision
                assert await store.pending() == []
            told = [r for r in caplog.records if r.levelno >= logging.WARNING]
            assert len(told) == 1, f"the log should tell the operator once: {told}"
            assert "free some disk space" in told[0].getMessage(), told[0].getMessage()

            await _limit_pages(store, None)
            await service.turns.play(CHANNEL, user_id=mover, move=move)
        after = await service.game(CHANNEL)
        assert after.game.revision == table.game.revision + 1
        assert [row.kind for row in await store.pending()] == ["turn"]
        assert len(await store.moves(table.game.id)) == played + 1
        assert any("works again" in r.getMessage() for r in caplog.records)


@contextlib.contextmanager
def _unwritable(path: Path) -> Iterator[None]:
    """``path`` refused to anyone who opens it for writing, even root: read-only by its mode,
    and immutable (``chattr +i``) when the tests run as root, who may write any mode."""
    path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable:
        chattr = shutil.which("chattr")
        if chattr is None:
            pytest.fail("running as root, without chattr to make a file unwritable", False)
        done = subprocess.run([chattr, "+i", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.fail(f"chattr +i failed on {path}: {done.stderr.strip()}", False)
    try:
        with pytest.raises(PermissionError):
            path.open("r+b").close()
        yield
    finally:
        if immutable:
            subprocess.run([str(shutil.which("chattr")), "-i", str(path)], check=True)
        path.chmod(0o644)


async def test_a_read_only_file_answers_reads_and_refuses_moves(tmp_path: Path) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with open_store(str(path), now=FakeClock(START)) as store:
        service = GameService(store, now=FakeClock(START), seeds=lambda: 5)
        await _start(service)
        table = await service.game(CHANNEL)
    before = _rows(path)

    with _unwritable(path):
        async with SqliteStore.open(path, now=FakeClock(START)) as store:
            service = GameService(store, now=FakeClock(START), seeds=lambda: 5)
            looked = await service.game(CHANNEL)
            assert looked.game.revision == table.game.revision
            move = _any_turn(looked, random.Random(3))
            with pytest.raises(CannotSave) as refused:
                await service.turns.play(CHANNEL, user_id=_current_user(looked), move=move)
            assert user_message(refused.value) == (
                "The bot cannot save right now (the database file is read-only); "
                "nothing was changed."
            )
    assert _rows(path) == before
