"""The texts of deadlines, votes, time away and quiet hours where the golden transcripts
(``tests/bot/attendance/golden``) do not show them: a turn line without a mention, the
singular hour, and the buttons kept through the outbox."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.attendance import texts
from bot.game.hooks import Call
from bot.game.messages import Player, settings_message, your_turn_line
from bot.game.outbox import Announcement
from bot.game.rows import OutboxRow
from engine import new_game

BO = Player(2, "Bo_b")
WHEN = datetime(2026, 6, 1, 12, tzinfo=UTC)


def test_in_quiet_hours_the_turn_line_names_without_a_mention() -> None:
    state = new_game(players=2, seed=1, cards="A")
    line = your_turn_line(state, BO, Call(ping=False, ping_due_at=WHEN))
    assert "<@" not in line


def test_settings_name_a_deadline_of_one_hour_in_the_singular() -> None:
    text = settings_message(0, changed=True, deadline_hours=1)
    assert "Deadline: 1 hour a turn" in text


def test_buttons_survive_the_outbox() -> None:
    ref = texts.vote_button(7, 12)
    assert ref == ("Vote to Skip", "cascadia:skip:7:12")
    message = Announcement("vote", "late", buttons=(ref,)).to_outbox()
    row = OutboxRow(1, 7, 5, "vote", message.payload, None, WHEN, 0, None, None, None)
    assert Announcement.from_row(row).buttons == (ref,)
