"""Computer players in the bot, against a real SQLite file: seats added in the lobby, turns
played through the service like a person's, a leaver's seat handed to ``fast``, hints once per
turn, and thinking in worker processes."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any, cast

import pytest

from bot.db.errors import NotFound
from bot.game.computers import Thinker, computer_name, start_thinker, suggest, think
from bot.game.errors import (
    ComputerAdded,
    HintTaken,
    HintUsed,
    LastPerson,
    LobbyFull,
    NoComputer,
    NotActive,
    NotHost,
    NotInGame,
    NotInLobby,
    NotYourTurn,
    RevisionConflict,
)
from bot.game.messages import Player, play_command, your_turn_line
from bot.game.outbox import Announcement
from bot.game.records import state_text
from bot.game.rows import GameStatus
from bot.game.service import GameService, LoadedGame
from bot.game.since import STANDINGS_HEAD
from bot.stores import Store
from engine import (
    GameRecord,
    InvalidInput,
    Move,
    PlaceTile,
    PlaceToken,
    Take,
    apply,
    apply_all,
    legal_actions,
    new_game,
    parse_action,
    seat_score,
)
from tests.bot.clocks import FakeClock

GUILD, CHANNEL = 1, 10
ADA, BOB, CY = 100, 200, 300


@pytest.fixture
def service(store: Store, clock: FakeClock) -> GameService:
    # strong thinks within a short budget here: the tests are about the bot, not its play.
    return GameService(store, now=clock, seeds=lambda: 7, thinker=Thinker(strong_seconds=0.05))


async def _lobby(service: GameService, *users: int) -> LoadedGame:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name=f"u{users[0]}", cards="A"
    )
    for user in users[1:]:
        table = await service.lobby.join(table.game.id, user_id=user, name=f"u{user}")
    return table


def _any_turn(table: LoadedGame, rng: random.Random) -> Move:
    state = table.require_state()
    pair = rng.randint(1, 4)
    taken = apply(state, Take(pair, pair))
    place = rng.choice([a for a in legal_actions(taken) if isinstance(a, PlaceTile)])
    placed = apply(taken, place)
    token = rng.choice([a for a in legal_actions(placed) if isinstance(a, PlaceToken)])
    return Move(pair, pair, place.at, place.rotation, token.at)


async def _outbox(store: Store) -> list[Announcement]:
    return [Announcement.from_row(row) for row in await store.pending(limit=1000)]


def _mentions(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"<@!?(\d+)>", text)}


# --- the store --------------------------------------------------------------------------------


async def test_the_store_keeps_computer_seats_and_hints(service: GameService, store: Store) -> None:
    table = await _lobby(service, ADA, BOB)
    game_id = table.game.id
    seat = await store.join(game_id, -1, "Computer (fast)", computer="fast")
    assert seat.computer == "fast"
    assert await store.computer_games() == [], "a lobby has no computer turns"
    with pytest.raises(NotActive):
        await store.record_hint(game_id, turn=0, user_id=ADA, moves=["x"])
    await service.lobby.start(game_id, user_id=ADA)
    [game] = await store.computer_games()
    assert game.id == game_id

    revision = game.revision
    result = await store.set_computer(
        game_id, revision, seat=0, computer="fast", outbox_messages=[]
    )
    assert result.revision == revision + 1
    with pytest.raises(RevisionConflict):
        await store.set_computer(game_id, revision, seat=1, computer="fast", outbox_messages=[])
    with pytest.raises(NotFound):
        await store.set_computer(game_id, revision + 1, seat=5, computer="fast", outbox_messages=[])
    assert [s.computer for s in await store.seats(game_id)] == ["fast", None, "fast"]

    moves = ["take 1 1; place 0,1 0; token return", "take 2 2; place 1,0 3; token 1,0"]
    await store.record_hint(game_id, turn=0, user_id=ADA, moves=moves)
    with pytest.raises(HintTaken):
        await store.record_hint(game_id, turn=0, user_id=ADA, moves=moves[:1])
    await store.record_hint(game_id, turn=2, user_id=BOB, moves=moves[:1])
    hints = await store.hints(game_id)
    assert [(h.turn, h.user_id, h.moves) for h in hints] == [
        (0, ADA, tuple(moves)),
        (2, BOB, tuple(moves[:1])),
    ]
    stored = await store.get_game(game_id)
    assert stored is not None
    assert stored.revision == revision + 1, "hints changed the game"


# --- the lobby --------------------------------------------------------------------------------


async def test_the_host_adds_computers_up_to_four_seats(service: GameService) -> None:
    table = await _lobby(service, ADA, BOB)
    game_id = table.game.id
    with pytest.raises(NotHost):
        await service.lobby.add_computer(game_id, user_id=BOB, policy="fast")
    with pytest.raises(InvalidInput):
        await service.lobby.add_computer(game_id, user_id=ADA, policy="random")
    await service.lobby.add_computer(game_id, user_id=ADA, policy="strong")
    table = await service.lobby.add_computer(game_id, user_id=ADA, policy="strong")
    # Two computers of one kind are told apart like two members of one name.
    assert table.names == (
        "u100",
        "u200",
        "Computer (strong) (seat 3)",
        "Computer (strong) (seat 4)",
    )
    assert [p.computer for p in table.players] == [None, None, "strong", "strong"]
    # Computer seats never take a real user's id: theirs are negative, one per seat.
    assert [p.user_id for p in table.players[2:]] == [-1, -2]
    with pytest.raises(LobbyFull):
        await service.lobby.add_computer(game_id, user_id=ADA, policy="fast")


async def test_the_host_removes_the_computer_seated_last(service: GameService) -> None:
    table = await _lobby(service, ADA)
    game_id = table.game.id
    with pytest.raises(NoComputer):
        await service.lobby.remove_computer(game_id, user_id=ADA)
    await service.lobby.add_computer(game_id, user_id=ADA, policy="fast")
    await service.lobby.join(game_id, user_id=BOB, name="u200")
    await service.lobby.add_computer(game_id, user_id=ADA, policy="strong")
    with pytest.raises(NotHost):
        await service.lobby.remove_computer(game_id, user_id=BOB)
    table = await service.lobby.remove_computer(game_id, user_id=ADA)
    assert table.names == ("u100", "Computer (fast)", "u200")
    table = await service.lobby.remove_computer(game_id, user_id=ADA)
    # The seats behind close up; the people keep theirs.
    assert [(p.user_id, p.computer) for p in table.players] == [(ADA, None), (BOB, None)]
    assert table.game.status is GameStatus.LOBBY
    with pytest.raises(NoComputer):
        await service.lobby.remove_computer(game_id, user_id=ADA)
    # Once the game is under way, computers stay.
    await service.lobby.add_computer(game_id, user_id=ADA, policy="fast")
    await service.lobby.start(game_id, user_id=ADA)
    with pytest.raises(NotInLobby):
        await service.lobby.remove_computer(game_id, user_id=ADA)
    assert [p.computer for p in (await service.game_by_id(game_id)).players].count("fast") == 1


class TogetherJoins:
    """The store, except that each seat waits until ``parties`` are asked for: presses at the
    same moment have all read the lobby before any of them writes."""

    def __init__(self, store: Store, parties: int) -> None:
        self._store = store
        self._barrier = asyncio.Barrier(parties)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def join(self, *args: Any, **kwargs: Any) -> Any:
        async with asyncio.timeout(10):
            await self._barrier.wait()
        return await self._store.join(*args, **kwargs)


async def test_a_choice_of_computer_seats_one_however_often_it_is_pressed(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    table = await _lobby(service, ADA)
    game_id, seen = table.game.id, table.computers
    assert seen == 0
    await service.lobby.join(game_id, user_id=BOB, name="u200")  # people joining do not count
    table = await service.lobby.add_computer(game_id, user_id=ADA, policy="fast", seen=seen)
    assert [p.computer for p in table.players] == [None, None, "fast"]
    # The same question pressed again, on either player: nothing changes.
    revision = table.game.revision
    for policy in ("fast", "strong"):
        with pytest.raises(ComputerAdded, match="already added"):
            await service.lobby.add_computer(game_id, user_id=ADA, policy=policy, seen=seen)
    table = await service.game_by_id(game_id)
    assert (table.game.revision, table.computers) == (revision, 1)

    # Two presses of a new question at the same moment, both past the check: one seat.
    together = GameService(cast(Store, TogetherJoins(store, 2)), now=clock, seeds=lambda: 7)
    outcomes = await asyncio.gather(
        *(
            together.lobby.add_computer(game_id, user_id=ADA, policy=policy, seen=1)
            for policy in ("strong", "fast")
        ),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["ComputerAdded", "LoadedGame"], outcomes
    table = await service.game_by_id(game_id)
    assert table.computers == 2
    assert len(table.players) == 4


async def test_a_choice_of_computer_after_the_lobby_is_over_says_so(service: GameService) -> None:
    table = await _lobby(service, ADA)
    game_id = table.game.id
    await service.lobby.add_computer(game_id, user_id=ADA, policy="fast", seen=0)
    await service.lobby.start(game_id, user_id=ADA)
    # Started: a second press of the question, or any other, is told the game has begun.
    for seen in (0, 1):
        with pytest.raises(NotInLobby) as started:
            await service.lobby.add_computer(game_id, user_id=ADA, policy="fast", seen=seen)
        assert started.value.status is GameStatus.ACTIVE
    await service.turns.end(game_id, user_id=ADA, name="u100", can_manage=False)
    with pytest.raises(NotInLobby) as ended:
        await service.lobby.add_computer(game_id, user_id=ADA, policy="fast", seen=1)
    assert ended.value.status is GameStatus.ENDED
    assert (await service.game_by_id(game_id)).computers == 1


# --- computer turns ---------------------------------------------------------------------------


async def test_a_person_and_two_computers_play_to_the_end(
    service: GameService, store: Store
) -> None:
    table = await _lobby(service, ADA)
    for policy in ("fast", "strong"):
        table = await service.lobby.add_computer(table.game.id, user_id=ADA, policy=policy)
    await service.lobby.start(table.game.id, user_id=ADA)
    game_id = table.game.id
    rng = random.Random(3)
    played_by_computer = 0
    while (table := await service.game_by_id(game_id)).game.status is GameStatus.ACTIVE:
        state = table.require_state()
        mover = table.players[state.current]
        if mover.computer is None:
            assert table.game.next_reminder_at is not None
            assert await service.turns.play_computer(game_id) is None, "played a person's turn"
            await service.turns.play(CHANNEL, user_id=ADA, move=_any_turn(table, rng))
        else:
            # A computer is never reminded: it plays at once (or after a restart).
            assert table.game.next_reminder_at is None
            assert await service.turns.play_computer(game_id) is not None
            played_by_computer += 1
    assert played_by_computer == 40
    assert table.game.status is GameStatus.FINISHED

    moves = await store.moves(game_id)
    assert len(moves) == 60
    assert {m.user_id for m in moves} == {ADA, -1, -2}
    announcements = await _outbox(store)
    for announcement in announcements:
        # Only the person is ever pinged, in words and in the allowed mentions.
        assert set(announcement.mentions) <= {ADA}
        assert _mentions(announcement.text) <= {ADA}
    turns = [a for a in announcements if a.kind in ("turn", "finish")]
    assert len(turns) == 60
    # Each turn message tells its move: in full, or as the last line of what came before
    # when a person is called. The computer's say the computer played.
    assert sum(_told("**Computer (strong)** ", a.text) for a in turns) == 20
    assert sum(_told("**Computer (fast)** ", a.text) for a in turns) == 20
    assert any("**Computer (fast)** plays next (the computer)" in a.text for a in turns)
    final = announcements[-1]
    assert final.kind == "finish"
    assert final.mentions == (ADA,)
    ((_, document_text),) = final.files
    document = json.loads(document_text)
    assert GameRecord.from_json(document["record"]).replay() == table.state


async def test_a_computer_first_to_move_plays_straight_after_the_start(
    service: GameService, store: Store
) -> None:
    table = await _lobby(service, ADA)
    table = await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game_by_id(table.game.id)
    start = (await _outbox(store))[0]
    if table.players[table.require_state().current].computer is not None:
        assert start.mentions == ()
        assert table.game.next_reminder_at is None
        assert await service.turns.play_computer(table.game.id) is not None
    else:
        assert start.mentions == (ADA,)
        assert await service.turns.play_computer(table.game.id) is None


async def test_playing_a_persons_turn_for_them(service: GameService, store: Store) -> None:
    """A skipped turn goes through the same path: the seat to move, chosen by ``fast``."""
    await _lobby(service, ADA, BOB)
    table = await service.game(CHANNEL)
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(CHANNEL)
    current = table.require_state().current
    assert await service.turns.play_computer(table.game.id, seat=1 - current) is None
    result = await service.turns.play_computer(table.game.id, seat=current, policy="fast")
    assert result is not None
    [move] = await store.moves(table.game.id)
    assert move.user_id == table.players[current].user_id
    after = await service.game(CHANNEL)
    assert after.require_state().turn == 1
    assert after.players[current].computer is None, "playing for someone keeps their seat"


def test_a_computer_to_move_is_named_not_pinged() -> None:
    state = new_game(players=2, seed=1, cards="A")
    line = your_turn_line(state, Player(-1, "Computer (fast)", "fast"))
    assert "<@" not in line
    assert line.startswith("**Computer (fast)** plays next")


# --- leaving a game in play -------------------------------------------------------------------


async def test_a_leavers_seat_goes_to_fast(service: GameService, store: Store) -> None:
    await _lobby(service, ADA, BOB, CY)
    table = await service.game(CHANNEL)
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(CHANNEL)
    game_id = table.game.id
    seat = table.require_state().current
    leaver = table.players[seat].user_id
    others = [u for u in (ADA, BOB, CY) if u != leaver]

    await service.turns.check_can_leave(CHANNEL, user_id=leaver)
    await service.turns.leave_game(game_id, user_id=leaver)

    table = await service.game(CHANNEL)
    assert table.players[seat].computer == "fast"
    assert table.players[seat].name == f"u{leaver}"
    notice = (await _outbox(store))[-1]
    assert notice.kind == "leave"
    assert notice.text == (
        f"**u{leaver}** left the game: the computer (fast) plays their seat from now on. "
        "It plays their turn now."
    )
    assert notice.mentions == ()
    # The leaver no longer plays: no moves, no hint, no game listed, no second leave.
    with pytest.raises(NotInGame):
        await service.turns.play(CHANNEL, user_id=leaver, move=_any_turn(table, random.Random(1)))
    with pytest.raises(NotInGame):
        await service.turns.leave_game(game_id, user_id=leaver)
    assert await service.lookups.my_games(leaver) == []

    assert await service.turns.play_computer(game_id) is not None
    [move] = await store.moves(game_id)
    assert move.user_id == leaver, "the seat keeps its user: the log still reads by seat"
    turn = (await _outbox(store))[-1]
    assert turn.text.startswith(f"The computer played for **u{leaver}**.\n"), turn.text
    assert re.search(rf"^\*\*u{leaver}\*\*( \(played by the computer\))? took ", turn.text, re.M)
    assert move.played_for == "computer"

    # The last person cannot leave the game to the computers alone.
    await service.turns.leave_game(game_id, user_id=others[0])
    with pytest.raises(LastPerson):
        await service.turns.check_can_leave(CHANNEL, user_id=others[1])
    with pytest.raises(LastPerson):
        await service.turns.leave_game(game_id, user_id=others[1])
    document = await service.lookups.export(CHANNEL, user_id=others[1])
    assert [p["computer"] for p in document["players"]].count("fast") == 2


# --- hints ------------------------------------------------------------------------------------


async def test_a_hint_once_per_turn_with_exact_play_options(
    service: GameService, store: Store
) -> None:
    await _lobby(service, ADA, BOB)
    table = await service.game(CHANNEL)
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(CHANNEL)
    current = table.players[table.require_state().current].user_id
    waiting = BOB if current == ADA else ADA
    with pytest.raises(NotYourTurn):
        await service.turns.hint(CHANNEL, user_id=waiting)
    revision = table.game.revision

    hint = await service.turns.hint(CHANNEL, user_id=current)

    assert len(hint.moves) == 3
    assert len(set(hint.moves)) == 3
    lines = hint.text().splitlines()
    for number, (turn, preview) in enumerate(zip(hint.moves, hint.previews, strict=True), 1):
        gain = preview.score_after - preview.score_before
        points = "point" if abs(gain) == 1 else "points"
        assert lines[number] == f"{number}. `{play_command(turn)}` ({gain:+d} {points} now)"
        assert re.fullmatch(
            r"/cascadia play pair:[1-4] tile_at:-?\d+,-?\d+ rotation:[0-5]"
            r" token_at:(-?\d+,-?\d+|return)( token:[1-4])?",
            play_command(turn),
        )
    with pytest.raises(HintUsed):
        await service.turns.hint(CHANNEL, user_id=current)
    assert (await service.game(CHANNEL)).game.revision == revision, "a hint changed the game"

    # The first suggestion, typed as given, plays; the next turn has a hint of its own.
    best = hint.moves[0]
    await service.turns.play(CHANNEL, user_id=current, move=best)
    after = await service.game(CHANNEL)
    assert seat_score(after.require_state(), hint.previews[0].seat) == hint.previews[0].score_after
    await service.turns.hint(CHANNEL, user_id=waiting)

    document = await service.lookups.export(CHANNEL, user_id=ADA)
    assert [(h["turn"], h["user_id"]) for h in document["hints"]] == [
        (0, str(current)),
        (1, str(waiting)),
    ]
    assert document["hints"][0]["moves"][0] == [str(a) for a in best.actions()]
    assert set(document) >= {"table", "scores"}


# --- thinking in worker processes -------------------------------------------------------------


def test_think_and_suggest_give_legal_whole_turns() -> None:
    state = new_game(players=3, seed=11, cards="ABCDA")
    for policy in ("fast", "strong"):
        text = think(state_text(state), policy, 1, 0.05)
        after = apply_all(state, [parse_action(a) for a in text.split("; ")])
        assert after.turn == 1
    suggested = suggest(state_text(state), 3)
    assert len(suggested) == 3
    for text in suggested:
        assert apply_all(state, [parse_action(a) for a in text.split("; ")]).turn == 1


async def test_the_worker_pool_thinks_in_other_processes() -> None:
    thinker = start_thinker(strong_seconds=0.05)
    try:
        state = new_game(players=2, seed=4, cards="A")
        chosen = await thinker.choose(state, "strong", seed=9)
        assert apply_all(state, chosen.actions()).turn == 1
        # The same state, player and seed choose the same turn.
        assert await thinker.choose(state, "fast", seed=9) == await thinker.choose(
            state, "fast", seed=9
        )
        assert len(await thinker.suggest(state)) == 3
    finally:
        await thinker.close()


def test_computer_names() -> None:
    assert computer_name("strong") == "Computer (strong)"


def _told(mover: str, text: str) -> bool:
    """Whether ``text`` tells a move of ``mover``: its first line, or the last move of what
    happened since the called player's last turn."""
    if text.startswith(mover):
        return True
    recap = text.split(f"\n{STANDINGS_HEAD}")[0].split("\n")
    moves = [line for line in recap if line.startswith("**") and " took " in line]
    return bool(moves) and moves[-1].startswith(mover)
