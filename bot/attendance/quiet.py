"""Quiet hours: the hours of a person's day in which the bot pings them for nothing.

A :class:`QuietHours` is a span of whole local hours in an IANA time zone, such as 22 to 8 in
``Europe/Berlin``. The span may cross midnight. It is read on the wall clock of the zone, so on
the night a clock goes forward or back the quiet spell still ends at the local hour named: 8
o'clock is 8 o'clock, whether the night had 23 or 25 hours. An end hour that does not exist
that night (skipped by the clock going forward) ends the spell at the first moment after the
gap.

Nothing here reads a clock: callers pass the moment they mean, as an aware datetime.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from i18n import N_, _

__all__ = [
    "MAX_ZONE_CHOICES",
    "QuietHours",
    "SettingError",
    "UnknownZone",
    "zone_choices",
    "zone_named",
]

MAX_ZONE_CHOICES = 25
"""Discord shows at most this many autocomplete choices."""
_MAX_SPELLS = 3
"""Back-to-back quiet spells :meth:`QuietHours.next_allowed` steps over (a spell can only
follow another when a clock change swallows the gap between them)."""


class SettingError(ValueError):
    """A person's setting that cannot be used: ``text`` is the English sentence (marked for
    translation where it is written) and ``fields`` its ``{name}`` fields, so a refusal can say
    it in the reader's language; ``str()`` is the English."""

    def __init__(self, text: str, /, **fields: object) -> None:
        super().__init__(text.format(**fields))
        self.text = text
        self.fields = fields


class UnknownZone(SettingError):
    """A time zone name that is not in the IANA database."""

    def __init__(self, name: str) -> None:
        super().__init__(
            N_(
                "{name} is not a time zone I know: use an IANA name such as Europe/Berlin or"
                " America/New_York (the list suggests them as you type)."
            ),
            name=repr(name[:60]),
        )
        self.name = name


@functools.cache
def _zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone_named(name: str) -> ZoneInfo:
    """The time zone with this IANA name (``Europe/Berlin``); :class:`UnknownZone` if there is
    none. Case is forgiven (``europe/berlin``), since people type it."""
    typed = name.strip()
    if typed not in _zone_names():
        typed = next((n for n in _zone_names() if n.lower() == typed.lower()), "")
    if not typed:
        raise UnknownZone(name)
    try:
        return ZoneInfo(typed)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownZone(name) from None


def zone_choices(typed: str, *, limit: int = MAX_ZONE_CHOICES) -> list[str]:
    """Zone names for autocomplete: those starting with ``typed`` first, then those containing
    it (ignoring case, and ``_`` for a space), at most ``limit``."""
    wanted = typed.strip().lower().replace(" ", "_")
    names = _zone_names()
    starts = [n for n in names if n.lower().startswith(wanted)]
    inside = [n for n in names if wanted in n.lower() and not n.lower().startswith(wanted)]
    return [*starts, *inside][:limit]


@dataclass(frozen=True, slots=True)
class QuietHours:
    """From ``start`` o'clock up to ``end`` o'clock local time in ``zone``, every day.

    ``start`` and ``end`` are whole hours 0-23 and differ; ``start > end`` crosses midnight
    (22 to 8 is quiet at 23:00 and 07:59, not at 08:00).
    """

    start: int
    end: int
    zone: ZoneInfo

    def __post_init__(self) -> None:
        for hour in (self.start, self.end):
            if not 0 <= hour <= 23:
                raise SettingError(N_("Quiet hours are whole hours 0-23, not {hour}."), hour=hour)
        if self.start == self.end:
            raise SettingError(
                N_("Quiet hours from {start} to {end} are empty."), start=self.start, end=self.end
            )

    @classmethod
    def parse(cls, start: int, end: int, zone: str) -> QuietHours:
        """Quiet hours from command options; :class:`UnknownZone` or ``ValueError``."""
        return cls(start, end, zone_named(zone))

    @property
    def zone_name(self) -> str:
        """The zone's IANA name, as stored."""
        return self.zone.key

    def is_quiet(self, moment: datetime) -> bool:
        """Whether ``moment`` falls in quiet hours."""
        hour = self._local(moment).hour
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def spell_end(self, moment: datetime) -> datetime:
        """When the quiet spell around ``moment`` ends (in UTC); ``moment`` itself when it is
        not quiet."""
        if not self.is_quiet(moment):
            return moment
        local = self._local(moment)
        day = local.date()
        if self.start > self.end and local.hour >= self.start:
            day += timedelta(days=1)
        return _wall_clock(day, self.end, self.zone)

    def next_allowed(self, moment: datetime) -> datetime:
        """The first moment at or after ``moment`` outside quiet hours (in UTC)."""
        for _unused in range(_MAX_SPELLS):
            if not self.is_quiet(moment):
                return moment
            moment = self.spell_end(moment)
        return moment

    def spells(self, start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
        """The quiet spells within ``start`` up to ``end``, each clipped to that span, in
        order (in UTC)."""
        found: list[tuple[datetime, datetime]] = []
        moment = start
        while moment < end:
            if self.is_quiet(moment):
                until = min(self.spell_end(moment), end)
                found.append((moment, until))
                moment = until
            else:
                moment = self._next_start(moment)
        return found

    def _next_start(self, moment: datetime) -> datetime:
        """When the next quiet spell after ``moment`` (not quiet) begins."""
        day = self._local(moment).date()
        begins = _wall_clock(day, self.start, self.zone)
        while begins <= moment:
            day += timedelta(days=1)
            begins = _wall_clock(day, self.start, self.zone)
        return begins

    def describe(self) -> str:
        """The quiet hours in words, e.g. ``"22:00 to 08:00 (Europe/Berlin)"``, in the reader's
        language."""
        start, end = f"{self.start:02d}:00", f"{self.end:02d}:00"
        return _("{start} to {end} ({zone})", start=start, end=end, zone=self.zone_name)

    def _local(self, moment: datetime) -> datetime:
        if moment.utcoffset() is None:
            raise ValueError(f"naive datetime, need an aware one: {moment.isoformat()}")
        return moment.astimezone(self.zone)


def _wall_clock(day: date, hour: int, zone: ZoneInfo) -> datetime:
    """The moment (in UTC) the wall clock of ``zone`` shows ``hour`` o'clock on ``day``.

    An hour the clock skips that day resolves (by ``fold=0``, the offset before the change)
    to the first moment after the gap; an hour it shows twice, to its first showing.
    """
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)
