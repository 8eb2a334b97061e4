"""The pictures of a game in a German server: drawn in the picture worker, in the game's
language, their descriptions German too; their file names the same in every language."""

from __future__ import annotations

import re

from tests.e2e.harness import World


async def test_a_german_game_posts_its_pictures_described_in_german(world: World) -> None:
    world.server.texts = None  # read in German, not the pseudo-locale
    world.server.guilds[world.guild].locale = "de"
    table = world.table()
    since = len(world.server.messages)
    await table.run(world.alice, "new", {"cards": "ABCDA"})
    lobby = await table.next_post(since, what="the lobby message")
    await table.press(world.bob, lobby, "Beitreten")
    await world.server.wait_for(lambda: "**bob**" in lobby.text, what="bob in the lobby")

    since = len(world.server.messages)
    await table.press(world.alice, lobby, "Starten")
    start = await table.next_post(since, what="the message that starts the game")

    described = {a.filename: a.description or "" for a in start.attachments}
    assert sorted(described) == ["alice.png", "bob.png", "display.png"]
    assert described["display.png"].startswith("Die Auslage: 1: Plättchen ")
    for name in ("alice", "bob"):
        assert re.fullmatch(
            rf"Umgebung von {name}: 3 Plättchen, \d+ Punkte?, "
            r"wenn die Partie jetzt endete, mit Boni",
            described[f"{name}.png"],
        ), described
