"""Old messages forgotten and old games packed by the real bot: a week after a game finished and
another was left mid-game (the bot's clock moved on by the test), the bot started again forgets
the rows of what it posted, but keeps the final message the history links to and the turn
message whose Play the next move takes away, and packs the finished game's move log, whose
replay and export answer as before; the unfinished game plays on as before."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.harness import World, poll_until

pytestmark = pytest.mark.e2e

REMINDER = re.compile(r"friendly nudge|still waiting for your move|has been waiting since")
_LINK = re.compile(r"\[final message\]\(https://discord\.com/channels/\d+/\d+/(\d+)\)")


@pytest.fixture
def clock_file(tmp_path: Path) -> Path:
    """The seconds the bot's clock is ahead of the real time (see :mod:`bot.ops.clock`)."""
    return tmp_path / "clock"


@pytest.fixture
def bot_env(clock_file: Path) -> dict[str, str]:
    return {"CASCADIA_TEST_CLOCK_FILE": str(clock_file)}


def move_clock(path: Path, ahead: timedelta) -> None:
    """Set the bot's clock ``ahead`` of the real time."""
    path.write_text(repr(ahead.total_seconds()))


def outbox_kinds(world: World, game_id: int) -> list[str]:
    """The kinds of the game's outbox rows, oldest first, but reminders (the clock's jump
    makes one due at once, posted after the forgetting)."""
    rows = world.db.rows(
        "SELECT kind FROM outbox WHERE game_id = ? AND kind <> 'reminder' ORDER BY id", game_id
    )
    return [str(row[0]) for row in rows]


async def test_a_week_later_the_bot_forgets_what_nothing_reads_and_play_goes_on(
    world: World, clock_file: Path
) -> None:
    finished = world.table()
    await finished.open(world.carol, cards="A")
    await finished.start(world.carol, button=False)
    final = await finished.play_to_end()
    waiting = world.table(world.new_channel())
    waiting.interleaved = lambda message: bool(REMINDER.search(message.content))
    await waiting.setup([world.alice, world.bob])
    for _ in range(3):
        await waiting.play()
    await finished.settled()
    await waiting.settled()
    assert len(outbox_kinds(world, finished.game_id)) > 20
    exported = await finished.run(world.carol, "export")
    replayed = await finished.run(world.alice, "replay", {"game": str(finished.game_id)})

    move_clock(clock_file, timedelta(days=8))
    await world.bot.restart()
    await poll_until(
        lambda: "forgot" in world.bot.log_text() and "packed 1 games" in world.bot.log_text(),
        timeout=20,
        what="the bot to forget the old messages and pack the finished game",
        server=world.server,
    )
    assert outbox_kinds(world, finished.game_id) == ["turn", "finish"]
    assert outbox_kinds(world, waiting.game_id) == ["turn"]
    packed = world.db.rows("SELECT game_id, moves FROM packed_moves")
    assert [(int(r[0]), int(r[1])) for r in packed] == [(finished.game_id, finished.turns)]
    assert (
        world.db.rows("SELECT count(*) FROM moves WHERE game_id = ?", finished.game_id)[0][0] == 0
    )

    again = await finished.run(world.carol, "export")
    [before], [after] = exported.attachments, again.attachments
    assert json.loads(after.data) == json.loads(before.data)
    replayed_again = await finished.run(world.alice, "replay", {"game": str(finished.game_id)})
    assert replayed_again.text == replayed.text
    assert [a.data for a in replayed_again.attachments] == [a.data for a in replayed.attachments]

    listed = await finished.run(world.alice, "history")
    assert [int(link) for link in _LINK.findall(listed.content)] == [final.id]
    for _ in range(2):
        await waiting.play()
    await waiting.settled()
    waiting.check_channel()
    finished.check_channel()
    moves = world.db.moves(waiting.game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, waiting.turns + 1))
