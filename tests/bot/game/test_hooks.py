"""The kernel's seams: without hooks a game is plain from start to end, whatever its people
asked for; finish hooks add to the final message and its commit in their order, and are told
afterwards with what they added."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from bot.game import messages
from bot.game.hooks import Finish, FinishPart, TurnHooks
from bot.game.outbox import DIRECT, Announcement
from bot.game.records import move_text
from bot.game.rows import SeatResult
from bot.game.service import GameService, LoadedGame
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock

GUILD, CHANNEL = 1, 10
ADA, BOB = 100, 200
H = timedelta(hours=1)


async def _start(service: GameService) -> int:
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    await service.lobby.start(table.game.id, user_id=ADA)
    return table.game.id


async def _play(service: GameService, table: LoadedGame) -> bool:
    """The player to move plays the ``fast`` player's choice; whether it ended the game."""
    state = table.require_state()
    move = Move.parse(move_text(choose(state, "fast", seed=1)))
    player = table.players[state.current]
    await service.commit_turn(table, state.current, move, user_id=player.user_id)
    return move.play(state, state.current).is_over


async def test_a_kernel_without_hooks_plays_a_plain_game(store: Store, clock: FakeClock) -> None:
    service = GameService(store, now=clock, seeds=lambda: 5)
    # What the features would act on: direct messages, heads-ups, no channel ping, their own
    # reminder hours, a league everyone joined; Ada's quiet hours and time away now.
    for user in (ADA, BOB):
        settings = await store.notify_settings(user)
        await store.save_notify_settings(
            dataclasses.replace(
                settings, dm=True, heads_up=True, channel_ping=False, reminder_hours=5
            )
        )
        await store.set_member(GUILD, user, joined=True)
    await store.set_league(GUILD, enabled=True)
    await store.set_quiet(ADA, start=0, end=23, zone="UTC")
    await store.set_away(ADA, starts_at=clock.now, ends_at=clock.now + 48 * H, note=None)
    game_id = await _start(service)
    finished = False
    while not finished:
        game = await store.get_game(game_id)
        assert game is not None
        # The game's own reminder hours, from the turn's start; no ping owed.
        assert game.next_reminder_at == clock.now + game.reminder_hours * H
        assert game.ping_due_at is None
        clock.advance(timedelta(minutes=1))
        finished = await _play(service, await service.game_by_id(game_id))
    rows = await store.pending(500)
    assert not [row for row in rows if row.kind in DIRECT]
    turns = [Announcement.from_row(row) for row in rows if row.kind in ("start", "turn")]
    assert len(turns) == 40
    assert all(len(turn.mentions) == 1 for turn in turns), "every turn pings its player"
    assert all(" is away until " not in turn.text for turn in turns)
    (final,) = [Announcement.from_row(row) for row in rows if row.kind == "finish"]
    assert set(final.mentions) == {ADA, BOB}, "the end pings everyone"
    sheet = (await service.game_by_id(game_id)).score_sheet()
    assert final.text.endswith(messages.ranking_text(sheet)), "nothing after the ranking"
    assert game_id in await store.games_without_results()
    assert await store.round_scores(game_id) is None


@dataclasses.dataclass
class Noting:
    """A finish hook that adds ``tail`` (and, with ``results``, the seats' results) and notes
    what it is asked, in ``calls``, shared by the hooks of one test."""

    name: str
    calls: list[tuple[str, str, FinishPart | None]]
    results: bool = False

    async def before_commit(self, finish: Finish) -> FinishPart:
        self.calls.append((self.name, "before", None))
        rows = tuple(_result(finish, seat) for seat in range(2)) if self.results else ()
        return FinishPart(tail=f"\n{self.name}.", results=rows)

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        self.calls.append((self.name, "after", part))


def _result(finish: Finish, seat: int) -> SeatResult:
    player = finish.loaded.players[seat]
    return SeatResult(
        game_id=finish.loaded.game.id,
        seat=seat,
        guild_id=finish.loaded.game.guild_id,
        user_id=player.user_id,
        name=player.name,
        computer=None,
        handed_over=False,
        players=2,
        cards="AAAAA",
        score=finish.sheet.players[seat].total,
        rank=seat + 1,
        nature_tokens=0,
        tokens_used=0,
        wildlife={},
        habitats={},
        corridor=0,
        turn_seconds=(),
        rated=False,
        season=1,
        finished_at=finish.now,
    )


async def test_finish_hooks_add_in_order_and_hear_back_after_the_commit(
    store: Store, clock: FakeClock
) -> None:
    calls: list[tuple[str, str, FinishPart | None]] = []
    hooks = TurnHooks(finish=(Noting("First", calls), Noting("Second", calls, results=True)))
    service = GameService(store, now=clock, seeds=lambda: 5, hooks=hooks)
    game_id = await _start(service)
    while not await _play(service, await service.game_by_id(game_id)):
        assert calls == []
    (final,) = [Announcement.from_row(row) for row in await store.pending(500)][-1:]
    assert final.kind == "finish"
    assert final.text.endswith("\nFirst.\nSecond.")
    assert [(name, when) for name, when, _ in calls] == [
        ("First", "before"),
        ("Second", "before"),
        ("First", "after"),
        ("Second", "after"),
    ]
    assert calls[2][2] == FinishPart(tail="\nFirst.")
    second = calls[3][2]
    assert second is not None
    assert [r.seat for r in second.results] == [0, 1]
    # The results were written in the final commit's transaction.
    assert game_id not in await store.games_without_results()
