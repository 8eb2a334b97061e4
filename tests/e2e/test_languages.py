"""The bot in the players' languages, as Discord shows it: the commands' descriptions in
each reader's language, a private answer in the person's, a public message in the server's."""

from __future__ import annotations

from typing import Any

from bot.game.messages import help_message
from i18n import LANGUAGES
from tests.e2e.harness import World


def _synced_group(world: World) -> dict[str, Any]:
    (group,) = [
        command
        for commands in world.server.commands.values()
        for command in commands
        if command["name"] == "cascadia"
    ]
    return group


async def test_the_synced_commands_carry_german_and_french_descriptions(world: World) -> None:
    group = _synced_group(world)
    assert group["description_localizations"]["de"] == "Cascadia in diesem Kanal spielen"
    commands = [o for o in group["options"] if o["type"] in (1, 2)]
    assert len(commands) >= 25
    for command in commands:
        for lang in LANGUAGES:
            localized = command["description_localizations"][lang]
            assert localized
            assert localized != command["description"], (command["name"], lang)
    (play,) = [c for c in commands if c["name"] == "play"]
    pair = play["options"][0]
    assert pair["name"] == "pair"
    assert pair["description_localizations"]["fr"] == "La paire à prendre dans la rivière, 1-4"


async def test_help_answers_each_person_in_their_own_language(world: World) -> None:
    server = world.server
    german = server.add_user("greta", locale="de")
    french = server.add_user("fleur", locale="fr")
    for user in (german, french):
        server.add_member(world.guild, user)
    table = world.table()

    answers = {user: await table.run(user, "help") for user in (german, french, world.alice)}

    assert answers[german].text == help_message("de")
    assert answers[german].text.startswith("**So spielt man Cascadia.**")
    assert answers[french].text.startswith("**Comment jouer à Cascadia.**")
    assert answers[world.alice].text == help_message()
    assert all(len(answer.text) <= 2000 for answer in answers.values())


async def test_a_german_server_starts_its_games_in_german(world: World) -> None:
    world.server.guilds[world.guild].locale = "de"
    french = world.server.add_user("fleur", locale="fr")
    world.server.add_member(world.guild, french)
    table = world.table()
    lobby = await table.open(french, cards="ABCDA")
    await table.join(world.bob)

    since = len(world.server.messages)
    await table.press(french, lobby, "Start")
    start = await table.next_post(since, what="the message that starts the game")

    # Public, so in the server's language, whoever pressed Start.
    assert start.text.startswith("Die Partie beginnt! Mitspielende: **")
    assert "Wertungskarten: Bär A · Hirsch B · Lachs C · Bussard D · Fuchs A." in start.text
    assert "du bist am Zug: Runde 1 von 20 · Zug 1 von 40 · noch " in start.text
    assert start.text.endswith("`/cascadia help` erklärt die Regeln.")
    [first] = start.notified
    assert first in (french, world.bob)
    assert f"<@{first}>, du bist am Zug" in start.text
