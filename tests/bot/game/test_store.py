"""The store against a real SQLite file.

The first half are behavioural tests written against the :class:`Store` protocol only: another
implementation joins them by adding a parameter to the ``store`` fixture. The second half checks
what is particular to :class:`SqliteStore`: connection settings, migrations, restarts and what
other processes may do to the file.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import logging
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.attendance.reminders import catch_up
from bot.db.errors import DatabaseTooNew, MigrationFailed, NotFound, StoreError
from bot.db.schema import Migration, load_migrations, split_statements
from bot.game.errors import (
    AlreadySeated,
    ChannelBusy,
    GameClosed,
    LobbyFull,
    NotActive,
    NotInLobby,
    NotSeated,
    RevisionConflict,
)
from bot.game.rows import (
    Claimer,
    CommitResult,
    GameRow,
    GameStatus,
    OutboxMessage,
    ReminderNote,
    Seat,
)
from bot.stores import SqliteStore, Store, open_store
from tests.bot.clocks import FakeClock

GUILD = 10
CHANNEL = 100
OTHER_CHANNEL = 200
HOST, BOB, CAROL, DAVE, EVE = 1, 2, 3, 4, 5
NAMES = {HOST: "Ada", BOB: "Bob", CAROL: "Carol", DAVE: "Dave", EVE: "Eve"}
START = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
CLOCK_START = START


@pytest.fixture
async def sqlite_store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    async with SqliteStore.open(db_path, now=clock) as opened:
        yield opened


def message(
    kind: str = "board", text: str = "your turn", snapshot: str | None = None
) -> OutboxMessage:
    return OutboxMessage(kind=kind, payload=f'{{"text": "{text}"}}', snapshot=snapshot)


async def lobby(store: Store, players: Sequence[int] = (), channel: int = CHANNEL) -> GameRow:
    game = await store.create_lobby(GUILD, channel, HOST, NAMES[HOST], "A,A,A,A,A")
    for user in players:
        await store.join(game.id, user, NAMES[user])
    current = await store.get_game(game.id)
    assert current is not None
    return current


async def started(store: Store, players: Sequence[int] = (BOB,), channel: int = CHANNEL) -> GameRow:
    game = await lobby(store, players, channel)
    await store.start_game(
        game.id,
        game.revision,
        state_json='{"turn": 0}',
        seat_order=[HOST, *players],
        outbox_messages=[message("start")],
        turn_started_at=START,
        next_reminder_at=START + timedelta(hours=24),
    )
    current = await store.get_game(game.id)
    assert current is not None
    return current


async def move(
    store: Store,
    game: GameRow,
    *,
    revision: int | None = None,
    state: str = '{"turn": 1}',
    status: GameStatus = GameStatus.ACTIVE,
    turn_started_at: datetime = START + timedelta(hours=1),
    messages: Sequence[OutboxMessage] = (),
) -> CommitResult:
    return await store.commit_move(
        game.id,
        game.revision if revision is None else revision,
        user_id=HOST,
        action_text="draft 0",
        new_state_json=state,
        new_status=status,
        outbox_messages=messages or [message()],
        turn_started_at=turn_started_at,
        next_reminder_at=turn_started_at + timedelta(hours=24),
    )


async def everything(store: Store, game_id: int) -> tuple[object, ...]:
    """All that the store holds about a game, to compare before and after a refused write."""
    return (
        await store.get_game(game_id),
        await store.seats(game_id),
        await store.moves(game_id),
        await store.pending(1_000),
    )


# --- lobby ------------------------------------------------------------------------------------


async def test_create_lobby(store: Store) -> None:
    game = await store.create_lobby(GUILD, CHANNEL, HOST, "Ada", "A,B,C,D,E")
    assert game.guild_id == GUILD
    assert game.channel_id == CHANNEL
    assert game.status is GameStatus.LOBBY
    assert game.host_id == HOST
    assert game.cards == "A,B,C,D,E"
    assert game.revision == 1
    assert game.state is None
    assert game.reminder_hours == 24
    assert game.reminders_sent == 0
    assert game.turn_started_at is None
    assert game.next_reminder_at is None
    assert game.created_at == game.updated_at == START
    assert await store.seats(game.id) == [Seat(game.id, 0, HOST, "Ada")]
    assert await store.get_game(game.id) == game
    assert await store.get_active_game(CHANNEL) == game


async def test_unknown_ids(store: Store) -> None:
    assert await store.get_game(999) is None
    assert await store.get_active_game(999) is None
    assert await store.seats(999) == []
    assert await store.moves(999) == []
    with pytest.raises(NotFound, match="no such game: 999"):
        await store.join(999, BOB, "Bob")


async def test_one_open_game_per_channel(store: Store) -> None:
    first = await lobby(store)
    with pytest.raises(ChannelBusy) as busy:
        await store.create_lobby(GUILD, CHANNEL, BOB, "Bob", "A,A,A,A,A")
    assert (busy.value.channel_id, busy.value.game_id) == (CHANNEL, first.id)

    other = await store.create_lobby(GUILD, OTHER_CHANNEL, BOB, "Bob", "A,A,A,A,A")
    assert other.id != first.id

    await store.start_game(
        first.id,
        first.revision,
        state_json="{}",
        seat_order=[HOST],
        outbox_messages=[],
        turn_started_at=START,
        next_reminder_at=None,
    )
    with pytest.raises(ChannelBusy):
        await store.create_lobby(GUILD, CHANNEL, BOB, "Bob", "A,A,A,A,A")

    await store.end_game(first.id)
    again = await store.create_lobby(GUILD, CHANNEL, BOB, "Bob", "A,A,A,A,A")
    assert await store.get_active_game(CHANNEL) == again


async def test_join_and_leave(store: Store, clock: FakeClock) -> None:
    game = await lobby(store)
    clock.advance(timedelta(minutes=5))
    seat = await store.join(game.id, BOB, "Bob")
    assert seat == Seat(game.id, 1, BOB, "Bob")
    await store.join(game.id, CAROL, "Carol")
    after_joins = await store.get_game(game.id)
    assert after_joins is not None
    assert after_joins.revision == game.revision + 2
    assert after_joins.updated_at == clock.now

    with pytest.raises(AlreadySeated):
        await store.join(game.id, BOB, "Bob")

    left = await store.leave(game.id, BOB)
    assert left.status is GameStatus.LOBBY
    assert left.revision == after_joins.revision + 1
    assert await store.seats(game.id) == [
        Seat(game.id, 0, HOST, "Ada"),
        Seat(game.id, 1, CAROL, "Carol"),
    ]
    with pytest.raises(NotSeated):
        await store.leave(game.id, BOB)


async def test_lobby_full(store: Store) -> None:
    game = await lobby(store, [BOB, CAROL, DAVE])
    before = await everything(store, game.id)
    with pytest.raises(LobbyFull) as full:
        await store.join(game.id, EVE, "Eve")
    assert full.value.max_seats == 4
    assert await everything(store, game.id) == before

    with pytest.raises(LobbyFull):
        await store.join((await lobby(store, channel=OTHER_CHANNEL)).id, BOB, "Bob", max_seats=1)


async def test_host_leaving_closes_the_lobby(store: Store) -> None:
    game = await lobby(store, [BOB])
    closed = await store.leave(game.id, HOST)
    assert closed.status is GameStatus.ENDED
    assert await store.seats(game.id) == [Seat(game.id, 0, BOB, "Bob")]
    assert await store.get_active_game(CHANNEL) is None
    with pytest.raises(NotInLobby):
        await store.join(game.id, CAROL, "Carol")


async def test_the_host_hands_the_lobby_on_with_the_news_in_one_write(store: Store) -> None:
    game = await lobby(store, [BOB, CAROL])
    before = await everything(store, game.id)
    with pytest.raises(RevisionConflict):
        await store.hand_over_lobby(
            game.id, game.revision - 1, heir=BOB, outbox_messages=[message("host", "news")]
        )
    with pytest.raises(NotSeated):
        await store.hand_over_lobby(
            game.id, game.revision, heir=DAVE, outbox_messages=[message("host", "news")]
        )
    assert await everything(store, game.id) == before

    done = await store.hand_over_lobby(
        game.id, game.revision, heir=CAROL, outbox_messages=[message("host", "news")]
    )
    after = await store.get_game(game.id)
    assert after is not None
    assert (after.host_id, after.status, after.revision) == (CAROL, GameStatus.LOBBY, done.revision)
    assert done.revision == game.revision + 1
    assert await store.seats(game.id) == [
        Seat(game.id, 0, BOB, "Bob"),
        Seat(game.id, 1, CAROL, "Carol"),
    ]
    [row] = await store.pending()
    assert (row.id, row.kind, row.channel_id) == (done.outbox_ids[0], "host", CHANNEL)
    with pytest.raises(RevisionConflict):
        await store.leave(game.id, BOB, expected_revision=game.revision)


async def test_set_lobby_message(store: Store) -> None:
    game = await lobby(store)
    await store.set_lobby_message(game.id, 5555)
    stored = await store.get_game(game.id)
    assert stored == replace(game, lobby_message_id=5555)
    with pytest.raises(NotFound):
        await store.set_lobby_message(999, 1)


# --- starting ---------------------------------------------------------------------------------


async def test_start_game(store: Store, clock: FakeClock) -> None:
    game = await lobby(store, [BOB, CAROL])
    clock.advance(timedelta(hours=1))
    result = await store.start_game(
        game.id,
        game.revision,
        state_json='{"turn": 0}',
        seat_order=[CAROL, HOST, BOB],
        outbox_messages=[message("start", snapshot='{"big": "state"}')],
        turn_started_at=clock.now,
        next_reminder_at=clock.now + timedelta(hours=24),
    )
    assert result.revision == game.revision + 1
    active = await store.get_game(game.id)
    assert active is not None
    assert active.status is GameStatus.ACTIVE
    assert active.state == '{"turn": 0}'
    assert active.revision == result.revision
    assert active.turn_started_at == clock.now
    assert active.next_reminder_at == clock.now + timedelta(hours=24)
    assert [(seat.seat, seat.user_id, seat.name) for seat in await store.seats(game.id)] == [
        (0, CAROL, "Carol"),
        (1, HOST, "Ada"),
        (2, BOB, "Bob"),
    ]
    [row] = await store.pending()
    assert row.id == result.outbox_ids[0]
    assert (row.game_id, row.channel_id, row.kind) == (game.id, CHANNEL, "start")
    assert row.snapshot == '{"big": "state"}'
    assert row.created_at == clock.now

    with pytest.raises(NotInLobby):
        await store.join(game.id, DAVE, "Dave")
    with pytest.raises(NotInLobby):
        await store.leave(game.id, BOB)


@pytest.mark.parametrize("order", [[HOST], [HOST, BOB, BOB], [HOST, CAROL], [HOST, BOB, CAROL]])
async def test_start_game_needs_every_seated_player_once(store: Store, order: list[int]) -> None:
    game = await lobby(store, [BOB])
    before = await everything(store, game.id)
    with pytest.raises(ValueError, match="seat order"):
        await store.start_game(
            game.id,
            game.revision,
            state_json="{}",
            seat_order=order,
            outbox_messages=[message()],
            turn_started_at=START,
            next_reminder_at=None,
        )
    assert await everything(store, game.id) == before


async def test_start_after_someone_joined_conflicts(store: Store) -> None:
    game = await lobby(store, [BOB])
    await store.join(game.id, CAROL, "Carol")
    before = await everything(store, game.id)
    with pytest.raises(RevisionConflict) as conflict:
        await store.start_game(
            game.id,
            game.revision,
            state_json="{}",
            seat_order=[HOST, BOB],
            outbox_messages=[message()],
            turn_started_at=START,
            next_reminder_at=None,
        )
    assert (conflict.value.expected, conflict.value.actual) == (game.revision, game.revision + 1)
    assert await everything(store, game.id) == before


# --- moves ------------------------------------------------------------------------------------


async def test_commit_move(store: Store, clock: FakeClock) -> None:
    game = await started(store)
    clock.advance(timedelta(hours=2))
    first = await move(store, game, messages=[message("board"), message("ping")])
    assert first.revision == game.revision + 1
    assert len(first.outbox_ids) == 2

    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.state == '{"turn": 1}'
    assert stored.revision == first.revision
    assert stored.updated_at == clock.now

    second = await move(store, stored, state='{"turn": 2}')
    assert second.revision == first.revision + 1

    moves = await store.moves(game.id)
    assert [(row.seq, row.user_id, row.action) for row in moves] == [
        (1, HOST, "draft 0"),
        (2, HOST, "draft 0"),
    ]
    assert moves[0].created_at == clock.now
    assert [row.kind for row in await store.pending()] == ["start", "board", "ping", "board"]


async def test_revision_conflict_changes_nothing(store: Store) -> None:
    game = await started(store)
    await move(store, game)
    before = await everything(store, game.id)
    with pytest.raises(RevisionConflict) as conflict:
        await move(store, game, state='{"turn": "stale"}', messages=[message("stale")])
    assert conflict.value.game_id == game.id
    assert (conflict.value.expected, conflict.value.actual) == (game.revision, game.revision + 1)
    assert await everything(store, game.id) == before


async def test_two_concurrent_moves_one_wins(store: Store) -> None:
    game = await started(store)
    results = await asyncio.gather(
        move(store, game, state='{"by": "first"}'),
        move(store, game, state='{"by": "second"}'),
        return_exceptions=True,
    )
    wins = [result for result in results if isinstance(result, CommitResult)]
    conflicts = [result for result in results if isinstance(result, RevisionConflict)]
    assert len(wins) == 1
    assert len(conflicts) == 1
    assert len(await store.moves(game.id)) == 1
    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.revision == wins[0].revision == game.revision + 1
    assert [row.id for row in await store.pending()][-1] == wins[0].outbox_ids[-1]


async def test_finishing_move(store: Store) -> None:
    game = await started(store)
    result = await move(store, game, state='{"over": true}', status=GameStatus.FINISHED)
    finished = await store.get_game(game.id)
    assert finished is not None
    assert finished.status is GameStatus.FINISHED
    assert finished.revision == result.revision
    assert await store.get_active_game(CHANNEL) is None
    with pytest.raises(NotActive):
        await move(store, finished)
    with pytest.raises(GameClosed):
        await store.end_game(game.id)


async def test_moves_need_an_active_game(store: Store) -> None:
    game = await lobby(store)
    with pytest.raises(NotActive):
        await move(store, game)
    with pytest.raises(ValueError, match="cannot leave a game lobby"):
        await move(store, await started(store, channel=OTHER_CHANNEL), status=GameStatus.LOBBY)


async def test_end_game(store: Store) -> None:
    game = await started(store)
    result = await store.end_game(game.id, outbox_messages=[message("ended")])
    ended = await store.get_game(game.id)
    assert ended is not None
    assert ended.status is GameStatus.ENDED
    assert ended.revision == result.revision == game.revision + 1
    assert ended.next_reminder_at is None
    assert (await store.pending())[-1].kind == "ended"
    with pytest.raises(RevisionConflict):
        await move(store, game)
    with pytest.raises(GameClosed):
        await store.end_game(game.id)


async def test_end_lobby(store: Store) -> None:
    game = await lobby(store, [BOB])
    result = await store.end_game(game.id)
    assert result.outbox_ids == ()
    assert await store.get_active_game(CHANNEL) is None


async def test_pass_host_only_from_the_host(store: Store) -> None:
    game = await started(store, [BOB, CAROL])
    assert await store.pass_host(game.id, old_host=BOB, new_host=CAROL) is False
    assert await store.pass_host(game.id, old_host=HOST, new_host=BOB) is True
    passed = await store.get_game(game.id)
    assert passed is not None
    assert passed.host_id == BOB
    assert passed.revision == game.revision
    assert await store.pass_host(game.id, old_host=HOST, new_host=CAROL) is False


async def test_abandon_channel_ends_its_game_and_drops_its_unsent_messages(store: Store) -> None:
    game = await started(store)
    elsewhere = await started(store, channel=OTHER_CHANNEL)
    [sent, *_] = await store.pending(1_000, channel_id=CHANNEL)
    await store.mark_sent(sent.id, 555)
    await move(store, game)
    assert await store.abandon_channel(CHANNEL) == [game.id]
    ended = await store.get_game(game.id)
    assert ended is not None
    assert ended.status is GameStatus.ENDED
    assert ended.next_reminder_at is None
    assert ended.revision == game.revision + 2
    assert await store.pending(1_000, channel_id=CHANNEL) == []
    kept = await store.get_outbox(sent.id)
    assert kept is not None
    assert kept.message_id == 555
    assert {r.channel_id for r in await store.pending(1_000)} == {OTHER_CHANNEL}
    assert (await store.get_game(elsewhere.id)) == elsewhere
    assert await store.abandon_channel(CHANNEL) == []


# --- players' games ---------------------------------------------------------------------------


async def test_games_for_user(store: Store, clock: FakeClock) -> None:
    playing = await started(store, [BOB], channel=CHANNEL)
    clock.advance(timedelta(minutes=1))
    waiting = await store.create_lobby(GUILD, OTHER_CHANNEL, CAROL, "Carol", "A,A,A,A,A")
    await store.join(waiting.id, BOB, "Bob")
    clock.advance(timedelta(minutes=1))
    over = await started(store, [BOB], channel=300)
    await move(store, over, status=GameStatus.FINISHED)
    await started(store, [CAROL], channel=400)

    games = await store.games_for_user(BOB)
    assert [(entry.game.id, entry.game.status, entry.seat.seat) for entry in games] == [
        (waiting.id, GameStatus.LOBBY, 1),
        (playing.id, GameStatus.ACTIVE, 1),
    ]
    assert all(entry.seat.user_id == BOB for entry in games)

    everything_ = await store.games_for_user(BOB, statuses=set(GameStatus))
    assert [entry.game.id for entry in everything_] == [over.id, waiting.id, playing.id]
    finished = await store.games_for_user(BOB, statuses={GameStatus.FINISHED})
    assert [entry.game.id for entry in finished] == [over.id]
    assert await store.games_for_user(BOB, statuses=()) == []
    assert await store.games_for_user(EVE) == []

    seats = await store.seats_of([playing.id, waiting.id, over.id, 999_999])
    assert seats == {game.id: await store.seats(game.id) for game in (playing, waiting, over)}
    assert [seat.user_id for seat in seats[waiting.id]] == [CAROL, BOB]
    assert await store.seats_of([]) == {}

    here = await store.games_for_user(BOB, statuses=set(GameStatus), channel_id=300)
    assert [entry.game.id for entry in here] == [over.id]
    assert await store.games_for_user(BOB, channel_id=300) == []
    assert await store.games_for_user(CAROL, statuses=set(GameStatus), channel_id=300) == []


# --- outbox -----------------------------------------------------------------------------------


async def test_outbox_pending_and_mark_sent(store: Store, clock: FakeClock) -> None:
    game = await started(store)
    result = await move(store, game, messages=[message("a", snapshot="x" * 10_000), message("b")])
    first, second = result.outbox_ids

    assert [row.kind for row in await store.pending()] == ["start", "a", "b"]
    assert [row.kind for row in await store.pending(limit=2)] == ["start", "a"]

    clock.advance(timedelta(seconds=3))
    await store.mark_sent(first, 777)
    sent = await store.get_outbox(first)
    assert sent is not None
    assert sent.sent_at == clock.now
    assert sent.message_id == 777
    assert sent.snapshot is None
    assert sent.payload == message("a").payload
    assert [row.id for row in await store.pending()] == [result.outbox_ids[0] - 1, second]

    clock.advance(timedelta(seconds=3))
    await store.mark_sent(first, 888)
    assert await store.get_outbox(first) == sent

    with pytest.raises(NotFound, match="no such outbox message: 999"):
        await store.mark_sent(999, 1)


async def test_outbox_mark_failed(store: Store) -> None:
    game = await started(store)
    [row_id] = (await move(store, game)).outbox_ids

    await store.mark_failed(row_id, "503 Service Unavailable")
    await store.mark_failed(row_id, "missing access " + "!" * 5_000)
    failed = await store.get_outbox(row_id)
    assert failed is not None
    assert failed.attempts == 2
    assert failed.last_error is not None
    assert failed.last_error.startswith("missing access")
    assert len(failed.last_error) <= 2_000
    assert failed.sent_at is None
    assert row_id in [row.id for row in await store.pending()]
    assert row_id not in [row.id for row in await store.pending(max_attempts=2)]
    assert row_id in [row.id for row in await store.pending(max_attempts=3)]

    await store.mark_sent(row_id, 1)
    await store.mark_failed(row_id, "late report")
    sent = await store.get_outbox(row_id)
    assert sent is not None
    assert (sent.attempts, sent.last_error) == (2, failed.last_error)

    with pytest.raises(NotFound):
        await store.mark_failed(999, "boom")


# --- reminders --------------------------------------------------------------------------------


async def test_due_reminders(store: Store) -> None:
    due = await started(store, channel=CHANNEL)
    await started(store, channel=OTHER_CHANNEL)
    off = await started(store, channel=300)
    await store.set_reminder_hours(off.id, 0, next_reminder_at=None)
    await lobby(store, channel=400)
    ended = await started(store, channel=500)
    await store.end_game(ended.id)

    await move(store, await started(store, channel=600), turn_started_at=START + timedelta(days=2))

    at = START + timedelta(hours=24)
    rows = await store.due_reminders(at)
    assert {row.channel_id for row in rows} == {CHANNEL, OTHER_CHANNEL}
    assert await store.due_reminders(at - timedelta(microseconds=1)) == []
    assert due.id in [row.id for row in rows]


async def test_record_reminder(store: Store) -> None:
    game = await started(store)
    next_at = START + timedelta(hours=48)
    note = ReminderNote(game.id, game.revision, next_at, (message("reminder"),))
    [result] = (await store.record_reminders([note])).values()
    assert result.revision == game.revision
    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.reminders_sent == 1
    assert stored.next_reminder_at == next_at
    assert stored.revision == game.revision
    assert stored.updated_at == game.updated_at
    assert (await store.pending())[-1].kind == "reminder"

    # The move made for this reminder is still at the current revision.
    await move(store, stored, turn_started_at=game.turn_started_at or START)
    same_turn = await store.get_game(game.id)
    assert same_turn is not None
    assert same_turn.reminders_sent == 1

    await move(store, same_turn, turn_started_at=START + timedelta(days=1))
    new_turn = await store.get_game(game.id)
    assert new_turn is not None
    assert new_turn.reminders_sent == 0


async def test_a_stale_reminder_changes_nothing(store: Store) -> None:
    game = await started(store)
    await move(store, game)
    before = await everything(store, game.id)
    note = ReminderNote(game.id, game.revision, None, (message("reminder"),))
    assert await store.record_reminders([note]) == {}
    assert await everything(store, game.id) == before


async def test_record_reminders_at_once_leaves_out_what_changed(store: Store) -> None:
    due = await started(store, channel=CHANNEL)
    moved = await started(store, channel=OTHER_CHANNEL)
    ended = await started(store, channel=300)
    await move(store, moved)
    await store.end_game(ended.id)
    untouched = [await store.get_game(moved.id), await store.get_game(ended.id)]
    next_at = START + timedelta(hours=48)
    notes = [
        ReminderNote(game.id, game.revision, next_at, (message("reminder", text=str(game.id)),))
        for game in (moved, due, ended)
    ] + [ReminderNote(98765, 1, next_at, (message("reminder"),))]

    results = await store.record_reminders(notes)

    assert list(results) == [due.id]
    assert results[due.id].revision == due.revision
    stored = await store.get_game(due.id)
    assert stored is not None
    assert (stored.reminders_sent, stored.next_reminder_at) == (1, next_at)
    [reminder] = [row for row in await store.pending() if row.kind == "reminder"]
    assert (reminder.id,) == results[due.id].outbox_ids
    assert reminder.channel_id == CHANNEL
    assert [await store.get_game(moved.id), await store.get_game(ended.id)] == untouched
    assert await store.record_reminders([]) == {}


async def test_claim_games_claims_what_is_free_and_owned(store: Store) -> None:
    games = [await started(store, channel=channel) for channel in (CHANNEL, OTHER_CHANNEL, 300)]
    ids = [game.id for game in games]
    one, two = Claimer("one"), Claimer("two")
    assert await store.claim_game(ids[0], two)
    assert await store.claim_games([*ids, 98765], one) == set(ids[1:])
    # Claiming again renews one's own; two keeps its game.
    assert await store.claim_games(ids, one) == set(ids[1:])
    assert await store.claim_games(ids, two) == {ids[0]}
    elsewhere = Claimer("elsewhere", shard_ids=(1,), shard_count=2)
    assert not any(elsewhere.owns(game.guild_id) for game in games)
    assert await store.claim_games(ids, elsewhere) == set()
    assert await store.claim_games([], one) == set()


async def test_reminders_after_downtime_send_one(store: Store) -> None:
    game = await started(store)
    now = START + timedelta(days=4, hours=3)  # the bot was down for days

    sent = 0
    for _ in range(3):  # three polls in a row at the same moment
        for row in await store.due_reminders(now):
            due = catch_up(now, row.next_reminder_at, row.reminder_hours, row.reminders_sent)
            assert due is not None
            note = ReminderNote(
                row.id, row.revision, due.next_reminder_at, (message("reminder", text=due.level),)
            )
            sent += len(await store.record_reminders([note]))
    assert sent == 1
    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.next_reminder_at == now + timedelta(hours=24)
    assert await store.due_reminders(now + timedelta(hours=24)) == [stored]


async def test_set_reminder_hours(store: Store) -> None:
    game = await started(store)
    updated = await store.set_reminder_hours(
        game.id, 6, next_reminder_at=START + timedelta(hours=6)
    )
    assert updated == replace(game, reminder_hours=6, next_reminder_at=START + timedelta(hours=6))
    with pytest.raises(ValueError, match="0 or more"):
        await store.set_reminder_hours(game.id, -1, next_reminder_at=None)
    await store.end_game(game.id)
    with pytest.raises(GameClosed):
        await store.set_reminder_hours(game.id, 12, next_reminder_at=None)


# --- SqliteStore in particular ----------------------------------------------------------------


def raw(db_path: Path) -> sqlite3.Connection:
    """A second, plain connection to the file, as another process or an operator would have."""
    return sqlite3.connect(db_path, isolation_level=None)


async def test_connection_settings(sqlite_store: SqliteStore) -> None:
    async with sqlite_store.transaction() as db:
        settings = {
            name: next(iter(await db.execute_fetchall(f"PRAGMA {name}")))[0]
            for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")
        }
    assert settings == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 2,
        "busy_timeout": 5000,
    }


async def test_migrations_from_empty(sqlite_store: SqliteStore, db_path: Path) -> None:
    assert await sqlite_store.schema_version() == len(load_migrations()) >= 1
    with raw(db_path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"games", "seats", "moves", "outbox", "games_one_open_per_channel"} <= names


async def test_each_applied_migration_is_logged(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    async with SqliteStore.open(db_path):
        pass
    applied = [r.getMessage() for r in caplog.records if r.getMessage().startswith("applied")]
    assert applied == [f"applied migration {m.version:04d} {m.name}" for m in load_migrations()]
    caplog.clear()
    async with SqliteStore.open(db_path):
        pass
    assert not [r for r in caplog.records if r.getMessage().startswith("applied")]


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (DatabaseTooNew(3, 2), "database schema version 3 is newer than this code knows (2)"),
        (NotFound("game", 7), "no such game: 7"),
        (ChannelBusy(10, 3), "channel 10 already has an open game: 3"),
        (NotInLobby(3, GameStatus.ACTIVE), "game 3 is active"),
        (LobbyFull(3, 4), "game 3 is full: 4 seats"),
        (AlreadySeated(3, 100), "user 100 is already seated at game 3"),
        (NotSeated(3, 100), "user 100 is not seated at game 3"),
        (RevisionConflict(3, 4, 5), "game 3 is at revision 5, not 4"),
    ],
)
def test_errors_say_what_they_carry(error: StoreError, text: str) -> None:
    assert str(error) == text
    assert isinstance(error, StoreError)


def test_shipped_migrations_are_numbered_and_explained() -> None:
    migrations = load_migrations()
    assert [migration.version for migration in migrations] == list(range(1, len(migrations) + 1))
    for migration in migrations:
        assert migration.sql.startswith(f"-- {migration.version:04d}_{migration.name}: ")
        assert migration.statements
        # The runner owns the transaction around each migration.
        first_words = {first_word(statement) for statement in migration.statements}
        assert not first_words & {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"}


def first_word(statement: str) -> str:
    code = [line for line in statement.splitlines() if not line.lstrip().startswith("--")]
    return " ".join(code).split()[0].upper()


def test_split_statements() -> None:
    script = """-- header; with a semicolon
CREATE TABLE a (x TEXT DEFAULT 'a;b');
CREATE TRIGGER t BEFORE DELETE ON a
BEGIN
    SELECT RAISE(ABORT, 'no');
END;
-- trailing comment
"""
    assert split_statements(script) == (
        "-- header; with a semicolon\nCREATE TABLE a (x TEXT DEFAULT 'a;b');",
        "CREATE TRIGGER t BEFORE DELETE ON a\nBEGIN\n    SELECT RAISE(ABORT, 'no');\nEND;",
    )
    with pytest.raises(ValueError, match="unterminated"):
        split_statements("CREATE TABLE a (x);\nCREATE TABLE b (y)")


async def test_reopen_is_idempotent_and_keeps_data(db_path: Path, clock: FakeClock) -> None:
    async with SqliteStore.open(db_path, now=clock) as store:
        game = await started(store)
        result = await move(store, game)
        await store.mark_sent(result.outbox_ids[0], 42)
        version = await store.schema_version()
        before = await everything(store, game.id)

    async with SqliteStore.open(db_path, now=clock) as store:
        assert await store.schema_version() == version
        assert await everything(store, game.id) == before
        assert await store.get_active_game(CHANNEL) == before[0]
        sent = await store.get_outbox(result.outbox_ids[0])
        assert sent is not None
        assert sent.message_id == 42
        stored = await store.get_game(game.id)
        assert stored is not None
        await move(store, stored, state='{"after": "restart"}')
        assert len(await store.moves(game.id)) == 2


async def test_upgrade_from_0001_keeps_every_row(db_path: Path, clock: FakeClock) -> None:
    """A database of the first schema, with sent and unsent messages, upgrades to the current
    one: rows, ids and unsent snapshots are all kept, and new ids continue after the old."""
    first = load_migrations()[:1]
    async with SqliteStore.open(db_path, now=clock, migrations=first):
        pass
    with raw(db_path) as db:
        # A started game with one move, written as the 0001 code did (today's store reads
        # columns 0001 lacks): the snapshot in the outbox row, cleared when sent.
        stamp = "2024-05-01T18:00:00.000000+00:00"
        game_id = db.execute(
            "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
            " updated_at, revision, state, reminder_hours, turn_started_at, next_reminder_at)"
            " VALUES (?, ?, 'active', ?, 'A,A,A,A,A', ?, ?, 3, '{\"turn\": 1}', 24, ?, ?)",
            (GUILD, CHANNEL, HOST, stamp, stamp, stamp, stamp),
        ).lastrowid
        assert game_id is not None
        db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
            [(game_id, 0, HOST, "host"), (game_id, 1, BOB, "bob")],
        )
        db.execute(
            "INSERT INTO moves (game_id, seq, user_id, action, created_at)"
            " VALUES (?, 1, ?, 'draft 0', ?)",
            (game_id, HOST, stamp),
        )
        for kind, snapshot in (("start", "first state"), ("turn", None), ("turn", "state to draw")):
            db.execute(
                "INSERT INTO outbox (game_id, channel_id, kind, payload, snapshot, created_at)"
                " VALUES (?, ?, ?, '{}', ?, ?)",
                (game_id, CHANNEL, kind, snapshot, stamp),
            )
        db.execute("UPDATE outbox SET sent_at = created_at, message_id = 9, snapshot = NULL"
                   " WHERE id = 1")  # fmt: skip
        db.execute("UPDATE outbox SET attempts = 2, last_error = 'HTTP 500' WHERE id = 2")
        ids = [row[0] for row in db.execute("SELECT id FROM outbox ORDER BY id")]
        old_rows = db.execute(
            "SELECT id, game_id, channel_id, kind, payload, created_at, attempts, last_error,"
            " sent_at, message_id FROM outbox ORDER BY id"
        ).fetchall()
        snapshots = dict(db.execute("SELECT id, snapshot FROM outbox ORDER BY id").fetchall())
        # Later migrations may add columns: the old ones keep their values.
        columns = {
            t: ", ".join(c[1] for c in db.execute(f"PRAGMA table_info({t})"))
            for t in ("games", "seats", "moves")
        }
        rest = {t: db.execute(f"SELECT {c} FROM {t}").fetchall() for t, c in columns.items()}
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # made with it already on
        db.execute("PRAGMA auto_vacuum = NONE")
        db.execute("VACUUM")  # as a file made before incremental auto-vacuum
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 0

    async with SqliteStore.open(db_path, now=clock) as store:
        assert await store.schema_version() == len(load_migrations())
        for outbox_id in ids:
            row = await store.get_outbox(outbox_id)
            assert row is not None
            assert row.snapshot == snapshots[outbox_id]
        assert [row.id for row in await store.pending()] == ids[1:]
        with raw(db_path) as db:
            assert {
                t: db.execute(f"SELECT {c} FROM {t}").fetchall() for t, c in columns.items()
            } == rest
        stored = await store.get_game(game_id)
        assert stored is not None
        added = await move(store, stored, messages=[message("next", snapshot="more")])
        assert added.outbox_ids[0] > max(ids)
    with raw(db_path) as db:
        assert (
            db.execute(
                "SELECT id, game_id, channel_id, kind, payload, created_at, attempts, last_error,"
                " sent_at, message_id FROM outbox WHERE id <= ? ORDER BY id",
                (max(ids),),
            ).fetchall()
            == old_rows
        )
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_sent_snapshots_are_deleted_and_their_space_given_back(
    sqlite_store: SqliteStore, db_path: Path
) -> None:
    game = await started(sqlite_store)
    big = [message(f"m{i}", snapshot="x" * 20_000) for i in range(20)]
    result = await move(sqlite_store, game, messages=big)
    with raw(db_path) as db:
        pages_full = db.execute("PRAGMA page_count").fetchone()[0]
    for number, outbox_id in enumerate(result.outbox_ids):
        await sqlite_store.mark_sent(outbox_id, 1000 + number)
    with raw(db_path) as db:
        assert db.execute("SELECT count(*) FROM outbox_snapshots").fetchone()[0] == 0
    assert await sqlite_store.reclaim_space() > 80
    assert await sqlite_store.reclaim_space() == 0
    with raw(db_path) as db:
        assert db.execute("PRAGMA page_count").fetchone()[0] < pages_full - 80
    sent = await sqlite_store.get_outbox(result.outbox_ids[0])
    assert sent is not None
    assert sent.snapshot is None
    assert sent.payload == big[0].payload


async def test_refuses_a_newer_database(db_path: Path) -> None:
    async with SqliteStore.open(db_path):
        pass
    known = len(load_migrations())
    with raw(db_path) as db:
        db.execute(f"PRAGMA user_version = {known + 1}")
    with pytest.raises(DatabaseTooNew) as too_new:
        await SqliteStore.connect(db_path)
    assert (too_new.value.found, too_new.value.known) == (known + 1, known)
    with raw(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == known + 1


async def test_a_failing_migration_leaves_the_last_good_version(db_path: Path) -> None:
    shipped = load_migrations()
    broken = Migration(
        version=len(shipped) + 1,
        name="broken",
        sql="CREATE TABLE extra (x INTEGER);\nCREATE TABLE games (y INTEGER);\n",
    )
    with pytest.raises(MigrationFailed, match="already exists") as failed:
        await SqliteStore.connect(db_path, migrations=[*shipped, broken])
    assert isinstance(failed.value.__cause__, sqlite3.OperationalError)
    assert f"migrations 0001 to {len(shipped):04d} before it were applied" in str(failed.value)
    with raw(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(shipped)
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []
    async with SqliteStore.open(db_path) as store:
        assert await store.schema_version() == len(shipped)


async def test_migrations_must_have_no_gaps(db_path: Path) -> None:
    with pytest.raises(StoreError, match="without gaps"):
        await SqliteStore.connect(db_path, migrations=[Migration(2, "two", "SELECT 1;")])


async def test_transaction_rolls_back_on_error(sqlite_store: SqliteStore) -> None:
    game = await lobby(sqlite_store)

    async def change_then_fail() -> None:
        async with sqlite_store.transaction() as db:
            await db.execute("UPDATE games SET cards = 'changed' WHERE id = ?", (game.id,))
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await change_then_fail()
    assert await sqlite_store.get_game(game.id) == game
    # The connection is usable afterwards: no transaction was left open.
    await sqlite_store.join(game.id, BOB, "Bob")


async def test_transaction_is_not_reentrant(sqlite_store: SqliteStore) -> None:
    game = await lobby(sqlite_store)
    with pytest.raises(RuntimeError, match="deadlock"):
        async with sqlite_store.transaction():
            await sqlite_store.get_game(game.id)


@pytest.mark.parametrize("statement", range(1, 8))
async def test_cancelled_write_is_all_or_nothing(sqlite_store: SqliteStore, statement: int) -> None:
    """Cancel a move while its n-th statement (BEGIN ... COMMIT) runs on aiosqlite's thread."""
    game = await started(sqlite_store)
    loop = asyncio.get_running_loop()
    seen = 0
    task: asyncio.Task[CommitResult] | None = None

    def cancel_at_statement(sql: str) -> None:
        nonlocal seen
        seen += 1
        if seen == statement and task is not None and not task.done():
            loop.call_soon_threadsafe(task.cancel)

    async with sqlite_store.transaction() as db:
        await db.set_trace_callback(cancel_at_statement)
    seen = 0
    task = asyncio.create_task(move(sqlite_store, game))
    with contextlib.suppress(asyncio.CancelledError):
        await task

    stored = await sqlite_store.get_game(game.id)
    assert stored is not None
    applied = len(await sqlite_store.moves(game.id))
    assert stored.revision == game.revision + applied
    assert len(await sqlite_store.pending()) == 1 + applied
    # No transaction was left open: the next write goes through.
    await move(sqlite_store, stored)


async def test_schema_backstops(sqlite_store: SqliteStore, db_path: Path) -> None:
    game = await started(sqlite_store)
    await move(sqlite_store, game)
    with raw(db_path) as db:
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            db.execute(
                "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
                " updated_at, revision) VALUES (1, ?, 'lobby', 1, '', '', '', 1)",
                (CHANNEL,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE moves SET action = 'rewritten'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM moves")
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            db.execute("UPDATE games SET status = 'paused'")


async def test_two_processes_one_move_wins(database: str, clock: FakeClock) -> None:
    async with (
        open_store(database, now=clock) as first,
        open_store(database, now=clock) as second,
    ):
        game = await started(first)
        results = await asyncio.gather(
            move(first, game, state='{"by": "first"}'),
            move(second, game, state='{"by": "second"}'),
            return_exceptions=True,
        )
        assert sorted(type(result).__name__ for result in results) == [
            "CommitResult",
            "RevisionConflict",
        ]
        assert len(await second.moves(game.id)) == 1


async def test_corrupt_state_is_returned_as_is(sqlite_store: SqliteStore, db_path: Path) -> None:
    broken = await started(sqlite_store, channel=CHANNEL)
    healthy = await started(sqlite_store, channel=OTHER_CHANNEL)
    with raw(db_path) as db:
        db.execute(
            "UPDATE games SET state = ? WHERE id = ?", ('{"turn": 1, \x00garbage', broken.id)
        )

    stored = await sqlite_store.get_game(broken.id)
    assert stored is not None
    assert stored.state == '{"turn": 1, \x00garbage'
    assert await sqlite_store.get_active_game(CHANNEL) == stored
    assert {entry.game.id for entry in await sqlite_store.games_for_user(HOST)} == {
        broken.id,
        healthy.id,
    }

    await move(sqlite_store, healthy)
    assert len(await sqlite_store.moves(healthy.id)) == 1
    # The caller may still end the unreadable game.
    await sqlite_store.end_game(broken.id)


async def test_naive_times_are_refused(sqlite_store: SqliteStore) -> None:
    game = await started(sqlite_store)
    with pytest.raises(ValueError, match="naive"):
        await sqlite_store.due_reminders(datetime(2024, 5, 1, 18, 0))
    with pytest.raises(ValueError, match="naive"):
        await move(sqlite_store, game, turn_started_at=datetime(2024, 5, 2))


async def test_closed_store(db_path: Path) -> None:
    store = await SqliteStore.connect(db_path)
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.get_game(1)


def test_store_modules_import_no_discord_and_no_rules() -> None:
    root = Path(__file__).resolve().parents[3] / "bot"
    modules = [(path, {"aiosqlite", "asyncpg"}) for path in sorted((root / "db").glob("*.py"))]
    for module, allowed_third_party in [*modules, (root / "attendance" / "reminders.py", set())]:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        outside = {
            name
            for name in imported
            if name not in sys.stdlib_module_names and name not in ("__future__", "bot")
        }
        assert outside <= allowed_third_party, (module, outside)
