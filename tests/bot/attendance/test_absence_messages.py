"""The texts of deadlines, votes, time away and quiet hours, and the turn line they change."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.attendance import texts
from bot.attendance.presence import SkipTally
from bot.attendance.quiet import QuietHours, zone_named
from bot.game.hooks import AwayPeriod, Call
from bot.game.messages import (
    GameSummary,
    Player,
    my_games_message,
    settings_message,
    status_message,
    your_turn_line,
)
from bot.game.outbox import Announcement
from bot.game.rows import OutboxRow
from engine import new_game

ADA = Player(1, "Ada")
BO = Player(2, "Bo_b")
WHEN = datetime(2026, 6, 1, 12, tzinfo=UTC)
STAMP = f"<t:{int(WHEN.timestamp())}:R>"
AWAY = AwayPeriod(WHEN, datetime(2026, 6, 3, tzinfo=UTC), "at *sea*")


def test_the_turn_line_pings_and_says_by_when() -> None:
    state = new_game(players=2, seed=1, cards="A")
    assert your_turn_line(state, ADA).startswith("<@1>, it's your turn: round 1")
    line = your_turn_line(state, ADA, Call(deadline=WHEN))
    assert line.endswith(f" · plays by {STAMP}.")


def test_in_quiet_hours_the_turn_line_names_without_a_mention() -> None:
    state = new_game(players=2, seed=1, cards="A")
    line = your_turn_line(state, BO, Call(ping=False, ping_due_at=WHEN))
    assert line.startswith(r"**Bo\_b**, it's your turn")
    assert "<@" not in line


def test_the_turn_line_and_status_say_who_is_away() -> None:
    state = new_game(players=2, seed=1, cards="A")
    line = your_turn_line(state, ADA, Call(away=AWAY))
    assert line.endswith(r"**Ada** is away until <t:1780444800:f> (at \*sea\*).")
    status = status_message(
        state, (ADA, BO), turn_started_at=WHEN, deadline=WHEN, away=(None, AWAY)
    )
    assert f"Plays by {STAMP}." in status
    ada_line, bo_line = status.splitlines()[3:5]
    assert "away" not in ada_line
    assert bo_line.startswith(r"**Bo\_b**: ")
    assert bo_line.endswith(" · away until <t:1780444800:f> (at \\*sea\\*)")


def test_my_games_say_by_when() -> None:
    summary = GameSummary(1, 5, started=True, your_turn=True, to_move="Ada", round=2, deadline=WHEN)
    assert f"**your turn** (round 2, play by {STAMP})" in my_games_message([summary])


def test_settings_name_the_deadline() -> None:
    assert "Deadline: none." in settings_message(24, changed=False)
    text = settings_message(0, changed=True, deadline_hours=1)
    assert "Deadline: 1 hour a turn, then the others may vote to skip it." in text


def test_vote_texts() -> None:
    tally = SkipTally.of({2, 3, 4}, {2})
    assert "with 2 votes the computer plays this turn" in texts.vote_message(ADA, WHEN, tally)
    assert texts.vote_answer(tally, counted=True, skipped=False).endswith(
        "1 of 2 needed to skip the turn."
    )
    assert "voted already" in texts.vote_answer(tally, counted=False, skipped=False)
    assert "Skip" in texts.SKIP_BUTTON
    assert texts.skip_lead(ADA, how="vote") == (
        "Played for **Ada** after a vote (the computer chose the move):\n"
    )


def test_quiet_texts() -> None:
    quiet = QuietHours(22, 8, zone_named("Europe/Berlin"))
    assert "22:00 to 08:00 (Europe/Berlin)" in texts.quiet_answer(quiet)
    assert texts.quiet_over_ping(ADA) == (
        "<@1>, it's your turn in Cascadia (your quiet hours are over)."
    )


def test_buttons_survive_the_outbox() -> None:
    ref = texts.vote_button(7, 12)
    assert ref == ("Vote to Skip", "cascadia:skip:7:12")
    message = Announcement("vote", "late", buttons=(ref,)).to_outbox()
    row = OutboxRow(1, 7, 5, "vote", message.payload, None, WHEN, 0, None, None, None)
    assert Announcement.from_row(row).buttons == (ref,)
