"""The command handlers, run in-process against the local Discord-compatible server.

These check what only a real client shows: who is pinged, what is private, that every
interaction is acknowledged in time, that lobby buttons survive a restart, and that a Discord
error delays a turn message without losing or doubling it. (Whole games and subprocess runs
are the end-to-end suite's.)
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.__main__ import discord_client
from bot.app import Application
from bot.game.rows import OutboxRow
from bot.ops.clock import Clock, utc_now
from bot.ops.config import Settings
from bot.shell.client import CascadiaBot
from bot.stores import SqliteStore
from fakediscord import MANAGE_CHANNELS, DiscordServer, MessageRecord


@dataclass
class World:
    """A server with one guild and channel, three members, and the bot running."""

    server: DiscordServer
    channel: int
    ada: int
    bob: int
    cy: int
    db: Path
    bot: CascadiaBot | None = None
    store: SqliteStore | None = None
    task: asyncio.Task[None] | None = None
    store_type: type[SqliteStore] = SqliteStore

    async def start_bot(self) -> CascadiaBot:
        self.store = await self.store_type.connect(self.db)
        settings = Settings(
            token=self.server.token,
            db_path=self.db,
            api_base=self.server.api_base,
            gateway_url=self.server.gateway_url,
            cdn_base=self.server.cdn_base,
        )
        self.app = Application(settings, self.store)
        self.bot = discord_client(self.app, guild_ready_timeout=0.05)
        self.task = asyncio.create_task(self.bot.start(self.server.token))
        self.server.watch_task(self.task)
        await self.server.guard(self.bot.wait_until_ready(), timeout=10, what="the bot ready")
        return self.bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            await self.app.close()
        if self.task is not None:
            await self.task
        if self.store is not None:
            await self.store.close()
        self.bot = self.store = self.task = None

    async def command(self, user: int, name: str, **options: Any) -> MessageRecord:
        """Run ``/cascadia name`` and return its (first) answer."""
        handle = await self.server.slash(user, self.channel, "cascadia", name, options=options)
        await handle
        if handle.record.callback_type == 4:
            assert handle.message is not None
            return handle.message
        (answer,) = await handle.followups(1, timeout=10)
        return answer

    def public(self) -> list[MessageRecord]:
        return self.server.channel_messages(self.channel, include_ephemeral=False)

    async def next_public(self, since: int, what: str) -> MessageRecord:
        return await self.server.wait_for_message(
            lambda m: not m.ephemeral and m.channel_id == self.channel,
            since=since,
            what=what,
            timeout=10,
        )


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with DiscordServer() as server:
        server.capture_error_logs("discord")
        server.capture_error_logs("bot")
        guild = server.add_guild()
        channel = server.add_channel(guild, "cascadia")
        ada, bob, cy = (server.add_user(n) for n in ("ada", "bob", "cy"))
        for user in (ada, bob):
            server.add_member(guild, user)
        server.add_member(guild, cy, permissions=MANAGE_CHANNELS)
        world = World(server, channel, ada, bob, cy, tmp_path / "cascadia.sqlite3")
        await world.start_bot()
        try:
            yield world
            assert max(server.ack_latencies) < 1.0
            server.assert_clean()
        finally:
            await world.stop_bot()


def _button(message: MessageRecord, action: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(f"cascadia:{action}:"))


async def _open_lobby(world: World) -> MessageRecord:
    since = len(world.server.messages)
    answer = await world.command(world.ada, "new", cards="A")
    assert answer.ephemeral
    lobby = await world.next_public(since, "the lobby message")
    actions = [c.split(":")[1] for c in lobby.custom_ids()]
    assert actions == ["join", "leave", "start", "addcomputer"]
    return lobby


async def _started(world: World) -> tuple[MessageRecord, int, int]:
    """A running two-player game: the start message, the player to move and the other."""
    lobby = await _open_lobby(world)
    await world.server.click(world.bob, lobby, _button(lobby, "join"))
    await world.server.wait_for(
        lambda: "**bob**" in lobby.text, what="bob in the lobby", timeout=10
    )
    since = len(world.server.messages)
    await world.server.click(world.ada, lobby, _button(lobby, "start"))
    start = await world.next_public(since, "the start message")
    first = world.ada if f"<@{world.ada}>" in start.text else world.bob
    return start, first, world.bob if first == world.ada else world.ada


async def _legal_turn(world: World, user: int) -> dict[str, Any]:
    """Options of a legal turn, chosen with the bot's own autocomplete."""
    options: dict[str, Any] = {"pair": 1, "tile_at": "", "rotation": 0, "token_at": ""}
    tiles = await world.server.autocomplete(
        user, world.channel, "cascadia", "play", options=options, focused="tile_at"
    )
    options["tile_at"] = tiles[0]["value"]
    tokens = await world.server.autocomplete(
        user, world.channel, "cascadia", "play", options=options, focused="token_at"
    )
    options["token_at"] = tokens[0]["value"]
    return options


async def test_lobby_buttons_seat_players_and_start(world: World) -> None:
    lobby = await _open_lobby(world)
    assert "1/4 seated" in lobby.text
    assert lobby.notified == frozenset()

    await world.server.click(world.bob, lobby, _button(lobby, "join"))
    await world.server.wait_for(lambda: "2/4 seated" in lobby.text, what="join", timeout=10)

    refused = await world.server.click(world.bob, lobby, _button(lobby, "start"))
    (answer,) = await refused.followups(1)
    assert answer.ephemeral
    assert answer.text == "Only the host can start the game."

    since = len(world.server.messages)
    await world.server.click(world.ada, lobby, _button(lobby, "start"))
    start = await world.next_public(since, "the start message")
    mentioned = {int(m) for m in re.findall(r"<@(\d+)>", start.text)}
    assert len(mentioned) == 1
    assert start.notified == frozenset(mentioned)
    assert [a.filename for a in start.attachments] == ["display.png", "ada.png", "bob.png"]
    assert start.attachments[1].description == (
        "ada's environment: 3 tiles, 10 points if it ended now, bonuses in"
    )
    await world.server.wait_for(
        lambda: "The game has started." in lobby.text and not lobby.custom_ids(),
        what="the lobby closed",
        timeout=10,
    )


async def test_a_turn_pings_only_the_next_player_in_a_new_message(world: World) -> None:
    _, mover, waiting = await _started(world)
    options = await _legal_turn(world, mover)
    since = len(world.server.messages)
    answer = await world.command(mover, "play", **options)
    assert answer.ephemeral
    assert answer.text == "Turn played."
    turn = await world.next_public(since, "the turn message")
    assert turn.interaction_id is None  # a channel message, not an edited placeholder
    assert turn.notified == frozenset({waiting})
    assert re.findall(r"<@(\d+)>", turn.text) == [str(waiting)]
    assert f": {options['tile_at']}, " in turn.text
    # The display, then the board of the player who just moved, then the other's.
    moved, other = ("ada", "bob") if mover == world.ada else ("bob", "ada")
    assert [a.filename for a in turn.attachments] == ["display.png", f"{moved}.png", f"{other}.png"]


async def test_refusals_are_private_and_change_nothing(world: World) -> None:
    _, mover, waiting = await _started(world)
    options = await _legal_turn(world, mover)
    public = len(world.public())
    answers = {
        "waiting": await world.command(waiting, "play", **options),
        "outsider": await world.command(world.cy, "play", **options),
        "occupied": await world.command(mover, "play", **{**options, "tile_at": "0,0"}),
        "unreadable": await world.command(mover, "play", **{**options, "tile_at": "here"}),
        "started": await world.command(world.cy, "join"),
        "busy": await world.command(world.bob, "new"),
    }
    assert all(a.ephemeral for a in answers.values())
    assert answers["waiting"].text.startswith("It's not your turn")
    assert answers["outsider"].text == "You are not in this game."
    assert answers["occupied"].text == "Not allowed: 0,0 already has a tile."
    assert answers["unreadable"].text.startswith("I could not read that: not a position")
    assert answers["started"].text == "The game has already started."
    assert answers["busy"].text.startswith("A game is already running")
    assert len(world.public()) == public


async def test_a_lobby_whose_message_cannot_be_posted_still_works(world: World) -> None:
    world.server.inject_fault("POST", "/channels/*/messages", status=403)
    answer = await world.command(world.ada, "new")
    assert "could not post its message" in answer.text
    joined = await world.command(world.bob, "join")
    assert joined.text == "You have a seat in this game."


async def test_no_game_here(world: World) -> None:
    for name in ("status", "board", "score", "export", "end", "wipe"):
        answer = await world.command(world.ada, name)
        assert answer.ephemeral
        assert answer.text.startswith("There is no game in this channel")


async def test_autocomplete_offers_legal_positions(world: World) -> None:
    _, mover, waiting = await _started(world)
    base: dict[str, Any] = {"pair": 1, "tile_at": "", "rotation": 0, "token_at": ""}
    tiles = await world.server.autocomplete(
        mover, world.channel, "cascadia", "play", options=base, focused="tile_at"
    )
    assert 0 < len(tiles) <= 25
    assert "0,0" not in [c["value"] for c in tiles]
    narrowed = await world.server.autocomplete(
        mover, world.channel, "cascadia", "play", options={**base, "tile_at": "-1"},
        focused="tile_at",
    )  # fmt: skip
    assert narrowed
    assert all("-1" in c["value"] for c in narrowed)
    tokens = await world.server.autocomplete(
        mover, world.channel, "cascadia", "play",
        options={**base, "tile_at": tiles[0]["value"]}, focused="token_at",
    )  # fmt: skip
    assert tokens[-1]["value"] == "return"
    outsider = await world.server.autocomplete(
        world.cy, world.channel, "cascadia", "play", options=base, focused="tile_at"
    )
    assert outsider == []
    # A waiting player gets their own environment's places (for a preview).
    planning = await world.server.autocomplete(
        waiting, world.channel, "cascadia", "preview", options=base, focused="tile_at"
    )
    assert planning


async def test_lobby_buttons_work_after_a_restart(world: World) -> None:
    lobby = await _open_lobby(world)
    await world.stop_bot()
    await world.start_bot()
    await world.server.click(world.bob, lobby, _button(lobby, "join"))
    await world.server.wait_for(lambda: "**bob**" in lobby.text, what="join", timeout=10)
    assert len(world.server.command_syncs) == 1  # unchanged commands are not synced again


async def test_a_discord_error_delays_the_turn_message_once(world: World) -> None:
    _, mover, waiting = await _started(world)
    assert world.bot is not None
    world.bot.outbox.base_delay = 0.05
    options = await _legal_turn(world, mover)
    world.server.inject_fault("POST", "/channels/*/messages", status=403)
    public = len(world.public())
    answer = await world.command(mover, "play", **options)
    assert "will follow" in answer.text
    assert len(world.public()) == public
    await asyncio.sleep(0.1)
    await world.bot.outbox.drain()
    await world.bot.outbox.drain()
    turns = [m for m in world.public()[public:] if "it's your turn" in m.text]
    assert len(turns) == 1
    assert turns[0].notified == frozenset({waiting})


class OutboxReads(SqliteStore):
    """The store, counting how often each outbox row is read by its id."""

    def __init__(self, connection: aiosqlite.Connection, *, now: Clock = utc_now) -> None:
        super().__init__(connection, now=now)
        self.reads: Counter[int] = Counter()

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        self.reads[outbox_id] += 1
        return await super().get_outbox(outbox_id)


async def test_posting_a_turn_reads_its_rows_once(world: World) -> None:
    await world.stop_bot()
    world.store_type = OutboxReads
    bot = await world.start_bot()
    _, mover, _ = await _started(world)
    assert isinstance(world.store, OutboxReads)
    world.store.reads.clear()
    answer = await world.command(mover, "play", **await _legal_turn(world, mover))
    assert answer.text == "Turn played."
    played = dict(world.store.reads)
    assert played
    assert set(played.values()) == {1}, "the drain tells which rows it posted"
    # Rows another drain posted meanwhile count as posted: they are read once more to tell.
    assert await bot.announce(list(played)) is True
    assert set(world.store.reads.values()) == {3}


async def test_private_views(world: World) -> None:
    _, mover, waiting = await _started(world)
    board = await world.command(waiting, "board", player=mover)
    assert board.ephemeral
    assert [a.filename for a in board.attachments][:1] == ["display.png"]
    status = await world.command(waiting, "status")
    assert f"It's **{'ada' if mover == world.ada else 'bob'}**'s turn since <t:" in status.text
    score = await world.command(waiting, "score")
    assert [a.filename for a in score.attachments] == ["scores.png"]
    games = await world.command(mover, "mygames")
    assert "**your turn**" in games.text
    exported = await world.command(waiting, "export")
    (attachment,) = exported.attachments
    document = json.loads(attachment.data)
    assert {"table", "scores", "players", "moves", "game"} <= set(document)
    assert "seed" not in document
    help_text = await world.command(waiting, "help")
    assert help_text.ephemeral
    assert all(m.notified == frozenset() for m in (board, status, score, games, exported))


async def test_settings_are_for_the_host(world: World) -> None:
    await _started(world)
    refused = await world.command(world.bob, "settings", reminder_hours=2)
    assert refused.text == "Only the host can change the settings."
    saved = await world.command(world.ada, "settings", reminder_hours=0)
    assert saved.text.startswith("Saved. Reminders: off.")


async def test_end_needs_confirmation(world: World) -> None:
    await _started(world)
    refused = await world.command(world.bob, "end")
    assert refused.text.startswith("Only the host can end the game")
    question = await world.command(world.cy, "end")  # a channel manager may
    assert question.ephemeral
    by_label = {b["label"]: b["custom_id"] for b in question.components[0]["components"]}
    assert set(by_label) == {"End the game", "Keep playing"}
    await world.server.click(world.cy, question, by_label["Keep playing"])
    await world.server.wait_for(
        lambda: question.text == "Nothing was changed.", what="cancel", timeout=10
    )
    question = await world.command(world.ada, "end")
    since = len(world.server.messages)
    end_button = next(
        b["custom_id"] for b in question.components[0]["components"] if b["label"] == "End the game"
    )
    await world.server.click(world.ada, question, end_button)
    ended = await world.next_public(since, "the end message")
    assert "was ended by **ada**" in ended.text
    assert ended.attachments[0].filename.endswith(".json")
    status = await world.command(world.ada, "status")
    assert status.text.startswith("This game was ended early.")


async def test_ending_a_lobby_closes_its_message(world: World) -> None:
    lobby = await _open_lobby(world)
    question = await world.command(world.ada, "end")
    assert question.text.startswith("End this lobby for everyone?")
    end_button = next(
        b["custom_id"] for b in question.components[0]["components"] if b["label"] == "End the game"
    )
    await world.server.click(world.ada, question, end_button)
    await world.server.wait_for(
        lambda: "This lobby is closed." in lobby.text and not lobby.custom_ids(),
        what="the lobby message closed",
        timeout=10,
    )
    reopened = await world.command(world.bob, "new")
    assert reopened.text.startswith("Your lobby is open.")


async def test_the_bot_holds_no_view_of_the_messages_it_posts(world: World) -> None:
    # discord.py would keep each sent view with buttons for as long as the bot runs: one a
    # turn message, a leak over days of play. The buttons are answered by dynamic items.
    _, mover, waiting = await _started(world)
    for _ in range(3):
        options = await _legal_turn(world, mover)
        since = len(world.server.messages)
        await world.command(mover, "play", **options)
        turn = await world.next_public(since, "the turn message")
        mover, waiting = waiting, mover
    assert world.bot is not None
    assert world.bot.persistent_views == []

    pressed = await world.server.click(mover, turn, _button(turn, "play"))
    (panel,) = await pressed.followups(1)
    assert panel.ephemeral
    assert panel.custom_ids(), "the Play of the latest turn message opened no panel"
