"""The tables feature over the game service on every backend: the settings only a manager
changes, the role a new lobby calls once, the list of open tables and the lobbies closed
after three days without a start, naming their people as their notification settings say."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.attendance.store import NotifySettings
from bot.game.errors import BotError, NotInLobby
from bot.game.rows import GameStatus
from bot.game.service import GameService
from bot.stores import Store
from bot.tables.service import (
    CLOSED,
    CLOSING,
    LISTED,
    LOBBY_LIFETIME,
    WARNED_BEFORE,
    NotManager,
    Tables,
)
from bot.tables.store import ServerSettings
from bot.tables.texts import closed_text, settings_line
from tests.bot.clocks import FakeClock

GUILD, OTHER = 10, 20
ROLE = 500
ADA, BEA, CY = 1, 2, 3


@pytest.fixture
def tables(service: GameService) -> Tables:
    return Tables(service)


async def open_lobby(
    service: GameService, channel: int, host: int, name: str, cards: str | None = None
) -> int:
    loaded = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=channel, user_id=host, name=name, cards=cards
    )
    return loaded.game.id


async def test_only_a_manager_changes_the_settings_and_bad_asks_change_nothing(
    tables: Tables,
) -> None:
    with pytest.raises(NotManager, match="Manage Server"):
        await tables.change_settings(GUILD, can_manage=False, lobby_role=ROLE)
    with pytest.raises(BotError, match="not both"):
        await tables.change_settings(GUILD, can_manage=True, lobby_role=ROLE, lobby_role_off=True)
    with pytest.raises(BotError, match="@everyone"):
        await tables.change_settings(GUILD, can_manage=True, lobby_role=GUILD)
    assert await tables.settings(GUILD) == ServerSettings()

    saved = await tables.change_settings(GUILD, can_manage=True, lobby_role=ROLE, threads=True)
    assert saved == ServerSettings(ROLE, threads=True)
    assert await tables.change_settings(GUILD, can_manage=True, threads=False) == ServerSettings(
        ROLE, threads=False
    )
    assert await tables.change_settings(
        GUILD, can_manage=True, lobby_role_off=True
    ) == ServerSettings(None, threads=False)
    assert await tables.settings(OTHER) == ServerSettings()
    assert settings_line(ROLE, True) == (
        "Settings: open tables call <@&500>; new tables in threads: on."
    )


async def test_a_new_lobby_calls_the_role_once_unless_its_host_says_not_to(
    service: GameService, tables: Tables
) -> None:
    game_id = await open_lobby(service, 100, ADA, "Ada")
    assert await tables.role_to_call(await service.game_by_id(game_id), ping=True) is None

    await tables.change_settings(GUILD, can_manage=True, lobby_role=ROLE)
    quiet = await service.game_by_id(await open_lobby(service, 101, BEA, "Bea"))
    assert await tables.role_to_call(quiet, ping=False) is None
    assert await tables.store.lobby_pinged_role(quiet.game.id) is None

    loud = await service.game_by_id(await open_lobby(service, 102, CY, "Cy"))
    assert await tables.role_to_call(loud, ping=True) == ROLE
    assert await tables.role_to_call(loud, ping=True) is None
    assert await tables.store.lobby_pinged_role(loud.game.id) == ROLE


async def test_the_list_shows_the_newest_tables_with_links_and_counts_the_rest(
    service: GameService, tables: Tables, clock: FakeClock
) -> None:
    assert "no open table" in (await tables.open_tables(GUILD)).text
    ids = []
    for n in range(LISTED + 2):
        cards = "ABCDA" if n == 2 else None
        ids.append(await open_lobby(service, 100 + n, 1000 + n, f"host{n}", cards))
        clock.advance(timedelta(hours=1))
    await service.lobby.set_lobby_message(ids[-1], 9999)
    await service.lobby.join(ids[-1], user_id=ADA, name="Ada")

    found = await tables.open_tables(GUILD)
    assert [lobby.game.id for lobby in found.tables] == ids[::-1][:LISTED]
    assert found.total == LISTED + 2
    lines = found.text.splitlines()
    assert lines[0] == (
        "There is no lobby in this channel. The 5 newest of 7 open tables with a free seat on "
        "this server:"
    )
    assert lines[1] == (
        f"1. **host6**'s table, 2/4 seated, random cards, opened 1 h ago: "
        f"[lobby](https://discord.com/channels/{GUILD}/106/9999)"
    )
    assert lines[5].startswith("5. **host2**'s table, 1/4 seated, cards ABCDA, opened 5 h ago")
    assert lines[5].endswith(f"(https://discord.com/channels/{GUILD}/102)")
    assert lines[6:] == ["…and 2 more.", "Press **Join** below for a seat."]
    assert (await tables.open_tables(OTHER)).tables == ()

    hidden = {106, 104}
    seen = await tables.open_tables(GUILD, visible=lambda channel: channel not in hidden)
    assert [lobby.game.id for lobby in seen.tables] == [ids[5], ids[3], ids[2], ids[1], ids[0]]
    assert seen.total == LISTED
    assert "host6" not in seen.text
    assert "more" not in seen.text
    assert seen.text.startswith("There is no lobby in this channel. Open tables with a free")


async def test_a_lobby_nobody_starts_is_warned_after_two_days_and_closed_after_three(
    service: GameService, tables: Tables, store: Store, clock: FakeClock
) -> None:
    old = await open_lobby(service, 100, ADA, "Ada")
    await service.lobby.join(old, user_id=BEA, name="Bea")
    await service.lobby.add_computer(old, user_id=ADA, policy="fast")
    await store.save_notify_settings(NotifySettings(BEA, channel_ping=False))
    clock.advance(timedelta(hours=12))
    young = await open_lobby(service, 101, BEA, "Bea")
    clock.advance(LOBBY_LIFETIME - WARNED_BEFORE - timedelta(hours=12))
    assert await tables.close_stale() == []  # two days to the second: not yet

    clock.advance(timedelta(seconds=1))
    [warned] = await tables.close_stale()
    [row] = await store.pending()
    assert (row.id, row.kind, row.channel_id) == (warned, CLOSING, 100)
    payload = json.loads(row.payload)
    assert payload["text"] == (
        "This table closes in a day without a start. <@1>, press **Start** to play with "
        "those seated."
    )
    assert payload["mentions"] == [ADA]
    assert await tables.close_stale() == []  # warned once
    await store.mark_sent(warned, 1)

    clock.advance(timedelta(hours=12))
    [warned] = await tables.close_stale()  # the young lobby's host keeps no channel ping
    [row] = await store.pending()
    assert (row.kind, row.channel_id, json.loads(row.payload)["mentions"]) == (CLOSING, 101, [])
    assert "**Bea**, press **Start**" in json.loads(row.payload)["text"]
    await store.mark_sent(warned, 2)

    clock.advance(WARNED_BEFORE - timedelta(hours=12, seconds=1))
    assert await tables.close_stale() == []  # three days to the second: not yet
    clock.advance(timedelta(seconds=1))
    [closed] = await tables.close_stale()
    [row] = await store.pending()
    assert (row.id, row.kind, row.channel_id) == (closed, CLOSED, 100)
    payload = json.loads(row.payload)
    assert payload["text"] == (
        "This table closed after 3 days without a start: <@1> **Bea**. "
        "`/cascadia new` opens another."
    )
    assert payload["mentions"] == [ADA]
    assert (await service.game_by_id(old)).game.status is GameStatus.ENDED
    assert (await service.game_by_id(young)).game.status is GameStatus.LOBBY
    assert await tables.close_stale() == []
    with pytest.raises(NotInLobby):
        await service.lobby.join(old, user_id=CY, name="Cy")


async def test_a_lobby_found_stale_late_closes_without_a_warning(
    service: GameService, tables: Tables, store: Store, clock: FakeClock
) -> None:
    game_id = await open_lobby(service, 100, ADA, "Ada")
    clock.advance(timedelta(days=30))
    assert len(await tables.close_stale()) == 1
    assert [row.kind for row in await store.pending()] == [CLOSED]
    assert (await service.game_by_id(game_id)).game.status is GameStatus.ENDED


def test_the_closing_word_with_nobody_seated_names_nobody() -> None:
    assert closed_text([], set(), lifetime=timedelta(days=1)) == (
        "This table closed after 1 day without a start. `/cascadia new` opens another."
    )
