"""The tables' words in each language: the list of open tables answers its asker in theirs,
the words a lobby leaves in its channel when it closes unstarted are in the game's, and both
fit one Discord message in a long language."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.game.messages import Player
from bot.game.service import GameService
from bot.stores import Store
from bot.tables.service import (
    AUTO,
    CLOSED,
    CLOSING,
    LISTED,
    LOBBY_LIFETIME,
    WARNED_BEFORE,
    NotManager,
    Tables,
)
from bot.tables.texts import ListedTable, closed_text, open_tables_text, settings_line
from i18n import PSEUDO, speaking
from tests.bot.clocks import FakeClock

GUILD = 10
ADA, BEA = 1, 2
MAX_MESSAGE = 2000


async def test_the_open_tables_answer_a_french_asker_in_french(
    service: GameService, clock: FakeClock
) -> None:
    tables = Tables(service)
    for n in range(LISTED + 1):
        await service.lobby.open_lobby(
            guild_id=GUILD, channel_id=100 + n, user_id=10 + n, name=f"hote{n}", cards="ABCDA"
        )
        clock.advance(timedelta(hours=1))
    with speaking("fr"):
        found = await tables.open_tables(GUILD)
    lines = found.text.splitlines()
    assert lines[0] == (
        "Il n\u2019y a pas de table dans ce salon. Les 5 plus récentes des 6 tables ouvertes "
        "avec une place libre sur ce serveur :"
    )
    assert lines[1].startswith(
        "1. Table de **hote5**, 1/4 places prises, cartes ABCDA, ouverte il y a 1 h : [voir]("
    )
    assert lines[-1] == "Appuie sur **Rejoindre** ci-dessous pour prendre place."
    # Nobody named a reader: English, as before.
    assert (await tables.open_tables(GUILD)).text.startswith("There is no lobby in this channel.")


async def test_a_german_lobby_is_warned_and_closed_in_german_whoever_reads(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.note_guild_locale(GUILD, "de")
    opened = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=100, user_id=ADA, name="Ada", cards=None
    )
    await service.lobby.join(opened.game.id, user_id=BEA, name="Bea")
    tables = Tables(service)

    clock.advance(LOBBY_LIFETIME - WARNED_BEFORE + timedelta(seconds=1))
    with speaking("fr"):  # the periodic check has no reader; a stray one changes nothing
        [warned] = await tables.close_stale()
    [row] = await store.pending()
    assert row.kind == CLOSING
    payload = json.loads(row.payload)
    assert payload["text"] == (
        "Dieser Tisch schließt in einem Tag, wenn er nicht startet. <@1>, drücke **Starten**, "
        "um mit den Anwesenden zu spielen."
    )
    assert payload["locale"] == "de"
    await store.mark_sent(warned, 1)

    clock.advance(WARNED_BEFORE)
    await tables.close_stale()
    [row] = await store.pending()
    assert row.kind == CLOSED
    assert json.loads(row.payload)["text"] == (
        "Dieser Tisch wurde nach 3 Tagen ohne Start geschlossen: <@1> <@2>. "
        "`/cascadia new` eröffnet einen neuen."
    )


def test_the_settings_line_and_the_closing_word_in_each_language() -> None:
    with speaking("de"):
        assert settings_line(None, True) == (
            "Einstellungen: Offene Tische rufen keine Rolle; neue Tische in Threads: an."
        )
    with speaking("fr"):
        assert closed_text([], set(), lifetime=timedelta(days=1)) == (
            "Cette table a fermé après 1 jour sans être lancée. `/cascadia new` en ouvre une autre."
        )


def test_the_list_and_the_words_fit_one_message_in_a_long_language() -> None:
    now = datetime(2026, 12, 5, tzinfo=UTC)
    listed = [
        ListedTable(
            game_id=n,
            host="H" * 32,
            seated=3,
            max_seats=4,
            cards="Bear A · Elk B · Salmon C · Hawk D · Fox A",
            opened_at=now - timedelta(days=n),
            link=f"https://discord.com/channels/{10**18}/{10**18 + n}/{10**18 + 2 * n}",
        )
        for n in range(LISTED)
    ]
    seated = [Player(10**18 + n, "P" * 32) for n in range(4)]
    with speaking(PSEUDO):
        texts = [
            open_tables_text(listed, 99, now=now),
            closed_text(seated, {p.user_id for p in seated}, lifetime=LOBBY_LIFETIME),
        ]
    assert all(text.startswith("⟦") and len(text) <= MAX_MESSAGE for text in texts)


async def test_an_admin_chooses_the_language_of_the_server_s_new_games(
    service: GameService, store: Store
) -> None:
    tables = Tables(service)
    await store.note_guild_locale(GUILD, "fr")
    assert await tables.language(GUILD) == (
        "New games speak Français, the server's language in Discord."
    )
    with pytest.raises(NotManager):
        await tables.choose_language(GUILD, "de", can_manage=False)
    assert await store.guild_locale(GUILD) == "fr", "a refusal changes nothing"
    with speaking("de"):
        line = await tables.choose_language(GUILD, "de", can_manage=True)
    assert line == "Neue Partien sprechen Deutsch (hier gewählt; `language:` auto folgt Discord)."
    opened = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=300, user_id=ADA, name="Ada", cards=None
    )
    assert opened.game.locale == "de"
    await tables.choose_language(GUILD, AUTO, can_manage=True)
    assert await store.guild_locale(GUILD) == "fr"
    later = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=301, user_id=BEA, name="Bea", cards=None
    )
    first = await store.get_game(opened.game.id)
    assert first is not None
    assert (later.game.locale, first.locale) == ("fr", "de")
