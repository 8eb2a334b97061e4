"""Whole games, from ``/cascadia new`` to the final scores, as the players see them."""

from __future__ import annotations

import json

from bot.game.messages import Player, ended_message, help_message, settings_message
from sandbox import ACK_LIMIT
from tests.e2e.harness import World, check_pngs, replayed_scores


async def test_two_player_game_from_lobby_to_final_scores(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    assert sorted(table.seats) == sorted([world.alice, world.bob])

    final = await table.play_to_end()

    assert table.turns == 40
    assert len(world.db.moves(table.game_id)) == 40
    record = table.check_final(final)

    # /cascadia export: settings, players, moves, the table and scores, and now the seed.
    export = await table.run(world.bob, "export")
    [document_file] = export.attachments
    document = json.loads(document_file.data)
    assert document["game"]["status"] == "finished"
    assert [p["name"] for p in document["players"]] == table.names
    assert len(document["moves"]) == 40
    assert document["seed"] == record["seed"]
    assert set(document["table"]) >= {"cards", "players"}
    replayed = replayed_scores(record, table.names)
    assert document["scores"] == replayed.to_json()

    assert max(world.server.ack_latencies) < ACK_LIMIT


async def test_solo_game_to_the_end(world: World) -> None:
    table = world.table()
    await table.open(world.carol, cards="A")
    await table.start(world.carol, button=False)
    assert table.seats == [world.carol]

    final = await table.play_to_end()

    assert table.turns == 20
    table.check_final(final)


async def test_four_player_game_to_the_end(world: World) -> None:
    table = world.table()
    await table.setup([world.dave, world.alice, world.bob, world.carol])
    assert len(table.seats) == 4

    final = await table.play_to_end(max_turns=80)

    assert table.turns == 80
    table.check_final(final)


async def test_looking_commands_and_ending_a_game(world: World) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    await table.play()
    mover = table.to_move
    assert mover is not None
    waiting = next(u for u in table.seats if u != mover)
    before = world.db.snapshot()

    # Looking changes nothing and shows only to the one who asks.
    move = await table.choose(mover)
    preview = await table.run(mover, "preview", move.options())
    check_pngs(preview, expect=["preview.png"])
    board = await table.run(waiting, "board", {"player": mover})
    check_pngs(board, expect=["display.png", f"{world.name(mover)}.png"])
    status = await table.run(world.eve, "status")
    assert Player(mover, world.name(mover)).shown in status.text.splitlines()[0], status.text
    score = await table.run(waiting, "score")
    check_pngs(score, expect=["scores.png"])
    mine = await table.run(mover, "mygames")
    assert f"<#{table.channel}>: **your turn**" in mine.text
    assert (await table.run(world.eve, "help")).text == help_message()
    export = await table.run(waiting, "export")
    document = json.loads(export.attachments[0].data)
    assert "seed" not in document, "the seed of a game in play was exported"
    assert len(document["moves"]) == 1
    settings = await table.run(world.alice, "settings", {"reminder_hours": 12})
    [(deadline_hours,)] = world.db.rows(
        "SELECT deadline_hours FROM games WHERE id = ?", table.game_id
    )
    assert settings.text == settings_message(12, changed=True, deadline_hours=deadline_hours)
    assert world.db.snapshot()["moves"] == before["moves"]
    table.check_channel()

    # Ending asks first; "Keep playing" changes nothing, "End the game" ends it for everyone.
    await table.refused(world.bob, "end", reason="only the host")
    question = await table.run(world.alice, "end")
    await table.press(world.alice, question, "Keep playing")
    assert "Nothing was changed" in question.text
    question = await table.run(world.alice, "end")
    since = len(world.server.messages)
    await table.press(world.alice, question, "End the game")
    ended = await table.next_post(since, what="the message that the game was ended")
    assert ended.text == ended_message(Player(world.alice, "alice"), started=True)
    assert ended.notified == frozenset()
    [attached] = ended.attachments
    assert attached.filename == f"cascadia-game-{table.game_id}.json"
    document = json.loads(attached.data)
    assert document["game"]["status"] == "ended"
    assert len(document["record"]["actions"]) == 3
    assert {"table", "scores", "moves"} <= set(document)
    await world.server.wait_for(
        lambda: "The game is ended" in question.text, what="the confirmation to be answered"
    )
    await table.refused(mover, "play", move.options(), reason="no game in this channel")
    await table.open(world.bob)


async def test_a_host_leaving_the_lobby_hands_it_to_the_next_person(world: World) -> None:
    table = world.table()
    lobby = await table.open(world.alice)
    await table.join(world.bob, world.carol)
    since = len(world.server.messages)
    await table.press(world.alice, lobby, "Leave")
    news = await table.next_post(since, what="the channel told who hosts the lobby now")
    alice, bob = world.name(world.alice), world.name(world.bob)
    assert news.text == (
        f"**{alice}** left the lobby. <@{world.bob}> is the host now: press **Start** when ready."
    )
    assert news.notified == frozenset({world.bob})
    await table.lobby_shows(f"**{bob}** (host)")
    assert f"**{alice}**" not in lobby.text
    await table.start(world.bob)
    assert sorted(table.seats) == sorted([world.bob, world.carol])
