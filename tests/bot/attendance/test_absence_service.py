"""Deadlines, votes to skip, time away and quiet hours, through the service and a real SQLite
file, on a clock the tests move by hand: who is pinged, what is logged and when. What the
messages say is in the golden transcripts (``tests/bot/attendance/golden``)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from bot.app import game_service
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import (
    Attendance,
    BadSetting,
    CannotSkip,
    OwnTurn,
    TurnPlayed,
    VoteClosed,
)
from bot.game.computers import Thinker, think
from bot.game.errors import NotHost, NotInGame
from bot.game.outbox import Announcement
from bot.game.records import move_text
from bot.game.service import GameService, LoadedGame
from bot.stores import Store
from engine import GameState, Move, choose
from tests.bot.clocks import FakeClock
from tests.bot.queued import queued

GUILD, CHANNEL = 1, 10
ADA, BOB, CY, DEE = 100, 200, 300, 400
H = timedelta(hours=1)
START = datetime(2026, 6, 1, 12, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def attendance(service: GameService) -> Attendance:
    return Attendance(service)


async def started(service: GameService, *users: int, deadline: int = 24) -> LoadedGame:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    await service.lobby.start(table.game.id, user_id=users[0])
    if deadline:
        await service.store_as(Store).set_deadline_hours(table.game.id, deadline)
    return await service.game(CHANNEL)


def to_move(table: LoadedGame) -> int:
    return table.players[table.require_state().current].user_id


def others(table: LoadedGame) -> list[int]:
    return [p.user_id for p in table.players if p.user_id != to_move(table)]


async def play_best(service: GameService, table: LoadedGame) -> LoadedGame:
    """The player to move plays (the ``fast`` player's choice, as a normal move)."""
    turn = Move.parse(move_text(choose(table.require_state(), "fast", seed=1)))
    await service.turns.play(CHANNEL, user_id=to_move(table), move=turn)
    return await service.game(CHANNEL)


def pinged(announcement: Announcement) -> set[int]:
    return {int(u) for u in re.findall(r"<@(\d+)>", announcement.text)} & set(announcement.mentions)


# --- deadlines and votes -------------------------------------------------------------------------


async def test_a_vote_opens_once_when_the_deadline_passes(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, CY)
    await queued(store)
    clock.now = START + 24 * H - timedelta(seconds=1)
    assert await attendance.check() == []
    clock.now = START + 24 * H
    assert len(await attendance.check()) == 1
    assert await attendance.check() == []
    [vote] = await queued(store, "vote")
    assert vote.mentions == ()
    assert vote.buttons == (("Vote to Skip", f"cascadia:skip:{table.game.id}:0"),)
    assert await store.moves(table.game.id) == [], "nothing is skipped without a vote"


async def test_a_majority_of_the_others_skips_and_the_absent_players_press_does_not(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, CY)
    absent, (first, second) = to_move(table), others(table)
    clock.now = START + 25 * H
    await attendance.check()
    await queued(store)
    game_id = table.game.id

    with pytest.raises(OwnTurn, match="does not skip"):
        await attendance.vote(game_id, 0, user_id=absent)
    with pytest.raises(NotInGame):
        await attendance.vote(game_id, 0, user_id=DEE)
    outcome = await attendance.vote(game_id, 0, user_id=first)
    assert (outcome.tally.counted, outcome.tally.needed, outcome.skipped) == (1, 2, None)
    again = await attendance.vote(game_id, 0, user_id=first)
    assert not again.counted
    assert again.tally.counted == 1
    assert await store.moves(game_id) == []

    decided = await attendance.vote(game_id, 0, user_id=second)
    assert decided.skipped is not None
    [move] = await store.moves(game_id)
    assert (move.user_id, move.played_for) == (absent, "vote")
    [exported] = (await service.lookups.export(CHANNEL, user_id=first))["moves"]
    assert exported["played_for"] == "vote"
    [turn] = await queued(store, "turn")
    after = await service.game(CHANNEL)
    assert pinged(turn) == {to_move(after)}
    assert to_move(after) != absent
    assert after.seat_of(absent) is not None, "the skipped player keeps the seat"
    with pytest.raises(VoteClosed):
        await attendance.vote(game_id, 0, user_id=first)


async def test_a_move_during_a_vote_closes_it(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    voter = others(table)[0]
    clock.now = START + 30 * H
    await attendance.check()
    await play_best(service, table)
    with pytest.raises(VoteClosed, match="has been played"):
        await attendance.vote(table.game.id, 0, user_id=voter)
    [move] = await store.moves(table.game.id)
    assert move.played_for is None


async def test_a_vote_decided_before_a_restart_is_carried_out_by_the_check(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    clock.now = START + 30 * H
    await attendance.check()
    # The vote was stored, then the process stopped before the skip was committed.
    assert await store.add_skip_vote(table.game.id, 0, others(table)[0])
    assert await store.moves(table.game.id) == []
    await attendance.check()
    [move] = await store.moves(table.game.id)
    assert move.played_for == "vote"
    await attendance.check()
    assert len(await store.moves(table.game.id)) == 1


async def test_the_next_turn_gets_its_own_deadline(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    clock.now = START + 10 * H
    table = await play_best(service, table)
    [turn] = await queued(store, "turn")
    assert f"<t:{int((START + 34 * H).timestamp())}:R>" in turn.text
    clock.now = START + 33 * H
    assert await attendance.check() == []
    clock.now = START + 34 * H
    assert len(await attendance.check()) == 1
    [vote] = await queued(store, "vote")
    assert vote.buttons == (("Vote to Skip", f"cascadia:skip:{table.game.id}:1"),)


async def test_without_a_deadline_or_other_players_no_vote_opens(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    await started(service, ADA, deadline=24)  # solo: nobody to vote
    clock.now = START + 100 * H
    assert await attendance.check() == []
    table = await service.game(CHANNEL)
    await service.turns.end(table.game.id, user_id=ADA, name="u100", can_manage=False)
    table = await started(service, ADA, BOB, deadline=0)
    assert await attendance.check() == []
    assert await store.skip_poll(table.game.id, 0) is None


# --- the host's skip and the handover ------------------------------------------------------------


async def test_the_host_skips_at_once_and_others_may_not(
    service: GameService, attendance: Attendance, store: Store
) -> None:
    table = await started(service, ADA, BOB, CY, deadline=0)
    if to_move(table) == ADA:
        table = await play_best(service, table)
    player = to_move(table)
    other = next(u for u in (BOB, CY) if u != player)
    with pytest.raises(NotHost):
        await attendance.check_can_skip(CHANNEL, user_id=other, can_manage=False)
    with pytest.raises(OwnTurn):
        await attendance.check_can_skip(CHANNEL, user_id=player, can_manage=True)
    assert (await attendance.check_can_skip(CHANNEL, user_id=ADA, can_manage=False)).user_id == (
        player
    )
    turn = table.require_state().turn
    moves = len(await store.moves(table.game.id))
    await attendance.skip(table.game.id, turn, user_id=other, name="mod", can_manage=True)
    logged = await store.moves(table.game.id)
    assert len(logged) == moves + 1
    assert (logged[-1].user_id, logged[-1].played_for) == (player, "host")
    assert len(await queued(store, "turn")) == 1
    with pytest.raises(CannotSkip, match="played meanwhile"):
        await attendance.skip(table.game.id, turn, user_id=ADA, name="u100", can_manage=False)


class TogetherThinker(Thinker):
    """Each choice waits until ``parties`` choices are asked for: the skips asked at once have
    all loaded the game before any of them commits."""

    def __init__(self, parties: int) -> None:
        super().__init__()
        self.barrier = asyncio.Barrier(parties)

    async def choose(self, state: GameState, policy: str, *, seed: int) -> Move:
        async with asyncio.timeout(10):
            await self.barrier.wait()
        return await super().choose(state, policy, seed=seed)


async def test_a_skip_question_skips_its_turn_once_and_then_says_it_was_played(
    store: Store, clock: FakeClock
) -> None:
    service = game_service(store, now=clock, seeds=lambda: 5, thinker=TogetherThinker(2))
    attendance = Attendance(service)
    table = await started(service, ADA, BOB, deadline=0)
    if to_move(table) == ADA:
        table = await play_best(service, table)
    await queued(store)
    game_id, turn = table.game.id, table.require_state().turn
    moves = len(await store.moves(game_id))

    # The same confirmation pressed twice at once: one skip, the other press is told so.
    outcomes = await asyncio.gather(
        *(
            attendance.skip(game_id, turn, user_id=ADA, name="u100", can_manage=False)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["CommitResult", "TurnPlayed"], outcomes
    logged = await store.moves(game_id)
    assert [m.played_for for m in logged[moves:]] == ["host"]
    assert len(await queued(store, "turn")) == 1

    # Now it is Ada's own turn: her old question is stale, whoever is to move.
    assert to_move(await service.game(CHANNEL)) == ADA
    service.thinker = Thinker()
    with pytest.raises(TurnPlayed, match="played meanwhile: nothing was skipped"):
        await attendance.skip(game_id, turn, user_id=ADA, name="u100", can_manage=False)
    # Once the game is over, a question says so, even one about the turn to play.
    await service.turns.end(game_id, user_id=ADA, name="u100", can_manage=False)
    with pytest.raises(CannotSkip, match="This game is over"):
        await attendance.skip(game_id, turn + 1, user_id=ADA, name="u100", can_manage=False)
    assert len(await store.moves(game_id)) == moves + 1


async def test_two_skips_in_a_row_offer_the_seat_to_the_computer(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, deadline=0)
    if to_move(table) == ADA:
        table = await play_best(service, table)
    game_id = table.game.id
    await attendance.skip(
        game_id, table.require_state().turn, user_id=ADA, name="a", can_manage=False
    )
    table = await play_best(service, await service.game(CHANNEL))  # Ada plays
    await queued(store)
    await attendance.skip(
        game_id, table.require_state().turn, user_id=ADA, name="a", can_manage=False
    )
    [turn] = await queued(store, "turn")
    bob_seat = table.seat_of(BOB)
    assert turn.buttons == (("Hand seat to computer", f"cascadia:computer:{game_id}:{bob_seat}"),)

    with pytest.raises(NotHost):
        await attendance.hand_over(game_id, 1, user_id=BOB, name="b", can_manage=False)
    await attendance.hand_over(game_id, bob_seat or 0, user_id=ADA, name="a", can_manage=False)
    assert len(await queued(store, "hand_over")) == 1
    table = await service.game(CHANNEL)
    assert table.players[bob_seat or 0].computer == "fast"
    # Ada plays; Bob's seat is then played by the check, without a ping for Bob.
    await play_best(service, table)
    [to_bob] = await queued(store, "turn")
    assert pinged(to_bob) == set()
    await attendance.check()
    logged = await store.moves(game_id)
    assert (logged[-1].user_id, logged[-1].played_for) == (BOB, "computer")
    [computer_turn] = await queued(store, "turn")
    assert pinged(computer_turn) == {ADA}


# --- time away -------------------------------------------------------------------------------


async def test_time_away_stops_the_deadline_clock_and_the_reminders(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB)
    absent = to_move(table)
    await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=6)
    await queued(store)
    clock.now = START + 2 * H
    period = await attendance.away(absent, until="2026-06-03", note="hiking")
    assert period.end == datetime(2026, 6, 3, tzinfo=UTC)
    deadline, away = await service.lookups.turn_facts(await service.game(CHANNEL))
    # 2 hours ran before, 22 are left from the return on 3 June at midnight.
    assert deadline == datetime(2026, 6, 3, 22, tzinfo=UTC)
    assert away[table.require_state().current] == period

    clock.now = START + 30 * H  # past the plain deadline and several reminders
    assert await ReminderQueue(service).queue_reminders() == []
    assert await attendance.check() == []

    clock.now = START + 32 * H  # back early, on 2 June at 20:00
    assert await attendance.clear_away(absent)
    assert not await attendance.clear_away(absent)
    assert len(await ReminderQueue(service).queue_reminders()) == 1, (
        "the reminder waits until they are back"
    )
    deadline, away = await service.lookups.turn_facts(await service.game(CHANNEL))
    assert deadline == START + 54 * H
    assert all(a is None for a in away)
    clock.now = START + 54 * H
    assert len(await attendance.check()) == 1


async def test_time_away_ends_by_itself(
    service: GameService, attendance: Attendance, clock: FakeClock
) -> None:
    await started(service, ADA, BOB)
    await attendance.away(BOB, until="2026-06-02", note=None)
    _, away = await service.lookups.turn_facts(await service.game(CHANNEL))
    assert any(a is not None for a in away)
    clock.now = datetime(2026, 6, 2, tzinfo=UTC)
    _, away = await service.lookups.turn_facts(await service.game(CHANNEL))
    assert all(a is None for a in away)


async def test_the_turn_message_says_who_is_away(
    service: GameService, attendance: Attendance, store: Store
) -> None:
    table = await started(service, ADA, BOB)
    waiting = others(table)[0]
    await attendance.away(waiting, until="2026-06-10", note="at sea")
    await queued(store)
    await play_best(service, table)
    [turn] = await queued(store, "turn")
    assert pinged(turn) == {waiting}, "time away mutes reminders, not the turn message"


@pytest.mark.parametrize(
    ("until", "reason"),
    [("tomorrow", "YYYY-MM-DD"), ("2026-06-01", "already begun"), ("2028-01-01", "366 days")],
)
async def test_bad_days_away_are_refused(
    service: GameService, attendance: Attendance, store: Store, until: str, reason: str
) -> None:
    with pytest.raises(BadSetting, match=reason):
        await attendance.away(BOB, until=until, note=None)
    assert (await store.person(BOB)).away == ()


async def test_time_away_ends_at_midnight_in_the_quiet_hours_zone(
    service: GameService, attendance: Attendance
) -> None:
    await attendance.quiet(BOB, start=22, end=8, zone="Europe/Berlin")
    period = await attendance.away(BOB, until="2026-06-03", note=None)
    assert period.end == datetime(2026, 6, 2, 22, tzinfo=UTC)


# --- quiet hours -----------------------------------------------------------------------------


async def test_a_turn_in_quiet_hours_names_without_a_ping_and_pings_when_they_end(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, deadline=0)
    waiting = others(table)[0]
    await attendance.quiet(waiting, start=22, end=8, zone="Europe/Berlin")
    await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=2)
    clock.now = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)  # 23:30 in Berlin
    await queued(store)
    await play_best(service, table)
    [turn] = await queued(store, "turn")
    assert pinged(turn) == set()
    assert turn.mentions == ()

    ends = datetime(2026, 6, 2, 6, tzinfo=UTC)  # 08:00 in Berlin
    clock.now = ends - timedelta(seconds=1)
    assert await attendance.check() == []
    clock.now = ends
    assert await ReminderQueue(service).queue_reminders() == [], (
        "the ping owed stands for the reminder"
    )
    assert len(await attendance.check()) == 1
    assert await ReminderQueue(service).queue_reminders() == []
    [ping] = await queued(store, "ping")
    assert ping.mentions == (waiting,)
    assert f"<@{waiting}>" in ping.text
    assert await attendance.check() == [], "one ping, not one per check"
    clock.now = ends + 2 * H
    assert len(await ReminderQueue(service).queue_reminders()) == 1


async def test_no_ping_is_owed_once_the_turn_is_played(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, deadline=0)
    waiting = others(table)[0]
    await attendance.quiet(waiting, start=22, end=8, zone="Europe/Berlin")
    clock.now = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    table = await play_best(service, table)
    clock.now += H
    await play_best(service, table)  # they played during their quiet hours
    await queued(store)
    clock.now = datetime(2026, 6, 2, 7, tzinfo=UTC)
    await attendance.check()
    assert await queued(store, "ping") == []


async def test_a_ping_owed_across_a_clock_change_comes_at_the_local_hour(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    # 25 October 2026: Berlin's clocks go back from 03:00 to 02:00; the night lasts 11 hours.
    table = await started(service, ADA, BOB, deadline=0)
    waiting = others(table)[0]
    await attendance.quiet(waiting, start=22, end=8, zone="Europe/Berlin")
    clock.now = datetime(2026, 10, 24, 20, 30, tzinfo=UTC)  # 22:30 CEST
    await play_best(service, table)
    await queued(store)
    clock.now = datetime(2026, 10, 25, 6, 0, tzinfo=UTC)  # 07:00 CET: 08:00 by summer time
    assert await attendance.check() == []
    clock.now = datetime(2026, 10, 25, 7, 0, tzinfo=UTC)  # 08:00 CET
    assert len(await attendance.check()) == 1


async def test_reminders_wait_for_the_end_of_quiet_hours(
    service: GameService, attendance: Attendance, store: Store, clock: FakeClock
) -> None:
    table = await started(service, ADA, BOB, deadline=0)
    player = to_move(table)
    await attendance.quiet(player, start=13, end=15, zone="UTC")
    await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=1)
    clock.now = START + H + timedelta(minutes=30)  # 13:30 UTC: due, but quiet
    assert await ReminderQueue(service).queue_reminders() == []
    clock.now = datetime(2026, 6, 1, 15, tzinfo=UTC)
    assert len(await ReminderQueue(service).queue_reminders()) == 1


async def test_unknown_zones_and_empty_hours_are_refused(
    attendance: Attendance, store: Store
) -> None:
    with pytest.raises(BadSetting, match="not a time zone I know"):
        await attendance.quiet(BOB, start=22, end=8, zone="Mars/Olympus")
    with pytest.raises(BadSetting, match="empty"):
        await attendance.quiet(BOB, start=8, end=8, zone="UTC")
    assert (await store.person(BOB)).quiet_zone is None
    quiet = await attendance.quiet(BOB, start=22, end=8, zone="europe/berlin")
    assert quiet.zone_name == "Europe/Berlin"
    assert (await store.person(BOB)).quiet_zone == "Europe/Berlin"
    await attendance.clear_quiet(BOB)
    assert (await store.person(BOB)).quiet_from is None


class CountingPool(ThreadPoolExecutor):
    """A real worker pool that notes which functions it was given to run."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.ran: list[str] = []

    def submit(  # type: ignore[override]
        self, fn: Callable[..., object], /, *args: object, **kwargs: object
    ) -> Future[object]:
        self.ran.append(getattr(fn, "__name__", repr(fn)))
        return super().submit(fn, *args, **kwargs)


async def test_a_skipped_turn_is_the_fast_computer_players_thought_in_the_thinker(
    store: Store, clock: FakeClock
) -> None:
    pool = CountingPool()
    try:
        service = game_service(store, now=clock, seeds=lambda: 5, thinker=Thinker(pool))
        attendance = Attendance(service)
        table = await started(service, ADA, BOB, CY, deadline=0)
        state = table.require_state()
        expected = move_text(choose(state, "fast", seed=table.game.id))
        await attendance.skip(
            table.game.id, state.turn, user_id=ADA, name="a", can_manage=to_move(table) == ADA
        )
        assert pool.ran == [think.__name__], "the skipped turn was not thought in the pool"
        [logged] = await store.moves(table.game.id)
        assert logged.played_for == "host"
        assert logged.action == expected
    finally:
        pool.shutdown()
