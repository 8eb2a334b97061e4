"""Channel messages that must reach Discord: stored first, posted after, never lost or doubled.

A write that announces something stores an :class:`Announcement` in the outbox in the same
transaction (see :mod:`bot.stores`). :class:`Outbox` drains the unsent rows after each commit,
periodically, and at start-up: it renders the pictures in a worker thread from the snapshot
kept with the row, posts, and marks the row sent. A Discord error leaves the row for a later
attempt with exponential backoff; the rows of one channel go out strictly in order.

Only a game's newest turn message offers **Play**: before a row that moves the game on
(:data:`RETIRING`) is posted, the game's previous turn message is edited to keep its other
buttons only. The edit is part of posting that row, so it is retried with it and done again
after a restart (which changes nothing the second time).

Direct messages to a person (:data:`DIRECT`) are rows too, whose ``channel_id`` is the
person's user id: they go out in order per person through ``send_direct``, after the turn
message they link to; one Discord refuses (the person's privacy settings) is handed to
``direct_refused`` and never tried again.

Nothing here imports discord: posting is the ``send`` callable the client supplies, so the
drain is tested against a real database with a fake ``send``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from concurrent.futures import Executor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.db.errors import DatabaseUnavailable
from bot.game import records
from bot.game.buttons import PLAY_LABEL, play_custom_id
from bot.game.captions import (
    Attachment,
    display_description,
    environment_description,
    environment_files,
    environment_score,
    scores_description,
)
from bot.game.markdown import jump_url
from bot.game.replays import game_pictures
from bot.game.rows import THIS_PROCESS, Claimer, OutboxMessage, OutboxRow
from bot.game.store import GameStore as Store
from bot.ops.locks import KeyedLocks
from engine import GameRecord, GameState, Hex, ScoreSheet, score_state, state_from_json
from i18n import _, reader, speaking
from render import (
    environment_scale,
    render_board,
    render_display,
    render_environment,
    render_scores,
    turn_frame,
)

log = logging.getLogger(__name__)

PLAYABLE = frozenset({"start", "turn", "wipe"})
"""The kinds of announcement that call a player to move, and so carry a Play button."""
LAYOUTS = PLAYABLE
"""The kinds of announcement posted as one container of words, pictures and buttons
(Components V2): the start and the turns; the rest are plain messages."""
RETIRING = frozenset({"turn", "wipe", "finish", "end"})
"""The kinds of announcement after which the game's previous turn message is past: its Play
button is taken away before one is posted."""

DIRECT_TURN = "direct_turn"
"""A direct message at a person's turn (see :mod:`bot.attendance.notify`)."""
DIRECT_NEXT = "direct_next"
"""A direct message to the person who plays after the one to move: they are next."""
DIRECT_REMINDER = "direct_reminder"
DIRECT_DIGEST = "direct_digest"
"""The daily digest of the games waiting for a person."""
DIRECT = frozenset({DIRECT_TURN, DIRECT_NEXT, DIRECT_REMINDER, DIRECT_DIGEST})
"""The kinds of row that are direct messages: the row's ``channel_id`` is the user's id, so
that a person's direct messages go out in order, like a channel's."""
LINKED = frozenset({DIRECT_TURN, DIRECT_NEXT, DIRECT_REMINDER})
"""Direct messages that link to the game's turn message queued before them: they wait until
it is posted."""

MAX_TEXT = 2000
"""Discord's limit on a message's text."""
SNAPSHOT_VERSION = 1
"""The ``version`` of an outbox snapshot's JSON (a snapshot without one is version 1)."""


class Picture(StrEnum):
    """The pictures an announcement can carry, rendered when it is posted."""

    DISPLAY = "display"
    ENVIRONMENTS = "environments"
    """One picture per player."""
    SCORES = "scores"
    TO_MOVE = "to_move"
    """The environment of the player to move only (a direct message at their turn)."""
    REPLAY = "replay"
    """The replay GIF and the score chart of a finished game, drawn from its record."""


@dataclass(frozen=True)
class Announcement:
    """A message for a game's channel, as kept in the outbox.

    ``mentions`` are the only users the message may ping. The pictures are drawn from
    ``state`` (and ``names``, the players' names in seat order) when the message is posted;
    ``highlights`` gives, per seat, the hexes to ring in that seat's environment (its own
    latest tile and token), so an environment that did not change looks the same as in the
    previous message.
    ``files`` are text attachments (name, content), such as the game record; ``buttons``
    (label, custom id) go under the message, after the **Play** of a turn message.
    ``record`` is the game's record, which the replay pictures are drawn from.
    ``mover`` is the seat that just moved, whose environment comes first after the display
    (see :func:`render_pictures`).
    """

    kind: str
    text: str
    mentions: tuple[int, ...] = ()
    pictures: tuple[Picture, ...] = ()
    state: GameState | None = None
    names: tuple[str, ...] = ()
    highlights: tuple[tuple[Hex, ...], ...] = ()
    files: tuple[tuple[str, str], ...] = ()
    buttons: tuple[tuple[str, str], ...] = ()
    record: GameRecord | None = None
    archive_after: int | None = None
    """Minutes without a message after which Discord is to archive the thread this is posted
    in (a table's thread once its game is over); ``None``: as it is."""
    mover: int | None = None
    locale: str | None = field(default_factory=reader)
    """The language it is written in, its pictures' words and its **Play** button's too: by
    default the reader of the code that makes it (see :func:`i18n.speaking`), as its text is."""

    def to_outbox(
        self, *, state_text: str | None = None, channel_id: int | None = None
    ) -> OutboxMessage:
        """The row to store: what is said in ``payload``, what is drawn in ``snapshot``;
        posted in ``channel_id`` (default: the game's channel).

        ``state_text`` is :attr:`state` already encoded (the text the game row stores), so that
        a move encodes its state once; without it the state is encoded here.
        """
        payload: dict[str, Any] = {"text": self.text, "mentions": list(self.mentions)}
        if self.buttons:
            payload["buttons"] = [list(b) for b in self.buttons]
        if self.archive_after is not None:
            payload["archive_after"] = self.archive_after
        if self.locale is not None:
            payload["locale"] = self.locale
        if self.state is None:
            state_text = "null"
        elif state_text is None:
            state_text = records.state_text(self.state)
        rest: dict[str, Any] = {
            "pictures": [p.value for p in self.pictures],
            "names": list(self.names),
            "highlights": [[str(h) for h in hexes] for hexes in self.highlights],
            "files": [list(f) for f in self.files],
        }
        if self.record is not None:
            rest["record"] = self.record.to_json()
        if self.mover is not None:
            rest["mover"] = self.mover
        fields = json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
        # The state's text goes in as it is: a JSON value inside the snapshot's object.
        snapshot = f'{{"version":{SNAPSHOT_VERSION},"state":{state_text},{fields[1:]}'
        return OutboxMessage(
            kind=self.kind,
            payload=json.dumps(payload, ensure_ascii=False),
            snapshot=snapshot,
            channel_id=channel_id,
        )

    @classmethod
    def from_row(cls, row: OutboxRow) -> Announcement:
        """Read a stored row back (a sent row has lost its snapshot: text only)."""
        payload = json.loads(row.payload)
        snapshot = json.loads(row.snapshot) if row.snapshot else {}
        # Rows queued before snapshots had a version are version 1.
        version = snapshot.get("version", 1)
        if version > SNAPSHOT_VERSION:
            raise ValueError(f"outbox snapshot version {version} is newer than this code knows")
        state = snapshot.get("state")
        record = snapshot.get("record")
        return cls(
            kind=row.kind,
            text=str(payload["text"]),
            mentions=tuple(int(u) for u in payload.get("mentions", ())),
            pictures=tuple(Picture(p) for p in snapshot.get("pictures", ())),
            state=None if state is None else state_from_json(state),
            names=tuple(str(n) for n in snapshot.get("names", ())),
            highlights=_read_highlights(snapshot),
            files=tuple((str(name), str(text)) for name, text in snapshot.get("files", ())),
            buttons=tuple((str(label), str(id_)) for label, id_ in payload.get("buttons", ())),
            record=None if record is None else GameRecord.from_json(record),
            archive_after=payload.get("archive_after"),
            mover=None if snapshot.get("mover") is None else int(snapshot["mover"]),
            locale=payload.get("locale"),
        )


@dataclass(frozen=True)
class Post:
    """One message as handed to ``send``: text, who may be pinged, attachments, a nonce."""

    text: str
    mentions: tuple[int, ...]
    attachments: tuple[Attachment, ...]
    nonce: str
    """Derived from the outbox id: Discord drops a repeat of a recent nonce."""
    buttons: tuple[tuple[str, str], ...] = ()
    """Buttons under the message, as (label, custom id): the turn messages' **Play**."""
    layout: bool = False
    """Posted as a layout (see :data:`LAYOUTS`): the words, pictures and buttons in one
    container."""
    archive_after: int | None = None
    """Once posted, Discord is asked to archive the thread after this many idle minutes."""
    locale: str | None = None
    """The language the message is written in (a note added as it is posted is too)."""


class PostRefused(Exception):
    """``send`` was refused for good as things stand: the bot may not post in the channel.

    Trying again cannot help until someone changes the channel's permissions, so the channel
    waits (see :meth:`Outbox.permissions_changed`) instead of being retried on a timer."""


class DirectRefused(Exception):
    """Discord refuses direct messages to the user (their privacy settings)."""


class ChannelGone(Exception):
    """``send`` found the channel deleted: nothing can ever be posted there again."""


Send = Callable[[int, Post], Awaitable[int]]
"""Posts a message in a channel and returns the new message's id; raises
:class:`PostRefused` or :class:`ChannelGone` when posting there cannot succeed."""

SendDirect = Callable[[int, int, Post], Awaitable[int]]
"""Sends a direct message to a user (user id, the game's channel id, the message) and returns
its id; raises :class:`DirectRefused` when the user refuses direct messages."""

Refused = Callable[[OutboxRow], Awaitable[None]]
"""Told of a direct message Discord refused (it is not tried again)."""

EditButtons = Callable[[int, int, tuple[tuple[str, str], ...]], Awaitable[None]]
"""Sets the buttons (label, custom id) under a posted message (channel id, message id); a
message deleted meanwhile is left as it is. Raises as :data:`Send` does."""

Gone = Callable[[int], Awaitable[None]]
"""Called with a channel that turned out to be deleted (it ends the channel's game)."""


async def _nothing(channel_id: int) -> None:
    return None


async def _no_direct(user_id: int, channel_id: int, post: Post) -> int:
    raise DirectRefused(f"this outbox sends no direct messages (user {user_id})")


async def _no_refusal(row: OutboxRow) -> None:
    return None


async def _no_edit(channel_id: int, message_id: int, buttons: tuple[tuple[str, str], ...]) -> None:
    return None


Renderer = Callable[[Announcement], list[Attachment]]
"""Draws an announcement's pictures as PNG attachments; CPU-heavy, run in a thread."""


def render_pictures(announcement: Announcement) -> list[Attachment]:
    """The pictures of an announcement, drawn with :mod:`render`, each named and described
    (see :mod:`bot.game.captions`); each environment is headed by its player's score (see
    :func:`~bot.game.captions.environment_score`).

    A start or turn message (:data:`LAYOUTS`) shows its environments as boards
    (:func:`~render.render_board`), the mover's first, then the others in turn order: in
    the chat's mosaic the display and the mover's board share the top row and the others
    come smaller below, every board at one scale (see :mod:`render.mosaic`)."""
    with speaking(announcement.locale):
        return _render_pictures(announcement)


def _render_pictures(announcement: Announcement) -> list[Attachment]:
    state = announcement.state
    if state is None or not announcement.pictures:
        return []
    sheet = score_state(state, announcement.names)
    files: list[Attachment] = []
    for picture in announcement.pictures:
        if picture is Picture.DISPLAY:
            image = render_display(state)
            files.append(Attachment("display.png", image, display_description(state)))
        elif picture is Picture.SCORES:
            image = render_scores(sheet)
            files.append(Attachment("scores.png", image, scores_description(sheet, final=True)))
        elif picture is Picture.ENVIRONMENTS and announcement.kind in LAYOUTS:
            files.extend(_boards(announcement, state, sheet))
        elif picture is Picture.ENVIRONMENTS:
            names = environment_files([score.name for score in sheet.players])
            # One scale for the message: side by side, a tile is the same size in each.
            scale = environment_scale(state)
            for seat, score in enumerate(sheet.players):
                highlights = announcement.highlights
                highlight = highlights[seat] if seat < len(highlights) else ()
                points = environment_score(state, seat)
                image = render_environment(
                    state, seat, name=score.name, score=points, highlight=highlight, hex_size=scale
                )
                about = environment_description(score.name, state, seat, points)
                files.append(Attachment(names[seat], image, about))
        elif picture is Picture.TO_MOVE:
            seat = state.current
            score = sheet.players[seat]
            highlights = announcement.highlights
            highlight = highlights[seat] if seat < len(highlights) else ()
            points = environment_score(state, seat)
            image = render_environment(
                state, seat, name=score.name, score=points, highlight=highlight
            )
            about = environment_description(score.name, state, seat, points)
            [name] = environment_files([score.name])
            files.append(Attachment(name, image, about))
        elif picture is Picture.REPLAY and announcement.record is not None:
            files.extend(game_pictures(announcement.record))
    return files


def board_order(players: int, mover: int | None) -> list[int]:
    """The seats in the order a turn message shows their boards: ``mover`` first, then the
    others in turn order after it (seat order when nobody has moved)."""
    first = 0 if mover is None else mover % players
    return [(first + step) % players for step in range(players)]


def _boards(announcement: Announcement, state: GameState, sheet: ScoreSheet) -> list[Attachment]:
    files = environment_files([score.name for score in sheet.players])
    frame = turn_frame(state)
    found = []
    for seat in board_order(len(state.seats), announcement.mover):
        name = sheet.players[seat].name
        highlights = announcement.highlights
        highlight = highlights[seat] if seat < len(highlights) else ()
        points = environment_score(state, seat)
        image = render_board(state, seat, name=name, frame=frame, score=points, highlight=highlight)
        about = environment_description(name, state, seat, points)
        found.append(Attachment(files[seat], image, about))
    return found


@dataclass
class Outbox:
    """Drains the outbox: posts unsent rows in order per channel, retries failures later.

    Each channel is drained by one task at a time (a lock per channel), so a row is never
    posted twice by this process and a channel's messages keep their order, while channels do
    not wait for each other. Rows are claimed before they are posted, so another process on
    the same database never posts them too. A row posted whose ``mark_sent`` then failed is
    remembered and only marked on the next drain.
    """

    store: Store
    send: Send
    render: Renderer = render_pictures
    clock: Callable[[], float] = time.monotonic
    base_delay: float = 5.0
    """Seconds before the first retry; doubled on each failure."""
    max_delay: float = 3600.0
    batch: int = 200
    close_wait: float = 10.0
    executor: Executor | None = None
    """Where pictures are drawn (see :mod:`bot.game.pictures`); ``None``: the default threads."""
    gone: Gone = _nothing
    """What to do about a deleted channel (its rows are not posted)."""
    edit_buttons: EditButtons = _no_edit
    """How a past turn message loses its **Play** button (see :data:`RETIRING`)."""
    send_direct: SendDirect = _no_direct
    """How a direct message (see :data:`DIRECT`) is sent."""
    direct_refused: Refused = _no_refusal
    """What to do about a direct message Discord refused (the row is then done)."""
    _refused: set[int] = field(default_factory=set, init=False)
    """Channels whose last post was refused: they wait for a permission change."""
    claimer: Claimer = THIS_PROCESS
    """This process as it claims rows to post: only rows of its shards' guilds that no other
    process holds (see :meth:`bot.stores.Store.claim_outbox`)."""
    _locks: KeyedLocks[int] = field(default_factory=KeyedLocks, init=False)
    """One drain at a time per channel."""
    _retry_at: dict[int, float] = field(default_factory=dict, init=False)
    _posted: dict[int, int] = field(default_factory=dict, init=False)
    _closed: bool = field(default=False, init=False)

    async def drain(self, channels: Collection[int] | None = None) -> frozenset[int]:
        """Post every unsent row that is due (only in ``channels``, when given); returns the
        ids of the rows it posted (a direct message Discord refused counts: it is done).

        Never raises for a failed post: the row stays unsent and is retried later. Raises
        :class:`~bot.db.errors.DatabaseUnavailable` when the database is: a row posted but not
        yet marked sent is remembered and marked by a later drain, not posted again.
        """
        if self._closed:
            return frozenset()
        if channels is None:
            claimed = await self.store.claim_outbox(self.claimer, self.batch)
            channels = {row.channel_id for row in claimed if row.kind not in DIRECT}
            # Direct messages after the channels: they link to the turn messages posted there.
            direct = {row.channel_id for row in claimed if row.kind in DIRECT} - channels
            return await self.drain(channels) | await self.drain(direct)
        channels = set(channels) - self._refused
        posted = await asyncio.gather(*(self._drain_channel(c) for c in channels))
        return frozenset(outbox_id for ids in posted for outbox_id in ids)

    def refused(self, channel_id: int) -> bool:
        """Whether ``channel_id`` waits for a permission change before its next post."""
        return channel_id in self._refused

    def permissions_changed(self, channel_ids: Collection[int] | None = None) -> bool:
        """Permissions changed in ``channel_ids`` (``None``: anywhere, such as a role): the
        channels among them that were refused are tried at the next drain. Returns whether
        any was waiting."""
        waiting = self._refused if channel_ids is None else self._refused & set(channel_ids)
        self._refused -= waiting
        return bool(waiting)

    async def close(self) -> None:
        """Let drains in progress finish (for up to :attr:`close_wait` seconds) and start no
        more: cutting a post short between Discord's answer and ``mark_sent`` would post it
        twice."""
        self._closed = True
        try:
            async with asyncio.timeout(self.close_wait):
                await self._locks.wait_idle()
        except TimeoutError:
            log.warning("the outbox drain did not finish within %.0fs of shutdown", self.close_wait)

    async def _drain_channel(self, channel_id: int) -> list[int]:
        async with self._locks.hold(channel_id):
            if self._closed:
                return []
            # Read under the lock: a drain that held it may have just posted these rows.
            rows = await self.store.claim_outbox(self.claimer, self.batch, channel_id=channel_id)
            posted: list[int] = []
            for row in rows:
                if not await self._post_once(row):
                    # Later messages of this channel wait, so that turns are read in order.
                    break
                posted.append(row.id)
            return posted

    async def _post_once(self, row: OutboxRow) -> bool:
        message_id = self._posted.get(row.id)
        if message_id is None:
            if self._retry_at.get(row.id, 0.0) > self.clock():
                return False
            try:
                if row.kind in DIRECT:
                    message_id = await self._send_direct(row)
                else:
                    await self._retire_play(row)
                    post = await self._prepare(row)
                    message_id = await self.send(row.channel_id, post)
            except _Waiting:
                return False
            except DirectRefused:
                log.info("outbox %d: user %d refuses direct messages", row.id, row.channel_id)
                await self.direct_refused(row)
                self._retry_at.pop(row.id, None)
                return True
            except PostRefused as error:
                self._refused.add(row.channel_id)
                log.warning(
                    "outbox %d refused in channel %d: %s; waiting for a permission change",
                    row.id,
                    row.channel_id,
                    error,
                )
                await self._note_failure(row, error)
                return False
            except ChannelGone:
                log.warning(
                    "channel %d is gone: its game ends, outbox %d is dropped",
                    row.channel_id,
                    row.id,
                )
                await self.gone(row.channel_id)
                self._retry_at.pop(row.id, None)
                return False
            except DatabaseUnavailable:
                raise  # nothing was posted; the row is tried when the database is back
            except Exception as error:
                await self._failed(row, error)
                return False
            self._posted[row.id] = message_id
            self._retry_at.pop(row.id, None)
        try:
            await self.store.mark_sent(row.id, message_id)
        except DatabaseUnavailable:
            raise  # remembered in _posted: marked, not posted again, when it is back
        except Exception:
            log.exception(
                "outbox %d was posted as %d but could not be marked sent", row.id, message_id
            )
            return False
        del self._posted[row.id]
        log.info("outbox %d (%s) posted in channel %d", row.id, row.kind, row.channel_id)
        return True

    async def _retire_play(self, row: OutboxRow) -> None:
        """Before ``row`` moves its game on, the game's latest turn message keeps all its
        buttons but **Play**: the rows of a channel go out in order, so that is the message
        of the turn that ``row`` ends."""
        if row.kind not in RETIRING:
            return
        previous = await self.store.latest_turn_message(row.game_id)
        if previous is None or previous.message_id is None:
            return
        kept = Announcement.from_row(previous).buttons
        await self.edit_buttons(previous.channel_id, previous.message_id, kept)

    async def _send_direct(self, row: OutboxRow) -> int:
        """Send a direct message, with a link to the turn message it follows once that is
        posted (:class:`_Waiting` until then, unless that one failed already)."""
        game = await self.store.get_game(row.game_id)
        if game is None:
            raise ValueError(f"the game {row.game_id} of outbox {row.id} is gone")
        post = await self._prepare(row)
        if row.kind in LINKED:
            turn = await self.store.turn_message_before(row.game_id, row.id)
            if turn is not None and turn.message_id is None and turn.attempts == 0:
                raise _Waiting()
            if turn is not None and turn.message_id is not None:
                link = jump_url(game.guild_id, game.channel_id, turn.message_id)
                with speaking(post.locale):
                    text = _("{text}\n[The turn message]({link})", text=post.text, link=link)
                post = dataclasses.replace(post, text=_clip(text))
        return await self.send_direct(row.channel_id, game.channel_id, post)

    async def _prepare(self, row: OutboxRow) -> Post:
        announcement = Announcement.from_row(row)
        text = announcement.text
        try:
            loop = asyncio.get_running_loop()
            attachments = await loop.run_in_executor(self.executor, self.render, announcement)
        except Exception:
            # A drawing bug must not hold up the game: the words still go out.
            log.exception("could not draw the pictures of outbox %d", row.id)
            attachments = []
            with speaking(announcement.locale):
                text += "\n" + _("(The pictures could not be drawn this time.)")
        files = [Attachment(name, content.encode()) for name, content in announcement.files]
        with speaking(announcement.locale):
            play = _play_button(row.game_id, announcement)
        return Post(
            text=_clip(text),
            mentions=announcement.mentions,
            attachments=(*attachments, *files),
            nonce=f"cascadia-{row.id}",
            buttons=(*play, *announcement.buttons),
            layout=announcement.kind in LAYOUTS,
            archive_after=announcement.archive_after,
            locale=announcement.locale,
        )

    async def _failed(self, row: OutboxRow, error: Exception) -> None:
        attempts = row.attempts + 1
        delay = min(self.base_delay * 2 ** (attempts - 1), self.max_delay)
        self._retry_at[row.id] = self.clock() + delay
        log.warning(
            "could not post outbox %d in channel %d (attempt %d, next in %.0fs): %r",
            row.id,
            row.channel_id,
            attempts,
            delay,
            error,
        )
        await self._note_failure(row, error)

    async def _note_failure(self, row: OutboxRow, error: Exception) -> None:
        try:
            await self.store.mark_failed(row.id, repr(error))
        except DatabaseUnavailable:
            raise
        except Exception:
            log.exception("could not record the failure of outbox %d", row.id)


class _Waiting(Exception):
    """A direct message waits for the turn message it links to."""


def _read_highlights(snapshot: dict[str, Any]) -> tuple[tuple[Hex, ...], ...]:
    if "highlights" in snapshot:
        return tuple(tuple(Hex.parse(h) for h in hexes) for hexes in snapshot["highlights"])
    # A row queued by an older version: only the mover's seat, as [seat, [hexes]].
    old = snapshot.get("highlight")
    if old is None:
        return ()
    seat, hexes = int(old[0]), tuple(Hex.parse(h) for h in old[1])
    return tuple(hexes if s == seat else () for s in range(seat + 1))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _play_button(game_id: int, announcement: Announcement) -> tuple[tuple[str, str], ...]:
    """The **Play** button of a message that calls a player to move (the start, a turn, a
    wipe: the same turn goes on), for the turn it shows; its label in the reader's language
    (the message's)."""
    state = announcement.state
    if announcement.kind not in PLAYABLE or state is None or state.is_over:
        return ()
    return ((_(PLAY_LABEL), play_custom_id(game_id, state.turn)),)
