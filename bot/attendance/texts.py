"""The texts of deadlines, votes to skip, time away and quiet hours: pure functions.

Each text is in the language of the reader named by :func:`i18n.speaking`: a public one
(the vote, a skipped turn's lead, the ping after quiet hours) is built inside the game's
language by its caller, a private answer in the person's (the interaction's reader).

(The turn line's "plays by" and "away until" are in :mod:`bot.game.messages`.)
"""

from __future__ import annotations

from datetime import datetime

from bot.attendance.presence import Presence, SkipTally
from bot.attendance.quiet import QuietHours
from bot.game.hooks import AwayPeriod
from bot.game.messages import Player, away_text, computer_lead, timestamp
from i18n import N_, _, _n

SKIP_BUTTON = N_("Vote to Skip")
"""The label of the vote button: it names the word Skip."""
HAND_OVER_BUTTON = N_("Hand seat to computer")


def vote_button(game_id: int, turn: int) -> tuple[str, str]:
    """The **Vote to Skip** button of a game's turn, as (label, custom id)."""
    return (_(SKIP_BUTTON), f"cascadia:skip:{game_id}:{turn}")


def hand_over_button(game_id: int, seat: int) -> tuple[str, str]:
    """The button that hands a seat of a game to the computer, as (label, custom id)."""
    return (_(HAND_OVER_BUTTON), f"cascadia:computer:{game_id}:{seat}")


def vote_message(player: Player, deadline: datetime, tally: SkipTally) -> str:
    """The channel message when a turn's deadline has passed."""
    return _n(
        "{name}'s turn passed its deadline ({time}). The other players may vote to skip it:"
        " with {n} vote the computer plays this turn for {name}, who keeps the seat."
        " Playing the turn ends the vote.",
        "{name}'s turn passed its deadline ({time}). The other players may vote to skip it:"
        " with {n} votes the computer plays this turn for {name}, who keeps the seat."
        " Playing the turn ends the vote.",
        tally.needed,
        name=player.shown,
        time=timestamp(deadline),
    )


def skip_lead(player: Player, *, how: str, by: Player | None = None) -> str:
    """The first line of the turn message of a turn played for someone else."""
    if how == "vote":
        line = _("Played for {name} after a vote (the computer chose the move).", name=player.shown)
        return f"{line}\n"
    if how == "host":
        if by is None:
            line = _("Played for {name}, skipped (the computer chose the move).", name=player.shown)
        else:
            line = _(
                "Played for {name}, skipped by {host} (the computer chose the move).",
                name=player.shown,
                host=by.shown,
            )
        return f"{line}\n"
    return computer_lead(player)


def hand_over_offer(player: Player, skips: int) -> str:
    """The line offering the host to hand a seat to the computer."""
    offer = _n(
        "{name}'s turn was skipped {n} time in a row: the host may hand the seat to the"
        " computer for good with **{button}**.",
        "{name}'s turn was skipped {n} times in a row: the host may hand the seat to the"
        " computer for good with **{button}**.",
        skips,
        name=player.shown,
        button=_(HAND_OVER_BUTTON),
    )
    return f"\n{offer}"


def handed_over_message(player: Player, by: Player) -> str:
    """The channel message when a seat goes to the computer."""
    return _(
        "{name}'s seat is played by the computer from now on (handed over by {host}).",
        name=player.shown,
        host=by.shown,
    )


def quiet_over_ping(player: Player) -> str:
    """The short ping owed once quiet hours are over."""
    return _(
        "{mention}, it's your turn in Cascadia (your quiet hours are over).",
        mention=player.mention,
    )


def vote_answer(tally: SkipTally, *, counted: bool, skipped: bool) -> str:
    """The private answer to a press of the vote button."""
    if skipped:
        return _("Your vote is counted: the turn is skipped and played by the computer.")
    if counted:
        return _(
            "Your vote is counted: {counted} of {needed} needed to skip the turn.",
            counted=tally.counted,
            needed=tally.needed,
        )
    return _(
        "You have voted already: {counted} of {needed} needed to skip the turn.",
        counted=tally.counted,
        needed=tally.needed,
    )


def away_answer(period: AwayPeriod) -> str:
    """The answer to ``/cascadia notify away_until:``."""
    return _(
        "You are {away}. No reminders until then, the deadline clock of your turns stops, and"
        " the other players see that you are away. `/cascadia notify clear:away` ends it"
        " sooner.",
        away=away_text(period),
    )


def away_cleared(was_away: bool) -> str:
    """The answer to ``/cascadia notify clear:away``."""
    if not was_away:
        return _("You were not away.")
    return _("Welcome back: reminders and deadlines count for you again.")


def quiet_answer(quiet: QuietHours) -> str:
    """The answer to ``/cascadia notify quiet_from: quiet_to: timezone:``."""
    return _(
        "Quiet hours: {hours}, in all your games. A turn of yours that comes then names you"
        " without a ping, and one short ping follows when they end; reminders wait too.",
        hours=quiet.describe(),
    )


def quiet_cleared() -> str:
    """The answer to ``/cascadia notify clear:quiet``."""
    return _("Quiet hours are off: you are pinged whenever it's your turn.")


def presence_settings(presence: Presence, now: datetime) -> list[str]:
    """The lines of ``/cascadia notify`` without options about quiet hours and time away."""
    period = presence.away_at(now)
    away = (
        _("You are {away}.", away=away_text(period))
        if period is not None
        else _("Time away: none.")
    )
    quiet = (
        _("Quiet hours: {hours}.", hours=presence.quiet.describe())
        if presence.quiet is not None
        else _("Quiet hours: off.")
    )
    return [quiet, away]


def skip_question(player: Player) -> str:
    """The confirmation question of ``/cascadia skip``."""
    return _(
        "Skip {name}'s turn now? The computer plays it for them; they keep their seat. This"
        " cannot be undone.",
        name=player.shown,
    )
