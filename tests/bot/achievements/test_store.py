"""The achievements' store on both backends: a person's firsts, a server's members per
achievement, what a server earned already, and a rewrite that replaces a game's rows."""

from __future__ import annotations

from datetime import timedelta

from bot.achievements.store import Earned
from bot.game.rows import GameStatus
from bot.stores import Store
from tests.bot.clocks import START

GUILD, OTHER = 1, 2
ADA, BOB = 100, 200


async def _games(store: Store, count: int, *, guild: int = GUILD) -> list[int]:
    ids = []
    for n in range(count):
        lobby = await store.create_lobby(guild, 10 + n + 100 * guild, ADA, "Ada", "A,A,A,A,A")
        ids.append(lobby.id)
    return ids


def _row(game: int, user: int, achievement: str, minute: int, guild: int = GUILD) -> Earned:
    return Earned(game, user, achievement, guild, START + timedelta(minutes=minute))


async def test_a_person_s_first_game_per_achievement_is_the_earliest_finished(
    store: Store,
) -> None:
    first, second, elsewhere = [*await _games(store, 2), *await _games(store, 1, guild=OTHER)]
    await store.replace_earned(
        [first, second, elsewhere],
        [
            # The game opened second finished first.
            _row(second, ADA, "no-bear", 1),
            _row(first, ADA, "no-bear", 5),
            _row(first, ADA, "score-80", 5),
            _row(elsewhere, ADA, "five-nature", 9, guild=OTHER),
            _row(first, BOB, "score-80", 5),
        ],
    )
    here = {f.achievement: f.game_id for f in await store.firsts(ADA, guild_id=GUILD)}
    assert here == {"no-bear": second, "score-80": first}
    everywhere = {f.achievement: f.game_id for f in await store.firsts(ADA, guild_id=None)}
    assert everywhere == {**here, "five-nature": elsewhere}
    assert await store.achievements_of(ADA) == {"no-bear", "score-80", "five-nature"}
    assert await store.achievements_of(BOB) == {"score-80"}


async def test_a_server_counts_its_members_per_achievement(store: Store) -> None:
    first, second, elsewhere = [*await _games(store, 2), *await _games(store, 1, guild=OTHER)]
    await store.replace_earned(
        [first, second, elsewhere],
        [
            _row(first, ADA, "score-80", 1),
            _row(second, ADA, "score-80", 2),
            _row(second, BOB, "score-80", 2),
            _row(second, BOB, "no-fox", 2),
            _row(elsewhere, ADA, "ten-nature", 3, guild=OTHER),
        ],
    )
    assert await store.members_per_achievement(GUILD) == {"score-80": 2, "no-fox": 1}
    assert await store.earned_in_guild(GUILD, {"no-fox", "ten-nature", "no-bear"}) == {"no-fox"}
    assert await store.earned_in_guild(OTHER, {"no-fox", "ten-nature"}) == {"ten-nature"}


async def test_replacing_a_game_s_rows_forgets_the_old_ones(store: Store) -> None:
    (game,) = await _games(store, 1)
    rows = [_row(game, ADA, "score-80", 1), _row(game, ADA, "no-bear", 1)]
    await store.replace_earned([game], rows)
    await store.replace_earned([game], rows)
    assert await store.achievements_of(ADA) == {"score-80", "no-bear"}
    await store.replace_earned([game], rows[:1])
    assert await store.achievements_of(ADA) == {"score-80"}
    await store.replace_earned([], [])


async def _attempt(store: Store, channel: int, *, counted: bool) -> int:
    started = await store.start_daily(
        guild_id=GUILD,
        channel_id=channel,
        user_id=ADA,
        name="Ada",
        day="2026-12-02",
        counted=counted,
        cards="ABCDA",
        state_json="{}",
        outbox_messages=[],
        turn_started_at=START,
    )
    return started.game.id


async def _finish(store: Store, game_id: int, *rows: Earned) -> None:
    game = await store.get_game(game_id)
    assert game is not None
    await store.commit_move(
        game_id,
        game.revision,
        user_id=ADA,
        action_text="take 1 1; tile 0,1 0; token return",
        new_state_json="{}",
        new_status=GameStatus.FINISHED,
        outbox_messages=[],
        turn_started_at=START,
        next_reminder_at=None,
        writes=[store.earned_write(rows)],
    )


async def test_the_final_commit_writes_the_rows_and_practice_is_left_out(store: Store) -> None:
    (lobby,) = await _games(store, 1)
    counted = await _attempt(store, 1, counted=True)
    practice = await _attempt(store, 2, counted=False)
    await _finish(store, counted, _row(counted, ADA, "no-elk", 3))
    await _finish(store, practice)
    assert await store.achievements_of(ADA) == {"no-elk"}
    assert [f.finished_at for f in await store.firsts(ADA, guild_id=GUILD)] == [
        START + timedelta(minutes=3)
    ]
    assert await store.is_practice(practice)
    assert not await store.is_practice(counted)
    assert not await store.is_practice(lobby)
    assert await store.finished_games_after(0, 10) == [counted]
    assert await store.finished_games_after(counted, 10) == []
