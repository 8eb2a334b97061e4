"""The daily trek's par: what the ``fast`` computer player scores on the day's deal.

The par is a pure function of the date (the deal is, and ``fast`` does not search), so it is
worked out once per day and the same on every server; :func:`par_line` says how an attempt
compares with it.
"""

from __future__ import annotations

import functools

from bot.daily.store import DailyAttempt
from engine import Day, daily_deal, play_game, score_state
from i18n import _, _n

PAR_POLICY = "fast"
"""The computer player whose score on the day's deal is the par."""


def daily_par(day: Day) -> int:
    """The total ``fast`` scores playing the day's deal alone, as ``engine daily --play fast``."""
    deal = daily_deal(day)
    played = play_game(players=1, seed=deal.seed, cards=deal.cards, policies=[PAR_POLICY])
    (score,) = score_state(played.state, [PAR_POLICY]).players
    return score.total


def par_line(score: int, par: int) -> str:
    """How a total compares with the par: "you beat the computer by 4", "...tied", "...by 2",
    in the reader's language."""
    if score > par:
        return _n(
            "You beat the computer by {n} (par {par}).",
            "You beat the computer by {n} (par {par}).",
            score - par,
            par=par,
        )
    if score < par:
        return _n(
            "The computer beat you by {n} (par {par}).",
            "The computer beat you by {n} (par {par}).",
            par - score,
            par=par,
        )
    return _("You tied the computer (par {par}).", par=par)


@functools.lru_cache(maxsize=64)
def cached_par(day: Day) -> int:
    """:func:`daily_par`, worked out once per day in this process (the last 64 days asked
    for are kept: boards of any past day may be asked for)."""
    return daily_par(day)


def finish_note(attempt: DailyAttempt, score: int, par: int) -> str:
    """What the end of an attempt adds to its final message: the par line, and whether the
    attempt is on the day's board, in the reader's language."""
    if attempt.counted:
        counted = _(
            "Your daily trek of {day} is on the board: `/cascadia daily board`.", day=attempt.day
        )
    else:
        counted = _("Practice on the deal of {day}: not on the board.", day=attempt.day)
    return f"\n{par_line(score, par)} {counted}"
