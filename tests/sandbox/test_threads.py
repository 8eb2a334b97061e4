"""The page's places: the public threads of its channels are listed with them and may be
opened like a channel; other threads are not. Against the local server in this process (no
bot, no browser); the whole flow through the real bot and a browser is in ``test_page.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from fakediscord import DiscordServer
from sandbox.cli import BOT_PERMISSIONS
from sandbox.page import Sandbox, make_app, view


@pytest.fixture
async def sandbox() -> AsyncIterator[Sandbox]:
    async with DiscordServer(bot_name="Cascadia") as server:
        guild = server.add_guild("Sandbox", bot_permissions=BOT_PERMISSIONS)
        channels = (server.add_channel(guild, "table-1"), server.add_channel(guild, "table-2"))
        alice, bob = server.add_user("alice"), server.add_user("bob")
        for person in (alice, bob):
            server.add_member(guild, person)
        yield Sandbox(server, guild, channels, (alice, bob))


async def test_a_public_thread_of_a_channel_is_listed_under_it_and_may_be_opened(
    sandbox: Sandbox,
) -> None:
    server, (table_1, table_2), (alice, bob) = sandbox.server, sandbox.channels, sandbox.players
    assert view(sandbox, table_1, alice)["threads"] == []
    thread = server.add_thread(table_2, "Cascadia · alice · random", owner=alice)
    server.add_thread(table_1, "a private one", owner=bob, private=True)
    elsewhere = server.add_channel(server.add_guild("Another"), "general")
    server.add_thread(elsewhere, "another server's", owner=bob)

    shown = view(sandbox, table_1, bob)
    assert shown["threads"] == [
        {
            "id": str(thread),
            "name": "Cascadia · alice · random",
            "parent": str(table_2),
            "archived": False,
        }
    ]
    assert [c["name"] for c in shown["channels"]] == ["table-1", "table-2"]
    assert thread in sandbox.sees(bob)
    assert sandbox.holds(thread)
    assert sandbox.threads() == (thread,)

    # Archived, it stays listed (a post or a command there reopens it, as on Discord).
    server.archive_idle(thread)
    assert view(sandbox, thread, alice)["threads"][0]["archived"] is True
    assert thread in sandbox.sees(alice)


async def test_the_page_serves_a_thread_as_a_place(sandbox: Sandbox) -> None:
    server, (table_1, _), (alice, _) = sandbox.server, sandbox.channels, sandbox.players
    thread = server.add_thread(table_1, "Cascadia · alice · random", owner=alice)
    await server.say(alice, thread, "hello from the thread")
    private = server.add_thread(table_1, "a private one", owner=alice, private=True)
    async with TestClient(TestServer(make_app(sandbox))) as client:
        world = await (await client.get("/api/world")).json()
        assert [t["id"] for t in world["threads"]] == [str(thread)]
        answer = await client.get("/api/state", params={"user": alice, "channel": thread})
        assert answer.status == 200
        state = await answer.json()
        assert state["channel"] == str(thread)
        assert [m["content"] for m in state["messages"]] == ["hello from the thread"]
        refused = await client.get("/api/state", params={"user": alice, "channel": private})
        assert refused.status == 400
