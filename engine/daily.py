"""The day's deal: one solo game per UTC day, the same on every server and every machine.

A :class:`Day` is a calendar date as a value (the engine reads no clock: the caller says which
day it is). :func:`daily_deal` derives the day's game seed from a SHA-256 hash of
``cascadia-daily:YYYY-MM-DD``, so the deal depends on the date's text alone, never on
Python's ``hash()``, the process or the machine. The seed then decides everything else the
way any game's seed does (:func:`engine.game.new_game`): the five scoring cards, drawn as a
``random`` game draws them, the starter tile, the order of the tile stacks and every draw
from the bag. ``new_game(players=1, seed=deal.seed)`` is therefore the day's game, and
:func:`daily_game` builds exactly that.

The cards are letters A-D only, never the Family or Intermediate variant: those are the
rulebook's cards for learning the game, scored on another scale, and a day that fell on one
would give everyone an easier game whose scores do not compare with the other days'. Drawing
a letter per wildlife as ``/cascadia new random`` does keeps every day on the full rules.

Each Sunday plays a solo scenario instead (:func:`daily_scenario`: the fifteen in turn, week by
week): its cards are the scenario's, the rest of the deal the seed's as on any day, so that a
whole server plays the same challenge.
"""

from __future__ import annotations

import calendar
import hashlib
import re
from dataclasses import dataclass
from typing import Any

from engine.achievements import SCENARIOS, Scenario
from engine.components import CardSet
from engine.errors import InvalidInput
from engine.game import GameState, new_game, resolve_cards

SEED_PREFIX = "cascadia-daily:"
"""What comes before the date in the hashed text (``cascadia-daily:2026-12-02``)."""

SUNDAY = 6
"""``calendar.weekday()`` of a Sunday, the day of the week that plays a solo scenario."""

SEED_BITS = 63
"""The seed's size: below ``2**63``, as the bot's own game seeds, so a database's signed
64-bit integer holds it."""

_DAY_TEXT = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True, slots=True, order=True)
class Day:
    """A calendar date (proleptic Gregorian, years 1-9999), in UTC wherever the bot uses it.

    Text form: ``YYYY-MM-DD`` (``Day.parse("2026-12-02")``, ``str(day)``), as
    :meth:`datetime.date.isoformat` writes it; ``Day(d.year, d.month, d.day)`` takes any date.
    """

    year: int
    month: int
    day: int

    def __post_init__(self) -> None:
        if not 1 <= self.year <= 9999:
            raise InvalidInput(f"the year must be 1-9999, not {self.year}")
        if not 1 <= self.month <= 12:
            raise InvalidInput(f"the month must be 1-12, not {self.month}")
        days = calendar.monthrange(self.year, self.month)[1]
        if not 1 <= self.day <= days:
            raise InvalidInput(f"{self.year:04d}-{self.month:02d} has no day {self.day}")

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"

    def __repr__(self) -> str:
        return f"Day.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Day:
        """Read ``YYYY-MM-DD``; anything else, or a date the calendar lacks, is refused."""
        found = _DAY_TEXT.fullmatch(text.strip())
        if found is None:
            raise InvalidInput(f"not a date: {text[:40]!r} (expected YYYY-MM-DD)")
        year, month, day = (int(part) for part in found.groups())
        return cls(year, month, day)


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """What the day's game is dealt from: its date, seed, scoring cards and starter tile.

    The order of the stacks and of the bag is not listed: it is hidden from the players, and
    the seed decides it.
    """

    day: Day
    seed: int
    cards: CardSet
    starter: str
    """The starter tile's name, ``S1``-``S5``."""
    scenario: int | None = None
    """The solo scenario the day plays (a Sunday's), whose cards it has; ``None``: none."""

    def to_json(self) -> dict[str, Any]:
        """``{"date": "2026-12-02", "cards": "ABCDA", "starter": "S3", "seed": ...,
        "scenario": null}``; the cards in their text form (bear, elk, salmon, hawk, fox), and
        on a Sunday the number of the solo scenario the day plays."""
        return {
            "date": str(self.day),
            "cards": str(self.cards),
            "starter": self.starter,
            "seed": self.seed,
            "scenario": self.scenario,
        }


def daily_seed(day: Day) -> int:
    """The day's game seed: the first bits of ``sha256("cascadia-daily:YYYY-MM-DD")``."""
    digest = hashlib.sha256(f"{SEED_PREFIX}{day}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def daily_scenario(day: Day) -> Scenario | None:
    """The solo scenario a Sunday plays, the fifteen in turn week by week; ``None`` on the
    other days."""
    if calendar.weekday(day.year, day.month, day.day) != SUNDAY:
        return None
    days = calendar.timegm((day.year, day.month, day.day, 0, 0, 0)) // 86_400
    return SCENARIOS[(days // 7) % len(SCENARIOS)]


def daily_game(day: Day) -> GameState:
    """A new solo game with the day's deal, before its first turn: a Sunday's with its
    scenario's cards, the other days' with cards drawn from the seed."""
    seed = daily_seed(day)
    scenario = daily_scenario(day)
    cards = resolve_cards("random", seed) if scenario is None else scenario.cards
    return new_game(players=1, seed=seed, cards=cards)


def daily_deal(day: Day) -> DailyDeal:
    """The day's deal (see the module docstring); a pure function of ``day``."""
    state = daily_game(day)
    scenario = daily_scenario(day)
    return DailyDeal(
        day=day,
        seed=state.seed,
        cards=state.cards,
        starter=state.starters[0],
        scenario=None if scenario is None else scenario.number,
    )
