"""Tables in threads and Play again, in the game service over a real SQLite file: the thread's
channel and its parent, the channel's line at the end, the next game's seats and settings, the
refusals, and a deleted channel taking its threads' games with it."""

from __future__ import annotations

import random

import pytest

from bot.archive.service import Archive, game_entry
from bot.game.errors import AlreadyAgain, ChannelBusy, NotToPlayAgain
from bot.game.kernel import THREAD_REST_MINUTES
from bot.game.outbox import Announcement
from bot.game.rows import GameRow, GameStatus, OutboxRow
from bot.game.service import GameService
from bot.stores import Store
from tests.bot.archive.test_archive import play_to_end
from tests.bot.game.test_service import ADA, BOB, CHANNEL, CY, GUILD, _any_turn, _current_user

PARENT, THREAD = 20, 21


async def test_a_thread_game_keeps_its_parent_and_the_parent_hears_the_result(
    service: GameService, store: Store
) -> None:
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=THREAD, user_id=ADA, name="Ada", cards="A", parent_id=PARENT
    )
    assert (lobby.game.channel_id, lobby.game.parent_id) == (THREAD, PARENT)
    # The parent channel may hold a game of its own at the same time.
    own = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=PARENT, user_id=BOB, name="Bob", cards=None
    )
    assert own.game.parent_id is None
    await service.lobby.join(lobby.game.id, user_id=CY, name="Cy")
    await service.lobby.start(lobby.game.id, user_id=ADA)
    table = await service.game(THREAD)
    assert table.game.parent_id == PARENT

    rows = await _play_out(service, store, THREAD)
    [line] = [row for row in rows if row.channel_id == PARENT]
    text = Announcement.from_row(line).text
    sheet = (await service.game_by_id(lobby.game.id)).score_sheet()
    assert text.startswith(f"A table finished in <#{THREAD}>: 1. **{sheet.ranking[0]}** ")
    assert all(f"**{name}** {sheet.player(name).total}" in text for name in ("Ada", "Cy"))
    # Nothing of the game's own goes to the parent but that line.
    assert [row.kind for row in rows if row.channel_id == PARENT] == ["table"]
    final = Announcement.from_row(next(row for row in rows if row.kind == "finish"))
    assert final.archive_after == THREAD_REST_MINUTES


async def test_a_game_in_a_channel_of_its_own_sends_no_line_elsewhere(
    service: GameService, store: Store
) -> None:
    game = await play_to_end(service, ADA, BOB)
    assert game.parent_id is None
    pending = await store.pending()
    assert {row.channel_id for row in pending} == {CHANNEL}
    final = Announcement.from_row(pending[-1])
    assert final.buttons[-1] == ("Play again", f"cascadia:again:{game.id}")
    assert final.archive_after is None, "only a table's own thread is archived"


async def test_play_again_seats_the_same_players_one_seat_on_with_the_same_settings(
    service: GameService, store: Store
) -> None:
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="B"
    )
    await service.lobby.join(lobby.game.id, user_id=BOB, name="Bob")
    await service.lobby.add_computer(lobby.game.id, user_id=ADA, policy="fast")
    await store.set_deadline_hours(lobby.game.id, 36)
    await service.lobby.start(lobby.game.id, user_id=ADA)
    finished = await _finish(service, CHANNEL)

    again = await service.lobby.play_again(finished.id, user_id=BOB)
    game = again.game
    assert (game.status, game.channel_id, game.host_id) == (GameStatus.LOBBY, CHANNEL, BOB)
    assert (game.cards, game.continues, game.deadline_hours) == ("BBBBB", finished.id, 36)
    assert [(p.name, p.computer) for p in again.players] == [
        ("Bob", None),
        ("Computer (fast)", "fast"),
        ("Ada", None),
    ]


async def test_play_again_is_for_the_players_of_a_finished_game_once(
    service: GameService, store: Store
) -> None:
    finished = await play_to_end(service, ADA, BOB)
    with pytest.raises(NotToPlayAgain, match="this game's players"):
        await service.lobby.play_again(finished.id, user_id=CY)
    await service.lobby.play_again(finished.id, user_id=ADA)
    with pytest.raises(AlreadyAgain, match="open already"):
        await service.lobby.play_again(finished.id, user_id=BOB)

    # Someone else's table in the same channel: the press says so.
    other = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=THREAD, user_id=ADA, name="Ada", cards=None
    )
    await service.lobby.start(other.game.id, user_id=ADA)
    solo = await _finish(service, THREAD)
    await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=THREAD, user_id=CY, name="Cy", cards=None
    )
    with pytest.raises(AlreadyAgain, match="Another game is open here"):
        await service.lobby.play_again(solo.id, user_id=ADA)
    with pytest.raises(ChannelBusy):
        await store.create_lobby(GUILD, THREAD, BOB, "Bob", "random")


async def test_a_game_not_played_to_the_end_is_not_played_again(service: GameService) -> None:
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards=None
    )
    await service.lobby.start(lobby.game.id, user_id=ADA)
    with pytest.raises(NotToPlayAgain, match="played to the end"):
        await service.lobby.play_again(lobby.game.id, user_id=ADA)


async def test_history_says_which_game_a_game_was_played_again_after(
    service: GameService, store: Store
) -> None:
    first = await play_to_end(service, ADA)
    again = await service.lobby.play_again(first.id, user_id=ADA)
    await service.lobby.start(again.game.id, user_id=ADA)
    second = await _finish(service, CHANNEL)
    page = await Archive(store).history(GUILD)
    entries = {game.game_id: game_entry(game) for game in page.games}
    assert f"**Game {second.id}** (played again after game {first.id})," in entries[second.id]
    assert "played again" not in entries[first.id]


async def test_a_deleted_channel_ends_the_games_in_its_threads(
    service: GameService, store: Store
) -> None:
    threaded = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=THREAD, user_id=ADA, name="Ada", cards=None, parent_id=PARENT
    )
    await service.lobby.start(threaded.game.id, user_id=ADA)
    elsewhere = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, name="Bob", cards=None
    )
    assert await store.pending()

    assert await service.turns.abandon(PARENT) == [threaded.game.id]
    assert (await service.game_by_id(threaded.game.id)).game.status is GameStatus.ENDED
    assert (await service.game_by_id(elsewhere.game.id)).game.status is GameStatus.LOBBY
    assert all(row.channel_id != THREAD for row in await store.pending())


async def _finish(service: GameService, channel: int) -> GameRow:
    """Play the started game in ``channel`` to its end, each seat's turns (a computer's too)
    chosen at random; returns its row."""
    rng = random.Random(3)
    table = await service.game(channel)
    while table.game.status is GameStatus.ACTIVE:
        if table.players[table.require_state().current].computer is not None:
            await service.turns.play_computer(table.game.id)
        else:
            user = _current_user(table)
            await service.turns.play(channel, user_id=user, move=_any_turn(table, rng))
        table = await service.game_by_id(table.game.id)
    return table.game


async def _play_out(service: GameService, store: Store, channel: int) -> list[OutboxRow]:
    """Play the game in ``channel`` to its end; returns the outbox rows waiting then."""
    await _finish(service, channel)
    return await store.pending()


async def test_a_thread_game_ended_early_tells_its_channel_and_rests_its_thread(
    service: GameService, store: Store
) -> None:
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=THREAD, user_id=ADA, name="Ada", cards=None, parent_id=PARENT
    )
    await service.lobby.start(lobby.game.id, user_id=ADA)
    await service.turns.end(lobby.game.id, user_id=ADA, name="Ada", can_manage=False)
    pending = [Announcement.from_row(row) for row in await store.pending()]
    ended = next(a for a in pending if a.kind == "end")
    assert ended.archive_after == THREAD_REST_MINUTES
    [line] = [row for row in await store.pending() if row.channel_id == PARENT]
    assert Announcement.from_row(line).text == f"The table in <#{THREAD}> was ended early."
