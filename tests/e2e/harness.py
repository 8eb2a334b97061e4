"""The bot as its users meet it: the real ``python -m bot`` process against the local Discord
server, driven through ``/cascadia`` commands, autocomplete and buttons.

The bot runs as :class:`sandbox.BotProcess` (killable and restartable) on one SQLite file or
PostgreSQL database; :class:`Database` reads it, as an outside observer; :class:`GameChannel`
plays a game in one channel the way people would, checking every message the bot posts there.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from PIL import Image

from bot.ops.target import is_postgres_url
from engine import TURNS_PER_PLAYER, GameRecord, GameState, state_from_json
from engine.scoring.sheet import ScoreSheet, final_scores
from fakediscord import (
    JSON,
    DiscordServer,
    InteractionHandle,
    InteractionRecord,
    MessageRecord,
)
from sandbox import ACK_LIMIT, BotProcess

__all__ = [
    "MESSAGE_TIMEOUT",
    "REPO_ROOT",
    "Database",
    "GameChannel",
    "Move",
    "World",
    "button",
    "check_pngs",
    "labels",
    "poll_until",
    "ranking",
    "replayed_scores",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
MESSAGE_TIMEOUT = 20.0
"""How long a channel message the bot owes may take (pictures are drawn first)."""
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_RANKING_LINE = re.compile(r"^(\d+)\. \*\*(.+?)\*\*: (-?\d+) points", re.MULTILINE)
_T = TypeVar("_T")


async def poll_until(
    check: Callable[[], _T | None],
    *,
    timeout: float,
    what: str,
    server: DiscordServer | None = None,
    interval: float = 0.02,
) -> _T:
    """Wait for ``check()`` to return something truthy, for state the server does not see
    change (the bot's database file); fails naming ``what`` after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (result := check()):
        if server is not None and server.crashes:
            raise AssertionError(f"crashed while waiting for {what}\n{server.describe()}")
        if loop.time() > deadline:
            detail = f"\n{server.describe()}" if server is not None else ""
            raise AssertionError(f"timed out after {timeout}s waiting for {what}{detail}")
        await asyncio.sleep(interval)
    return result


# --- the database, read from outside ---------------------------------------------------------


class Database:
    """Read-only views of the bot's database: its SQLite file (WAL: readable while the bot
    writes), or, given a ``postgresql://`` URL, its PostgreSQL database."""

    def __init__(self, target: Path | str) -> None:
        self.target = target

    @property
    def postgres(self) -> bool:
        return isinstance(self.target, str) and is_postgres_url(self.target)

    def rows(self, sql: str, *parameters: object) -> list[Any]:
        """Run one read query (``?`` placeholders) on a fresh connection; rows index by
        position and by column name."""
        if self.postgres:
            return _postgres_rows(str(self.target), sql, parameters)
        uri = f"file:{self.target}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
            db.row_factory = sqlite3.Row
            return db.execute(sql, parameters).fetchall()

    def game_id(self, channel_id: int) -> int | None:
        """The newest game of a channel."""
        found = self.rows("SELECT max(id) FROM games WHERE channel_id = ?", channel_id)
        return None if found[0][0] is None else int(found[0][0])

    def moves(self, game_id: int) -> list[tuple[int, int, str]]:
        """The move log: (seq, user id, actions)."""
        rows = self.rows(
            "SELECT seq, user_id, action FROM moves WHERE game_id = ? ORDER BY seq", game_id
        )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    def state(self, game_id: int) -> GameState:
        """The engine state the bot stored (a test oracle: users see pictures instead)."""
        [row] = self.rows("SELECT state FROM games WHERE id = ?", game_id)
        return state_from_json(json.loads(row[0]))

    def unsent(self, channel_id: int | None = None) -> list[tuple[int, str]]:
        """Outbox rows not yet posted (only ``channel_id``'s, when given): (id, kind)."""
        sql = "SELECT id, kind FROM outbox WHERE sent_at IS NULL"
        if channel_id is None:
            rows = self.rows(f"{sql} ORDER BY id")
        else:
            rows = self.rows(f"{sql} AND channel_id = ? ORDER BY id", channel_id)
        return [(int(r[0]), str(r[1])) for r in rows]

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table: equal snapshots mean nothing was changed. Which process
        holds a claim on a row, and until when, is left out: the bot renews its claims as it
        looks for work, whatever the players do."""
        tables = ("games", "seats", "moves", "outbox", "outbox_snapshots", "panels")
        # PostgreSQL has no rowid; each table's first two columns order its rows there.
        order = "1, 2" if self.postgres else "rowid"
        claims = ("claimed_by", "lease_until")
        return {
            t: [
                tuple(r[k] for k in r.keys() if k not in claims)  # noqa: SIM118
                for r in self.rows(f"SELECT * FROM {t} ORDER BY {order}")
            ]
            for t in tables
        }


def _postgres_rows(url: str, sql: str, parameters: Sequence[object]) -> list[Any]:
    """One query on a connection of its own, in a thread with its own event loop: the
    callers are synchronous, as they are for the SQLite file."""
    numbered = iter(range(1, len(parameters) + 1))
    query = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)

    async def fetch() -> list[Any]:
        connection = await asyncpg.connect(url)
        try:
            return list(await connection.fetch(query, *parameters))
        finally:
            await connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, fetch()).result(timeout=30)


# --- the world -------------------------------------------------------------------------------


@dataclass
class World:
    """A guild with the bot in it, its first channel, four players and a bystander."""

    server: DiscordServer
    bot: BotProcess
    db: Database
    guild: int
    channel: int
    alice: int
    bob: int
    carol: int
    dave: int
    eve: int
    seed: int = 0
    tables: list[GameChannel] = field(default_factory=list)
    late_on_purpose: set[int] = field(default_factory=set)
    """Interactions a test made the server refuse as answered too late."""
    _channels: int = 0

    def name(self, user: int) -> str:
        """A user's display name."""
        return self.server.users[user].name

    def user(self, name: str) -> int:
        """A user's id by name."""
        return next(u.id for u in self.server.users.values() if u.name == name)

    def new_channel(self) -> int:
        """A fresh text channel in the guild."""
        self._channels += 1
        return self.server.add_channel(self.guild, f"table-{self._channels}")

    def table(self, channel: int | None = None) -> GameChannel:
        """A driver for the game in ``channel`` (default: the first channel); each table's
        channel is checked once more when the test ends."""
        channel = self.channel if channel is None else channel
        table = GameChannel(self, channel, random.Random(self.seed + len(self.tables)))
        self.tables.append(table)
        return table


# --- checks on what the bot posts ----------------------------------------------------------


def check_pngs(message: MessageRecord, *, expect: Iterable[str]) -> None:
    """The message carries valid, non-trivial PNG pictures with exactly the ``expect`` names,
    each described for screen readers (an environment: "alice's environment: 3 tiles, 0
    points", while played "... if it ended now, bonuses in")."""
    pngs = [a for a in message.attachments if a.filename.endswith(".png")]
    assert sorted(a.filename for a in pngs) == sorted(expect), (
        f"pictures of message {message.id}: {[a.filename for a in message.attachments]}"
    )
    if message.components_v2:
        # A layout shows its pictures in its gallery, each with the file's alt text.
        shown = [(item.attachment.filename, item.description) for item in message.gallery
                 if item.attachment is not None]  # fmt: skip
        assert sorted(shown) == sorted((a.filename, a.description) for a in pngs), (
            f"the gallery of message {message.id} shows {shown}"
        )
        assert len(message.gallery) == len(shown), "the gallery shows a picture it lacks"
    for attachment in pngs:
        assert attachment.description, f"{attachment.filename} has no description"
        if attachment.filename == "achievements.png":
            assert attachment.description.startswith("Achievement badges"), attachment.description
        elif attachment.filename not in ("display.png", "scores.png", "preview.png", CHART):
            assert re.fullmatch(
                r".+'s environment: \d+ tiles?, -?\d+ points?( if it ended now, bonuses in)?",
                attachment.description,
            ), (attachment.filename, attachment.description)
        with Image.open(io.BytesIO(attachment.data)) as image:
            image.load()  # decodes every pixel: a truncated or corrupt file raises here
            assert image.format == "PNG", (attachment.filename, image.format)
            assert min(image.size) >= 100, f"{attachment.filename} is only {image.size}"


CHART = "score-chart.png"
"""The score chart a finished game's last message carries."""
UPLOAD_LIMIT = 10 * 1024 * 1024
"""The upload limit of a server that is not boosted, as the local server's guilds are."""


def check_replay(message: MessageRecord, *, rounds: int) -> None:
    """The message carries the game's replay, a GIF of at least ``rounds`` frames, and its
    score chart (a PNG whose name says so), both described; its files fit the upload limit."""
    [gif] = [a for a in message.attachments if a.filename.endswith(".gif")]
    assert "Replay of the game" in (gif.description or ""), gif.description
    with Image.open(io.BytesIO(gif.data)) as image:
        assert image.format == "GIF", image.format
        frames: int = getattr(image, "n_frames", 1)
        assert frames >= rounds, f"the replay has {frames} frames for {rounds} rounds"
    [chart] = [a for a in message.attachments if "chart" in a.filename]
    assert chart.filename.endswith(".png"), chart.filename
    assert chart.description, f"{chart.filename} has no description"
    total = sum(len(a.data) for a in message.attachments)
    assert total <= UPLOAD_LIMIT, f"the message's files are {total} bytes"


def ranking(text: str) -> list[tuple[str, int]]:
    """The ranking lines of a message: (name, points), best first."""
    return [(m[2], int(m[3])) for m in _RANKING_LINE.finditer(text)]


def replayed_scores(record: Mapping[str, Any], names: list[str]) -> ScoreSheet:
    """The final scores of a game record, replayed by the engine from its seed."""
    state = GameRecord.from_json(record).replay()
    assert state.is_over, "the record does not replay to the end of the game"
    players = [(n, s.environment, s.nature_tokens) for n, s in zip(names, state.seats, strict=True)]
    return final_scores(state.cards, players)


# --- playing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """The options of one ``/cascadia play``."""

    pair: int
    tile_at: str
    rotation: int
    token_at: str
    token: int | None = None

    def options(self) -> dict[str, Any]:
        """The slash-command options."""
        chosen: dict[str, Any] = {
            "pair": self.pair,
            "tile_at": self.tile_at,
            "rotation": self.rotation,
            "token_at": self.token_at,
        }
        if self.token is not None:
            chosen["token"] = self.token
        return chosen


@dataclass
class GameChannel:
    """One channel's game, driven through ``/cascadia`` as its players would.

    It keeps the list of public messages the game should have produced so far
    (:attr:`accounted`); :meth:`check_channel` fails on any other (a duplicate, a stray
    reply), and every turn checks that exactly one new message pings exactly the next player.
    """

    world: World
    channel: int
    rng: random.Random
    accounted: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    """Players in seat order, read from the start message."""
    to_move: int | None = None
    turns: int = 0
    lobby: MessageRecord | None = None
    interleaved: Callable[[MessageRecord], bool] | None = None
    """Messages that may come between the game's own (reminders), if any."""
    named_only: set[int] = field(default_factory=set)
    """Players who turned the channel ping off: their turn messages name them unpinged."""

    @property
    def server(self) -> DiscordServer:
        """The Discord server."""
        return self.world.server

    @property
    def game_id(self) -> int:
        """This channel's newest game in the database."""
        found = self.world.db.game_id(self.channel)
        assert found is not None, f"no game in channel {self.channel}"
        return found

    @property
    def names(self) -> list[str]:
        """The players' names in seat order."""
        return [self.world.name(u) for u in self.seats]

    # --- commands and replies ------------------------------------------------------------------

    async def send(
        self, user: int, command: str, options: Mapping[str, Any] | None = None
    ) -> InteractionHandle:
        """Invoke ``/cascadia command`` without waiting for the answer."""
        return await self.server.slash(user, self.channel, "cascadia", command, options=options)

    async def reply(self, handle: InteractionHandle, *, timeout: float = 10.0) -> MessageRecord:
        """The answer to an interaction: its message, once a deferred "thinking" placeholder
        is filled, or the first followup after a deferred button update."""
        record = await handle.response(timeout=ACK_LIMIT + 1)

        def filled() -> MessageRecord | None:
            if record.callback_type == 6:
                return next(iter(handle.followup_messages), None)
            message = handle.message
            return message if message is not None and not message.loading else None

        return await self.server.wait_for(
            filled, timeout=timeout, what=f"the answer to {handle.record.name!r}"
        )

    async def run(
        self, user: int, command: str, options: Mapping[str, Any] | None = None
    ) -> MessageRecord:
        """``/cascadia command`` answered privately; returns the answer."""
        answer = await self.reply(await self.send(user, command, options))
        assert answer.ephemeral, f"/cascadia {command} was answered in public: {answer.text!r}"
        return answer

    async def press(self, user: int, message: MessageRecord, label: str) -> InteractionRecord:
        """Press the button labelled ``label`` on ``message``."""
        return await (await self.server.click(user, message, button(message, label)))

    async def refused(
        self,
        user: int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        reason: str,
        press: MessageRecord | None = None,
    ) -> str:
        """``/cascadia command`` (or, with ``press``, the button labelled ``command`` on that
        message) is turned down privately with a message matching ``reason`` (a regular
        expression, case-insensitive); nothing public is posted, nothing in the database
        changes. Returns the answer."""
        await self.settled()
        before = self.world.db.snapshot()
        public = len(self.public_messages())
        if press is None:
            handle = await self.send(user, command, options)
        else:
            handle = await self.server.click(user, press, button(press, command))
        answer = await self.reply(handle)
        what = f"{command} {dict(options or {})} by {self.world.name(user)}"
        assert answer.ephemeral, f"{what} was answered in public: {answer.text!r}"
        assert re.search(reason, answer.text, re.IGNORECASE), (
            f"{what}: expected a refusal matching {reason!r}, got {answer.text!r}"
        )
        assert answer.notified == frozenset()
        assert len(self.public_messages()) == public, f"{what} posted in the channel"
        assert self.world.db.snapshot() == before, f"{what} changed the database"
        return answer.text

    async def settled(self) -> None:
        """Wait until the bot has posted (and recorded posting) everything it queued."""
        await poll_until(
            lambda: not self.world.db.unsent(),
            timeout=MESSAGE_TIMEOUT,
            what="the bot to post every queued message",
            server=self.server,
        )

    def public_messages(self) -> list[MessageRecord]:
        """Everything visible in the channel."""
        return self.server.channel_messages(self.channel, include_ephemeral=False)

    def check_channel(self) -> None:
        """The channel shows exactly the messages the game accounted for, in order (and any
        that :attr:`interleaved` accepts)."""
        self._account_interleaved(self.public_messages())
        shown = [m.id for m in self.public_messages()]
        assert shown == self.accounted, (
            "the channel's messages are not the expected ones:\n"
            + "\n".join(
                f"  {'  ' if m.id in self.accounted else '!!'} {m.id}: {m.text[:100]!r}"
                for m in self.public_messages()
            )
        )

    async def next_post(
        self, since: int, *, what: str, timeout: float = MESSAGE_TIMEOUT
    ) -> MessageRecord:
        """The next public bot message in this channel at or after message order ``since``
        that the game has not accounted for yet; the channel is checked after it.

        Messages that :attr:`interleaved` accepts are accounted for on the way, wherever
        they fall."""

        def find() -> MessageRecord | None:
            fresh = [m for m in self.public_messages() if m.id not in self.accounted]
            rest = self._account_interleaved(fresh)
            return next(
                (m for m in rest if m.author_id == self.server.bot_user_id and m.order >= since),
                None,
            )

        message = await self.server.wait_for(find, timeout=timeout, what=what)
        self.accounted.append(message.id)
        self.check_channel()
        return message

    def _account_interleaved(self, messages: list[MessageRecord]) -> list[MessageRecord]:
        """Account for the interleaved messages among ``messages``; returns the others."""
        if self.interleaved is None:
            return messages
        for message in messages:
            if message.id not in self.accounted and self.interleaved(message):
                self.accounted.append(message.id)
        self.accounted.sort(key=lambda i: self.server.messages_by_id[i].order)
        return [m for m in messages if m.id not in self.accounted]

    # --- the lobby -----------------------------------------------------------------------------

    async def open(
        self, host: int, *, cards: str | None = None, scenario: int | None = None
    ) -> MessageRecord:
        """``/cascadia new`` (with ``cards``, or as solo ``scenario``): returns the lobby
        message with its buttons."""
        since = len(self.server.messages)
        options: dict[str, Any] = {} if cards is None else {"cards": cards}
        if scenario is not None:
            options["scenario"] = scenario
        answer = await self.run(host, "new", options)
        lobby = await self.next_post(since, what="the lobby message")
        assert lobby.notified == frozenset(), "the lobby message pinged someone"
        assert {"Join", "Leave", "Start"} <= set(labels(lobby)), lobby.components
        assert answer.notified == frozenset()
        self.lobby = lobby
        return lobby

    async def join(self, *users: int) -> None:
        """Each user presses Join on the lobby message."""
        assert self.lobby is not None
        for user in users:
            await self.press(user, self.lobby, "Join")
            await self.lobby_shows(f"**{self.world.name(user)}**")

    async def lobby_shows(self, text: str) -> None:
        """Wait until the lobby message (as last edited) contains ``text``."""
        lobby = self.lobby
        assert lobby is not None
        await self.server.wait_for(
            lambda: text in lobby.text, what=f"the lobby message to show {text!r}"
        )

    async def start(self, host: int, *, button: bool = True) -> MessageRecord:
        """The host starts the game; returns the first turn message (which pings the first
        player) after reading the seat order from it."""
        since = len(self.server.messages)
        if button:
            assert self.lobby is not None
            await self.press(host, self.lobby, "Start")
        else:
            await self.run(host, "start")
        message = await self.next_post(since, what="the message that starts the game")
        names = re.search(r"Players: (.+?)\. ", message.text)
        assert names, message.text
        self.seats = [self.world.user(n) for n in re.findall(r"\*\*(.+?)\*\*", names[1])]
        [first] = message.notified or self._named_to_move(message)
        assert first in self.seats
        self.to_move = first
        self.check_turn_message(message, mover=None)
        if self.lobby is not None:
            lobby = self.lobby
            await self.server.wait_for(
                lambda: "The game has started" in lobby.text and not labels(lobby),
                what="the lobby message to say the game started, without its buttons",
            )
        return message

    async def setup(self, players: list[int], *, cards: str | None = None) -> MessageRecord:
        """Open, seat ``players`` (the first hosts) and start; returns the start message."""
        await self.open(players[0], cards=cards)
        await self.join(*players[1:])
        return await self.start(players[0])

    # --- turns ---------------------------------------------------------------------------------

    async def autocomplete(
        self, user: int, focused: str, options: Mapping[str, Any], typed: str = ""
    ) -> list[JSON]:
        """What ``/cascadia play`` suggests for the option ``focused`` given the others."""
        found = await self.server.autocomplete(
            user, self.channel, "cascadia", "play", options={**options, focused: typed},
            focused=focused,
        )  # fmt: skip
        assert len(found) <= 25, f"{len(found)} choices for {focused}"
        return found

    async def choose(self, user: int) -> Move:
        """A legal turn picked the way a player would: pair and rotation at random, then
        ``tile_at`` and ``token_at`` from what autocomplete offers."""
        pair, rotation = self.rng.randint(1, 4), self.rng.randint(0, 5)
        options: dict[str, Any] = {"pair": pair, "rotation": rotation}
        tiles = await self.autocomplete(user, "tile_at", options)
        assert tiles, "no place offered for the tile"
        options["tile_at"] = self.rng.choice(tiles)["value"]
        tokens = await self.autocomplete(user, "token_at", options)
        values = [c["value"] for c in tokens]
        assert values[-1] == "return", values
        placed = values[:-1]
        # Mostly place the token when possible, so that games score something.
        token_at = self.rng.choice(placed) if placed and self.rng.random() < 0.85 else "return"
        return Move(pair, options["tile_at"], rotation, token_at)

    async def play(self, user: int | None = None, move: Move | None = None) -> MessageRecord:
        """One whole turn by ``user`` (default: whoever is to move) with ``move`` (default:
        chosen through autocomplete); returns the channel message that follows it."""
        user = self.to_move if user is None else user
        assert user is not None, "the game has not started"
        move = move or await self.choose(user)
        moves_before = len(self.world.db.moves(self.game_id))
        since = len(self.server.messages)
        answer = await self.run(user, "play", move.options())
        assert "Turn played" in answer.text, answer.text
        message = await self.turn_posted(since, user)
        assert len(self.world.db.moves(self.game_id)) == moves_before + 1
        return message

    async def turn_posted(self, since: int, mover: int) -> MessageRecord:
        """The message after ``mover``'s turn, posted at or after message order ``since``."""
        message = await self.next_post(
            since, what=f"the message after turn {self.turns + 1} ({self.world.name(mover)})"
        )
        self.turns += 1
        self.check_turn_message(message, mover=mover)
        return message

    def check_turn_message(self, message: MessageRecord, *, mover: int | None) -> None:
        """The message after a turn (or the start): it pings exactly the next player, says what
        the mover did and shows the display and every environment; or, at the end, pings
        everyone with the scores, the ranking and the game record."""
        if mover is not None:
            name = self.world.name(mover)
            told = rf"^\*\*{re.escape(name)}\*\*( \([a-z ]+\))? (took |spent a nature)"
            assert re.search(told, message.text, re.M), (
                f"the turn message does not say what {name} did: {message.text!r}"
            )
        environments = [f"{name}.png" for name in self.names]
        over = "The game is over" in message.text
        # The start and the turns are one container of words, pictures and Play; the end is
        # a plain message.
        assert message.components_v2 != over, f"message {message.id}: flags {message.flags}"
        if over:
            assert message.notified == frozenset(self.seats), "the end must ping every player"
            check_pngs(message, expect=["scores.png", CHART, *environments])
            check_replay(message, rounds=TURNS_PER_PLAYER)
            self.to_move = None
            return
        assert self.to_move is not None
        expected = self.to_move if mover is None else self.seats[
            (self.seats.index(mover) + 1) % len(self.seats)
        ]  # fmt: skip
        if expected in self.named_only:
            name = self.world.name(expected)
            assert message.notified == frozenset(), f"{name} turned the channel ping off"
            assert f"**{name}**, it's your turn" in message.text, message.text
            assert not re.findall(r"<@!?(\d+)>", message.text), message.text
            check_pngs(message, expect=["display.png", *environments])
            self.to_move = expected
            return
        assert message.notified == {expected}, (
            f"turn {self.turns}: expected a ping for {self.world.name(expected)} only, "
            f"got {sorted(self.world.name(u) for u in message.notified)}: {message.text!r}"
        )
        assert message.mentions == [expected], message.mentions
        if mover is not None and mover != expected:
            # The player called reads first what the others did since their last turn (after
            # who played a turn played for someone else).
            recap = re.sub(r"^(Played for|The computer played for) .*\n", "", message.text)
            assert recap.startswith(("Since your last turn", "Since the game began")), message.text
            assert message.text.count("\nStandings if it ended now") == 1, message.text
        written = [int(u) for u in re.findall(r"<@!?(\d+)>", message.text)]
        assert written == [expected], f"the message names others with <@…>: {message.text!r}"
        check_pngs(message, expect=["display.png", *environments])
        self.to_move = expected

    def _named_to_move(self, message: MessageRecord) -> set[int]:
        """The player a message calls by name only (one who turned the channel ping off)."""
        named = re.search(r"\*\*(.+?)\*\*, it's your turn", message.text)
        assert named, f"nobody is called: {message.text!r}"
        user = self.world.user(named[1])
        assert user in self.named_only, f"{named[1]} was named without a ping"
        return {user}

    async def play_to_end(self, *, max_turns: int = 100) -> MessageRecord:
        """Play turns until the game is over; returns the final message."""
        for _ in range(max_turns):
            message = await self.play()
            if self.to_move is None:
                return message
        raise AssertionError(f"the game did not end within {max_turns} turns")

    def check_final(self, message: MessageRecord) -> dict[str, Any]:
        """The final message: ranking and scores image, and a record that replays to the same
        scores. Returns the record."""
        [export] = [a for a in message.attachments if a.filename.endswith(".json")]
        assert export.filename == f"cascadia-game-{self.game_id}.json", export.filename
        document = json.loads(export.data)
        assert {"table", "scores", "moves", "record"} <= set(document), sorted(document)
        record = document["record"]
        sheet = replayed_scores(record, self.names)
        shown = ranking(message.text)
        assert shown == [(n, sheet.player(n).total) for n in sheet.ranking], (
            f"ranking {shown} differs from the replayed scores "
            f"{[(n, sheet.player(n).total) for n in sheet.ranking]}"
        )
        # Each logged move is a whole turn (three actions) or a wipe (one).
        logged = [
            action for *_, move in self.world.db.moves(self.game_id) for action in move.split("; ")
        ]
        assert len(record["actions"]) == len(logged)
        return dict(record)


def _walk(components: Iterable[JSON]) -> Iterable[JSON]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))


def labels(message: MessageRecord) -> list[str]:
    """The labels of a message's buttons."""
    return [c["label"] for c in _walk(message.components) if c.get("type") == 2]


def button(message: MessageRecord, label: str) -> str:
    """The custom id of the button labelled ``label``."""
    for component in _walk(message.components):
        if component.get("type") == 2 and component.get("label") == label:
            return str(component["custom_id"])
    raise AssertionError(f"no {label!r} button on message {message.id}: {labels(message)}")
