"""A finished game's pictures travel through the outbox and fit the channel's upload limit."""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO

from PIL import Image

from bot.game.captions import Attachment
from bot.game.outbox import Announcement, Picture, Post, render_pictures
from bot.game.replays import CHART_FILE, REPLAY_FILE
from bot.game.rows import OutboxRow
from bot.game.uploads import LEFT_OUT, fit_upload
from engine import record_for
from engine.players import random_game

FINISHED, ACTIONS = random_game(players=2, seed=5)
RECORD = record_for(FINISHED, ACTIONS, ("Ada", "Bob"))


def _row(announcement: Announcement) -> OutboxRow:
    stored = announcement.to_outbox()
    return OutboxRow(
        id=1,
        game_id=1,
        channel_id=2,
        kind=stored.kind,
        payload=stored.payload,
        snapshot=stored.snapshot,
        created_at=datetime(2026, 12, 2, tzinfo=UTC),
        attempts=0,
        last_error=None,
        sent_at=None,
        message_id=None,
    )


def test_the_record_is_kept_in_the_snapshot_and_the_replay_drawn_from_it() -> None:
    announcement = Announcement(
        kind="finish",
        text="The game is over",
        pictures=(Picture.SCORES, Picture.REPLAY),
        state=FINISHED,
        names=("Ada", "Bob"),
        record=RECORD,
    )
    back = Announcement.from_row(_row(announcement))
    assert back.record == RECORD
    files = render_pictures(back)
    assert [f.name for f in files] == ["scores.png", REPLAY_FILE, CHART_FILE]
    with Image.open(BytesIO(files[1].data)) as gif:
        assert gif.format == "GIF"
        assert getattr(gif, "n_frames", 1) >= 20
    assert files[1].description.startswith("Replay of the game, one frame per round for 20")
    assert files[2].description.startswith("Chart of each player's total")


def test_an_announcement_without_a_record_draws_no_replay() -> None:
    announcement = Announcement(
        kind="finish", text="", pictures=(Picture.REPLAY,), state=FINISHED, names=("Ada", "Bob")
    )
    assert Announcement.from_row(_row(announcement)).record is None
    assert render_pictures(announcement) == []


def _post(*sizes: tuple[str, int]) -> Post:
    files = tuple(Attachment(name, b"x" * size, name) for name, size in sizes)
    return Post(text="The game is over.", mentions=(7,), attachments=files, nonce="n")


def test_a_post_within_the_limit_is_left_as_it_is() -> None:
    post = _post(("scores.png", 400), ("replay.gif", 600))
    assert fit_upload(post, 1000) is post


def test_the_gif_is_left_out_with_a_note_when_the_files_pass_the_limit() -> None:
    post = _post(("scores.png", 400), ("replay.gif", 601), ("score-chart.png", 100))
    fitted = fit_upload(post, 1000)
    assert [a.name for a in fitted.attachments] == ["scores.png", "score-chart.png"]
    assert fitted.text == "The game is over." + LEFT_OUT
    assert fitted.mentions == (7,)


def test_without_a_gif_nothing_is_left_out() -> None:
    post = _post(("scores.png", 4000))
    assert fit_upload(post, 1000) is post
