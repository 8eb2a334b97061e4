"""The standings' figures and texts on hand-made results, and the league's answers on a real
store (both backends)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from bot.game.rows import SeatResult
from bot.standings.service import (
    NoSeason,
    NotManager,
    OthersEverywhere,
    leaderboard_answer,
    league_answer,
    server_answer,
    stats_answer,
    stats_scope,
)
from bot.standings.stats import (
    duration,
    leaderboard_message,
    member_stats,
    server_message,
    server_stats,
    stats_message,
)
from bot.standings.store import Rating, Tablemate
from bot.stores import Store
from tests.bot.clocks import START

GUILD = 1
ADA, BOB, CY = 100, 200, 300


def _seat(
    game: int,
    seat: int,
    user: int,
    score: int,
    rank: int,
    *,
    players: int = 2,
    computer: str | None = None,
    handed_over: bool = False,
    bear: int = 0,
    turns: tuple[float, ...] = (),
    used: int = 0,
    corridor: int = 5,
    cards: str = "ABCDA",
) -> SeatResult:
    return SeatResult(
        game_id=game, seat=seat, guild_id=GUILD, user_id=user,
        name={ADA: "ada", BOB: "bob", CY: "cy"}.get(user, computer or "?"), computer=computer,
        handed_over=handed_over, players=players, cards=cards, score=score, rank=rank,
        nature_tokens=0, tokens_used=used, wildlife={"bear": bear, "elk": 4},
        habitats={"forest": corridor}, corridor=corridor, turn_seconds=turns, rated=False,
        season=1, finished_at=START + timedelta(days=game),
    )  # fmt: skip


# Game 1: ada beats bob. Game 2: ada and bob tie first, the computer last. Game 3: ada alone.
# Game 4: bob beats ada, who left her seat to the computer. Game 5: bob and cy, without ada.
RESULTS = [
    _seat(1, 0, ADA, 90, 1, bear=10, turns=(60, 120), used=1, corridor=7),
    _seat(1, 1, BOB, 80, 2),
    _seat(2, 0, BOB, 85, 1),
    _seat(2, 1, ADA, 85, 1, bear=6, turns=(30,), cards="BBBBB"),
    _seat(2, 2, -1, 70, 3, players=3, computer="strong"),
    _seat(3, 0, ADA, 99, 1, players=1, bear=2, corridor=9),
    _seat(4, 0, ADA, 60, 2, computer="fast", handed_over=True, turns=(600,), used=2),
    _seat(4, 1, BOB, 75, 1),
    _seat(5, 0, BOB, 70, 2),
    _seat(5, 1, CY, 95, 1),
]
MINE = [r for r in RESULTS if r.game_id in (1, 2, 3, 4)]


def _own(user: int) -> list[SeatResult]:
    return [r for r in RESULTS if r.user_id == user]


def _mates(results: list[SeatResult]) -> list[Tablemate]:
    return [
        Tablemate(r.game_id, r.seat, r.user_id, r.name, r.computer, r.handed_over, r.rank)
        for r in results
    ]


def test_a_member_s_figures() -> None:
    stats = member_stats(_own(ADA), _mates(MINE), ADA)
    assert (stats.games, stats.wins, len(stats.solo)) == (3, 2, 1)
    assert stats.scores == [90, 85, 99, 60]
    assert stats.best is not None
    assert (stats.best.game_id, stats.best.score) == (3, 99)
    assert stats.per_species == {"bear": 4.5, "elk": 4.0, "salmon": 0, "hawk": 0, "fox": 0}
    # Bear A in games 1, 3 and 4 (10, 2, 0); bear B in game 2 (6).
    assert stats.per_card["bear A"] == 4.0
    assert stats.per_card["bear B"] == 6.0
    assert stats.turn_median == 90.0
    (bob, computer) = stats.head_to_head
    assert (bob.name, bob.wins, bob.losses, bob.draws) == ("bob", 1, 1, 1)
    assert (computer.name, computer.wins, computer.games) == ("strong", 1, 1)


def test_the_stats_answer_is_short_and_names_the_games() -> None:
    text = stats_message("ada", member_stats(_own(ADA), _mates(MINE), ADA))
    lines = text.splitlines()
    assert lines[0] == "**ada** in this server: 3 games, 2 won; 1 game solo"
    # One game is "1 game".
    one = stats_message("cy", member_stats(_own(CY), _mates(RESULTS), CY))
    assert one.splitlines()[0] == "**cy** in this server: 1 game, 1 won"
    assert "Score: average 83.5, best 99 (game 3, cards ABCDA)" in lines
    assert "Average placing: 1.33" in lines
    assert "Median turn 1m, 3 nature tokens used, longest corridor 9" in lines
    assert "vs bob: 1-1-1" in lines
    assert len(lines) <= 10
    assert all(len(line) <= 100 for line in lines)
    assert stats_message("cy", member_stats([], [], CY)) == (
        "**cy** has no finished games in this server yet."
    )


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(45, "45s"), (720, "12m"), (3 * 3600 + 300, "3h 5m"), (52 * 3600, "2d 4h")],
)
def test_durations(seconds: float, shown: str) -> None:
    assert duration(seconds) == shown


def test_the_server_s_figures() -> None:
    stats = server_stats(RESULTS)
    assert stats.games == 5
    assert stats.active[:2] == (("ada", 4), ("bob", 4))
    assert stats.active[2] == ("cy", 1)
    # The winning scores of the four games with others: 90, 85, 75, 95.
    assert stats.winning_average == 86.25
    assert stats.highest is not None
    assert (stats.highest.score, stats.highest.game_id) == (99, 3)
    assert stats.computers == {"strong": (1, 0)}
    text = server_message(stats, link="https://discord.com/channels/1/10")
    assert text.splitlines() == [
        "This server: 5 games finished",
        "Most active: ada (4), bob (4), cy (1)",
        "Average winning score: 86.2",
        "Highest score: 99 by ada (game 3) https://discord.com/channels/1/10",
        "Computer strong: 0 won of 1 game",
    ]
    assert server_message(server_stats([])) == "No finished games in this server yet."


def _rating(player: str, ordinal: float) -> Rating:
    return Rating(player, f"p{player}", 25.0, 8.0, ordinal, 3, 1, 0.5)


def test_the_leaderboard_shows_the_caller_below_the_top() -> None:
    board = [_rating("1", 10.0), _rating("fast", 5.0)]
    text = leaderboard_message(board, season=2, caller="9", place=31, own=_rating("9", -2.25))
    assert text.splitlines() == [
        "**Season 2** (rating = mu - 3 sigma)",
        "1. p1 10.0 (+0.5), 3 games, 1 won",
        "2. pfast 5.0 (+0.5), 3 games, 1 won",
        "...",
        "**31. p9 -2.2 (+0.5), 3 games, 1 won**",
    ]
    mine = leaderboard_message(board, season=1, caller="fast", place=2, own=board[1])
    assert mine.splitlines()[-1] == "**2. pfast 5.0 (+0.5), 3 games, 1 won**"
    assert leaderboard_message([], season=1, caller="1", place=None, own=None) == (
        "Season 1 has no rated games yet."
    )


# --- the answers on a store -------------------------------------------------------------------


async def _games(store: Store) -> None:
    """Games 1-5 of :data:`RESULTS`, as rows the results refer to."""
    for number in range(1, 6):
        game = await store.create_lobby(GUILD, 10 + number, ADA, "ada", "ABCDA")
        assert game.id == number
        await store.end_game(game.id)
    await store.record_results(RESULTS)


async def test_stats_and_server_answers_read_the_kept_results(store: Store) -> None:
    await _games(store)
    answer = await stats_answer(store, GUILD, ADA, "ada")
    assert answer.scores == (90, 85, 99, 60)
    assert await store.member_results(ADA, guild_id=GUILD) == _own(ADA)
    assert await store.tablemates(ADA, guild_id=GUILD) == _mates(MINE)
    assert answer.text == stats_message("ada", member_stats(_own(ADA), _mates(MINE), ADA))
    assert answer.chart
    other = await stats_answer(store, GUILD + 1, ADA, "ada")
    assert other.scores == ()
    assert not other.chart
    # One game's bar would say no more than its score: no chart for it.
    one = await stats_answer(store, GUILD, CY, "cy")
    assert len(one.scores) == 1
    assert not one.chart
    text = await server_answer(store, GUILD)
    assert "Highest score: 99 by ada (game 3) https://discord.com/channels/1/13" in text


async def test_league_settings_need_manage_server_and_change_nothing_otherwise(
    store: Store,
) -> None:
    for action in ("on", "off", "season"):
        with pytest.raises(NotManager, match=f"/cascadia league {action}"):
            await league_answer(store, GUILD, ADA, action, can_manage=False)
    assert (await store.league(GUILD)).enabled is False
    # What the answers say is in the golden transcript tests/bot/standings/golden.
    for _ in range(2):
        await league_answer(store, GUILD, ADA, "join", can_manage=False)
    await league_answer(store, GUILD, BOB, "on", can_manage=True)
    league = await store.league(GUILD)
    assert (league.enabled, league.season) == (True, 1)
    assert await store.league_members(GUILD, [ADA, BOB]) == {ADA}
    await league_answer(store, GUILD, ADA, "leave", can_manage=False)
    assert await store.league_members(GUILD, [ADA, BOB]) == set()
    await league_answer(store, GUILD, BOB, "season", can_manage=True)
    assert (await store.league(GUILD)).season == 2
    assert await leaderboard_answer(store, GUILD, ADA) == "Season 2 has no rated games yet."
    await store.save_ratings(GUILD, 1, [_rating(str(ADA), 3.0)])
    old = await leaderboard_answer(store, GUILD, ADA, 1)
    assert old.splitlines()[1] == "**1. p100 3.0 (+0.5), 3 games, 1 won**"
    with pytest.raises(NoSeason, match="no season 3"):
        await leaderboard_answer(store, GUILD, ADA, 3)


async def test_a_member_s_own_figures_across_servers_are_theirs_alone_to_ask_for(
    store: Store,
) -> None:
    await _games(store)
    elsewhere = await store.create_lobby(GUILD + 1, 99, ADA, "ada", "AAAAA")
    await store.end_game(elsewhere.id)
    far = dataclasses.replace(_seat(10, 0, ADA, 77, 1, players=1), game_id=elsewhere.id)
    await store.record_results([dataclasses.replace(far, guild_id=GUILD + 1)])
    here = await stats_answer(store, stats_scope(GUILD, ADA, ADA, everywhere=False), ADA, "ada")
    assert here.scores == (90, 85, 99, 60)
    assert "in this server: 3 games" in here.text
    everywhere = await stats_answer(
        store, stats_scope(GUILD, ADA, ADA, everywhere=True), ADA, "ada"
    )
    assert everywhere.scores == (90, 85, 99, 60, 77)
    assert "everywhere: 3 games, 2 won; 2 games solo" in everywhere.text
    assert stats_scope(None, ADA, ADA, everywhere=False) is None  # asked outside a server
    with pytest.raises(OthersEverywhere, match="theirs to ask for"):
        stats_scope(GUILD, BOB, ADA, everywhere=True)
    with pytest.raises(OthersEverywhere):
        stats_scope(None, BOB, ADA, everywhere=False)
