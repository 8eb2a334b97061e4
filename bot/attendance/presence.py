"""Turn deadlines, time away and votes to skip: pure rules over times and ids.

A game may give each turn a deadline of ``deadline_hours``. The deadline clock runs only while
the player to move is not away: :func:`deadline_at` adds the time of every away period that
overlaps the turn. When the deadline has passed, the other human players may vote to skip the
turn; :class:`SkipTally` says whether enough have. Nothing here skips anything by itself.

Time away is a period per person (:class:`~bot.game.hooks.AwayPeriod`);
``/cascadia notify away_until:2026-12-05`` means back on that day, from midnight in the
person's time zone (:func:`away_end`).

Nothing here reads a clock: callers pass ``now``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from bot.attendance.quiet import QuietHours, SettingError, UnknownZone
from bot.attendance.store import Person
from bot.game.hooks import AwayPeriod, Call
from i18n import N_

__all__ = [
    "HANDOVER_AFTER_SKIPS",
    "MAX_AWAY_DAYS",
    "BadAwayDate",
    "Presence",
    "SkipTally",
    "away_at",
    "away_end",
    "deadline_at",
    "parse_day",
    "presence_of",
    "skips_in_a_row",
]

MAX_AWAY_DAYS = 366
"""The furthest ahead time away may end."""
HANDOVER_AFTER_SKIPS = 2
"""After this many skipped turns in a row the host is offered to hand the seat to the
computer."""
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class BadAwayDate(SettingError):
    """The ``until`` date of time away is malformed, past, or too far ahead; its message is a
    sentence for the person, in the reader's language."""


def away_at(periods: Iterable[AwayPeriod], moment: datetime) -> AwayPeriod | None:
    """The period of time away that covers ``moment`` (the one ending last), if any."""
    covering = [p for p in periods if p.covers(moment)]
    return max(covering, key=lambda p: p.end) if covering else None


def deadline_at(
    turn_started_at: datetime, budget: timedelta, away: Iterable[AwayPeriod]
) -> datetime:
    """When a turn started at ``turn_started_at`` has had ``budget`` of time not away.

    The clock stops for every period in ``away`` (overlaps are counted once); a period still
    running pushes the deadline past its end. A shorter period, or one cleared early (its end
    moved to when it was cleared), gives the time back.
    """
    if budget < timedelta(0):
        raise ValueError(f"a deadline needs a budget of 0 or more, not {budget}")
    clock, left = turn_started_at, budget
    for period in sorted(away, key=lambda p: p.start):
        if period.end <= clock:
            continue
        if period.start > clock:
            running = period.start - clock
            if running >= left:
                break
            left -= running
        clock = period.end
    return clock + left


def parse_day(text: str) -> date:
    """A calendar day written ``YYYY-MM-DD``; :class:`BadAwayDate` otherwise."""
    match = _DAY.fullmatch(text.strip())
    if match is None:
        raise BadAwayDate(
            N_("Write the day as YYYY-MM-DD, such as 2026-12-05, not {text}."),
            text=repr(text[:30]),
        )
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise BadAwayDate(N_("{day} is not a day of the calendar."), day=text.strip()) from None


def away_end(day: date, zone: tzinfo | None, now: datetime) -> datetime:
    """When time away ``until`` ``day`` ends: that day's midnight in ``zone`` (UTC when the
    person has not given one), in UTC. :class:`BadAwayDate` if that is not after ``now`` or
    more than :data:`MAX_AWAY_DAYS` days ahead."""
    end = datetime.combine(day, time(0), tzinfo=zone or UTC).astimezone(UTC)
    if end <= now:
        raise BadAwayDate(
            N_("{day} has already begun: give a day in the future."), day=day.isoformat()
        )
    if end - now > timedelta(days=MAX_AWAY_DAYS):
        raise BadAwayDate(N_("Time away can be set at most {days} days ahead."), days=MAX_AWAY_DAYS)
    return end


@dataclass(frozen=True, slots=True)
class SkipTally:
    """A vote to skip a turn: who may vote (the other human players) and who has.

    A strict majority of the voters skips the turn; the player to move is never a voter, so
    their own press counts for nothing.
    """

    voters: frozenset[int]
    votes: frozenset[int]

    @classmethod
    def of(cls, voters: Collection[int], votes: Collection[int]) -> SkipTally:
        """A tally from any collections of user ids."""
        return cls(frozenset(voters), frozenset(votes))

    @property
    def needed(self) -> int:
        """How many votes skip the turn: more than half of the voters."""
        return len(self.voters) // 2 + 1

    @property
    def counted(self) -> int:
        """The votes that count (from voters only)."""
        return len(self.votes & self.voters)

    @property
    def passed(self) -> bool:
        """Whether the turn is skipped: some may vote, and a majority has."""
        return bool(self.voters) and self.counted >= self.needed


def skips_in_a_row(skipped: Sequence[bool]) -> int:
    """How many of a player's latest turns, counting back from the last, were skipped;
    ``skipped`` lists their turns in order, ``True`` for each one played for them."""
    count = 0
    for flag in reversed(skipped):
        if not flag:
            break
        count += 1
    return count


@dataclass(frozen=True, slots=True)
class Presence:
    """What decides when a person may be pinged: their quiet hours and time away."""

    quiet: QuietHours | None = None
    away: tuple[AwayPeriod, ...] = ()

    def away_at(self, moment: datetime) -> AwayPeriod | None:
        """Their time away going on at ``moment``, if any."""
        return away_at(self.away, moment)

    def is_quiet(self, moment: datetime) -> bool:
        """Whether ``moment`` is in their quiet hours."""
        return self.quiet is not None and self.quiet.is_quiet(moment)

    def ping_at(self, moment: datetime) -> datetime:
        """The first moment at or after ``moment`` they may be pinged: when quiet hours end."""
        return moment if self.quiet is None else self.quiet.next_allowed(moment)

    def may_remind(self, moment: datetime) -> bool:
        """Whether a reminder may go out at ``moment``: not away, not in quiet hours."""
        return self.away_at(moment) is None and not self.is_quiet(moment)

    def counted_seconds(self, start: datetime, end: datetime) -> float:
        """The seconds from ``start`` to ``end`` they were neither away nor in quiet hours:
        what a turn's time counts (overlaps of the two are left out once)."""
        if end <= start:
            return 0.0
        spans = [(max(p.start, start), min(p.end, end)) for p in self.away]
        if self.quiet is not None:
            spans.extend(self.quiet.spells(start, end))
        left_out = timedelta(0)
        reached = start
        for begin, until in sorted(s for s in spans if s[0] < s[1]):
            begin = max(begin, reached)
            if until > begin:
                left_out += until - begin
                reached = until
        return ((end - start) - left_out).total_seconds()

    def deadline(self, turn_started_at: datetime, budget: timedelta) -> datetime:
        """When their turn that started at ``turn_started_at`` has had ``budget`` of time not
        away (see :func:`deadline_at`)."""
        return deadline_at(turn_started_at, budget, self.away)

    def call(self, now: datetime, *, turn_started_at: datetime, budget: timedelta | None) -> Call:
        """How a turn that started at ``turn_started_at`` calls them at ``now``, with a
        deadline ``budget`` of time not away (``None``: no deadline)."""
        deadline = None if budget is None else self.deadline(turn_started_at, budget)
        quiet = self.is_quiet(now)
        return Call(
            ping=not quiet,
            ping_due_at=self.ping_at(now) if quiet else None,
            deadline=deadline,
            away=self.away_at(now),
        )


def presence_of(person: Person) -> Presence:
    """A person's stored settings as rules. Quiet hours whose zone this machine does not know
    (the time zone database changed) are left out rather than guessed."""
    quiet = None
    if person.quiet_from is not None and person.quiet_to is not None and person.quiet_zone:
        try:
            quiet = QuietHours.parse(person.quiet_from, person.quiet_to, person.quiet_zone)
        except (UnknownZone, ValueError):
            quiet = None
    away = tuple(AwayPeriod(p.starts_at, p.ends_at, p.note) for p in person.away)
    return Presence(quiet=quiet, away=away)
