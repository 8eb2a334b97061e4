"""The outbox drain: stored messages are posted once, in order per channel, and a failure
only delays them. Run against a real SQLite file with a fake ``send``."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from benchmarks import positions
from bot.game.captions import Attachment
from bot.game.outbox import (
    SNAPSHOT_VERSION,
    Announcement,
    ChannelGone,
    Outbox,
    Picture,
    Post,
    PostRefused,
    render_pictures,
)
from bot.game.records import state_text
from bot.game.rows import Claimer, GameRow, OutboxRow
from bot.stores import Store, open_store
from engine import GameState, Hex, Phase, apply, new_game, score_state, state_to_json
from engine.players import random_action
from render import environment_scale, render_board, render_environment, turn_frame
from render.mosaic import MIN_SHOWN_HEX, PHONE_COLUMN, shown_height, shown_scales
from tests.engine.helpers import state_at_turn

CHANNEL_A, CHANNEL_B = 10, 20


class Boom(Exception):
    """A failure injected by the tests."""


@dataclass
class FakeDiscord:
    """Records posts; fails the next ``failures`` of them."""

    failures: int = 0
    posts: list[tuple[int, Post]] = field(default_factory=list)

    async def send(self, channel_id: int, post: Post) -> int:
        await asyncio.sleep(0)
        if self.failures:
            self.failures -= 1
            raise Boom("503 Service Unavailable")
        self.posts.append((channel_id, post))
        return 9000 + len(self.posts)

    def texts(self, channel_id: int | None = None) -> list[str]:
        return [p.text for c, p in self.posts if channel_id in (None, c)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def no_pictures(announcement: Announcement) -> list[Attachment]:
    return [Attachment(f"{p.value}.png", b"png") for p in announcement.pictures]


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with open_store(database) as opened:
        yield opened


async def _game(store: Store, channel_id: int) -> GameRow:
    return await store.create_lobby(1, channel_id, 100, "Ada", "A")


async def _queue(store: Store, game: GameRow, *texts: str, mentions: tuple[int, ...] = ()) -> None:
    messages = [Announcement(kind="test", text=t, mentions=mentions).to_outbox() for t in texts]
    await store.end_game(game.id, outbox_messages=messages)


def _outbox(store: Store, fake: FakeDiscord, clock: Clock) -> Outbox:
    return Outbox(store, fake.send, render=no_pictures, clock=clock)


def test_announcement_round_trips_through_a_row() -> None:
    state = new_game(players=2, seed=3, cards="ABCDA")
    announcement = Announcement(
        kind="turn",
        text="hi <@7>",
        mentions=(7,),
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
        state=state,
        names=("Ada", "Bob"),
        highlights=((), (Hex(1, -1), Hex(0, 1))),
        files=(("record.json", "{}\n"),),
        mover=1,
    )
    message = announcement.to_outbox()
    row = OutboxRow(
        id=1, game_id=1, channel_id=1, kind=message.kind, payload=message.payload,
        snapshot=message.snapshot, created_at=None,  # type: ignore[arg-type]
        attempts=0, last_error=None, sent_at=None, message_id=None,
    )  # fmt: skip
    assert Announcement.from_row(row) == announcement
    assert json.loads(message.snapshot or "")["version"] == SNAPSHOT_VERSION
    text = state_text(state)
    assert announcement.to_outbox(state_text=text) == message
    assert f'"state":{text},' in (message.snapshot or "")


def _snapshot_row(snapshot: dict[str, Any]) -> OutboxRow:
    return OutboxRow(
        id=1, game_id=1, channel_id=1, kind="turn", payload='{"text": "hi", "mentions": []}',
        snapshot=json.dumps(snapshot), created_at=None,  # type: ignore[arg-type]
        attempts=0, last_error=None, sent_at=None, message_id=None,
    )  # fmt: skip


def test_a_snapshot_without_a_version_is_version_one() -> None:
    state = new_game(players=2, seed=3)
    snapshot = {"pictures": ["display"], "state": state_to_json(state), "names": ["A", "B"],
                "highlights": [], "files": []}  # fmt: skip
    assert Announcement.from_row(_snapshot_row(snapshot)).state == state


def test_a_snapshot_from_newer_code_is_refused() -> None:
    snapshot = {"version": SNAPSHOT_VERSION + 1, "pictures": [], "state": None}
    with pytest.raises(ValueError, match="newer"):
        Announcement.from_row(_snapshot_row(snapshot))


def test_a_row_queued_by_the_previous_version_still_reads() -> None:
    """Before every seat had its highlight, a snapshot held only the mover's."""
    snapshot = {"pictures": ["environments"], "state": None, "names": [], "files": [],
                "highlight": [1, ["1,-1", "0,1"]]}  # fmt: skip
    row = OutboxRow(
        id=1, game_id=1, channel_id=1, kind="turn", payload='{"text": "hi", "mentions": []}',
        snapshot=json.dumps(snapshot), created_at=None,  # type: ignore[arg-type]
        attempts=0, last_error=None, sent_at=None, message_id=None,
    )  # fmt: skip
    assert Announcement.from_row(row).highlights == ((), (Hex(1, -1), Hex(0, 1)))


async def test_drain_posts_each_message_once_in_order(store: Store) -> None:
    fake, clock = FakeDiscord(), Clock()
    outbox = _outbox(store, fake, clock)
    await _queue(store, await _game(store, CHANNEL_A), "one", "two", mentions=(7,))
    queued = {row.id for row in await store.pending()}
    assert await outbox.drain() == queued, "it tells which rows it posted"
    assert await outbox.drain() == frozenset()
    assert fake.texts() == ["one", "two"]
    assert all(post.mentions == (7,) for _, post in fake.posts)
    assert len({post.nonce for _, post in fake.posts}) == 2
    assert await store.pending() == []


async def test_a_failure_delays_but_never_loses_or_reorders(store: Store) -> None:
    fake, clock = FakeDiscord(failures=1), Clock()
    outbox = _outbox(store, fake, clock)
    await _queue(store, await _game(store, CHANNEL_A), "a1", "a2")
    await _queue(store, await _game(store, CHANNEL_B), "b1")

    await outbox.drain()
    # a1 failed, so a2 waits behind it; the other channel goes on.
    assert fake.texts() == ["b1"]
    (failed, waiting) = await store.pending()
    assert failed.attempts == 1
    assert "503" in (failed.last_error or "")
    assert waiting.attempts == 0

    await outbox.drain()  # too early: the backoff has not passed
    assert fake.texts() == ["b1"]
    clock.now += outbox.base_delay
    await outbox.drain()
    assert fake.texts(CHANNEL_A) == ["a1", "a2"]
    assert await store.pending() == []


async def test_backoff_doubles(store: Store) -> None:
    fake, clock = FakeDiscord(failures=3), Clock()
    outbox = _outbox(store, fake, clock)
    await _queue(store, await _game(store, CHANNEL_A), "x")
    await outbox.drain()
    for delay in (outbox.base_delay, 2 * outbox.base_delay):
        clock.now += delay - 0.1
        await outbox.drain()
        assert fake.failures == 3 - int(delay / outbox.base_delay)
        clock.now += 0.1
        await outbox.drain()
    clock.now += 4 * outbox.base_delay
    await outbox.drain()
    assert fake.texts() == ["x"]


async def test_a_post_whose_mark_failed_is_not_posted_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, clock = FakeDiscord(), Clock()
    outbox = _outbox(store, fake, clock)
    await _queue(store, await _game(store, CHANNEL_A), "once")
    real_mark = store.mark_sent

    async def broken(outbox_id: int, message_id: int) -> None:
        raise Boom("disk I/O error")

    monkeypatch.setattr(store, "mark_sent", broken)
    await outbox.drain()
    assert len(await store.pending()) == 1
    monkeypatch.setattr(store, "mark_sent", real_mark)
    await outbox.drain()
    assert fake.texts() == ["once"]
    assert await store.pending() == []


async def test_a_restart_posts_what_was_left(database: str) -> None:
    fake, clock = FakeDiscord(failures=5), Clock()
    async with open_store(database) as store:
        await _queue(store, await _game(store, CHANNEL_A), "left behind")
        await _outbox(store, fake, clock).drain()
    async with open_store(database) as store:
        fake.failures = 0
        assert len(await _outbox(store, fake, Clock()).drain()) == 1
    assert fake.texts() == ["left behind"]


async def test_concurrent_drains_post_once(store: Store) -> None:
    fake, clock = FakeDiscord(), Clock()
    outbox = _outbox(store, fake, clock)
    await _queue(store, await _game(store, CHANNEL_A), "1", "2", "3")
    await asyncio.gather(*(outbox.drain() for _ in range(5)))
    assert fake.texts() == ["1", "2", "3"]


async def test_a_drawing_failure_still_sends_the_words(store: Store) -> None:
    fake = FakeDiscord()

    def broken(announcement: Announcement) -> list[Attachment]:
        raise Boom("font missing")

    outbox = Outbox(store, fake.send, render=broken, clock=Clock())
    await _queue(store, await _game(store, CHANNEL_A), "turn")
    await outbox.drain()
    ((_, post),) = fake.posts
    assert post.text.startswith("turn\n")
    assert "could not be drawn" in post.text
    assert post.attachments == ()


async def test_closed_outbox_posts_nothing(store: Store) -> None:
    fake = FakeDiscord()
    outbox = _outbox(store, fake, Clock())
    await outbox.close()
    await _queue(store, await _game(store, CHANNEL_A), "late")
    assert await outbox.drain() == frozenset()
    assert fake.posts == []


async def test_long_text_is_clipped(store: Store) -> None:
    fake = FakeDiscord()
    await _queue(store, await _game(store, CHANNEL_A), "x" * 2500)
    await _outbox(store, fake, Clock()).drain()
    assert len(fake.posts[0][1].text) == 2000


def test_render_pictures_draws_display_environments_and_scores() -> None:
    state = new_game(players=2, seed=3, cards="A")
    announcement = Announcement(
        kind="turn",
        text="",
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS, Picture.SCORES),
        state=state,
        names=("Ada", "Bob"),
        highlights=((Hex(0, 0),), ()),
    )
    files = render_pictures(announcement)
    assert [f.name for f in files] == ["display.png", "Ada.png", "Bob.png", "scores.png"]
    assert all(f.data.startswith(b"\x89PNG") for f in files)
    assert files[0].description.startswith("The display: 1: ")
    assert (
        files[1].description == "Ada's environment: 3 tiles, 10 points if it ended now, bonuses in"
    )
    assert files[3].description.startswith("Final scores: 1. ")
    assert render_pictures(Announcement(kind="reminder", text="")) == []


def test_the_environments_of_a_message_are_drawn_at_one_scale() -> None:
    state = positions.line_and_cluster()
    announcement = Announcement(
        kind="finish", text="", pictures=(Picture.ENVIRONMENTS,), state=state, names=("Al", "Bo")
    )
    line, cluster = render_pictures(announcement)
    scale = environment_scale(state)
    drawn = [
        render_environment(
            state, seat, name=name, score=score_state(state).players[seat].total, hex_size=scale
        )
        for seat, name in enumerate(("Al", "Bo"))
    ]
    assert [line.data, cluster.data] == drawn
    # On its own the compact one would have had larger hexes.
    alone = render_environment(state, 1, name="Bo", score=score_state(state).players[1].total)
    assert cluster.data != alone


FOUR = ("Ada", "Bob", "Cy", "Dee")


def _turn_pictures(state: GameState, mover: int | None) -> list[Attachment]:
    announcement = Announcement(
        kind="turn",
        text="",
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
        state=state,
        names=FOUR[: len(state.seats)],
        mover=mover,
    )
    return render_pictures(announcement)


def _size(attachment: Attachment) -> tuple[int, int]:
    with Image.open(io.BytesIO(attachment.data)) as image:
        return image.size


def test_a_turn_message_shows_the_movers_board_first_then_the_others_in_turn_order() -> None:
    state = positions.play(new_game(players=4, seed=5), 5, turns=10)
    files = _turn_pictures(state, mover=2)
    assert [f.name for f in files] == ["display.png", "Cy.png", "Dee.png", "Ada.png", "Bob.png"]
    assert files[1].description.startswith("Cy's environment: ")
    assert files[3].description.startswith("Ada's environment: ")
    # The game's start has no mover: seat order.
    assert [f.name for f in _turn_pictures(state, mover=None)][1:] == [
        f"{name}.png" for name in FOUR
    ]


def test_a_turn_messages_boards_are_drawn_in_one_frame() -> None:
    state = positions.line_and_cluster()
    _, line, cluster = _turn_pictures(state, mover=0)
    frame = turn_frame(state)
    assert _size(line) == _size(cluster) == (frame.width, frame.height)
    sheet = score_state(state)
    assert cluster.data == render_board(
        state, 1, name="Bob", frame=frame, score=sheet.players[1].total
    )


def test_a_four_player_turn_message_fits_a_phone_screen_and_stays_readable() -> None:
    state = positions.late_four_player()
    files = _turn_pictures(state, mover=3)
    sizes = [_size(f) for f in files]
    # As a phone's chat column shows them: the display and the mover's board over the
    # three others.
    assert shown_height(sizes, PHONE_COLUMN) <= 450
    scales = shown_scales(sizes, PHONE_COLUMN)
    hex_size = turn_frame(state).hex_size
    mover, *others = [scale * hex_size for scale in scales[1:]]
    assert min(others) >= MIN_SHOWN_HEX
    assert mover > 1.4 * max(others)
    assert len({round(scale, 6) for scale in scales[2:]}) == 1


def test_environments_show_the_total_with_bonuses_while_played_and_at_the_end() -> None:
    playing = state_at_turn(3, 4, 30, cards="A")
    rng = random.Random(4)
    over = playing
    while not over.is_over:
        over = apply(over, random_action(over, rng))
    for state in (playing, over):
        announcement = Announcement(
            kind="turn",
            text="",
            pictures=(Picture.ENVIRONMENTS,),
            state=state,
            names=("Ada", "Bob", "Cy"),
        )
        sheet = score_state(state)
        for seat, attachment in enumerate(render_pictures(announcement)):
            # One number wherever it shows: the total with the majority bonuses, said so
            # while the game is played.
            points = sheet.players[seat].total
            now = "" if state.is_over else " if it ended now, bonuses in"
            assert attachment.description.endswith(f", {points} points{now}"), (
                attachment.description
            )
    bonuses = [sum(column.habitat_bonus.values()) for column in score_state(playing).players]
    assert any(bonuses), "no majority bonus: the two scores would be the same"


async def test_a_stuck_channel_does_not_hold_up_another(store: Store) -> None:
    game_a, game_b = await _game(store, CHANNEL_A), await _game(store, CHANNEL_B)
    await _queue(store, game_a, "a1")
    await _queue(store, game_b, "b1")
    release, b_posted = asyncio.Event(), asyncio.Event()
    sent: list[str] = []

    async def send(channel_id: int, post: Post) -> int:
        if channel_id == CHANNEL_A:
            await release.wait()
        sent.append(post.text)
        if channel_id == CHANNEL_B:
            b_posted.set()
        return len(sent)

    outbox = Outbox(store, send, render=no_pictures, clock=Clock())
    stuck = asyncio.create_task(outbox.drain())
    await outbox.drain({CHANNEL_B})
    try:
        async with asyncio.timeout(5):
            await b_posted.wait()
    except TimeoutError:
        pytest.fail("channel B's message waited for channel A's stuck post")
    assert sent == ["b1"]
    release.set()
    async with asyncio.timeout(5):
        await stuck
    assert sorted(sent) == ["a1", "b1"]
    assert await store.pending() == []


async def test_messages_that_call_a_player_carry_the_play_button(store: Store) -> None:
    fake, clock = FakeDiscord(), Clock()
    outbox = _outbox(store, fake, clock)
    game = await _game(store, CHANNEL_A)
    state = new_game(players=2, seed=3)
    over = dataclasses.replace(state, phase=Phase.OVER)
    kinds = [("start", state), ("turn", state), ("wipe", state), ("finish", over), ("end", None)]
    messages = [Announcement(kind=k, text=k, state=s).to_outbox() for k, s in kinds]
    await store.end_game(game.id, outbox_messages=messages)
    await outbox.drain()
    buttons = {post.text: post.buttons for _, post in fake.posts}
    play = (("Play", f"cascadia:play:{game.id}:{state.turn}"),)
    assert buttons == {"start": play, "turn": play, "wipe": play, "finish": (), "end": ()}
    # The same messages are posted as one container of words, pictures and Play.
    layouts = {post.text: post.layout for _, post in fake.posts}
    assert layouts == {"start": True, "turn": True, "wipe": True, "finish": False, "end": False}


@dataclass
class LockedChannel:
    """A channel where posting is refused until ``allowed`` (the bot lacks a permission),
    or that was deleted (``gone``)."""

    allowed: bool = False
    gone: bool = False
    tries: int = 0
    posts: list[str] = field(default_factory=list)

    async def send(self, channel_id: int, post: Post) -> int:
        self.tries += 1
        if self.gone:
            raise ChannelGone(channel_id)
        if not self.allowed:
            raise PostRefused("403 50013 Missing Permissions")
        self.posts.append(post.text)
        return 7000 + len(self.posts)


async def test_a_refused_post_waits_for_a_permission_change_not_a_timer(
    store: Store,
) -> None:
    channel, clock = LockedChannel(), Clock()
    outbox = Outbox(store, channel.send, render=no_pictures, clock=clock)
    await _queue(store, await _game(store, CHANNEL_A), "one", "two")
    assert await outbox.drain() == frozenset()
    assert channel.tries == 1
    assert outbox.refused(CHANNEL_A)
    # However long it waits, a refused channel is not tried again on its own.
    for _ in range(5):
        clock.now += 10_000
        assert await outbox.drain() == frozenset()
    assert channel.tries == 1
    # The permission comes back: both messages go out, in order.
    channel.allowed = True
    assert outbox.permissions_changed([CHANNEL_B]) is False
    assert outbox.permissions_changed([CHANNEL_A]) is True
    assert len(await outbox.drain()) == 2
    assert channel.posts == ["one", "two"]
    assert await store.pending() == []


async def test_a_deleted_channel_is_reported_and_not_tried_again(store: Store) -> None:
    channel, reported = LockedChannel(gone=True), []

    async def gone(channel_id: int) -> None:
        reported.append(channel_id)
        await store.abandon_channel(channel_id)

    outbox = Outbox(store, channel.send, render=no_pictures, clock=Clock(), gone=gone)
    await _queue(store, await _game(store, CHANNEL_A), "one", "two")
    await _queue(store, await _game(store, CHANNEL_B), "elsewhere")
    await outbox.drain([CHANNEL_A])
    assert reported == [CHANNEL_A]
    assert [row.channel_id for row in await store.pending()] == [CHANNEL_B]
    await outbox.drain([CHANNEL_A])
    assert channel.tries == 1


async def test_two_processes_on_one_database_post_each_message_once(database: str) -> None:
    """Two bot processes (two stores on one file, two claimers) drain at once: every message
    goes out once, in order; a process whose shards do not own a guild posts none of it."""
    guild_one = (1 << 22) + 1  # shard 1 of 2; the guild of _game is on shard 0
    zero = Claimer("zero", shard_ids=(0,), shard_count=2)
    one = Claimer("one", shard_ids=(1,), shard_count=2)
    everyone = Claimer("everyone")
    async with open_store(database) as first, open_store(database) as second:
        await _queue(first, await _game(first, CHANNEL_A), "a1", "a2", "a3")
        other = await first.create_lobby(guild_one, CHANNEL_B, 100, "Ada", "A")
        await _queue(first, other, "b1", "b2")
        fakes = [FakeDiscord() for _ in range(3)]
        outboxes = [
            Outbox(store, fake.send, render=no_pictures, clock=Clock(), claimer=claimer)
            for store, fake, claimer in zip(
                (first, second, second), fakes, (zero, one, everyone), strict=True
            )
        ]
        await asyncio.gather(*(outbox.drain() for outbox in outboxes[:2] for _ in range(3)))
        assert fakes[0].texts() == ["a1", "a2", "a3"]
        assert fakes[1].texts() == ["b1", "b2"]
        assert await outboxes[2].drain() == frozenset()
        assert await first.pending() == []


@dataclass
class Channel:
    """Posts and button edits in the order Discord gets them; fails the next ``failures``
    edits."""

    failures: int = 0
    log: list[tuple[str, int, tuple[tuple[str, str], ...]]] = field(default_factory=list)

    async def send(self, channel_id: int, post: Post) -> int:
        await asyncio.sleep(0)
        self.log.append((post.text, 9000 + len(self.log), post.buttons))
        return 9000 + len(self.log) - 1

    async def edit(
        self, channel_id: int, message_id: int, buttons: tuple[tuple[str, str], ...]
    ) -> None:
        await asyncio.sleep(0)
        if self.failures:
            self.failures -= 1
            raise Boom("503 Service Unavailable")
        self.log.append(("edit", message_id, buttons))


async def test_only_the_newest_turn_message_keeps_its_play_button(store: Store) -> None:
    channel = Channel()
    outbox = Outbox(store, channel.send, render=no_pictures, edit_buttons=channel.edit)
    game = await _game(store, CHANNEL_A)
    state = new_game(players=2, seed=3)
    over = dataclasses.replace(state, phase=Phase.OVER)
    hand_over = ("Hand over", f"cascadia:computer:{game.id}:0")
    sequence = [
        Announcement(kind="start", text="start", state=state),
        Announcement(kind="turn", text="turn", state=state, buttons=(hand_over,)),
        Announcement(kind="reminder", text="reminder"),
        Announcement(kind="wipe", text="wipe", state=state),
        Announcement(kind="finish", text="finish", state=over),
    ]
    await store.end_game(game.id, outbox_messages=[a.to_outbox() for a in sequence])
    await outbox.drain()
    play = ("Play", f"cascadia:play:{game.id}:{state.turn}")
    assert channel.log == [
        ("start", 9000, (play,)),
        ("edit", 9000, ()),
        ("turn", 9002, (play, hand_over)),
        ("reminder", 9003, ()),
        # The turn message's other button stays.
        ("edit", 9002, (hand_over,)),
        ("wipe", 9005, (play,)),
        ("edit", 9005, ()),
        ("finish", 9007, ()),
    ]


async def test_a_failed_edit_of_the_last_turn_message_is_retried_before_the_next(
    database: str,
) -> None:
    channel, clock = Channel(failures=1), Clock()
    state = new_game(players=2, seed=3)
    async with open_store(database) as store:
        game = await _game(store, CHANNEL_A)
        outbox = Outbox(store, channel.send, render=no_pictures, clock=clock,
                        edit_buttons=channel.edit)  # fmt: skip
        queued = [Announcement(kind=k, text=k, state=state).to_outbox() for k in ("start", "turn")]
        await store.end_game(game.id, outbox_messages=queued)
        assert len(await outbox.drain()) == 1
        assert [entry[0] for entry in channel.log] == ["start"]
        [waiting] = await store.pending()
        assert waiting.attempts == 1
    # After a restart the edit comes first, then the turn message, once.
    async with open_store(database) as store:
        assert await Outbox(store, channel.send, render=no_pictures,
                            edit_buttons=channel.edit).drain() == {waiting.id}  # fmt: skip
    assert [entry[:2] for entry in channel.log] == [("start", 9000), ("edit", 9000), ("turn", 9002)]
