"""Fixtures for the end-to-end tests: the local Discord server with a guild, five users and
the bot running as its own process on a database in the test's temporary directory."""

from __future__ import annotations

import os
import zlib
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from fakediscord import DiscordServer
from sandbox import ACK_LIMIT, BotProcess
from tests.e2e.harness import REPO_ROOT, Database, World
from tests.e2e.pseudo import PseudoReader

_FAILED = pytest.StashKey[bool]()
_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in this folder ``e2e``, which the quick loop leaves out."""
    for item in items:
        if item.path.is_relative_to(_HERE):
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember whether the test body failed, for the bot log dump in the fixture."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[_FAILED] = True
    return report


def body_failed(request: pytest.FixtureRequest) -> bool:
    """Whether the test body failed (for a fixture's clean-up: show the logs, skip checks)."""
    return bool(request.node.stash.get(_FAILED, False))


LOCALE = os.environ.get("CASCADIA_E2E_LOCALE", "en-XA")
"""The language of the server and of every person in the tests' worlds: by default the
pseudo-locale ``en-XA``, in which every text the bot sends is checked for words that escaped
translation (see :mod:`tests.e2e.pseudo`) and read back in English, so the tests' English
expectations hold and every scenario also checks that nothing escapes. ``en-US`` runs them in
plain English."""

PSEUDO = "en-XA"


def _names(server: DiscordServer) -> Iterator[str]:
    """The names in the server that are people's, not the bot's words."""
    yield from (user.name for user in server.users.values())
    for guild in server.guilds.values():
        yield guild.name
        yield from (role.name for role in guild.roles.values() if role.id != guild.id)
    yield from (c.name for c in server.channels.values() if c.type == 0)


def new_server(**options: Any) -> DiscordServer:
    """A local Discord server speaking the tests' :data:`LOCALE`, which reads the bot's texts
    for escaped words in the pseudo-locale (see :func:`check_texts`)."""
    reader: PseudoReader | None = None
    if LOCALE == PSEUDO:
        reader = PseudoReader(lambda: _names(server))
    server = DiscordServer(texts=reader, locale=LOCALE, **options)
    return server


def check_texts(server: DiscordServer) -> None:
    """Fail on any text the bot sent that escaped translation (in the pseudo-locale)."""
    reader = server.texts
    if isinstance(reader, PseudoReader):
        escaped = "\n".join(reader.escaped)
        assert not reader.escaped, f"texts that escaped translation:\n{escaped}"


async def open_world(tmp_path: Path, seed: int, env: dict[str, str] | None = None) -> World:
    """A started server, guild, channel and users, and a started bot process."""
    server = await new_server().start()
    guild = server.add_guild("Cascadia Club")
    channel = server.add_channel(guild, "cascadia")
    alice, bob, carol, dave, eve = users = [
        server.add_user(n) for n in ("alice", "bob", "carol", "dave", "eve")
    ]
    for user in users:
        server.add_member(guild, user)
    db_path = tmp_path / "cascadia.sqlite3"
    bot = BotProcess(
        server,
        db_path=db_path,
        guild_id=guild,
        log_path=tmp_path / "bot.log",
        env=env,
        cwd=REPO_ROOT,
    )
    # A test module may run the bot on PostgreSQL by giving it a URL (see bot_env).
    target = (env or {}).get("CASCADIA_DB") or db_path
    world = World(server, bot, Database(target), guild, channel, alice, bob, carol, dave, eve, seed)
    try:
        await bot.start()
    except BaseException:
        await close_world(world, failed=True)
        raise
    return world


async def close_world(*worlds: World, failed: bool) -> None:
    """Stop the bot and the server, then fail on anything that went wrong on the way: bot
    errors in its log, late or missing interaction answers, server-side problems. Several
    worlds share one server, each with a bot process of its own (shards of one bot)."""
    server = worlds[0].server
    codes: list[int | None] = []
    try:
        if not failed:
            # Whatever the bots still owe the channels goes out, and only that.
            for world in worlds:
                if world.bot.running:
                    for table in world.tables:
                        await table.settled()
                        table.check_channel()
        for world in worlds:
            codes.append(await world.bot.stop())
            if failed:
                log = world.bot.log_path
                print(f"----- the bot's log ({log}) -----\n{world.bot.log_text()}")
    finally:
        await server.close()
    if failed:
        return
    for world, code in zip(worlds, codes, strict=True):
        bot = world.bot
        problems = bot.log_problems()
        assert not problems, (
            "the bot logged errors:\n" + "\n".join(problems) + "\n" + bot.log_tail()
        )
        assert code in (0, None), f"the bot exited with status {code} on SIGTERM\n{bot.log_tail()}"
    # Unanswered because the bot was killed, or late because a test made them so.
    excused = set().union(*(world.bot.unanswered_at_kill for world in worlds))
    excused |= set().union(*(world.late_on_purpose for world in worlds))
    late = [
        f"{ix.name!r}: {ix.ack_latency}"
        for ix in server.interactions
        if ix.id not in excused
        and (ix.callback_type is None or ix.expired or (ix.ack_latency or 0) >= ACK_LIMIT)
    ]
    assert not late, f"interactions not answered within {ACK_LIMIT}s: {late}"
    server.assert_clean()
    check_texts(server)


@pytest.fixture
def bot_env() -> dict[str, str]:
    """Extra environment for the bot process (a test module may override this fixture)."""
    return {}


@pytest.fixture
async def world(
    request: pytest.FixtureRequest, tmp_path: Path, bot_env: dict[str, str]
) -> AsyncIterator[World]:
    """A world whose bot is stopped and checked when the test ends."""
    seed = zlib.crc32(request.node.nodeid.encode())
    world = await open_world(tmp_path, seed, bot_env)
    try:
        yield world
    finally:
        await close_world(world, failed=body_failed(request))
