"""Components V2 messages as Discord takes, checks and stores them, from discord.py and raw."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import DiscordServer
from tests.fakediscord.test_server import PNG, World, world

__all__ = ["world"]

COMPONENTS_V2 = 1 << 15


def _layout(text: str, *, picture: str | None = "board.png") -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text)]
    if picture is not None:
        gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{picture}", description="a green board")
        )
        items.append(gallery)
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow(
        discord.ui.Button(label="Play", custom_id="demo:play:1")
    )
    view.add_item(discord.ui.Container(*items, row))
    return view


async def _raw(server: DiscordServer, method: str, path: str, body: dict[str, Any]) -> Any:
    headers = {"Authorization": f"Bot {server.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as http,
        http.request(method, f"{server.api_base}{path}", json=body) as response,
    ):
        return response.status, await response.json()


async def test_a_layout_with_a_gallery_is_stored_and_read_back(world: World) -> None:
    s = world.server
    channel = world.bot.get_partial_messageable(world.channel)
    sent = await channel.send(
        view=_layout(f"<@{world.bob}>, your turn"),
        file=discord.File(io.BytesIO(PNG), "board.png", description="a green board"),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(world.bob)]),
    )
    message = s.messages[-1]
    assert message.id == sent.id
    assert message.components_v2
    assert message.content == ""
    assert message.text == f"<@{world.bob}>, your turn"
    assert message.notified == {world.bob}, "a mention in a text display pings"
    [picture] = message.gallery
    assert picture.description == "a green board"
    assert picture.attachment is not None
    assert picture.attachment.filename == "board.png"
    assert picture.url == picture.attachment.url
    assert message.custom_ids() == ["demo:play:1"]
    post = s.requests[-1]
    assert (post.method, post.path) == ("POST", f"/channels/{world.channel}/messages")
    assert post.size > len(PNG), "a request records its body's size"
    # discord.py reads the stored layout back as its V2 components.
    [container] = sent.components
    assert isinstance(container, discord.components.Container)
    assert sent.flags.components_v2


async def test_a_classic_message_reads_as_its_content(world: World) -> None:
    channel = world.bot.get_partial_messageable(world.channel)
    await channel.send("plain words")
    message = world.server.messages[-1]
    assert not message.components_v2
    assert message.text == "plain words"
    assert message.gallery == []


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            {"content": "hi", "flags": COMPONENTS_V2,
             "components": [{"type": 10, "content": "hi"}]},
            "content and embeds cannot be used",
        ),
        ({"components": [{"type": 17, "components": [{"type": 10, "content": "x"}]}]},
         "needs the flag"),
        ({"flags": COMPONENTS_V2, "components": [{"type": 10, "content": "x" * 4001}]},
         "characters of text"),
        ({"flags": COMPONENTS_V2, "components": [{"type": 17, "components": []}]},
         "at least one component"),
        ({"flags": COMPONENTS_V2, "components": [{"type": 10, "content": "x"}] * 41},
         "more than 40"),
        ({"flags": COMPONENTS_V2, "components": [
            {"type": 12, "items": [{"media": {"url": "attachment://gone.png"}}]}]},
         "names no file"),
        ({"flags": COMPONENTS_V2, "components": [{"type": 2, "label": "Play", "custom_id": "p"}]},
         "not allowed here"),
    ],
)  # fmt: skip
async def test_layouts_discord_refuses(world: World, body: dict[str, Any], why: str) -> None:
    before = len(world.server.messages)
    status, answer = await _raw(world.server, "POST", f"/channels/{world.channel}/messages", body)
    assert (status, answer["code"]) == (400, 50035)
    assert why in answer["message"]
    assert len(world.server.messages) == before


async def test_four_thousand_characters_of_text_fit(world: World) -> None:
    body = {"flags": COMPONENTS_V2, "components": [{"type": 10, "content": "x" * 4000}]}
    status, answer = await _raw(world.server, "POST", f"/channels/{world.channel}/messages", body)
    assert status == 200, answer
    assert world.server.messages[-1].text == "x" * 4000


async def test_an_edit_keeps_the_flag_and_the_pictures(world: World) -> None:
    s = world.server
    channel = world.bot.get_partial_messageable(world.channel)
    sent = await channel.send(
        view=_layout("your turn"), file=discord.File(io.BytesIO(PNG), "board.png")
    )
    # The Play button goes; the words and the picture stay, the file named as it was sent.
    edited = discord.ui.LayoutView(timeout=None)
    edited.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("your turn"),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
        )
    )
    await channel.get_partial_message(sent.id).edit(view=edited)
    message = s.messages[-1]
    assert message.components_v2
    assert message.custom_ids() == []
    [picture] = message.gallery
    assert picture.attachment is not None
    assert picture.attachment.data == PNG


async def test_the_flag_cannot_be_taken_off(world: World) -> None:
    channel = world.bot.get_partial_messageable(world.channel)
    sent = await channel.send(view=_layout("stays", picture=None))
    path = f"/channels/{world.channel}/messages/{sent.id}"
    status, answer = await _raw(world.server, "PATCH", path, {"content": "back", "flags": 0})
    assert (status, answer["code"]) == (400, 50035)
    message = world.server.messages[-1]
    assert message.text == "stays"
    assert message.content == ""
    assert message.components_v2
