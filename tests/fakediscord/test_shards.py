"""The local Discord server's shards: the recommended count, the IDENTIFY check, and every
guild's events routed to the connection of the shard that owns the guild."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from fakediscord import DiscordServer
from fakediscord.sessions import shard_of
from tests.fakediscord.test_server import pointed_at


async def test_gateway_bot_recommends_the_shard_count() -> None:
    async with DiscordServer(shard_count=3) as server, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {server.token}"}
        async with http.get(f"{server.api_base}/gateway/bot", headers=headers) as answer:
            body = await answer.json()
    assert body["shards"] == 3
    assert body["url"] == server.gateway_url


def test_guilds_can_be_made_on_a_chosen_shard() -> None:
    server = DiscordServer()
    for count in (1, 2, 5):
        for shard in range(count):
            guild = server.add_guild(f"{shard} of {count}", shard=(shard, count))
            assert shard_of(guild, count) == shard
    with pytest.raises(ValueError, match="shard 2 is not one of 2"):
        server.add_guild(shard=(2, 2))


async def identify(server: DiscordServer, shard: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Open a raw gateway websocket, IDENTIFY with ``shard`` (left out when ``None``) and read
    until READY's guild creates have come or the server closes; returns the dispatches read
    and the close code."""
    data: dict[str, Any] = {"token": server.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    events: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        await ws.send_str(json.dumps({"op": 2, "d": data}))
        while True:
            message = await ws.receive(timeout=5)
            if message.type is not aiohttp.WSMsgType.TEXT:
                return events, ws.close_code
            event = json.loads(message.data)
            events.append(event)
            ready = [e for e in events if e["t"] == "READY"]
            if ready and len(events) == 1 + len(ready[0]["d"]["guilds"]):
                return events, None


@pytest.mark.parametrize(
    ("shard", "code"),
    [
        ([2, 2], 4010),
        ([-1, 2], 4010),
        ([0], 4010),
        ([0, 0], 4010),
        (["0", "2"], 4010),
        ("0,2", 4010),
        (None, 4011),
    ],
)
async def test_a_bad_or_missing_shard_is_refused(shard: Any, code: int) -> None:
    async with DiscordServer(shard_count=2) as server:
        events, closed = await identify(server, shard)
    assert events == []
    assert closed == code
    assert server.identify_count == 0


async def test_a_session_is_told_only_its_own_guilds() -> None:
    async with DiscordServer(shard_count=2) as server:
        guilds = [server.add_guild(f"g{n}", shard=(n % 2, 2)) for n in range(4)]
        for shard in (0, 1):
            events, closed = await identify(server, [shard, 2])
            assert closed is None
            ready, *creates = events
            assert ready["t"] == "READY"
            assert ready["d"]["shard"] == [shard, 2]
            mine = [str(g) for g in guilds if shard_of(g, 2) == shard]
            assert [g["id"] for g in ready["d"]["guilds"]] == mine
            assert [(e["t"], e["d"]["id"]) for e in creates] == [("GUILD_CREATE", g) for g in mine]
        # Another count than the recommended one is accepted, as Discord does.
        events, closed = await identify(server, [0, 1])
        assert closed is None
        assert len(events[0]["d"]["guilds"]) == 4


class ShardBot(discord.AutoShardedClient):
    """A client running one shard of two, answering ``/where`` with that shard."""

    def __init__(self, shard: int) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            shard_ids=[shard],
            shard_count=2,
            guild_ready_timeout=0.05,
        )
        self.shard = shard
        self.tree = app_commands.CommandTree(self)
        self.deleted: asyncio.Queue[int] = asyncio.Queue()

        @self.tree.command(name="where", description="which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"shard {self.shard}")

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.deleted.put_nowait(channel.id)


@contextlib.asynccontextmanager
async def running(server: DiscordServer, bot: ShardBot) -> AsyncIterator[ShardBot]:
    task = asyncio.create_task(bot.start(server.token))
    server.watch_task(task, f"shard {bot.shard}")
    try:
        await server.guard(bot.wait_until_ready(), what=f"shard {bot.shard} ready")
        yield bot
    finally:
        await bot.close()
        await server.guard(task, what=f"shard {bot.shard} to end")


def guild_per_shard(server: DiscordServer) -> tuple[int, list[int], list[int]]:
    """A user, a guild of each of the 2 shards with the user in it, and a channel in each."""
    server.capture_error_logs("discord")
    user = server.add_user("alice")
    guilds = [server.add_guild(f"guild {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [server.add_channel(g, "general") for g in guilds]
    for guild in guilds:
        server.add_member(guild, user)
    return user, guilds, channels


async def test_two_shard_processes_each_get_their_guilds_events() -> None:
    async with DiscordServer(shard_count=2) as server:
        user, guilds, channels = guild_per_shard(server)
        with pointed_at(server):
            async with (
                running(server, ShardBot(0)) as zero,
                running(server, ShardBot(1)) as one,
            ):
                await zero.tree.sync()
                bots = (zero, one)
                for shard, bot in enumerate(bots):
                    assert [g.id for g in bot.guilds] == [guilds[shard]]
                    handle = await server.slash(user, channels[shard], "where")
                    await handle
                    assert handle.message is not None
                    assert handle.message.content == f"shard {shard}"

                server.delete_channel(channels[1])
                deleted = await server.guard(one.deleted.get(), what="shard 1's CHANNEL_DELETE")
                assert deleted == channels[1]
                sent = {
                    session.shard: [json.loads(text)["t"] for _, text in session.history]
                    for session in server.world.sessions.values()
                }
                assert "CHANNEL_DELETE" in sent[(1, 2)]
                assert "CHANNEL_DELETE" not in sent[(0, 2)]
                assert zero.deleted.empty()
        server.assert_clean()


async def test_a_guild_whose_shard_is_down_waits_for_its_process() -> None:
    async with DiscordServer(shard_count=2) as server:
        user, guilds, channels = guild_per_shard(server)
        with pointed_at(server):
            async with running(server, ShardBot(0)) as zero:
                await zero.tree.sync()
                async with running(server, ShardBot(1)):
                    assert server.live_shards == {(0, 2), (1, 2)}
                    assert server.serves(guilds[1])
                assert server.live_shards == {(0, 2)}
                assert server.serves(guilds[0])
                assert not server.serves(guilds[1])
                # Shard 0 answers its guild while shard 1 is away; shard 1's guild waits.
                here = await server.slash(user, channels[0], "where")
                await here
                waiting = asyncio.create_task(server.slash(user, channels[1], "where", timeout=30))
                await asyncio.sleep(0)
                assert not waiting.done()
                assert all(ix.channel_id != channels[1] for ix in server.interactions)
                async with running(server, ShardBot(1)):
                    handle = await server.guard(waiting, what="the wait for shard 1")
                    await handle
                    assert handle.message is not None
                    assert handle.message.content == "shard 1"
            with pytest.raises(
                AssertionError, match=f"a live gateway session for guild {guilds[1]}"
            ):
                await server.slash(user, channels[1], "where", timeout=0.2)
        server.assert_clean()
