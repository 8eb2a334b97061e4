"""Achievements in whole games on both backends: a finished game keeps each person's in its
final commit and names the first times, never twice; a practice attempt earns nothing; stats
and server read them back; the rebuild counts them again the same."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import timedelta

from bot.achievements.catalogue import engine_earned
from bot.achievements.service import AchievementsService, rebuild_achievements
from bot.achievements.texts import finish_line
from bot.app import ACHIEVEMENTS
from bot.game.kernel import LoadedGame
from bot.game.outbox import Announcement
from bot.game.records import move_text
from bot.game.rows import GameStatus
from bot.game.service import GameService
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock
from tests.bot.daily.test_daily import ADA as TREKKER
from tests.bot.daily.test_daily import play_out as play_daily
from tests.bot.daily.test_daily import start as start_daily
from tests.bot.standings.test_results import ADA, BOB, GUILD, _game, _play_out

PEOPLE = (ADA, BOB)


async def _play_fast(service: GameService, clock: FakeClock, game_id: int) -> LoadedGame:
    """Play every seat with the ``fast`` computer player's moves, a minute each: games
    that earn achievements (random moves seldom do)."""
    table = await service.game_by_id(game_id)
    while table.game.status is GameStatus.ACTIVE:
        clock.now += timedelta(minutes=1)
        seat = table.require_state().current
        player = table.players[seat]
        move = Move.parse(move_text(choose(table.require_state(), "fast", seed=1)))
        played_for = None if player.computer is None else "computer"
        await service.commit_turn(table, seat, move, user_id=player.user_id, played_for=played_for)
        table = await service.game_by_id(game_id)
    return table


def _earned(table: LoadedGame) -> dict[int, frozenset[str]]:
    """Each person's achievements in a finished game, as the engine reads them."""
    earned = engine_earned(table.require_state(), table.score_sheet())
    return {p.user_id: ids for p, ids in zip(table.players, earned, strict=True) if p.user_id > 0}


def _titles(ids: Collection[str]) -> list[str]:
    """The titles a line names for ``ids``: of the score thresholds only the highest."""
    scores = sorted((int(a.split("-")[1]) for a in ids if a.startswith("score-")), reverse=True)
    dropped = {f"score-{points}" for points in scores[1:]}
    return [title for a, title in ACHIEVEMENTS.catalogue if a in ids and a not in dropped]


def _expected_line(table: LoadedGame, before: Mapping[int, set[str]], server: set[str]) -> str:
    earned = _earned(table)
    shown = {p.user_id: p.shown for p in table.people}
    first_time = [
        (shown[u], _titles(ids - before[u] - (ids - server))) for u, ids in earned.items()
    ]
    first_here = [(shown[u], _titles(ids - server)) for u, ids in earned.items()]
    return finish_line(first_time, first_here)


async def _final_text(store: Store, game_id: int) -> str:
    rows = [r for r in await store.pending(500) if r.kind == "finish" and r.game_id == game_id]
    (row,) = rows
    return Announcement.from_row(row).text


async def test_a_finished_game_keeps_each_person_s_achievements_and_names_the_first_times(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    before: dict[int, set[str]] = {u: set() for u in PEOPLE}
    server: set[str] = set()
    for well in (True, False):
        game_id = await _game(service, ADA, BOB, computer="fast")
        if well:
            table = await _play_fast(service, clock, game_id)
        else:
            table = await _play_out(service, clock, game_id, seed=1)
        earned = _earned(table)
        assert set(earned) == set(PEOPLE), "the computer's seat is not kept"
        assert not well or (earned[ADA] and earned[BOB]), "a game that earns something"
        text = await _final_text(store, game_id)
        line = _expected_line(table, before, server)
        assert text.endswith(line)
        for user in PEOPLE:
            before[user] |= earned[user]
            assert await store.achievements_of(user) == before[user]
        server |= earned[ADA] | earned[BOB]
        if well:
            firsts = await store.firsts(ADA, guild_id=GUILD)
            assert {f.achievement for f in firsts} == earned[ADA]
            assert {(f.game_id, f.finished_at) for f in firsts} == {(game_id, clock.now)}
            assert "First on the server: " in line


async def test_the_second_game_names_nothing_earned_in_the_first(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    first = await _play_fast(service, clock, await _game(service, ADA, BOB))
    assert "First on the server" in await _final_text(store, first.game.id)
    again = await _game(service, ADA, BOB)
    # Every game is dealt alike here and played alike: the same achievements, none new.
    second = await _play_fast(service, clock, again)
    assert _earned(second) == _earned(first)
    text = await _final_text(store, again)
    assert "First time" not in text
    assert "First on the server" not in text


async def test_a_practice_attempt_earns_nothing(service: GameService, store: Store) -> None:
    counted = await start_daily(service, TREKKER)
    await play_daily(service, TREKKER)
    assert await store.achievements_of(TREKKER), "the counted attempt earned something"
    practice = await start_daily(service, TREKKER)
    await play_daily(service, TREKKER)
    assert "First" not in await _final_text(store, practice)
    await store.replace_earned([counted], [])
    assert await store.achievements_of(TREKKER) == set(), "the practice attempt kept no row"


async def test_stats_and_server_show_what_was_earned(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    achievements = AchievementsService(service, ACHIEVEMENTS)
    nothing = await achievements.member(ADA, guild_id=GUILD)
    assert nothing.text == f"Achievements: 0 of {len(ACHIEVEMENTS.catalogue)}"
    assert not nothing.earned
    assert await achievements.server(GUILD) == ""
    game_id = await _game(service, ADA, BOB)
    table = await _play_fast(service, clock, game_id)
    earned = _earned(table)
    member = await achievements.member(ADA, guild_id=GUILD)
    # Stats name every achievement earned, each score threshold too.
    assert member.earned == tuple(t for a, t in ACHIEVEMENTS.catalogue if a in earned[ADA])
    assert len(member.badges) == len(ACHIEVEMENTS.catalogue)
    assert member.text.startswith(f"Achievements: {len(earned[ADA])} of 25")
    for title in member.earned:
        assert f"{title} (game {game_id})" in member.text
    assert (await achievements.member(ADA, guild_id=GUILD + 1)).earned == ()
    server = await achievements.server(GUILD)
    counts = [
        (title, sum(a in earned[u] for u in PEOPLE))
        for a, title in ACHIEVEMENTS.catalogue
        if any(a in earned[u] for u in PEOPLE)
    ]
    assert server.startswith("Achievements, rarest first: ")
    shown = server.removeprefix("Achievements, rarest first: ").split(", ")
    assert sorted(shown) == sorted(f"{title} ({n})" for title, n in counts)
    assert [int(s.rsplit("(", 1)[1].rstrip(")")) for s in shown] == sorted(n for _, n in counts)


async def test_the_rebuild_counts_the_same_achievements_again(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    games = [
        await _play_fast(service, clock, await _game(service, ADA, BOB)),
        await _play_out(service, clock, await _game(service, ADA, BOB), seed=6),
    ]
    kept = {u: await store.firsts(u, guild_id=None) for u in PEOPLE}
    counts = await store.members_per_achievement(GUILD)
    await store.replace_earned([t.game.id for t in games], [])
    assert await store.members_per_achievement(GUILD) == {}
    for _ in range(2):
        assert await rebuild_achievements(store, ACHIEVEMENTS, batch=1) == 2
        assert {u: await store.firsts(u, guild_id=None) for u in PEOPLE} == kept
        assert await store.members_per_achievement(GUILD) == counts
