"""Golden transcripts of the game floor: a seeded two-player game from the lobby to the final
message, and the other ways a lobby or a game ends (see :mod:`tests.bot.golden`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import game_service
from bot.game import messages
from bot.game.rows import GameStatus
from bot.game.service import GameService, LoadedGame, as_seat
from bot.lobby.cog import lobby_text
from bot.panel.service import Panels
from bot.stores import Store
from engine import Move, WipeThree, choose
from tests.bot.clocks import FakeClock
from tests.bot.golden import Transcript, status_answer
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GUILD, CHANNEL = 1, 10
ADA, BOB = 101, 202
NAMES = {ADA: "Ada", BOB: "Bob"}
HALFWAY = 20
"""The turn after which the script asks for the scores so far."""
THREE_BEARS_SEED = 28
"""A three-player seed where the second seat, the computer, moves first, and its move
leaves three bears on the display for the third."""


async def my_games(service: GameService, user: int) -> str:
    """``/cascadia mygames`` as the play cog words it."""
    return messages.my_games_message(await service.lookups.my_games(user))


def score(table: LoadedGame) -> str:
    """``/cascadia score`` as the play cog words it."""
    final = table.game.status is GameStatus.FINISHED
    return messages.score_message(table.score_sheet(), final=final)


async def test_a_two_player_game_from_the_lobby_to_the_end(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: 5)
    script = Transcript(
        sqlite_store,
        clock,
        title="A two-player game, seed 5, cards ABCDA: the lobby, every turn, the end",
        source=request.node.nodeid,
    )
    script.step("Ada opens a lobby with the cards ABCDA")
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="ABCDA"
    )
    script.shown("the lobby message", lobby_text(table))
    script.step("Bob joins")
    table = await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    script.shown("the lobby message", lobby_text(table))
    script.shown("answer to Bob: /cascadia status", await status_answer(service, table))
    script.shown("answer to Bob: /cascadia mygames", await my_games(service, BOB))
    script.step("Ada starts the game")
    await service.lobby.start(table.game.id, user_id=ADA)
    table = await service.game(CHANNEL)
    script.shown("the lobby message", lobby_text(table))
    await script.posts()
    script.shown("answer to Ada: /cascadia status", await status_answer(service, table))
    script.shown("answer to Bob: /cascadia mygames", await my_games(service, BOB))
    script.shown("answer to Bob: /cascadia help", messages.help_message())

    nature_wiped = False
    while (state := table.require_state()) and not state.is_over:
        clock.advance(timedelta(minutes=7))
        user = table.players[state.current].user_id
        name = NAMES[user]
        nature = state.seats[state.current].nature_tokens
        actions = choose(state, "fast", seed=1)
        if actions == [WipeThree()]:
            script.step(f"{name} wipes the three of a kind")
            await service.turns.wipe(CHANNEL, user_id=user, tokens=None)
        elif nature and not nature_wiped:
            nature_wiped = True
            script.step(f"{name} spends a nature token to wipe tokens 1 and 2")
            await service.turns.wipe(CHANNEL, user_id=user, tokens="1 2")
        else:
            move = Move.from_actions(actions)
            script.step(f"{name} plays `{move}`")
            await service.turns.play(CHANNEL, user_id=user, move=move)
        await script.posts()
        table = await service.game_by_id(table.game.id)
        if table.require_state().turn == HALFWAY:
            script.shown(f"answer to {name}: /cascadia score", score(table))
    assert nature_wiped, "the game never wiped with a nature token"

    script.shown("answer to Ada: /cascadia status", await status_answer(service, table))
    script.shown("answer to Ada: /cascadia score", score(table))
    script.shown("answer to Ada: /cascadia mygames", await my_games(service, ADA))
    assert_matches_golden(GOLDEN / "game.txt", script.text())


async def test_a_lobby_closed_and_a_game_with_a_computer_ended_early(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: THREE_BEARS_SEED)
    script = Transcript(
        sqlite_store,
        clock,
        title=(
            f"A lobby closed, then a game with a computer, seed {THREE_BEARS_SEED}, cards A:"
            " the computer first, a wipe, a hint, a preview, a player leaving, the host ending it"
        ),
        source=request.node.nodeid,
    )
    script.step("Ada opens a lobby, Bob joins and leaves, Ada leaves")
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    table = await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    table = (await service.lobby.leave(table.game.id, user_id=BOB)).loaded
    table = (await service.lobby.leave(table.game.id, user_id=ADA)).loaded
    script.shown("the lobby message", lobby_text(table))
    await script.posts()
    script.step("Ada opens a lobby and ends it")
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    await service.turns.end(table.game.id, user_id=ADA, name="Ada", can_manage=False)
    await script.posts()

    script.step("Ada opens a lobby and adds the fast computer, Bob joins")
    table = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards="A"
    )
    script.shown(
        "answer to Ada: Add computer",
        messages.computer_choice_text(service.thinker.strong_seconds),
    )
    table = await service.lobby.add_computer(table.game.id, user_id=ADA, policy="fast")
    table = await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
    script.shown("the lobby message", lobby_text(table))
    script.step("Ada starts the game")
    await service.lobby.start(table.game.id, user_id=ADA)
    await script.posts()
    table = await service.game(CHANNEL)

    async def computer_turns() -> tuple[LoadedGame, int, str]:
        """The computer plays its seats' turns; the game, then who is to move."""
        while True:
            table = await service.game(CHANNEL)
            player = table.players[table.require_state().current]
            if player.computer is None:
                return table, player.user_id, player.name
            script.step(f"the computer plays for {player.name}")
            await service.turns.play_computer(table.game.id)
            await script.posts()

    table, user, name = await computer_turns()
    script.step("Bob presses Play on the start message, a turn late")
    await script.refused(
        "answer to Bob: Play", Panels(service).open(table.game.id, user_id=BOB, turn=0)
    )
    script.step(f"{name} wipes the three of a kind")
    await service.turns.wipe(CHANNEL, user_id=user, tokens=None)
    await script.posts()
    script.step(f"{name} asks for a hint")
    hint = await service.turns.hint(CHANNEL, user_id=user)
    script.shown(f"answer to {name}: /cascadia hint", hint.text())
    waiting = next(p for p in table.people if p.user_id != user)
    seat = table.players.index(waiting)
    plan = Move.from_actions(choose(as_seat(table.require_state(), seat), "fast", seed=1))
    script.step(f"{waiting.name}, waiting, previews `{plan}`")
    preview = await service.turns.preview(CHANNEL, user_id=waiting.user_id, move=plan)
    script.shown(
        f"answer to {waiting.name}: /cascadia preview",
        messages.preview_message(
            preview.score_after - preview.score_before, preview.total_after, your_turn=False
        ),
    )
    move = hint.moves[0]
    script.step(f"{name} previews and plays `{move}`, the hint's first")
    preview = await service.turns.preview(CHANNEL, user_id=user, move=move)
    script.shown(
        f"answer to {name}: /cascadia preview",
        messages.preview_message(preview.score_after - preview.score_before, preview.total_after),
    )
    await service.turns.play(CHANNEL, user_id=user, move=move)
    await script.posts()
    await computer_turns()

    script.step("Bob leaves the game")
    await service.turns.leave_game(table.game.id, user_id=BOB)
    await script.posts()
    table, user, name = await computer_turns()
    move = Move.from_actions(choose(table.require_state(), "fast", seed=1))
    script.step(f"{name} plays `{move}`")
    await service.turns.play(CHANNEL, user_id=user, move=move)
    await script.posts()
    await computer_turns()
    script.step("Ada ends the game")
    await service.turns.end(table.game.id, user_id=ADA, name="Ada", can_manage=False)
    await script.posts()
    table = await service.game_by_id(table.game.id)
    script.shown("answer to Ada: /cascadia status", await status_answer(service, table))
    script.shown("answer to Ada: /cascadia mygames", await my_games(service, ADA))
    assert_matches_golden(GOLDEN / "endings.txt", script.text())
