"""The clock the bot's tests move by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2024, 5, 1, 12, tzinfo=UTC)
"""When the bot tests' clock starts, unless a module says otherwise (``CLOCK_START``)."""


class FakeClock:
    """A clock that only moves when told to: set ``now`` or call :meth:`advance`."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        """Move the clock on by ``delta`` and return the new time."""
        self.now += delta
        return self.now
