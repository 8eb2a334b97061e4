"""The real bot on a real PostgreSQL server that is stopped and started, then crashed, while two
games are played: meanwhile commands and buttons are answered privately that the database is
not answering, the background work waits without filling the log, and once the server is back
both games go on with no move lost or doubled, no message posted twice and the claims' named
connection made again."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.db.retry import LONGEST_WAIT
from bot.shell.client import OUTBOX_SECONDS
from sandbox import pgserver
from tests.e2e.harness import GameChannel, World, button, poll_until

pytestmark = pytest.mark.e2e

NOT_ANSWERING = "The game's database is not answering; try again in a minute."


@pytest.fixture
def bot_env(restarting_postgres: pgserver.PostgresServer, tmp_path: Path) -> dict[str, str]:
    url = restarting_postgres.url(restarting_postgres.create_schema())
    return {"CASCADIA_DB": url, "XDG_CACHE_HOME": str(tmp_path / "cache")}


def claim_connections(server: pgserver.PostgresServer, pid: int) -> list[str]:
    """The named connections the bot process ``pid`` holds for its claims (``host:pid:tag``)."""
    names = server.psql("SELECT application_name FROM pg_stat_activity").splitlines()
    return [name for name in names if re.fullmatch(rf".*:{pid}:[0-9a-f]{{8}}", name)]


def logged_more(world: World, text: str, *, than: int) -> Callable[[], bool]:
    """Whether the bot's log has ``text`` more than ``than`` times (to wait on)."""
    return lambda: world.bot.log_text().count(text) > than


async def answered(table: GameChannel, user: int, command: str) -> str:
    """``/cascadia command``'s private answer, read without the database (it may be down)."""
    return (await table.run(user, command)).content


async def test_two_games_go_on_through_a_restart_and_a_crash_of_postgresql(
    world: World, restarting_postgres: pgserver.PostgresServer
) -> None:
    server = restarting_postgres
    first, second = world.table(), world.table(world.new_channel())
    await first.setup([world.alice, world.bob])
    await second.setup([world.carol, world.dave])
    await first.play()
    turn = await second.play()
    await first.settled()
    await second.settled()
    assert claim_connections(server, world.bot.pid), "the bot holds no named claim connection"

    for how in ("fast", "immediate"):
        mover, waiting = first.to_move, second.to_move
        assert mover is not None
        assert waiting is not None
        move = await first.choose(mover)
        waits = world.bot.log_text().count("the outbox drain waits for the database")
        server.halt(how)

        handle = await first.send(mover, "play", move.options())
        assert (await first.reply(handle)).content == NOT_ANSWERING
        assert await answered(second, waiting, "status") == NOT_ANSWERING
        pressed = await world.server.click(waiting, turn, button(turn, "Play"))
        answer = await second.reply(pressed)
        assert answer.ephemeral
        assert answer.content == NOT_ANSWERING
        await poll_until(
            logged_more(world, "the outbox drain waits", than=waits),
            timeout=OUTBOX_SECONDS + 5,
            what="the outbox drain to wait for the database",
            server=world.server,
        )

        server.launch()
        await first.play(mover, move)
        turn = await second.play()
        await poll_until(
            lambda: claim_connections(server, world.bot.pid),
            timeout=10,
            what="the bot to make its named claim connection again",
            server=world.server,
        )
        await poll_until(
            logged_more(world, "the outbox drain goes on", than=waits),
            timeout=LONGEST_WAIT + 5,
            what="the outbox drain to find the database again",
            server=world.server,
        )

    for table in (first, second):
        for _ in range(3):
            await table.play()
        await table.settled()
        table.check_channel()
        moves = world.db.moves(table.game_id)
        assert [seq for seq, _, _ in moves] == list(range(1, table.turns + 1))
    assert world.db.unsent() == []
    log = world.bot.log_text()
    told = [line for line in log.splitlines() if "the database is not answering" in line]
    assert len([line for line in told if "WARNING" in line]) == 2, told
    assert log.count("the outbox drain waits for the database") == 2
    assert log.count("the outbox drain goes on") == 2


async def test_a_move_cut_off_by_a_crash_of_postgresql_counts_once_or_not_at_all(
    world: World, restarting_postgres: pgserver.PostgresServer
) -> None:
    server = restarting_postgres
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.settled()
    for deferred in (False, True, False, True):
        mover = table.to_move
        assert mover is not None
        move = await table.choose(mover)
        before, since = len(world.db.moves(table.game_id)), len(world.server.messages)
        handle = await table.send(mover, "play", move.options())
        if deferred:
            await handle.response()  # the bot is saving the move now
        server.halt("immediate")
        answer = (await table.reply(handle)).content
        server.launch()
        kept = len(world.db.moves(table.game_id)) - before
        if answer == NOT_ANSWERING and not kept:
            await table.play(mover, move)
        else:
            # Played, whether or not the answer could say so: its message comes once.
            # Under load the answer may add that Discord is slow; the move is saved anyway.
            assert answer.startswith("Turn played.") or answer == NOT_ANSWERING, answer
            assert kept == 1
            await table.turn_posted(since, mover)
    await table.play()
    await table.settled()
    table.check_channel()
    moves = world.db.moves(table.game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, table.turns + 1))
