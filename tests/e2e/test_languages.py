"""The bot in the players' languages, as Discord shows it: the commands' descriptions in
each reader's language, a private answer in the person's, a public message in the server's."""

from __future__ import annotations

import re
from typing import Any

from bot.game.messages import help_message
from i18n import LANGUAGES
from tests.e2e.harness import World, labels


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
    server.texts = None  # the people here read German, French and English
    server.users[world.alice].locale = "en-US"
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
    world.server.texts = None  # read in German, not the pseudo-locale
    world.server.guilds[world.guild].locale = "de"
    french = world.server.add_user("fleur", locale="fr")
    world.server.add_member(world.guild, french)
    table = world.table()
    since = len(world.server.messages)
    await table.run(french, "new", {"cards": "ABCDA"})
    lobby = await table.next_post(since, what="the lobby message")
    assert labels(lobby) == ["Beitreten", "Verlassen", "Starten", "Computer hinzufügen"]
    await table.press(world.bob, lobby, "Beitreten")
    await world.server.wait_for(lambda: "**bob**" in lobby.text, what="bob in the lobby")

    since = len(world.server.messages)
    await table.press(french, lobby, "Starten")
    start = await table.next_post(since, what="the message that starts the game")

    # Public, so in the server's language, whoever pressed Start.
    assert start.text.startswith("Die Partie beginnt! Mitspielende: **")
    assert "Wertungskarten: Bär A · Hirsch B · Lachs C · Bussard D · Fuchs A." in start.text
    assert "du bist am Zug: Runde 1 von 20 · Zug 1 von 40 · noch " in start.text
    assert start.text.endswith("`/cascadia help` erklärt die Regeln.")
    [first] = start.notified
    assert first in (french, world.bob)
    assert f"<@{first}>, du bist am Zug" in start.text


# Short words only one of the three languages uses, to tell which one a text is written in.
# fmt: off
MARKERS = {
    "en": {"the", "your", "you", "and", "with", "turn", "played", "tiles", "round", "left", "won"},
    "de": {
        "der", "die", "das", "und", "du", "dein", "deine", "mit", "zug", "runde", "punkte",
        "ist", "bist", "gewonnen", "gespielt", "wertungskarten",
    },
    "fr": {
        "le", "la", "les", "et", "tu", "ton", "ta", "avec", "tour", "manche", "tuiles", "sur",
        "ce", "cartes", "gagné", "joué",
    },
}
# fmt: on


def _language(text: str) -> str | None:
    """The language most of ``text``'s marker words belong to (``None``: none found)."""
    words = re.findall(r"[^\W\d_]+", re.sub(r"<[^>]*>|`[^`]*`|\*\*[^*]+\*\*", " ", text))
    hits = {
        lang: sum(word.lower() in markers for word in words) for lang, markers in MARKERS.items()
    }
    best = max(hits, key=lambda lang: hits[lang])
    return best if hits[best] else None


def _english_in(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", re.sub(r"<[^>]*>|`[^`]*`", " ", text))}
    return words & (MARKERS["en"] - {"tour"})


async def test_a_german_server_plays_a_whole_game_for_a_french_and_an_english_player(
    world: World,
) -> None:
    server = world.server
    server.texts = None  # the people here read German, French and English, not the pseudo-locale
    server.guilds[world.guild].locale = "de"
    fleur = server.add_user("fleur", locale="fr")
    server.add_member(world.guild, fleur)
    alice = world.alice
    server.users[alice].locale = "en-US"
    table = world.table()
    private: dict[int, list[str]] = {fleur: [], alice: []}

    since = len(server.messages)
    private[fleur].append((await table.run(fleur, "new", {"cards": "ABCDA"})).text)
    await table.next_post(since, what="the lobby message")
    private[alice].append((await table.run(alice, "join")).text)
    since = len(server.messages)
    private[fleur].append((await table.run(fleur, "start")).text)
    await table.next_post(since, what="the start message")

    game_id = table.game_id
    seats = [row[0] for row in world.db.rows(
        "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", game_id
    )]  # fmt: skip
    while not (state := world.db.state(game_id)).is_over:
        mover = seats[state.current]
        move = await table.choose(mover)
        since = len(server.messages)
        private[mover].append((await table.run(mover, "play", move.options())).text)
        await table.next_post(since, what=f"the message after turn {state.turn + 1}")
    await table.settled()
    private[alice].append((await table.run(alice, "stats")).text)
    private[fleur].append((await table.run(fleur, "history")).text)

    # Every private answer in its person's language.
    assert [t for t in private[fleur] if _language(t) != "fr"] == []
    assert [t for t in private[alice] if _language(t) != "en"] == []
    # Every public message in the server's, with its buttons and its pictures' alt texts.
    public = table.public_messages()
    assert len(public) >= 2 * 20 + 2
    for message in public:
        texts = [message.text, *labels(message)]
        texts += [a.description or "" for a in message.attachments]
        for text in filter(None, texts):
            assert not _english_in(text), (text, _english_in(text))
        assert _language(message.text) in ("de", None), message.text
    final = public[-1]
    assert _language(final.text) == "de", final.text
    assert "scores.png" in {a.filename for a in final.attachments}
