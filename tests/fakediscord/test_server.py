"""Prove the local Discord server against a tiny real discord.py client, in-process."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any, cast

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import Route

from fakediscord import (
    ATTACH_FILES,
    MANAGE_CHANNELS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    DiscordServer,
)

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
TILES = ["hawk", "salmon", "bear", "elk", "fox", "habitat"]


@contextlib.contextmanager
def pointed_at(server: DiscordServer) -> Iterator[None]:
    """Point discord.py's hard-coded hosts at ``server`` for the duration of the block."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE
    Route.BASE = server.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    Asset.BASE = server.cdn_base
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE = saved


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"demo:again:(?P<count>\d+)",
):
    """A persistent counter button whose state lives in its custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label="Again", custom_id=f"demo:again:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AgainButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"count {self.count + 1}", view=again_view(self.count + 1)
        )


def again_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AgainButton(count))
    return view


demo = app_commands.Group(name="demo", description="Demo commands")


@demo.command(description="Play a tile")
async def play(
    interaction: discord.Interaction,
    tile: str,
    count: app_commands.Range[int, 1, 9],
    loud: bool,
    rival: discord.Member,
) -> None:
    text = f"{interaction.user.name} plays {tile} x{count} loud={loud} vs {rival.mention}"
    await interaction.response.send_message(text, view=again_view(0))


@play.autocomplete("tile")
async def tile_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t, value=t) for t in TILES if t.startswith(current)]


@demo.command(description="Think, then answer")
async def slow(interaction: discord.Interaction, private: bool = False) -> None:
    await interaction.response.defer(thinking=True, ephemeral=private)
    await interaction.followup.send(f"done {interaction.user.mention}")


@demo.command(description="Announce a turn")
async def announce(
    interaction: discord.Interaction, rival: discord.Member, cc: discord.Member
) -> None:
    await interaction.response.send_message("announcing", ephemeral=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.channel.send(
        f"{rival.mention} your turn (cc {cc.mention})",
        allowed_mentions=discord.AllowedMentions(users=[rival]),
    )


@demo.command(description="Show the board")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(file=discord.File(io.BytesIO(PNG), "board.png"))


@app_commands.command(description="Pong")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


@app_commands.command(description="Answer after the deadline")
async def late(interaction: discord.Interaction) -> None:
    bot = cast(DemoBot, interaction.client)
    await asyncio.sleep(bot.late_delay)  # simulated slow work before acknowledging
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as e:
        bot.late_codes.put_nowait(e.code)


class DemoBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(guild_id)
        self.late_delay = 0.0
        self.late_codes: asyncio.Queue[int] = asyncio.Queue()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AgainButton)
        self.tree.add_command(demo, guild=self.guild)
        self.tree.add_command(ping)
        self.tree.add_command(late)
        await self.tree.sync(guild=self.guild)
        await self.tree.sync()


@dataclass
class World:
    server: DiscordServer
    bot: DemoBot
    guild: int
    channel: int
    alice: int
    bob: int
    carol: int


@pytest.fixture
async def world() -> AsyncIterator[World]:
    members_intent = discord.Intents(members=True).value
    async with DiscordServer(privileged_intents=members_intent) as server:
        server.capture_error_logs("discord")
        guild = server.add_guild("Cascadia Test")
        channel = server.add_channel(guild, "general")
        alice, bob, carol = (server.add_user(name) for name in ("alice", "bob", "carol"))
        server.add_member(guild, alice, permissions=MANAGE_CHANNELS)
        server.add_member(guild, bob)
        server.add_member(guild, carol)
        with pointed_at(server):
            bot = DemoBot(guild)
            task = asyncio.create_task(bot.start(server.token))
            server.watch_task(task, "bot")
            try:
                await server.guard(bot.wait_until_ready(), what="the bot's on_ready")
                yield World(server, bot, guild, channel, alice, bob, carol)
            finally:
                await bot.close()
                await server.guard(task, what="the bot task to end")
        server.assert_clean()


async def test_login_and_sync(world: World) -> None:
    s, bot = world.server, world.bot
    assert s.identify_count == 1
    paths = {(r.method, r.path) for r in s.requests}
    assert {("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")} <= paths
    synced = [(c.guild_id, sorted(x["name"] for x in c.commands)) for c in s.command_syncs]
    assert synced == [(world.guild, ["demo"]), (None, ["late", "ping"])]
    assert bot.user is not None
    assert bot.user.id == s.bot_user_id == bot.application_id
    guild = bot.get_guild(world.guild)
    assert guild is not None
    assert guild.member_count == len(guild.members) == 5
    assert [c.name for c in guild.text_channels] == ["general"]
    alice = guild.get_member(world.alice)
    assert alice is not None
    assert alice.guild_permissions.manage_channels
    assert guild.me.guild_permissions.manage_channels

    ids = [c["id"] for c in s.commands[world.guild]]
    await bot.tree.sync(guild=bot.guild)
    assert len(s.command_syncs) == 3
    assert [c["id"] for c in s.commands[world.guild]] == ids


async def test_slash_command_round_trip(world: World) -> None:
    s = world.server
    options = {"tile": "hawk", "count": 3, "loud": True, "rival": world.bob}
    handle = await s.slash(world.alice, world.channel, "demo", "play", options=options)
    record = await handle
    assert record.callback_type == 4
    assert record.ack_latency is not None
    assert record.ack_latency < 3
    assert record.payload["data"]["guild_id"] == str(world.guild)
    message = handle.message
    assert message is not None
    assert message.interaction_id == record.id
    assert message.content == f"alice plays hawk x3 loud=True vs <@{world.bob}>"
    assert message.custom_ids() == ["demo:again:0"]
    assert message.notified == {world.bob}

    pong = await s.slash(world.alice, world.channel, "ping")
    assert "guild_id" not in (await pong).payload["data"]
    assert pong.message is not None
    assert pong.message.content == "pong"

    with pytest.raises(LookupError, match="never synced"):
        await s.slash(world.alice, world.channel, "nope")
    with pytest.raises(ValueError, match="missing required"):
        await s.slash(world.alice, world.channel, "demo", "play", options={"tile": "elk"})
    with pytest.raises(ValueError, match=r"10 not in 1\.\.9"):
        await s.slash(world.alice, world.channel, "demo", "play", options={**options, "count": 10})
    with pytest.raises(ValueError, match=r"length 6001 not in 0\.\.6000"):
        await s.slash(
            world.alice, world.channel, "demo", "play", options={**options, "tile": "x" * 6001}
        )


async def test_autocomplete_returns_choices(world: World) -> None:
    choices = await world.server.autocomplete(
        world.alice, world.channel, "demo", "play", options={"tile": "ha"}, focused="tile"
    )
    assert choices == [{"name": "hawk", "value": "hawk"}, {"name": "habitat", "value": "habitat"}]


async def test_persistent_button_click_updates_message(world: World) -> None:
    s = world.server
    options = {"tile": "fox", "count": 1, "loud": False, "rival": world.carol}
    handle = await s.slash(world.alice, world.channel, "demo", "play", options=options)
    await handle
    message = handle.message
    assert message is not None

    click = await s.click(world.bob, message, "demo:again:0")
    assert (await click).callback_type == 7
    assert click.message is message
    assert message.content == "count 1"
    assert message.custom_ids() == ["demo:again:1"]
    assert message.notified == {world.carol}  # from creation; the edit pinged nobody

    await (await s.click(world.carol, message, "demo:again:1"))
    assert message.content == "count 2"
    with pytest.raises(ValueError, match="no component"):
        await s.click(world.bob, message, "demo:again:0")


async def test_defer_then_followup_fills_placeholder_without_ping(world: World) -> None:
    s = world.server
    handle = await s.slash(world.alice, world.channel, "demo", "slow")
    assert (await handle).callback_type == 5
    [filled] = await handle.followups(1)
    assert filled is handle.message
    assert not filled.loading
    assert filled.content == f"done <@{world.alice}>"
    assert filled.mentions == [world.alice]
    assert filled.notified == frozenset()
    assert [m.id for m in s.messages if m.interaction_id == handle.record.id] == [filled.id]

    private = await s.slash(world.alice, world.channel, "demo", "slow", options={"private": True})
    [hidden] = await private.followups(1)
    assert hidden.ephemeral
    assert hidden.content == f"done <@{world.alice}>"
    headers = {"Authorization": f"Bot {s.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        url = f"{s.api_base}/channels/{world.channel}/messages"
        async with http.get(f"{url}/{hidden.id}") as response:
            assert response.status == 404
            assert (await response.json())["code"] == 10008
        async with http.get(url) as response:
            assert str(hidden.id) not in {m["id"] for m in await response.json()}


async def test_channel_message_notifies_only_the_allowed_user(world: World) -> None:
    s = world.server
    since = len(s.messages)
    options = {"rival": world.bob, "cc": world.carol}
    handle = await s.slash(world.alice, world.channel, "demo", "announce", options=options)
    await handle
    assert handle.message is not None
    assert handle.message.ephemeral
    assert handle.message.notified == frozenset()
    message = await s.wait_for_message(
        lambda m: "your turn" in m.content, since=since, what="the turn announcement"
    )
    assert message.content == f"<@{world.bob}> your turn (cc <@{world.carol}>)"
    assert message.notified == {world.bob}
    assert message.mentions == [world.bob]
    assert message.author_id == s.bot_user_id
    assert message.interaction_id is None


async def test_server_errors_and_rate_limits_are_retried(world: World) -> None:
    s = world.server
    s.inject_fault("POST", "/channels/*/messages", status=500)
    s.inject_fault("POST", "/channels/*/messages", status=429, retry_after=0.05)
    s.inject_fault("POST", "/interactions/*/callback", status=429, retry_after=0.05)
    options = {"rival": world.bob, "cc": world.carol}
    await (await s.slash(world.alice, world.channel, "demo", "announce", options=options))
    await s.wait_for_message(lambda m: "your turn" in m.content, what="the retried announcement")
    assert s.pending_faults == 0
    posts = [r.status for r in s.requests if r.path == f"/channels/{world.channel}/messages"]
    callbacks = [r.status for r in s.requests if r.path.endswith("/callback")]
    assert posts == [500, 429, 200]
    assert callbacks == [429, 200]
    assert len([m for m in s.messages if "your turn" in m.content]) == 1


async def test_gateway_drop_resumes_and_interactions_still_work(world: World) -> None:
    s = world.server
    assert await s.drop_gateway() == 1
    await s.wait_for(lambda: s.resume_count == 1 and s.connected, what="the bot to RESUME")
    handle = await s.slash(world.alice, world.channel, "ping")
    await handle
    assert handle.message is not None
    assert handle.message.content == "pong"
    assert s.identify_count == 1


async def test_late_acknowledgement_gets_unknown_interaction(world: World) -> None:
    s = world.server
    s.ack_timeout = 0.1
    world.bot.late_delay = 0.3
    handle = await s.slash(world.alice, world.channel, "late")
    code = await s.guard(world.bot.late_codes.get(), what="the late command's NotFound")
    assert code == 10062
    assert handle.record.errors == [(404, 10062)]
    assert handle.record.callback_type is None
    assert handle.record.ack_latency is not None
    assert handle.record.ack_latency > 0.1
    with pytest.raises(AssertionError, match="limit"):
        await handle.response(timeout=1)


async def test_attachments_are_stored_and_served(world: World) -> None:
    s = world.server
    handle = await s.slash(world.alice, world.channel, "demo", "board")
    await handle
    assert handle.message is not None
    [attachment] = handle.message.attachments
    assert attachment.filename == "board.png"
    assert attachment.data == PNG
    async with aiohttp.ClientSession() as http, http.get(attachment.url) as response:
        assert response.status == 200
        assert await response.read() == PNG


async def test_unknown_route_is_recorded(world: World) -> None:
    with pytest.raises(discord.NotFound):
        await world.bot.http.request(Route("GET", "/nope/{x}", x=1))
    assert [(r.method, r.path) for r in world.server.unhandled] == [("GET", "/nope/1")]
    world.server.unhandled.clear()


async def test_bad_token_and_privileged_intents_are_refused() -> None:
    async with DiscordServer() as server:
        with pointed_at(server):
            client = discord.Client(intents=discord.Intents.default())
            with pytest.raises(discord.LoginFailure):
                await client.login("wrong-token")
            await client.close()

            greedy = discord.Client(intents=discord.Intents.all(), guild_ready_timeout=0.05)
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await server.guard(greedy.start(server.token), what="the 4014 close")
            await greedy.close()


async def test_held_post_waits_for_release_and_is_dropped_when_its_client_leaves(
    world: World,
) -> None:
    s = world.server
    hold = s.hold("POST", "/channels/*/messages")
    options = {"rival": world.bob, "cc": world.carol}
    await (await s.slash(world.alice, world.channel, "demo", "announce", options=options))
    await s.wait_for(lambda: hold.held, what="the held announcement")
    assert not [m for m in s.messages if "your turn" in m.content]
    hold.release()
    await s.wait_for_message(lambda m: "your turn" in m.content, what="the released post")

    gone = s.hold("POST", "/channels/*/messages")
    headers = {"Authorization": f"Bot {s.token}"}
    url = f"{s.api_base}/channels/{world.channel}/messages"
    async with aiohttp.ClientSession(headers=headers) as http:
        post = asyncio.ensure_future(http.post(url, json={"content": "lost"}))
        await s.wait_for(lambda: gone.held, what="the second held post")
        post.cancel()
    await s.wait_for(lambda: gone.abandoned, what="the server to notice the client left")
    gone.release()
    assert not [m for m in s.messages if m.content == "lost"]


async def test_enforced_nonce_returns_the_earlier_message(world: World) -> None:
    s = world.server
    hold = s.hold("POST", "/channels/*/messages", after=True)
    headers = {"Authorization": f"Bot {s.token}"}
    url = f"{s.api_base}/channels/{world.channel}/messages"
    body = {"content": "once", "nonce": "n-1", "enforce_nonce": True}
    async with aiohttp.ClientSession(headers=headers) as http:
        first = asyncio.ensure_future(http.post(url, json=body))
        await s.wait_for(lambda: hold.held, what="the processed but unanswered post")
        assert [m.content for m in s.messages] == ["once"]
        hold.release()
        async with await first as response:
            first_id = (await response.json())["id"]
        async with http.post(url, json=body) as response:
            assert (await response.json())["id"] == first_id
        async with http.post(url, json={**body, "enforce_nonce": False}) as response:
            assert (await response.json())["id"] != first_id
    assert [m.content for m in s.messages] == ["once", "once"]
    assert s.nonce_replays == 1


async def test_starts_on_a_chosen_port_and_stops() -> None:
    first = await DiscordServer().start()
    port = first.port
    await first.close()
    async with DiscordServer() as server:
        assert server.port != 0
    server = await DiscordServer().start("127.0.0.1", port)
    try:
        assert (server.port, server.base_url) == (port, f"http://127.0.0.1:{port}")
        assert server.gateway_url == f"ws://127.0.0.1:{port}/gateway"
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{server.api_base}/gateway") as response,
        ):
            assert (await response.json())["url"] == server.gateway_url
    finally:
        await server.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http, http.get(f"{server.api_base}/gateway"):
            pass


async def test_permission_overwrites_refuse_posts_as_discord_does(world: World) -> None:
    s, bot = world.server, world.bot
    channel = bot.get_channel(world.channel)
    assert isinstance(channel, discord.TextChannel)
    s.set_overwrite(world.channel, world.guild, deny=ATTACH_FILES)
    await s.wait_for(
        lambda: channel.overwrites_for(channel.guild.default_role).attach_files is False,
        what="the bot to see the @everyone overwrite",
    )
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(file=discord.File(io.BytesIO(PNG), "board.png"))
    assert refused.value.code == 50013
    await channel.send("words still go out")
    handle = await s.slash(world.alice, world.channel, "demo", "slow")
    await handle
    payload = handle.record.payload
    assert not int(payload["app_permissions"]) & ATTACH_FILES
    assert int(payload["app_permissions"]) & SEND_MESSAGES

    s.set_overwrite(world.channel, s.bot_user_id, deny=VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as hidden:
        await channel.send("anyone there?")
    assert hidden.value.code == 50001
    s.set_overwrite(world.channel, s.bot_user_id)
    s.set_overwrite(world.channel, world.guild)
    await channel.send(file=discord.File(io.BytesIO(PNG), "board.png"))


async def test_threads_have_their_own_send_permission(world: World) -> None:
    s, bot = world.server, world.bot
    thread_id = s.add_thread(world.channel, "a game")
    thread = await s.wait_for(lambda: bot.get_channel(thread_id), what="THREAD_CREATE")
    assert isinstance(thread, discord.Thread)
    assert thread.parent_id == world.channel
    await thread.send("in the thread")
    everyone = s.guilds[world.guild].roles[world.guild]
    s.set_role_permissions(world.guild, world.guild, everyone.permissions)
    s.set_overwrite(world.channel, world.guild, deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("not any more")
    assert refused.value.code == 50013
    parent = bot.get_channel(world.channel)
    assert isinstance(parent, discord.TextChannel)
    await parent.send("the channel itself still takes messages")
    handle = await s.slash(world.alice, thread_id, "demo", "slow")
    await handle
    assert handle.record.payload["channel"]["type"] == 11
    assert not int(handle.record.payload["app_permissions"]) & SEND_MESSAGES_IN_THREADS


async def test_deleted_channels_and_departed_members(world: World) -> None:
    s, bot = world.server, world.bot
    deleted = asyncio.ensure_future(bot.wait_for("guild_channel_delete"))
    left = asyncio.ensure_future(bot.wait_for("raw_member_remove"))
    channel = bot.get_channel(world.channel)
    assert isinstance(channel, discord.TextChannel)
    s.delete_channel(world.channel)
    assert (await s.guard(deleted, what="CHANNEL_DELETE")).id == world.channel
    with pytest.raises(discord.NotFound) as gone:
        await channel.send("hello?")
    assert gone.value.code == 10003

    guild = bot.get_guild(world.guild)
    assert guild is not None
    s.remove_member(world.guild, world.bob)
    assert (await s.guard(left, what="GUILD_MEMBER_REMOVE")).user.id == world.bob
    with pytest.raises(discord.NotFound) as unknown:
        await guild.fetch_member(world.bob)
    assert unknown.value.code == 10007


async def test_next_change_wakes_a_watcher_and_times_out_quietly() -> None:
    async with DiscordServer() as server:
        assert not await server.next_change(0.05)
        waiting = asyncio.ensure_future(server.next_change(10.0))
        async with aiohttp.ClientSession() as http, http.get(f"{server.api_base}/gateway"):
            pass
        assert await waiting
