"""Names that real servers have: mention syntax, look-alikes with invisible characters. Every
text shows them as typed, never as a live mention, and tells equal-looking players apart by
seat, in the words and in the pictures' file names and descriptions."""

from __future__ import annotations

import re

from fakediscord import MessageRecord
from tests.e2e.harness import World, button, check_pngs

LIVE_MENTION = re.compile(r"<@[!&]?\d+>|<#\d+>|</[^>\s]+:\d+>|@everyone|@here")


def live_mentions(text: str) -> list[str]:
    """What Discord would render as a mention in ``text``."""
    return LIVE_MENTION.findall(text)


async def test_mention_syntax_in_names_stays_text(world: World) -> None:
    server = world.server
    impostor = server.add_user(f"<@{world.bob}>")
    shouter = server.add_user("@everyone")
    channeler = server.add_user(f"<#{world.channel}> </cascadia end:1>")
    for user in (impostor, shouter, channeler):
        server.add_member(world.guild, user)
    table = world.table()
    lobby = await table.open(world.alice)
    for user in (impostor, shouter, channeler):
        await server.click(user, lobby, button(lobby, "Join"))
    await server.wait_for(lambda: "4/4 seated" in lobby.text, what="four seats in the lobby")
    assert live_mentions(lobby.text) == [], lobby.text
    assert lobby.mentions == []
    assert lobby.mention_roles == []
    assert not lobby.mention_everyone
    # The names still read as typed once the invisible breaks are ignored.
    assert f"<@{world.bob}>" in lobby.text.replace("\u200b", "")
    assert "@everyone" in lobby.text.replace("\u200b", "")

    since = len(server.messages)
    await table.press(world.alice, lobby, "Start")
    start = await table.next_post(since, what="the start message")
    assert live_mentions(start.text.split("\n", 1)[0]) == [], start.text
    # Exactly one real mention: the first player, in the your-turn line.
    assert len(start.mentions) == 1
    status = await table.run(impostor, "status")
    assert live_mentions(status.text) == [], status.text
    score = await table.run(shouter, "score")
    assert live_mentions(score.text) == [], score.text
    assert not score.mention_everyone


async def test_look_alike_names_are_told_apart_by_seat(world: World) -> None:
    server = world.server
    twin = server.add_user("ali\u200bce")  # shows exactly like "alice"
    server.add_member(world.guild, twin)
    table = world.table()
    lobby = await table.open(world.alice)
    await server.click(twin, lobby, button(lobby, "Join"))
    await server.wait_for(lambda: "2/4 seated" in lobby.text, what="the twin's seat")
    assert "**alice (seat 1)**" in lobby.text
    assert "**alice (seat 2)**" in lobby.text
    assert "\u200b" not in lobby.text.replace("<\u200b", "").replace("@\u200b", "")

    since = len(server.messages)
    await table.press(world.alice, lobby, "Start")
    start = await table.next_post(since, what="the start message")
    check_pngs(start, expect=["display.png", "alice-seat-1.png", "alice-seat-2.png"])
    descriptions = sorted(a.description or "" for a in start.attachments)
    assert any(d.startswith("alice (seat 1)'s environment: ") for d in descriptions), descriptions
    assert any(d.startswith("alice (seat 2)'s environment: ") for d in descriptions), descriptions


async def test_mid_game_scores_say_leading_and_ties_share_a_place(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    answer: MessageRecord = await table.run(world.bob, "score")
    assert answer.text.startswith("Scores if the game ended now:")
    assert "wins" not in answer.text
    assert re.search(r"\b(leads|share the lead)\.$", answer.text), answer.text
    places = [int(p) for p in re.findall(r"^(\d+)\. ", answer.text, re.MULTILINE)]
    if "share the lead" in answer.text:
        assert places == [1, 1], answer.text
    [picture] = answer.attachments
    assert (picture.description or "").startswith("Scores so far: 1. ")
