"""A finished game's results per seat and the league's ratings: hand-made score sheets and
move logs, and whole games played through the service on a real store (both backends)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from openskill.models import PlackettLuce

from bot.app import game_service
from bot.attendance.presence import Presence
from bot.attendance.quiet import QuietHours
from bot.game.hooks import AwayPeriod
from bot.game.messages import Player
from bot.game.rows import GameStatus, MoveRow, SeatResult
from bot.game.service import GameService, LoadedGame
from bot.standings.league import player_key, rate, rebuild_ratings
from bot.standings.results import may_be_rated, ranks, tokens_used, turn_seconds
from bot.standings.service import backfill_results
from bot.standings.store import Rating
from bot.stores import SqliteStore, Store
from engine import (
    Move,
    PlaceTile,
    PlaceToken,
    PlayerScore,
    ScoreSheet,
    Take,
    Wildlife,
    apply,
    legal_actions,
)
from tests.bot.clocks import START, FakeClock

GUILD, CHANNEL = 1, 10
ADA, BOB, CY = 100, 200, 300


def _score(name: str, points: int, tokens: int) -> PlayerScore:
    return PlayerScore(name, {Wildlife.BEAR: points - tokens}, {}, {}, tokens)


def _row(seq: int, user: int, action: str, minute: float, played_for: str | None = None) -> MoveRow:
    return MoveRow(1, seq, user, action, START + timedelta(minutes=minute), played_for)


TURN = "take 1 1; tile 0,1 0; token return"
SPLIT = "take 1 2; tile 0,1 0; token return"


# --- hand-made figures ------------------------------------------------------------------------


def test_ranks_break_ties_by_nature_tokens_and_share_what_stays_tied() -> None:
    sheet = ScoreSheet(
        (_score("a", 80, 2), _score("b", 80, 3), _score("c", 90, 0), _score("d", 80, 2))
    )
    assert ranks(sheet) == (3, 2, 1, 3)


def test_solo_and_handed_over_games_are_not_rated() -> None:
    assert not may_be_rated([Player(ADA, "ada")])
    assert not may_be_rated([Player(ADA, "ada"), Player(BOB, "bob", computer="fast")])
    assert may_be_rated([Player(ADA, "ada"), Player(-1, "fast", computer="fast")])


def test_turn_times_leave_out_wipes_skipped_turns_and_the_first_turn() -> None:
    moves = [
        _row(1, ADA, TURN, 0),
        _row(2, BOB, "wipe", 3),
        _row(3, BOB, TURN, 5),
        _row(4, ADA, TURN, 15),
        _row(5, BOB, TURN, 75, played_for="vote"),
        _row(6, ADA, TURN, 76.5),
    ]
    assert turn_seconds(moves, ADA) == (600.0, 90.0)
    assert turn_seconds(moves, BOB) == (300.0,)


def test_turn_times_leave_out_the_player_s_time_away_and_quiet_hours() -> None:
    moves = [_row(1, ADA, TURN, 0), _row(2, BOB, TURN, 60 * 20), _row(3, ADA, TURN, 60 * 21)]
    # START is 12:00 UTC: bob's turn runs to 08:00 the next day, his quiet hours 22-07.
    quiet = Presence(quiet=QuietHours(22, 7, ZoneInfo("UTC")))
    assert turn_seconds(moves, BOB) == (20 * 3600.0,)
    assert turn_seconds(moves, BOB, quiet) == (11 * 3600.0,)
    away = Presence(away=(AwayPeriod(START + timedelta(hours=20), START + timedelta(hours=30)),))
    assert turn_seconds(moves, ADA, away) == (0.0,)


def test_nature_tokens_used_are_split_pairs_and_nature_wipes() -> None:
    moves = [
        _row(1, ADA, SPLIT, 0),
        _row(2, BOB, "nature-wipe 1 2", 1),
        _row(3, BOB, TURN, 2),
        _row(4, ADA, "wipe", 3),
        _row(5, ADA, TURN, 4),
        _row(6, BOB, SPLIT, 5),
    ]
    assert tokens_used(moves, ADA) == 1
    assert tokens_used(moves, BOB) == 2


def _result(user: int, rank: int, *, computer: str | None = None) -> SeatResult:
    return SeatResult(
        game_id=1, seat=0, guild_id=GUILD, user_id=user, name=f"u{user}", computer=computer,
        handed_over=False, players=3, cards="AAAAA", score=90 - rank, rank=rank,
        nature_tokens=0, tokens_used=0, wildlife={}, habitats={}, corridor=0, turn_seconds=(),
        rated=True, season=1, finished_at=START,
    )  # fmt: skip


def test_the_rating_update_is_openskill_plackett_luce_with_shared_ranks() -> None:
    results = [_result(ADA, 2), _result(-1, 1, computer="strong"), _result(BOB, 2)]
    before = {str(ADA): Rating(str(ADA), "ada", 30.0, 5.0, 15.0, 3, 2, 1.0)}
    after = rate(results, before)
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(mu=30.0, sigma=5.0)], [model.rating()], [model.rating()]],
        ranks=[2.0, 1.0, 2.0],
    )
    assert [player_key(r) for r in results] == [str(ADA), "strong", str(BOB)]
    for got, (want,) in zip(after, expected, strict=True):
        assert got.mu == pytest.approx(want.mu)
        assert got.sigma == pytest.approx(want.sigma)
        assert got.ordinal == pytest.approx(want.mu - 3 * want.sigma)
    assert (after[0].games, after[0].wins) == (4, 2)
    assert after[0].change == pytest.approx(after[0].ordinal - 15.0)
    assert (after[1].games, after[1].wins, after[2].wins) == (1, 1, 0)
    assert after[1].change == pytest.approx(after[1].ordinal)


# --- whole games through the service ----------------------------------------------------------


def _any_turn(table: LoadedGame, rng: random.Random) -> Move:
    state = table.require_state()
    pair = rng.randint(1, 4)
    taken = apply(state, Take(pair, pair))
    place = rng.choice([a for a in legal_actions(taken) if isinstance(a, PlaceTile)])
    placed = apply(taken, place)
    token = rng.choice([a for a in legal_actions(placed) if isinstance(a, PlaceToken)])
    return Move(pair, pair, place.at, place.rotation, token.at)


async def _play_out(service: GameService, clock: FakeClock, game_id: int, seed: int) -> LoadedGame:
    """Play every seat (the computer's too) with random legal turns, a minute each."""
    rng = random.Random(seed)
    table = await service.game_by_id(game_id)
    while table.game.status is GameStatus.ACTIVE:
        clock.now += timedelta(minutes=1)
        seat = table.require_state().current
        player = table.players[seat]
        played_for = None if player.computer is None else "computer"
        await service.commit_turn(
            table, seat, _any_turn(table, rng), user_id=player.user_id, played_for=played_for
        )
        table = await service.game_by_id(game_id)
    return table


async def _game(service: GameService, *users: int, computer: str | None = None) -> int:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    if computer is not None:
        await service.lobby.add_computer(table.game.id, user_id=users[0], policy=computer)
    await service.lobby.start(table.game.id, user_id=users[0])
    return table.game.id


async def test_a_finished_game_keeps_every_seat_s_result(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    game_id = await _game(service, ADA, BOB, computer="fast")
    table = await _play_out(service, clock, game_id, seed=1)
    sheet = table.score_sheet()
    kept = [r for r in await store.guild_results(GUILD) if r.game_id == game_id]
    assert [r.seat for r in kept] == [0, 1, 2]
    assert [r.score for r in kept] == [p.total for p in sheet.players]
    assert [r.nature_tokens for r in kept] == [p.nature_tokens for p in sheet.players]
    assert tuple(r.rank for r in kept) == ranks(sheet)
    (computer,) = [r for r in kept if not r.person]
    assert computer.computer == "fast"
    assert computer.user_id < 0
    # The computer's turns are not its player's choice; the game's first turn has no start.
    first = (await store.moves(game_id))[0].user_id
    for r in kept:
        turns = 19 if r.user_id == first else 20
        assert r.turn_seconds == (() if r is computer else (60.0,) * turns)
    assert all(r.corridor == max(r.habitats.values()) for r in kept)
    assert all(r.finished_at == clock.now and not r.rated for r in kept)
    assert await store.member_results(ADA, guild_id=GUILD + 1) == []
    assert await store.games_without_results() == []


async def test_the_kept_turn_times_leave_out_a_player_s_time_away(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.set_away(ADA, starts_at=START, ends_at=START + timedelta(days=1), note=None)
    game_id = await _game(service, ADA, BOB)
    await _play_out(service, clock, game_id, seed=2)
    kept = {r.user_id: r for r in await store.guild_results(GUILD) if r.game_id == game_id}
    assert len(kept[ADA].turn_seconds) >= 19
    assert set(kept[ADA].turn_seconds) == {0.0}
    assert set(kept[BOB].turn_seconds) == {60.0}


async def test_a_league_game_is_rated_once_everyone_joined(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.set_league(GUILD, enabled=True)
    await store.set_member(GUILD, ADA, joined=True)
    first = await _play_out(service, clock, await _game(service, ADA, BOB), seed=2)
    assert await store.leaderboard(GUILD, 1) == []
    assert await store.set_member(GUILD, BOB, joined=True)
    assert not await store.set_member(GUILD, BOB, joined=True)
    second = await _play_out(service, clock, await _game(service, ADA, BOB, computer="strong"), 3)
    board = await store.leaderboard(GUILD, 1)
    assert {r.player for r in board} == {str(ADA), str(BOB), "strong"}
    assert all(r.games == 1 for r in board)
    kept = await store.guild_results(GUILD)
    assert [r.rated for r in kept if r.game_id == first.game.id] == [False, False]
    rated = [r for r in kept if r.game_id == second.game.id]
    assert [r.rated for r in rated] == [True, True, True]
    assert sorted(board, key=lambda r: r.player) == sorted(rate(rated, {}), key=lambda r: r.player)
    assert [await store.rating_place(GUILD, 1, r.player) for r in board] == [1, 2, 3]

    await store.clear_ratings()
    assert await store.leaderboard(GUILD, 1) == []
    rebuilt = await rebuild_ratings(store)
    assert (rebuilt.games, rebuilt.players) == (1, 3)
    assert await store.leaderboard(GUILD, 1) == board

    league = await store.set_league(GUILD, new_season=True)
    assert (league.enabled, league.season) == (True, 2)
    assert await store.leaderboard(GUILD, 2) == []
    assert await store.leaderboard(GUILD, 1) == board


async def test_a_seat_handed_to_the_computer_is_not_rated(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    await store.set_league(GUILD, enabled=True)
    for user in (ADA, BOB):
        await store.set_member(GUILD, user, joined=True)
    game_id = await _game(service, ADA, BOB)
    await service.turns.leave_game(game_id, user_id=BOB)
    await _play_out(service, clock, game_id, seed=4)
    (kept,) = await store.member_results(BOB, guild_id=GUILD)
    assert (kept.handed_over, kept.rated) == (True, False)
    assert [(m.user_id, m.person) for m in await store.tablemates(BOB, guild_id=GUILD)] == [
        (r.user_id, True) for r in await store.guild_results(GUILD)
    ]
    assert await store.leaderboard(GUILD, 1) == []


async def test_games_finished_before_are_filled_in_once(tmp_path: Path, clock: FakeClock) -> None:
    async with SqliteStore.open(tmp_path / "old.sqlite3", now=clock) as store:
        service = game_service(store, now=clock, seeds=lambda: 5)
        solo = await _play_out(service, clock, await _game(service, ADA), seed=5)
        pair = await _play_out(service, clock, await _game(service, ADA, BOB), seed=6)
        kept = await store.guild_results(GUILD)
        (alone,) = [r for r in kept if r.game_id == solo.game.id]
        assert (alone.players, alone.rank) == (1, 1)
        assert alone.score == solo.score_sheet().players[0].total
        async with store.transaction() as db:
            await db.execute("DELETE FROM results")
        assert await store.games_without_results() == [solo.game.id, pair.game.id]
        assert await backfill_results(store, batch=1) == 2
        assert await store.guild_results(GUILD) == kept
        assert await backfill_results(store) == 0


async def test_a_finished_game_whose_state_is_damaged_is_left_without_results(
    tmp_path: Path, clock: FakeClock
) -> None:
    async with SqliteStore.open(tmp_path / "old.sqlite3", now=clock) as store:
        service = game_service(store, now=clock, seeds=lambda: 5)
        hurt = await _play_out(service, clock, await _game(service, ADA), seed=5)
        whole = await _play_out(service, clock, await _game(service, ADA, BOB), seed=6)
        kept = [r for r in await store.guild_results(GUILD) if r.game_id == whole.game.id]
        async with store.transaction() as db:
            await db.execute("DELETE FROM results")
            await db.execute(
                "UPDATE games SET state = substr(state, 1, 40) WHERE id = ?", (hurt.game.id,)
            )
        assert await backfill_results(store) == 1
        assert await store.guild_results(GUILD) == kept
        assert await store.games_without_results() == [hurt.game.id]
