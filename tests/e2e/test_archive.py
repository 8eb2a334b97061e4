"""A finished game leaves its replay behind: the GIF and chart on the final message, the
server's ``history`` with links back to those messages, and ``replay`` of an older game."""

from __future__ import annotations

import io
import re

from PIL import Image

from engine import TURNS_PER_PLAYER
from fakediscord import MessageRecord
from tests.e2e.harness import UPLOAD_LIMIT, World, check_replay, labels

_LINK = re.compile(r"\[final message\]\(https://discord\.com/channels/(\d+)/(\d+)/(\d+)\)")
_GAME = re.compile(r"\*\*Game (\d+)\*\*")


async def test_history_lists_finished_games_and_replay_draws_an_older_one(world: World) -> None:
    solo = world.table()
    await solo.open(world.carol, cards="A")
    await solo.start(world.carol, button=False)
    solo_final = await solo.play_to_end()
    check_replay(solo_final, rounds=TURNS_PER_PLAYER)

    trio = world.table(world.new_channel())
    await trio.setup([world.alice, world.bob, world.carol])
    trio_final = await trio.play_to_end(max_turns=60)
    check_replay(trio_final, rounds=TURNS_PER_PLAYER)
    await trio.settled()

    # The server's games, newest first, each linking to the message that ended it.
    listed = await solo.run(world.alice, "history")
    assert listed.text.startswith("**Finished games on this server** (2 in all)"), listed.text
    assert [int(n) for n in _GAME.findall(listed.text)] == [trio.game_id, solo.game_id]
    links = [tuple(int(part) for part in link) for link in _LINK.findall(listed.text)]
    assert links == [
        (world.guild, trio.channel, trio_final.id),
        (world.guild, solo.channel, solo_final.id),
    ]
    for _, channel, message_id in links:
        linked = world.server.messages_by_id[message_id]
        assert linked.channel_id == channel
        assert "The game is over" in linked.text
    for name in ("alice", "bob", "carol"):
        assert name in listed.text

    # A member's games only.
    mine = await solo.run(world.bob, "history", {"user": world.bob})
    assert [int(n) for n in _GAME.findall(mine.text)] == [trio.game_id], mine.text
    assert "with bob" in mine.text

    # replay: the older game, chosen as autocomplete names it.
    choices = await world.server.autocomplete(
        world.dave, solo.channel, "cascadia", "replay", options={"game": ""}, focused="game"
    )
    assert [c["value"] for c in choices] == [str(trio.game_id), str(solo.game_id)]
    assert choices[1]["name"].startswith(f"Game {solo.game_id}, ")
    again = await solo.run(world.dave, "replay", {"game": choices[1]["value"]})
    assert f"**Game {solo.game_id}**" in again.text
    assert f"/{solo_final.id})" in again.text
    [gif] = [a for a in again.attachments if a.filename.endswith(".gif")]
    [original] = [a for a in solo_final.attachments if a.filename.endswith(".gif")]
    assert gif.data == original.data, "the replay is drawn again the same from the moves"
    with Image.open(io.BytesIO(gif.data)) as image:
        assert getattr(image, "n_frames", 1) >= TURNS_PER_PLAYER
    assert sum(len(a.data) for a in again.attachments) <= UPLOAD_LIMIT
    assert [a.filename for a in again.attachments if "chart" in a.filename] == ["score-chart.png"]

    refused = await solo.run(world.dave, "replay", {"game": "999999"})
    assert "No finished game '999999' on this server" in refused.text


async def test_a_long_history_turns_its_pages_with_buttons(world: World) -> None:
    games = []
    for _ in range(6):
        table = world.table(world.new_channel())
        await table.open(world.carol, cards="A")
        await table.start(world.carol, button=False)
        await table.play_to_end()
        games.append(table.game_id)
    newest = games[::-1]

    listed = await table.run(world.carol, "history", {"user": world.carol})
    assert listed.text.startswith("**Finished games with carol** (6 in all, page 1 of 2)")
    assert [int(n) for n in _GAME.findall(listed.text)] == newest[:5]
    assert labels(listed) == ["Older"]

    await table.press(world.carol, listed, "Older")

    def second_page() -> MessageRecord | None:
        shown = world.server.messages_by_id[listed.id]
        return shown if "page 2 of 2" in shown.text else None

    older = await world.server.wait_for(
        second_page,
        timeout=10,
        what="the history answer to show its second page",
    )
    assert [int(n) for n in _GAME.findall(older.text)] == newest[5:]
    assert labels(older) == ["Newer"]

    asked = await table.run(world.carol, "history", {"page": 9})
    assert "page 2 of 2" in asked.text, "a page past the last shows the last"
