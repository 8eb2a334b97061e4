"""The languages kept on every backend: each person's and server's last seen, an admin's choice
for the server, a game's fixed when its lobby opens, and each seat's person's read with it."""

from __future__ import annotations

from bot.game.outbox import Announcement
from bot.game.rows import GameStatus, OutboxRow
from bot.game.service import GameService
from bot.stores import Store
from i18n import speaking
from tests.bot.game.test_store import START

CLOCK_START = START

GUILD, CHANNEL, OTHER_CHANNEL = 10, 100, 101
ADA, BEA = 1, 2


async def test_a_person_s_locale_is_the_last_seen(store: Store) -> None:
    assert await store.person_locale(ADA) is None
    await store.note_person_locale(ADA, "fr")
    await store.note_person_locale(BEA, "de")
    await store.note_person_locale(ADA, "en-GB")
    assert (await store.person_locale(ADA), await store.person_locale(BEA)) == ("en-GB", "de")


async def test_a_server_s_chosen_locale_wins_over_discord_s_until_unchosen(store: Store) -> None:
    assert await store.guild_locale(GUILD) is None
    await store.note_guild_locale(GUILD, "de")
    assert await store.guild_locale(GUILD) == "de"
    assert await store.choose_guild_locale(GUILD, "fr") == "fr"
    await store.note_guild_locale(GUILD, "en-US")
    assert await store.guild_locale(GUILD) == "fr", "Discord's change does not undo the choice"
    assert await store.choose_guild_locale(GUILD, None) == "en-US"


async def test_a_lobby_takes_the_server_s_language_and_seats_their_person_s(
    service: GameService, store: Store
) -> None:
    await store.note_guild_locale(GUILD, "de")
    await store.note_person_locale(BEA, "fr")
    opened = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards=None
    )
    await service.lobby.join(opened.game.id, user_id=BEA, name="Bea")
    seats = await store.seats(opened.game.id)
    assert [(s.name, s.locale) for s in seats] == [("Ada", None), ("Bea", "fr")]
    game = await store.get_game(opened.game.id)
    assert game is not None
    assert (game.status, game.locale) == (GameStatus.LOBBY, "de")
    # The language is the game's from then on: the server changing it later changes no game.
    await store.choose_guild_locale(GUILD, "fr")
    again = await store.get_game(opened.game.id)
    assert again is not None
    assert again.locale == "de"


async def test_the_start_message_is_in_the_game_s_language(
    service: GameService, store: Store
) -> None:
    await store.note_guild_locale(GUILD, "fr")
    opened = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=OTHER_CHANNEL, user_id=ADA, name="Ada", cards=None
    )
    await service.lobby.join(opened.game.id, user_id=BEA, name="Bea")
    # The language the start is asked in is the old way's: the game's own wins.
    await service.lobby.start(opened.game.id, user_id=ADA, locale="de")
    (row,) = [r for r in await store.pending() if r.kind == "start"]
    start = Announcement.from_row(row)
    assert start.locale == "fr"
    assert "Joueurs" in start.text or "Cartes" in start.text


def test_an_announcement_keeps_the_language_it_was_written_in() -> None:
    with speaking("de"):
        announcement = Announcement(kind="turn", text="Zug")
    assert Announcement(kind="turn", text="Turn").locale is None
    stored = announcement.to_outbox()
    row = OutboxRow(
        id=1,
        game_id=1,
        channel_id=CHANNEL,
        kind=stored.kind,
        payload=stored.payload,
        snapshot=stored.snapshot,
        created_at=START,
        attempts=0,
        last_error=None,
        sent_at=None,
        message_id=None,
    )
    assert Announcement.from_row(row).locale == "de"
