"""Computer players through the real bot process: seats added in the lobby, a game of one
person and two computers to the end, a leaver's seat handed to the computer, a restart while a
computer's turn is due, and hints once per turn."""

from __future__ import annotations

import json
import re

import pytest

from bot.game.captions import file_stem
from bot.game.messages import Player, computer_choice_text, start_message
from engine import TURNS_PER_PLAYER, new_game
from fakediscord import MessageRecord
from tests.e2e.harness import (
    CHART,
    GameChannel,
    Move,
    World,
    button,
    check_pngs,
    check_replay,
    labels,
    ranking,
    replayed_scores,
)

COMPUTER_TURN = re.compile(
    r"^(\*\*Computer \((fast|strong)\)\*\* (took |spent a nature token to take)"
    r"|The computer played for )",
    re.M,
)
"""The line that tells a computer's move: the message's first (in full), or the last of what
happened since the called player's last turn (in short)."""


@pytest.fixture
def bot_env() -> dict[str, str]:
    """``strong`` thinks briefly: these tests are about the bot, not the player's strength."""
    return {"CASCADIA_STRONG_SECONDS": "0.2"}


async def add_computer(table: GameChannel, host: int, policy: str, *, seated: str) -> None:
    """The host presses Add computer on the lobby and chooses ``policy``; the lobby then
    shows the computer's seat as ``seated``."""
    server, lobby = table.server, table.lobby
    assert lobby is not None
    question = await table.reply(await server.click(host, lobby, button(lobby, "Add computer")))
    assert question.ephemeral
    assert labels(question) == ["fast", "strong"]
    await table.press(host, question, policy)
    await server.wait_for(
        lambda: f"**{seated}** has a seat" in question.text and not labels(question),
        what="the choice to be answered",
    )
    await table.lobby_shows(f"**{seated}**")


async def start(table: GameChannel, host: int) -> tuple[MessageRecord, list[str]]:
    """The host presses Start; returns the start message and the seat names."""
    assert table.lobby is not None
    await table.press(host, table.lobby, "Start")
    message = await table.next_post(0, what="the message that starts the game")
    names = re.search(r"Players: (.+?)\. ", message.text)
    assert names, message.text
    return message, re.findall(r"\*\*(.+?)\*\*", names[1])


async def play(table: GameChannel, user: int, move: Move | None = None) -> MessageRecord:
    """``user`` plays a turn (chosen through autocomplete unless given); returns the channel
    message that follows it."""
    move = move or await table.choose(user)
    answer = await table.run(user, "play", move.options())
    assert "Turn played" in answer.text, answer.text
    return await table.next_post(0, what=f"the message after {table.world.name(user)}'s turn")


def check_computer_turn(message: MessageRecord, names: list[str]) -> None:
    """A computer's turn message: it says which computer played, and shows the display and
    every environment (or the final scores)."""
    assert COMPUTER_TURN.search(message.text), message.text
    environments = [f"{file_stem(name)}.png" for name in names]
    if "The game is over" in message.text:
        check_pngs(message, expect=["scores.png", CHART, *environments])
        check_replay(message, rounds=TURNS_PER_PLAYER)
    else:
        check_pngs(message, expect=["display.png", *environments])


async def test_one_person_and_two_computers_play_to_the_end(world: World) -> None:
    server, alice = world.server, world.alice
    table = world.table()
    lobby = await table.open(alice, cards="A")
    assert "Add computer" in labels(lobby)
    # Only the host adds computers.
    await table.refused(world.bob, "Add computer", press=lobby, reason="only the host")
    await add_computer(table, alice, "fast", seated="Computer (fast)")
    await add_computer(table, alice, "strong", seated="Computer (strong)")

    message, names = await start(table, alice)
    assert names == ["alice", "Computer (fast)", "Computer (strong)"]
    turns = 0
    while "The game is over" not in message.text:
        if message.notified == {alice}:
            assert f"<@{alice}>" in message.text
            message = await play(table, alice)
            assert message.text.startswith("**alice** ")
        else:
            # A computer's turn is next: it is named, never pinged, and plays by itself.
            assert message.notified == frozenset(), message.text
            assert "<@" not in message.text, message.text
            message = await table.next_post(0, what=f"the computer's turn {turns + 1}")
            check_computer_turn(message, names)
        turns += 1
        if "The game is over" not in message.text:
            assert message.notified <= {alice}
    assert turns == 60
    assert len(world.db.moves(table.game_id)) == 60

    # The end pings the person only; the ranking is the record's, replayed.
    assert message.notified == {alice}
    [document_file] = [a for a in message.attachments if a.filename.endswith(".json")]
    record = json.loads(document_file.data)["record"]
    sheet = replayed_scores(record, names)
    assert ranking(message.text) == [(n, sheet.player(n).total) for n in sheet.ranking]
    seats = world.db.rows("SELECT user_id, computer FROM seats WHERE game_id = ? ORDER BY seat",
                          table.game_id)  # fmt: skip
    assert [(r["user_id"] < 0, r["computer"]) for r in seats] == [
        (False, None), (True, "fast"), (True, "strong")
    ]  # fmt: skip
    assert server.users.get(-1) is None


async def test_the_host_removes_computers_from_the_lobby(world: World) -> None:
    server, db, alice, bob = world.server, world.db, world.alice, world.bob
    table = world.table()
    lobby = await table.open(alice, cards="A")
    assert "Remove computer" not in labels(lobby), "nothing to remove yet"
    await add_computer(table, alice, "fast", seated="Computer (fast)")
    await table.join(bob)
    await add_computer(table, alice, "strong", seated="Computer (strong)")
    assert "Remove computer" in labels(lobby)
    await table.refused(bob, "Remove computer", press=lobby, reason="only the host")

    # The computer seated last goes first; the people keep their seats.
    await table.press(alice, lobby, "Remove computer")
    await server.wait_for(
        lambda: "Computer (strong)" not in lobby.text, what="the strong computer to go"
    )
    assert "**Computer (fast)**" in lobby.text
    await table.press(alice, lobby, "Remove computer")
    await server.wait_for(
        lambda: "Computer" not in lobby.text and "Remove computer" not in labels(lobby),
        what="the last computer and the Remove computer button to go",
    )
    seats = db.rows("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", table.game_id)
    assert [r["user_id"] for r in seats] == [alice, bob]

    _, names = await start(table, alice)
    assert sorted(names) == ["alice", "bob"]


async def _to_turn_of(table: GameChannel, user: int, message: MessageRecord) -> MessageRecord:
    """Play (the others' turns, at random) until ``user`` is pinged; returns that message."""
    while message.notified != {user}:
        [mover] = message.notified
        message = await play(table, mover)
    return message


async def test_a_leaver_is_replaced_by_the_computer_mid_game(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    table = world.table()
    await table.open(alice, cards="B")
    await table.join(bob, carol)
    message, names = await start(table, alice)
    assert sorted(names) == ["alice", "bob", "carol"]
    message = await play(table, next(iter(message.notified)))
    message = await _to_turn_of(table, bob, message)

    # Leaving asks first; "Stay" changes nothing.
    question = await table.run(bob, "leave")
    assert "computer" in question.text
    await table.press(bob, question, "Stay")
    await world.server.wait_for(lambda: "still playing" in question.text, what="Stay")
    question = await table.run(bob, "leave")
    await table.press(bob, question, "Leave the game")
    notice = await table.next_post(0, what="the message that bob left")
    assert notice.text == (
        "**bob** left the game: the computer (fast) plays their seat from now on. "
        "It plays their turn now."
    )
    assert notice.notified == frozenset()
    # It was bob's turn: the computer plays it within seconds, and says so.
    message = await table.next_post(0, what="the computer's turn for bob")
    check_computer_turn(message, names)
    assert re.search(
        r"^The computer played for \*\*bob\*\*\.\n(Since .*\n(.*\n)*)?"
        r"\*\*bob\*\*( \(played by the computer\))? took ",
        message.text,
        re.M,
    )
    [nxt] = message.notified
    assert nxt in (alice, carol)

    # bob no longer plays; the others go on, and the computer keeps playing bob's seat.
    move = await table.choose(nxt)
    await table.refused(bob, "play", move.options(), reason="not in this game")
    message = await play(table, nxt, move)
    if not message.notified:
        message = await table.next_post(0, what="the computer's next turn for bob")
        assert re.search(r"^The computer played for \*\*bob\*\*\.$", message.text, re.M)
    assert len(message.notified) == 1
    assert bob not in message.notified
    [seat] = world.db.rows(
        "SELECT computer FROM seats WHERE game_id = ? AND user_id = ?", table.game_id, bob
    )
    assert seat["computer"] == "fast"


async def test_a_computer_turn_due_at_a_restart_is_played(world: World) -> None:
    server, db, alice = world.server, world.db, world.alice
    table = world.table()
    await table.open(alice, cards="C")
    await add_computer(table, alice, "fast", seated="Computer (fast)")
    message, names = await start(table, alice)
    if not message.notified:
        message = await table.next_post(0, what="the computer's first turn")
    assert message.notified == {alice}

    # alice's turn is committed, and the bot is killed while posting its message, before
    # the computer has been asked to play.
    move = await table.choose(alice)
    moves = len(db.moves(table.game_id))
    hold = server.hold("POST", f"/channels/{table.channel}/messages")
    await table.send(alice, "play", move.options())
    await server.wait_for(lambda: hold.held, what="the bot to post alice's turn message")
    await world.bot.kill()
    await server.wait_for(lambda: hold.abandoned, what="the server to see the held request go")
    assert len(db.moves(table.game_id)) == moves + 1
    [computer_seat] = db.rows(
        "SELECT seat FROM seats WHERE game_id = ? AND computer IS NOT NULL", table.game_id
    )
    assert db.state(table.game_id).current == computer_seat["seat"], "no computer turn is due"

    await world.bot.start()
    mine = await table.next_post(0, what="alice's turn message, after the restart")
    assert mine.text.startswith("**alice** ")
    computer = await table.next_post(0, what="the computer's turn that was due")
    check_computer_turn(computer, names)
    assert computer.notified == {alice}
    assert len(db.moves(table.game_id)) == moves + 2


async def test_a_hint_once_per_turn(world: World) -> None:
    alice, bob = world.alice, world.bob
    table = world.table()
    await table.open(alice, cards="D")
    await table.join(bob)
    message, _ = await start(table, alice)
    [mover] = message.notified
    waiting = bob if mover == alice else alice

    await table.refused(waiting, "hint", reason="not your turn")
    hint = await table.run(mover, "hint")
    check_pngs(hint, expect=["hint.png"])
    commands = re.findall(r"`(/cascadia play [^`]+)` \(([+-]\d+) points? now\)", hint.text)
    assert len(commands) == 3, hint.text
    await table.refused(mover, "hint", reason="one per turn")

    # The first suggestion, typed exactly as given, plays.
    options = dict(word.split(":", 1) for word in commands[0][0].split()[2:])
    move = Move(
        int(options["pair"]),
        options["tile_at"],
        int(options["rotation"]),
        options["token_at"],
        int(options["token"]) if "token" in options else None,
    )
    message = await play(table, mover, move)
    assert message.notified == {waiting}
    await table.run(waiting, "hint")

    export = await table.run(alice, "export")
    document = json.loads(export.attachments[0].data)
    assert [(h["turn"], h["user_id"]) for h in document["hints"]] == [
        (0, str(mover)),
        (1, str(waiting)),
    ]
    assert {"table", "scores"} <= set(document)


async def test_a_computer_that_moves_first_is_not_announced_as_a_persons_turn(
    world: World,
) -> None:
    alice = world.alice
    # The first player is drawn at random: with one person and two computers a computer
    # moves first two games in three, so a dozen games find one but once in 500 000 runs.
    players = (
        Player(alice, "alice"),
        Player(-1, "Computer (fast)", computer="fast"),
        Player(-2, "Computer (strong)", computer="strong"),
    )
    for _ in range(12):
        table = world.table(world.new_channel())
        lobby = await table.open(alice, cards="A")
        question = await table.reply(
            await table.server.click(alice, lobby, button(lobby, "Add computer"))
        )
        assert question.text == computer_choice_text(0.2)
        await table.press(alice, question, "fast")
        await table.lobby_shows("**Computer (fast)**")
        await add_computer(table, alice, "strong", seated="Computer (strong)")
        message, _ = await start(table, alice)
        # The first state of the game, as the start message told it.
        seed = world.db.state(table.game_id).seed
        first = new_game(players=3, seed=seed, cards="A")
        assert message.text == start_message(first, players), message.text
        if message.notified == {alice}:
            continue
        assert message.notified == frozenset(), message.text
        while message.notified != {alice}:
            message = await table.next_post(0, what="the computers' turns before alice's")
        assert "Play" in labels(message)
        return
    raise AssertionError("a computer never moved first in a dozen games")
