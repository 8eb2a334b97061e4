"""The archive of finished games: totals kept when a game ends (or counted once for an older
game), the history's pages and texts, and which games ``replay`` may show."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.archive.rounds import round_totals
from bot.archive.service import (
    PAGE_SIZE,
    Archive,
    ArchivedGame,
    HistoryPage,
    NoArchivedGame,
    game_entry,
    history_text,
)
from bot.game.rows import GameRow, GameStatus
from bot.game.service import GameService
from bot.stores import PostgresStore, SqliteStore, Store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_service import (
    ADA,
    BOB,
    CHANNEL,
    GUILD,
    _any_turn,
    _current_user,
    _started,
)


async def play_to_end(service: GameService, *users: int, seed: int = 5) -> GameRow:
    table = await _started(service, *users)
    rng = random.Random(seed)
    while table.game.status is GameStatus.ACTIVE:
        await service.turns.play(CHANNEL, user_id=_current_user(table), move=_any_turn(table, rng))
        table = await service.game_by_id(table.game.id)
    return table.game


async def test_a_game_that_ends_keeps_its_totals_round_by_round(
    service: GameService, store: Store
) -> None:
    game = await play_to_end(service, ADA, BOB)
    archive = Archive(store)
    kept = await store.round_scores(game.id)
    assert kept is not None
    assert len(kept) == 20
    assert kept == round_totals(await archive.record(game))
    loaded = await service.game_by_id(game.id)
    assert kept[-1] == tuple(score.total for score in loaded.score_sheet().players)


async def test_history_lists_the_finished_games_with_their_winner_and_final_message(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    solo = await play_to_end(service, ADA)
    clock.now = datetime(2024, 5, 2, 12, tzinfo=UTC)
    pair = await play_to_end(service, ADA, BOB, seed=6)
    finish = [row for row in await store.pending(1_000) if row.kind == "finish"]
    for number, row in enumerate(finish, start=1):
        await store.mark_sent(row.id, 900 + number)
    archive = Archive(store)

    page = await archive.history(GUILD)
    assert [g.game_id for g in page.games] == [pair.id, solo.id]
    assert (page.page, page.pages, page.total) == (1, 1, 2)
    newest, oldest = page.games
    assert newest.names == ("u100", "u200")
    assert newest.finished_at.date().isoformat() == "2024-05-02"
    best = max(newest.totals)
    assert set(newest.winners) <= {
        n for n, t in zip(newest.names, newest.totals, strict=True) if t == best
    }
    assert oldest.winners == ("u100",)
    assert oldest.jump_url == f"https://discord.com/channels/{GUILD}/{CHANNEL}/901"
    assert newest.jump_url == f"https://discord.com/channels/{GUILD}/{CHANNEL}/902"
    text = history_text(page)
    assert text.index(f"**Game {pair.id}**") < text.index(f"**Game {solo.id}**")
    assert f"[final message]({oldest.jump_url})" in text
    assert f"u100 {oldest.totals[0]}" in text

    # A page past the last shows the last, and says so.
    past = await archive.history(GUILD, page=99)
    assert (past.page, past.asked) == (1, 99)
    assert history_text(past).startswith(
        "There is no page 99: this is the only page.\n**Finished games on this server**"
    )
    assert (await archive.history(GUILD, page=1)).asked is None

    mine = await archive.history(GUILD, user_id=BOB, whose="u200")
    assert [g.game_id for g in mine.games] == [pair.id]
    assert mine.whose == "u200"
    # A page turned by a button names the member from their seat.
    turned = await archive.history(GUILD, user_id=BOB)
    assert turned.whose == "u200"
    assert [g.game_id for g in await archive.recent(GUILD, "2024-05-01")] == [solo.id]
    assert history_text(await archive.history(GUILD + 1)) == "No finished games on this server yet."


async def test_an_older_game_gets_its_totals_the_first_time_it_is_asked_for(
    service: GameService, store: Store
) -> None:
    game = await play_to_end(service, ADA)
    kept = await store.round_scores(game.id)
    # A game finished before the totals were kept: its row removed on the store's connection.
    assert isinstance(store, SqliteStore | PostgresStore)
    async with store.transaction() as db:
        await db.execute("DELETE FROM round_scores")
    assert await store.round_scores(game.id) is None
    archive = Archive(store)
    assert await archive.totals(game) == kept
    assert await store.round_scores(game.id) == kept


async def test_a_game_whose_state_is_damaged_leaves_the_history_and_the_rest_is_listed(
    service: GameService, store: Store
) -> None:
    hurt = await play_to_end(service, ADA, seed=5)
    whole = await play_to_end(service, BOB, seed=6)
    assert isinstance(store, SqliteStore | PostgresStore)
    sql = "UPDATE games SET state = substr(state, 1, 40) WHERE id = $1"
    async with store.transaction() as db:
        if isinstance(store, SqliteStore):
            await db.execute(sql.replace("$1", "?"), (hurt.id,))
        else:
            await db.execute(sql, hurt.id)
    archive = Archive(store)
    page = await archive.history(GUILD)
    assert [game.game_id for game in page.games] == [whole.id]
    assert [game.game_id for game in await archive.recent(GUILD)] == [whole.id]


async def test_replay_takes_only_this_servers_finished_games(
    service: GameService, store: Store
) -> None:
    game = await play_to_end(service, ADA)
    archive = Archive(store)
    assert (await archive.finished(GUILD, game.id)).id == game.id
    with pytest.raises(NoArchivedGame, match=r"No finished game '.*' on this server"):
        await archive.finished(GUILD + 1, game.id)
    playing = await _started(service, BOB)
    with pytest.raises(NoArchivedGame):
        await archive.finished(GUILD, playing.game.id)
    with pytest.raises(NoArchivedGame):
        await archive.finished(GUILD, 12345)
    assert str(NoArchivedGame()) == "No game has finished on this server yet."


def _game(number: int, names: tuple[str, ...], totals: tuple[int, ...]) -> ArchivedGame:
    return ArchivedGame(
        game_id=number,
        guild_id=1,
        channel_id=2,
        finished_at=datetime(2026, 12, number, tzinfo=UTC),
        cards="AAAAA",
        names=names,
        totals=totals,
        winners=tuple(n for n, t in zip(names, totals, strict=True) if t == max(totals)),
        message_id=None if number == 1 else 3,
    )


def test_a_history_entry_ranks_the_scores_and_names_a_shared_win() -> None:
    entry = game_entry(_game(2, ("*Ada*", "Bob", "Cy"), (80, 91, 91)))
    assert entry == (
        "**Game 2**, Dec 2, 2026, cards AAAAA: **Bob** and **Cy** shared the win\n"
        "Bob 91 · Cy 91 · \\*Ada\\* 80 · [final message](https://discord.com/channels/1/2/3)"
    )
    assert game_entry(_game(1, ("Ada",), (70,))).endswith("won\nAda 70")


def test_a_long_history_is_paged_and_every_page_fits_a_message() -> None:
    long_names = ("x" * 32, "y" * 32, "z" * 32, "w" * 32)
    games = tuple(_game(n, long_names, (90, 80, 70, 60)) for n in range(2, 2 + PAGE_SIZE))
    text = history_text(HistoryPage(games, page=2, pages=3, total=13))
    assert text.startswith("**Finished games on this server** (13 in all, page 2 of 3)")
    assert len(text) <= 2000
    assert text.count("**Game ") == PAGE_SIZE
    past = history_text(HistoryPage(games, page=3, pages=3, total=13, asked=7))
    assert past.startswith("There is no page 7: this is the last, page 3.\n")


def test_an_autocomplete_label_fits_discords_limit() -> None:
    game = _game(2, ("x" * 40, "y" * 40, "z" * 40), (1, 2, 3))
    assert game.label().startswith("Game 2, Dec 2, 2026: xxx")
    assert len(game.label()) == 100
