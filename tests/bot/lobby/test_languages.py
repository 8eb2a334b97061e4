"""The lobby speaks two languages at once: its message, its buttons and the channel's line of
a table in a thread are public, in the game's language (the server's when the lobby opened),
whoever's request posts them; the answers to the person who asked are in theirs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
from discord import app_commands

from bot.game.service import GameService, LoadedGame
from bot.lobby import cog as lobby
from bot.shell.client import CascadiaBot
from bot.stores import Store
from i18n import PSEUDO, speaking

GUILD, CHANNEL, PARENT, THREAD = 10, 100, 200, 201
ADA, BEA, CY, DAN = 1, 2, 3, 4
MAX_LABEL, MAX_CHOICE, MAX_MESSAGE = 80, 100, 2000


@dataclass
class Channel:
    """A channel that keeps what the bot posts in it and the edits of its messages."""

    sent: list[tuple[str, discord.ui.View | None]] = field(default_factory=list)

    async def send(self, text: str, *, view: discord.ui.View, **_kwargs: Any) -> Any:
        self.sent.append((text, view))
        return SimpleNamespace(id=900 + len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(*, content: str, view: discord.ui.View | None, **_kwargs: Any) -> None:
            self.sent.append((content, view))

        return SimpleNamespace(edit=edit)


@dataclass
class Bot:
    """What posting a lobby asks of the Discord client: its channels and the game service."""

    service: GameService
    channels: dict[int, Channel] = field(default_factory=dict)

    def get_partial_messageable(self, channel_id: int, **_kwargs: Any) -> Channel:
        return self.channels.setdefault(channel_id, Channel())

    async def rest_thread(self, thread_id: int, minutes: int) -> None:
        pass


def _labels(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return [str(cast("discord.ui.DynamicItem[Any]", i).item.label) for i in view.children]


async def _german_lobby(
    service: GameService, store: Store, *, channel: int = CHANNEL, parent: int | None = None
) -> LoadedGame:
    await store.note_guild_locale(GUILD, "de")
    return await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=ADA, name="Ada", cards="A", parent_id=parent
    )


async def test_a_german_server_s_lobby_is_posted_in_german_while_a_french_host_asks(
    service: GameService, store: Store
) -> None:
    loaded = await _german_lobby(service, store)
    assert loaded.game.locale == "de"
    bot = Bot(service)
    with speaking("fr"):  # the host's own request, in French
        assert await lobby.post_lobby(cast("CascadiaBot", bot), loaded)
    [(text, view)] = bot.channels[CHANNEL].sent
    # The cards as the German edition names them, and the solo scenario they make, in German.
    assert "Bär A · Hirsch A · Lachs A · Bussard A · Fuchs A" in text
    assert "\nAllein gespielt ist das " in text
    assert _labels(view) == ["Beitreten", "Verlassen", "Starten", "Computer hinzufügen"]

    # A seat taken later edits it, in German still, closed once started.
    await service.lobby.join(loaded.game.id, user_id=BEA, name="Bea")
    await service.lobby.start(loaded.game.id, user_id=ADA)
    with speaking("fr"):
        await lobby.refresh(cast("CascadiaBot", bot), await service.game_by_id(loaded.game.id))
    closed, gone = bot.channels[CHANNEL].sent[-1]
    assert closed.endswith("\nDie Partie hat begonnen.")
    assert gone is None


async def test_a_table_in_a_thread_calls_its_channel_in_the_game_s_language(
    service: GameService, store: Store
) -> None:
    loaded = await _german_lobby(service, store, channel=THREAD, parent=PARENT)
    bot = Bot(service)
    with speaking("fr"):
        assert await lobby.post_lobby(cast("CascadiaBot", bot), loaded, role=77)
    [(line, view)] = bot.channels[PARENT].sent
    assert line.startswith(
        "<@&77> ein neuer Tisch ist offen: Drücke **Beitreten** für einen Platz."
    )
    assert _labels(view) == ["Beitreten"]


async def test_the_lobby_text_is_english_unless_a_reader_is_named(
    service: GameService, store: Store
) -> None:
    loaded = await _german_lobby(service, store)
    english = lobby.lobby_text(loaded)
    assert "Bear A · Elk A" in english
    assert "\nPlayed alone, this is " in english
    with speaking("fr"):  # /cascadia status: the asker's language
        french = lobby.lobby_text(loaded)
    assert "Ours A · Wapiti A" in french
    assert "\nEn solo, c\u2019est le " in french


async def _suggested(typed: str) -> list[app_commands.Choice[str]]:
    """What ``/cascadia new``'s cards option suggests for ``typed`` (the typer is not read)."""
    complete = cast(
        "Callable[[Any, str], Awaitable[list[app_commands.Choice[str]]]]",
        lobby._cards_autocomplete,
    )
    return await complete(None, typed)


async def test_the_cards_suggestions_are_worded_for_whoever_types() -> None:
    english = await _suggested("")
    assert [c.name for c in english][:2] == [
        "random (default)",
        "A for every wildlife (suggested first game)",
    ]
    with speaking("fr"):
        french = await _suggested("famil")
    assert [(c.name, c.value) for c in french] == [("Variante Famille", "family")]
    with speaking("de"):
        # The value is found too: a German typing "family" finds the Familienvariante.
        german = await _suggested("family")
    assert [(c.name, c.value) for c in german] == [("Familienvariante", "family")]
    with speaking(PSEUDO):
        long = await _suggested("")
    assert all(len(c.name) <= MAX_CHOICE for c in long)
    assert [c.value for c in long] == [c.value for c in english]


async def test_the_lobby_buttons_and_message_fit_discord_in_a_long_language(
    service: GameService, store: Store
) -> None:
    loaded = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="A" * 32, cards="ABCDA"
    )
    for user in (BEA, CY, DAN):
        loaded = await service.lobby.join(loaded.game.id, user_id=user, name="B" * 32)
    with speaking(PSEUDO):
        view = lobby.lobby_view(loaded.game.id, computers=True)
        text = lobby.lobby_text(loaded)
        computers = lobby.ComputerChoice(cast("Any", None), game_id=loaded.game.id, seen=0)
    assert len(text) <= MAX_MESSAGE
    labels = _labels(view) + _labels(computers)
    assert len(labels) == 7
    assert all(label.startswith("⟦") and len(label) <= MAX_LABEL for label in labels)
    assert computers.expired.startswith("⟦")
