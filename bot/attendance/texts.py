"""The texts of deadlines, votes to skip, time away and quiet hours: pure functions.

(The turn line's "plays by" and "away until" are in :mod:`bot.game.messages`.)
"""

from __future__ import annotations

from datetime import datetime

from bot.attendance.presence import Presence, SkipTally
from bot.attendance.quiet import QuietHours
from bot.game.hooks import AwayPeriod
from bot.game.messages import Player, away_text, computer_lead, timestamp

SKIP_BUTTON = "Vote to Skip"
"""The label of the vote button: it names the word Skip."""
HAND_OVER_BUTTON = "Hand seat to computer"


def vote_button(game_id: int, turn: int) -> tuple[str, str]:
    """The **Vote to Skip** button of a game's turn, as (label, custom id)."""
    return (SKIP_BUTTON, f"cascadia:skip:{game_id}:{turn}")


def hand_over_button(game_id: int, seat: int) -> tuple[str, str]:
    """The button that hands a seat of a game to the computer, as (label, custom id)."""
    return (HAND_OVER_BUTTON, f"cascadia:computer:{game_id}:{seat}")


def vote_message(player: Player, deadline: datetime, tally: SkipTally) -> str:
    """The channel message when a turn's deadline has passed."""
    votes = f"{tally.needed} vote{'s' if tally.needed != 1 else ''}"
    return (
        f"{player.shown}'s turn passed its deadline ({timestamp(deadline)})."
        f" The other players may vote to skip it: with {votes} the computer plays this turn"
        f" for {player.shown}, who keeps the seat. Playing the turn ends the vote."
    )


def skip_lead(player: Player, *, how: str, by: Player | None = None) -> str:
    """The first line of the turn message of a turn played for someone else."""
    if how == "vote":
        return f"Played for {player.shown} after a vote (the computer chose the move).\n"
    if how == "host":
        host = f" by {by.shown}" if by is not None else ""
        return f"Played for {player.shown}, skipped{host} (the computer chose the move).\n"
    return computer_lead(player)


def hand_over_offer(player: Player, skips: int) -> str:
    """The line offering the host to hand a seat to the computer."""
    return (
        f"\n{player.shown}'s turn was skipped {skips} times in a row: the host may hand the"
        f" seat to the computer for good with **{HAND_OVER_BUTTON}**."
    )


def handed_over_message(player: Player, by: Player) -> str:
    """The channel message when a seat goes to the computer."""
    return (
        f"{player.shown}'s seat is played by the computer from now on (handed over by {by.shown})."
    )


def quiet_over_ping(player: Player) -> str:
    """The short ping owed once quiet hours are over."""
    return f"{player.mention}, it's your turn in Cascadia (your quiet hours are over)."


def vote_answer(tally: SkipTally, *, counted: bool, skipped: bool) -> str:
    """The private answer to a press of the vote button."""
    if skipped:
        return "Your vote is counted: the turn is skipped and played by the computer."
    already = "Your vote is counted" if counted else "You have voted already"
    return f"{already}: {tally.counted} of {tally.needed} needed to skip the turn."


def away_answer(period: AwayPeriod) -> str:
    """The answer to ``/cascadia notify away_until:``."""
    return (
        f"You are {away_text(period)}. No reminders until then, the deadline clock of your"
        " turns stops, and the other players see that you are away."
        " `/cascadia notify clear:away` ends it sooner."
    )


def away_cleared(was_away: bool) -> str:
    """The answer to ``/cascadia notify clear:away``."""
    if not was_away:
        return "You were not away."
    return "Welcome back: reminders and deadlines count for you again."


def quiet_answer(quiet: QuietHours) -> str:
    """The answer to ``/cascadia notify quiet_from: quiet_to: timezone:``."""
    return (
        f"Quiet hours: {quiet.describe()}, in all your games. A turn of yours that comes then"
        " names you without a ping, and one short ping follows when they end;"
        " reminders wait too."
    )


def quiet_cleared() -> str:
    """The answer to ``/cascadia notify clear:quiet``."""
    return "Quiet hours are off: you are pinged whenever it's your turn."


def presence_settings(presence: Presence, now: datetime) -> list[str]:
    """The lines of ``/cascadia notify`` without options about quiet hours and time away."""
    period = presence.away_at(now)
    away = f"You are {away_text(period)}." if period is not None else "Time away: none."
    quiet = (
        f"Quiet hours: {presence.quiet.describe()}."
        if presence.quiet is not None
        else "Quiet hours: off."
    )
    return [quiet, away]


def skip_question(player: Player) -> str:
    """The confirmation question of ``/cascadia skip``."""
    return (
        f"Skip {player.shown}'s turn now? The computer plays it for them; they keep their"
        " seat. This cannot be undone."
    )
