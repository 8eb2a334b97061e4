"""The daily par: the ``fast`` player's total on the day's deal, and its line."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from bot.daily.par import daily_par, par_line
from engine.cli import main
from engine.daily import Day


def _cli_total(day: Day) -> int:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["daily", "--date", str(day), "--play", "fast"]) == 0
    (player,) = json.loads(out.getvalue())["players"]
    return int(player["total"])


def test_par_is_what_engine_daily_prints_for_fast() -> None:
    day = Day.parse("2028-02-29")
    assert daily_par(day) == _cli_total(day)
    assert daily_par(day) == daily_par(Day.parse("2028-02-29"))


def test_par_line_says_who_won_and_by_how_much() -> None:
    assert par_line(90, 86) == "You beat the computer by 4 (par 86)."
    assert par_line(80, 86) == "The computer beat you by 6 (par 86)."
    assert par_line(86, 86) == "You tied the computer (par 86)."
