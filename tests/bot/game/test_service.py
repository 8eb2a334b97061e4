"""The game service against a real SQLite file: lobby, turns, wipes, ending, reminders,
exports, and every refusal leaving the game unchanged."""

from __future__ import annotations

import asyncio
import json
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.app import game_service
from bot.attendance.reminder_queue import ReminderQueue
from bot.game import records
from bot.game.errors import (
    AlreadyPlayed,
    AlreadySeated,
    ChannelBusy,
    LobbyFull,
    NoGame,
    NotHost,
    NotInGame,
    NotStarted,
    NotYourTurn,
    RevisionConflict,
    TooManyLobbies,
)
from bot.game.lobby import parse_cards
from bot.game.messages import Player
from bot.game.outbox import Announcement, render_pictures
from bot.game.records import last_placements
from bot.game.rows import Claimer, GameStatus, MoveRow
from bot.game.service import GameService, LoadedGame
from bot.game.turns import parse_wipe
from bot.stores import Store
from engine import (
    GameRecord,
    GameState,
    Hex,
    IllegalAction,
    InvalidInput,
    Move,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Reason,
    Take,
    WipeThree,
    apply,
    legal_actions,
    score_state,
    seat_score,
    state_to_json,
)
from engine.scoring.sheet import final_scores
from engine.table import table_from_json
from render import render_board, turn_frame
from tests.bot.clocks import FakeClock
from tests.bot.game.test_since import LINE

GUILD, CHANNEL = 1, 10
ADA, BOB, CY = 100, 200, 300
THREE_ELK_SEED = 24
"""A two-player seed whose first display shows three elk."""


async def _lobby(service: GameService, *users: int, cards: str | None = "A") -> LoadedGame:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name=f"u{users[0]}", cards=cards
    )
    for user in users[1:]:
        table = await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    return table


async def _started(service: GameService, *users: int) -> LoadedGame:
    table = await _lobby(service, *users)
    await service.lobby.start(table.game.id, user_id=users[0])
    return await service.game(CHANNEL)


def _any_turn(table: LoadedGame, rng: random.Random) -> Move:
    """A random legal whole turn for the current player."""
    state = table.require_state()
    pair = rng.randint(1, 4)
    taken = apply(state, Take(pair, pair))
    place = rng.choice([a for a in legal_actions(taken) if isinstance(a, PlaceTile)])
    placed = apply(taken, place)
    token = rng.choice([a for a in legal_actions(placed) if isinstance(a, PlaceToken)])
    return Move(pair, pair, place.at, place.rotation, token.at)


def _current_user(table: LoadedGame) -> int:
    return table.players[table.require_state().current].user_id


async def _outbox(store: Store) -> list[Announcement]:
    return [Announcement.from_row(row) for row in await store.pending()]


def _mentions(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"<@!?(\d+)>", text)}


# --- parsing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stored"),
    [(None, "random"), ("random", "random"), (" Random ", "random"), ("b", "BBBBB"),
     ("abcda", "ABCDA"), ("Family", "family"), ("intermediate", "intermediate")],
)  # fmt: skip
def test_parse_cards(text: str | None, stored: str) -> None:
    assert parse_cards(text) == stored


@pytest.mark.parametrize("text", ["E", "ABCD", "ABCDEF", "kids"])
def test_parse_cards_refuses(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_cards(text)


def test_parse_wipe() -> None:
    assert parse_wipe(None) == WipeThree()
    assert parse_wipe("  ") == WipeThree()
    assert parse_wipe("3 1") == NatureWipe((1, 3))
    assert parse_wipe("1,2") == NatureWipe((1, 2))
    for bad in ("0", "5", "1 1", "one"):
        with pytest.raises(InvalidInput):
            parse_wipe(bad)


# --- the lobby --------------------------------------------------------------------------------


async def test_lobby_seats_at_most_four(service: GameService) -> None:
    table = await _lobby(service, ADA, BOB, CY, 400)
    assert [p.user_id for p in table.players] == [ADA, BOB, CY, 400]
    with pytest.raises(LobbyFull):
        await service.lobby.join(table.game.id, user_id=500, name="e")
    with pytest.raises(AlreadySeated):
        await service.lobby.join(table.game.id, user_id=BOB, name="b")


async def test_one_open_game_per_channel(service: GameService) -> None:
    await _lobby(service, ADA)
    with pytest.raises(ChannelBusy):
        await _lobby(service, BOB)


async def test_same_names_are_told_apart(service: GameService) -> None:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Sam", cards=None
    )
    table = await service.lobby.join(table.game.id, user_id=BOB, name="Sam")
    assert [p.name for p in table.players] == ["Sam (seat 1)", "Sam (seat 2)"]


async def test_the_host_leaving_hands_the_lobby_to_the_next_person_and_tells_the_channel(
    service: GameService, store: Store
) -> None:
    table = await _lobby(service, ADA, BOB)
    await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
    table = await service.lobby.join(table.game.id, user_id=CY, name=f"u{CY}")
    left = await service.lobby.leave(table.game.id, user_id=BOB)
    assert left.loaded.game.status is GameStatus.LOBBY
    assert left.outbox_ids == (), "only the host's leaving is news"

    # Ada hosts; the next seated person, never a computer, takes over.
    left = await service.lobby.leave(table.game.id, user_id=ADA)
    assert left.loaded.game.status is GameStatus.LOBBY
    assert left.loaded.game.host_id == CY
    assert [p.user_id for p in left.loaded.players] == [-1, CY]
    [row] = [r for r in await store.pending() if r.id in left.outbox_ids]
    news = Announcement.from_row(row)
    assert (
        news.text == "**u100** left the lobby. <@300> is the host now: press **Start** when ready."
    )
    assert news.mentions == (CY,)
    await service.lobby.start(table.game.id, user_id=CY)


async def test_the_host_leaving_with_nobody_to_take_over_closes_the_lobby(
    service: GameService,
) -> None:
    table = await _lobby(service, ADA)
    await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
    left = await service.lobby.leave(table.game.id, user_id=ADA)
    assert left.loaded.game.status is GameStatus.ENDED
    assert left.outbox_ids == ()
    with pytest.raises(NoGame):
        await service.game(CHANNEL)


async def test_only_the_host_starts(service: GameService, store: Store) -> None:
    table = await _lobby(service, ADA, BOB)
    with pytest.raises(NotHost):
        await service.lobby.start(table.game.id, user_id=BOB)
    assert (await service.game(CHANNEL)).game.status is GameStatus.LOBBY
    assert await store.pending() == []


async def test_start_calls_the_first_player(service: GameService, store: Store) -> None:
    table = await _lobby(service, ADA, BOB, cards="random")
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(CHANNEL)
    state = table.require_state()
    assert table.game.status is GameStatus.ACTIVE
    assert len(str(state.cards)) == 5  # "random" was resolved from the seed
    (start,) = await _outbox(store)
    first = _current_user(table)
    assert start.kind == "start"
    assert start.mentions == (first,)
    assert _mentions(start.text) == {first}
    assert start.state == state
    assert start.names == ("u100", "u200")


async def test_a_join_that_lands_just_before_start_is_in_the_game(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cy's Join commits after the host's Start read the lobby and before it wrote: the start
    goes on, read again, with Cy seated, instead of answering that someone was faster."""
    table = await _lobby(service, ADA, BOB)
    start_game = store.start_game
    landed: list[int] = []

    async def join_lands_first(*args: Any, **kwargs: Any) -> Any:
        if not landed:
            landed.append(CY)
            await service.lobby.join(table.game.id, user_id=CY, name="u300")
        return await start_game(*args, **kwargs)

    monkeypatch.setattr(store, "start_game", join_lands_first)
    await service.lobby.start(table.game.id, user_id=ADA)
    started = await service.game(CHANNEL)
    assert started.game.status is GameStatus.ACTIVE
    assert sorted(p.user_id for p in started.players) == [ADA, BOB, CY]
    assert started.require_state().players == 3
    (start,) = await _outbox(store)
    assert "u300" in start.names


async def test_a_lobby_that_keeps_changing_is_a_conflict_at_last(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await _lobby(service, ADA, BOB)
    start_game = store.start_game
    changes = iter(
        [
            lambda: service.lobby.join(table.game.id, user_id=CY, name="u300"),
            lambda: service.lobby.leave(table.game.id, user_id=CY),
            lambda: service.lobby.join(table.game.id, user_id=CY, name="u300"),
        ]
    )

    async def a_change_each_time(*args: Any, **kwargs: Any) -> Any:
        await next(changes)()
        return await start_game(*args, **kwargs)

    monkeypatch.setattr(store, "start_game", a_change_each_time)
    with pytest.raises(RevisionConflict):
        await service.lobby.start(table.game.id, user_id=ADA)
    assert (await service.game(CHANNEL)).game.status is GameStatus.LOBBY
    assert await store.pending() == []


async def test_solo_game(service: GameService) -> None:
    table = await _started(service, ADA)
    assert table.require_state().solo


async def test_lobby_refuses_moves(service: GameService) -> None:
    await _lobby(service, ADA, BOB)
    with pytest.raises(NotStarted):
        await service.turns.play(CHANNEL, user_id=ADA, move=Move(1, 1, Hex(1, 0), 0, None))


# --- turns ------------------------------------------------------------------------------------


async def test_play_commits_the_move_and_calls_the_next_player(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    turn = _any_turn(table, random.Random(1))
    for row in await store.pending():
        await store.mark_sent(row.id, 1)
    clock.now += timedelta(hours=2)
    result = await service.turns.play(CHANNEL, user_id=mover, move=turn)

    after = await service.game(CHANNEL)
    assert after.game.revision == result.revision
    upcoming = _current_user(after)
    assert upcoming != mover
    assert after.game.turn_started_at == clock.now
    assert after.game.next_reminder_at == clock.now + timedelta(hours=24)
    (move,) = await store.moves(after.game.id)
    assert move.user_id == mover
    assert move.action.split("; ") == [str(a) for a in turn.actions()]
    (announcement,) = await _outbox(store)
    assert announcement.kind == "turn"
    assert announcement.mentions == (upcoming,)
    assert _mentions(announcement.text) == {upcoming}
    assert announcement.state == after.state
    seat = table.require_seat(mover)
    placed = (turn.at,) if turn.token_at in (None, turn.at) else (
        turn.at, turn.token_at,
    )  # fmt: skip
    assert announcement.highlights[seat] == placed
    assert announcement.highlights[1 - seat] == ()  # nothing placed yet


async def test_every_environment_rings_its_own_latest_placement(
    service: GameService, store: Store
) -> None:
    """Each picture rings its player's last tile and token, so a board that did not change
    since the previous message is drawn the same in the frame the message's boards share
    (and comes from the render cache while that frame holds)."""
    table = await _started(service, ADA, BOB)
    rng = random.Random(5)
    turns: dict[int, Move] = {}
    posted: list[Announcement] = []
    for row in await store.pending():
        await store.mark_sent(row.id, 1)
    for _ in range(3):
        mover = _current_user(table)
        turns[table.require_seat(mover)] = turn = _any_turn(table, rng)
        await service.turns.play(CHANNEL, user_id=mover, move=turn)
        (announcement,) = await _outbox(store)
        for row in await store.pending():
            await store.mark_sent(row.id, 1)
        posted.append(announcement)
        table = await service.game(CHANNEL)
    for seat, turn in turns.items():
        assert posted[-1].highlights[seat][0] == turn.at
    # The player who did not move in the last turn looks the same in both last messages.
    last, previous = posted[-1], posted[-2]
    assert last.state is not None
    assert previous.state is not None
    idle = last.state.current
    shown = {f.name: f.data for f in render_pictures(last)}[f"{last.names[idle]}.png"]
    assert shown == render_board(
        previous.state,
        idle,
        name=last.names[idle],
        frame=turn_frame(last.state),
        score=score_state(last.state).players[idle].total,
        highlight=previous.highlights[idle],
    )


def test_last_placements_skip_wipes_and_keep_the_latest() -> None:
    players = (Player(ADA, "Ada"), Player(BOB, "Bob"))
    at = datetime(2024, 5, 1, tzinfo=UTC)

    def row(seq: int, user: int, action: str) -> MoveRow:
        return MoveRow(game_id=1, seq=seq, user_id=user, action=action, created_at=at)

    moves = [
        row(1, ADA, "take 1; tile 1,0 0; token 0,0"),
        row(2, BOB, "take 2; tile 0,1 3; token return"),
        row(3, ADA, "wipe"),
        row(4, ADA, "take 3; tile 2,-1 1; token 2,-1"),
    ]
    assert last_placements(moves, players) == [(Hex(2, -1),), (Hex(0, 1),)]
    assert last_placements(moves[:1], players) == [(Hex(1, 0), Hex(0, 0)), ()]


async def test_refusals_leave_the_game_unchanged(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    waiting = BOB if mover == ADA else ADA
    turn = _any_turn(table, random.Random(2))
    with pytest.raises(NotYourTurn, match=f"it's u{mover}'s"):
        await service.turns.play(CHANNEL, user_id=waiting, move=turn)
    with pytest.raises(NotInGame):
        await service.turns.play(CHANNEL, user_id=CY, move=turn)
    with pytest.raises(NoGame):
        await service.turns.play(CHANNEL + 1, user_id=mover, move=turn)
    with pytest.raises(IllegalAction) as refused:
        await service.turns.play(CHANNEL, user_id=mover, move=Move(1, 1, Hex(0, 0), 0, None))
    assert refused.value.reason is Reason.OCCUPIED
    with pytest.raises(IllegalAction) as refused:
        await service.turns.play(CHANNEL, user_id=mover, move=Move(1, 1, Hex(7, 7), 0, None))
    assert refused.value.reason is Reason.NOT_ADJACENT
    with pytest.raises(IllegalAction) as refused:
        await service.turns.play(CHANNEL, user_id=mover, move=Move(1, 2, turn.at, 0, None))
    assert refused.value.reason is Reason.NO_NATURE_TOKEN
    after = await service.game(CHANNEL)
    assert after.game.revision == table.game.revision
    assert after.state == table.state
    assert await store.moves(table.game.id) == []
    assert len(await store.pending()) == 1  # only the start message


async def test_two_submissions_at_once_apply_once(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    turn = _any_turn(table, random.Random(3))
    results = await asyncio.gather(
        service.turns.play(CHANNEL, user_id=mover, move=turn),
        service.turns.play(CHANNEL, user_id=mover, move=turn),
        return_exceptions=True,
    )
    failures = [r for r in results if isinstance(r, BaseException)]
    assert len(failures) == 1
    assert isinstance(failures[0], AlreadyPlayed)
    assert "already played this turn" in str(failures[0])
    assert len(await store.moves(table.game.id)) == 1
    assert [a.kind for a in await _outbox(store)] == ["start", "turn"]


async def test_a_stale_state_is_refused(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    await service.turns.play(CHANNEL, user_id=mover, move=_any_turn(table, random.Random(4)))
    with pytest.raises(RevisionConflict):
        await store.commit_move(
            table.game.id,
            table.game.revision,
            user_id=mover,
            action_text="take 1",
            new_state_json="{}",
            new_status=GameStatus.ACTIVE,
            outbox_messages=[],
            turn_started_at=datetime.now(UTC),
            next_reminder_at=None,
        )


async def test_a_whole_game_ends_with_scores_and_a_replayable_record(
    service: GameService, store: Store
) -> None:
    table = await _started(service, ADA, BOB)
    rng = random.Random(5)
    turns = 0
    while table.game.status is GameStatus.ACTIVE:
        await service.turns.play(CHANNEL, user_id=_current_user(table), move=_any_turn(table, rng))
        turns += 1
        table = await service.game_by_id(table.game.id)
    assert turns == 40
    assert table.game.status is GameStatus.FINISHED
    assert table.game.next_reminder_at is None
    with pytest.raises(NoGame):
        await service.game(CHANNEL)

    final = (await _outbox(store))[-1]
    assert final.kind == "finish"
    assert set(final.mentions) == {ADA, BOB}
    document = await service.lookups.export(CHANNEL, user_id=ADA)
    # The end message attaches what /cascadia export gives, under the same name.
    ((name, attached),) = final.files
    assert name == f"cascadia-game-{table.game.id}.json"
    posted = json.loads(attached)
    assert GameRecord.from_json(posted["record"]).replay() == table.state
    assert [m["actions"] for m in posted["moves"]] == [m["actions"] for m in document["moves"]]
    assert {k: v for k, v in posted.items() if k != "moves"} == {
        k: v for k, v in document.items() if k != "moves"
    }
    assert document["game"]["status"] == "finished"
    assert document["seed"] == 5
    assert GameRecord.from_json(document["record"]).replay() == table.state
    assert len(document["moves"]) == 40
    assert document["scores"] == table.score_sheet().to_json()


# --- wipes ------------------------------------------------------------------------------------


async def test_three_of_a_kind_wipe(store: Store, clock: FakeClock) -> None:
    service = game_service(store, now=clock, seeds=lambda: THREE_ELK_SEED)
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    started_at = table.game.turn_started_at
    clock.now += timedelta(hours=1)
    await service.turns.wipe(CHANNEL, user_id=mover, tokens=None)

    after = await service.game(CHANNEL)
    assert _current_user(after) == mover
    assert after.game.turn_started_at == started_at
    assert after.require_state().three_wipe_used
    wipe = (await _outbox(store))[-1]
    assert wipe.kind == "wipe"
    assert wipe.mentions == ()
    (move,) = await store.moves(after.game.id)
    assert move.action == "wipe"

    with pytest.raises(IllegalAction) as refused:
        await service.turns.wipe(CHANNEL, user_id=mover, tokens=None)
    assert refused.value.reason in (Reason.WIPE_ALREADY_USED, Reason.WIPE_NOT_ALLOWED)
    with pytest.raises(IllegalAction) as refused:
        await service.turns.wipe(CHANNEL, user_id=mover, tokens="1 2")
    assert refused.value.reason is Reason.NO_NATURE_TOKEN


# --- previews ---------------------------------------------------------------------------------


async def test_preview_commits_nothing(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    mover = _current_user(table)
    turn = _any_turn(table, random.Random(6))
    preview = await service.turns.preview(CHANNEL, user_id=mover, move=turn)
    assert preview.after == turn.play(table.require_state(), preview.seat)
    assert set(preview.placed) == {turn.at, turn.token_at} - {None}
    assert preview.score_before == seat_score(table.require_state(), preview.seat)
    assert preview.score_after == seat_score(preview.after, preview.seat)
    # The total the preview's picture shows is the standings' number, bonuses in.
    assert preview.total_after == score_state(preview.after).players[preview.seat].total
    waiting = BOB if mover == ADA else ADA
    other = await service.turns.preview(CHANNEL, user_id=waiting, move=turn)
    assert other.seat == table.seat_of(waiting)
    after = await service.game(CHANNEL)
    assert after.game.revision == table.game.revision
    assert await store.moves(table.game.id) == []


async def test_a_move_encodes_its_state_once(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await _started(service, ADA, BOB)
    for row in await store.pending():
        await store.mark_sent(row.id, 1)
    calls: list[GameState] = []

    def counted(state: GameState) -> dict[str, Any]:
        calls.append(state)
        return state_to_json(state)

    monkeypatch.setattr(records, "state_to_json", counted)
    turn = _any_turn(table, random.Random(3))
    await service.turns.play(CHANNEL, user_id=_current_user(table), move=turn)
    assert len(calls) == 1
    game = (await service.game(CHANNEL)).game
    (row,) = await store.pending()
    assert f'"state":{game.state},' in (row.snapshot or "")


async def test_preview_of_an_illegal_turn_is_refused(service: GameService) -> None:
    table = await _started(service, ADA, BOB)
    state = table.require_state()
    mover = _current_user(table)
    occupied = next(iter(state.current_player.environment))
    far = Hex(40, 40)
    for tile_at in (occupied, far):
        with pytest.raises(IllegalAction):
            await service.turns.preview(CHANNEL, user_id=mover, move=Move(1, 1, tile_at, 0, None))


# --- running the game -------------------------------------------------------------------------


async def test_end_is_for_the_host_or_a_manager(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    with pytest.raises(NotHost):
        await service.turns.check_can_end(CHANNEL, user_id=BOB, can_manage=False)
    with pytest.raises(NotHost):
        await service.turns.end(table.game.id, user_id=BOB, name="Bob", can_manage=False)
    await service.turns.check_can_end(CHANNEL, user_id=CY, can_manage=True)
    await service.turns.end(table.game.id, user_id=CY, name="Cy", can_manage=True)
    ended = await service.game_by_id(table.game.id)
    assert ended.game.status is GameStatus.ENDED
    announcement = (await _outbox(store))[-1]
    assert announcement.kind == "end"
    ((_, attached),) = announcement.files
    document = json.loads(attached)
    assert document["game"]["status"] == "ended"
    assert GameRecord.from_json(document["record"]).replay() == ended.state
    document = await service.lookups.export(CHANNEL, user_id=ADA)
    assert document["seed"] == 5


async def test_settings_are_for_the_host(service: GameService) -> None:
    table = await _started(service, ADA, BOB)
    with pytest.raises(NotHost):
        await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=BOB, hours=1)
    game = await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=0)
    assert game.reminder_hours == 0
    assert game.next_reminder_at is None
    game = await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=6)
    assert table.game.turn_started_at is not None
    assert game.next_reminder_at == table.game.turn_started_at + timedelta(hours=6)


async def test_reminders_follow_the_schedule_and_catch_up_once(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await _started(service, ADA, BOB)
    current = _current_user(table)
    clock.now += timedelta(hours=23)
    assert await ReminderQueue(service).queue_reminders() == []
    clock.now += timedelta(hours=2)
    (first,) = await ReminderQueue(service).queue_reminders()
    assert await ReminderQueue(service).queue_reminders() == []
    # The bot was down for three days: one reminder, not three.
    clock.now += timedelta(days=3)
    (second,) = await ReminderQueue(service).queue_reminders()
    assert await ReminderQueue(service).queue_reminders() == []
    rows = [await store.get_outbox(i) for i in (first, second)]
    texts = [Announcement.from_row(r).text for r in rows if r is not None]
    assert all(_mentions(t) == {current} for t in texts)
    assert texts[0] != texts[1]
    # A move starts a new turn with a fresh schedule.
    await service.turns.play(CHANNEL, user_id=current, move=_any_turn(table, random.Random(7)))
    assert await ReminderQueue(service).queue_reminders() == []


async def test_a_shorter_reminder_hour_for_tests(store: Store, clock: FakeClock) -> None:
    service = game_service(store, now=clock, seeds=lambda: 5, reminder_hour=timedelta(seconds=2))
    table = await _started(service, ADA, BOB)
    started = table.game.turn_started_at
    assert started is not None
    assert table.game.next_reminder_at == started + timedelta(seconds=48)
    clock.now += timedelta(seconds=49)
    (_,) = await ReminderQueue(service).queue_reminders()
    game = (await service.game(CHANNEL)).game
    assert game.next_reminder_at == clock.now + timedelta(seconds=48)


async def test_reminders_off(service: GameService, clock: FakeClock) -> None:
    await _started(service, ADA, BOB)
    await ReminderQueue(service).set_reminder_hours(CHANNEL, user_id=ADA, hours=0)
    clock.now += timedelta(days=30)
    assert await ReminderQueue(service).queue_reminders() == []


# --- looking ----------------------------------------------------------------------------------


async def test_my_games(service: GameService, store: Store) -> None:
    table = await _started(service, ADA, BOB)
    await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=BOB, name="b", cards=None
    )
    current = _current_user(table)
    mine = {g.channel_id: g for g in await service.lookups.my_games(current)}
    assert mine[CHANNEL].your_turn
    other = BOB if current == ADA else ADA
    theirs = {g.channel_id: g for g in await service.lookups.my_games(other)}
    assert not theirs[CHANNEL].your_turn
    assert theirs[CHANNEL].to_move == f"u{current}"
    assert await service.lookups.my_games(CY) == []
    bob = {g.channel_id: g for g in await service.lookups.my_games(BOB)}
    assert not bob[CHANNEL + 1].started


async def test_a_deleted_channels_game_shows_as_ended_for_a_week(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await _started(service, ADA, BOB)
    await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=ADA, name="a", cards=None
    )
    assert await service.turns.abandon(CHANNEL) == [table.game.id]
    assert await store.pending(channel_id=CHANNEL) == []
    mine = {g.channel_id: g for g in await service.lookups.my_games(ADA)}
    assert mine[CHANNEL].ended
    assert not mine[CHANNEL + 1].ended
    clock.now += timedelta(days=8)
    assert [g.channel_id for g in await service.lookups.my_games(BOB)] == []


async def test_the_host_role_passes_to_the_next_person(service: GameService) -> None:
    table = await _lobby(service, ADA, BOB, CY)
    await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
    assert await service.lobby.pass_host(table.game.id, gone=BOB) is None
    passed = await service.lobby.pass_host(table.game.id, gone=ADA)
    assert passed is not None
    assert passed.game.host_id == BOB
    again = await service.lobby.pass_host(table.game.id, gone=BOB)
    assert again is not None
    assert again.game.host_id == CY
    # After the last seat it wraps round, past the computer: a computer never hosts.
    last = await service.lobby.pass_host(table.game.id, gone=CY)
    assert last is not None
    assert last.game.host_id == ADA


async def test_a_member_may_have_five_lobbies_open_in_a_server(service: GameService) -> None:
    opened = await asyncio.gather(
        *(
            service.lobby.open_lobby(
                guild_id=GUILD, channel_id=CHANNEL + n, user_id=ADA, name="a", cards=None
            )
            for n in range(8)
        ),
        return_exceptions=True,
    )
    refused = [r for r in opened if isinstance(r, BaseException)]
    assert len(refused) == 3
    assert all(isinstance(r, TooManyLobbies) for r in refused), refused
    assert "5 lobbies open in this server" in str(refused[0])
    # The burst over, no member's lock is kept.
    assert len(service.lobby.openers) == 0
    # Another server, and another member, are counted apart.
    await service.lobby.open_lobby(
        guild_id=GUILD + 1, channel_id=99, user_id=ADA, name="a", cards=None
    )
    await service.lobby.open_lobby(guild_id=GUILD, channel_id=98, user_id=BOB, name="b", cards=None)
    assert len(service.lobby.openers) == 0
    # Starting one frees a place.
    first = next(r for r in opened if isinstance(r, LoadedGame))
    await service.lobby.join(first.game.id, user_id=BOB, name="b")
    await service.lobby.start(first.game.id, user_id=ADA)
    await service.lobby.open_lobby(guild_id=GUILD, channel_id=97, user_id=ADA, name="a", cards=None)


async def test_export_has_the_table_and_its_scores(service: GameService) -> None:
    table = await _started(service, ADA, BOB)
    await service.turns.play(
        CHANNEL, user_id=_current_user(table), move=_any_turn(table, random.Random(8))
    )
    document = await service.lookups.export(CHANNEL, user_id=BOB)
    assert "seed" not in document
    assert "record" not in document
    assert [p["user_id"] for p in document["players"]] == [str(ADA), str(BOB)]
    assert document["settings"] == {
        "cards": "AAAAA",
        "cards_chosen": "AAAAA",
        "players": 2,
        "reminder_hours": 24,
    }
    assert len(document["moves"]) == 1
    assert len(document["moves"][0]["actions"]) == 3
    cards, players = table_from_json(document["table"])
    assert final_scores(cards, players).to_json() == document["scores"]
    assert json.loads(json.dumps(document)) == document


async def test_export_needs_a_started_game(service: GameService) -> None:
    await _lobby(service, ADA)
    with pytest.raises(NotStarted):
        await service.lookups.export(CHANNEL, user_id=ADA)
    with pytest.raises(NoGame):
        await service.lookups.export(CHANNEL + 5, user_id=ADA)


async def test_only_the_process_that_claims_a_game_reminds_in_it(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await _started(service, ADA, BOB)
    lease = timedelta(minutes=10)
    other = game_service(store, now=clock, claimer=Claimer("other", lease=lease))
    elsewhere = game_service(
        store, now=clock, claimer=Claimer("elsewhere", shard_ids=(1,), shard_count=2, lease=lease)
    )
    clock.now += timedelta(hours=25)
    # This process holds the game now; a process of a shard that does not own it never will.
    assert await service.claim(table.game.id)
    assert await ReminderQueue(other).queue_reminders() == []
    assert await ReminderQueue(elsewhere).queue_reminders() == []
    # The first process stopped: once its lease ends, the other process takes over.
    clock.now += timedelta(minutes=1)
    (reminder,) = await ReminderQueue(other).queue_reminders()
    assert reminder > 0
    assert await ReminderQueue(service).queue_reminders() == []


async def test_the_called_player_reads_what_happened_since_their_last_turn(
    service: GameService, store: Store
) -> None:
    table = await _started(service, ADA, BOB, CY)
    rng = random.Random(8)
    texts = []
    for _ in range(3):
        await service.turns.play(CHANNEL, user_id=_current_user(table), move=_any_turn(table, rng))
        table = await service.game(CHANNEL)
        texts.append((await _outbox(store))[-1].text)
    first, second, third = texts
    # The first round: a heading, the moves since the start, the standings and the call.
    assert first.count("\n") == 3
    assert second.count("\n") == 4
    # The first player again: the two others' moves since theirs, then the standings and
    # the call (the golden transcripts show the words).
    assert third.count("\n") == 4
    assert _mentions(third.splitlines()[-1]) == {_current_user(table)}


async def test_the_latest_move_takes_the_short_form_of_the_others_in_the_recap(
    service: GameService, store: Store
) -> None:
    # One shape of line on a phone: the move that made the message is not a sentence apart.
    table = await _started(service, ADA, BOB, CY)
    rng = random.Random(3)
    for turn in range(6):
        await service.turns.play(CHANNEL, user_id=_current_user(table), move=_any_turn(table, rng))
        table = await service.game(CHANNEL)
        head, *recap, standings, _call = (await _outbox(store))[-1].text.split("\n")
        assert head in ("Since the game began:", "Since your last turn:"), head
        assert standings.startswith("Standings if it ended now")
        assert len(recap) == min(turn + 1, 2), recap
        for line in recap:
            assert LINE.match(line), line
