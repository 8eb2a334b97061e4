"""The real bot on an SQLite file whose disk fills up mid-game (a small file system of the
test's own, filled by another file): the move is refused privately and whole, the bot keeps
answering what only reads, the log tells the host once, and when the space is back the game
goes on without a restart."""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import World

pytestmark = pytest.mark.e2e

CANNOT_SAVE = r"^The bot cannot save right now \(the disk is full\); nothing was changed\.$"
DISK_BYTES = 16 << 20


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 16 MiB of the test's own (tmpfs), mounted for the test: filling it
    fills the bot's disk and no other."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(
            f"cannot mount a small file system for the test (it needs root): {done.stderr}",
            pytrace=False,
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


@pytest.fixture
def bot_env(small_disk: Path) -> dict[str, str]:
    return {"CASCADIA_DB": str(small_disk / "cascadia.sqlite3")}


def fill(disk: Path) -> Path:
    """Write a file on ``disk`` until no byte more fits; returns it (remove it to make room)."""
    filler = disk / "filler"
    block = b"\0" * 4096
    with filler.open("wb", buffering=0) as out:
        while True:
            try:
                out.write(block)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                return filler


async def test_a_full_disk_refuses_moves_answers_reads_and_play_goes_on_after(
    world: World, small_disk: Path
) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    for _ in range(2):
        await table.play()
    await table.settled()
    mover = table.to_move
    assert mover is not None
    move = await table.choose(mover)

    filler = fill(small_disk)
    for _ in range(3):
        await table.refused(mover, "play", move.options(), reason=CANNOT_SAVE)
    board = await table.run(mover, "board")
    assert [a.filename for a in board.attachments][:1] == ["display.png"], board.content
    status = await table.run(mover, "status")
    assert "cannot save" not in status.content, status.content
    told = [line for line in world.bot.log_text().splitlines() if "cannot save" in line]
    assert [line for line in told if "WARNING" in line] == told[:1], told
    assert "free some disk space" in told[0]

    filler.unlink()
    await table.play(mover, move)
    for _ in range(2):
        await table.play()
    await table.settled()
    table.check_channel()
    assert [seq for seq, _, _ in world.db.moves(table.game_id)] == list(range(1, table.turns + 1))
    assert "the database works again" in world.bot.log_text()
