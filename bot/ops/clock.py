"""The bot's clock: real time, or for tests real time moved by an offset the test controls.

With ``CASCADIA_TEST_CLOCK_FILE`` set, :class:`OffsetClock` reads a number of seconds from that
file at each reading and adds it to the real time, so an end-to-end test can move the running
bot's clock (to just before a deadline, into quiet hours, across a daylight-saving change)
without waiting. A missing or empty file means no offset. Never set it in production.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

__all__ = ["OffsetClock", "clock_for"]

log = logging.getLogger(__name__)


Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime."""


def utc_now() -> datetime:
    """The current time as an aware UTC datetime: the default clock."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class OffsetClock:
    """Real UTC time plus the seconds written in ``path`` (read at every call)."""

    path: Path

    def __call__(self) -> datetime:
        """The current time, moved by the file's offset."""
        return utc_now() + timedelta(seconds=self.offset())

    def offset(self) -> float:
        """The offset in the file, 0 when the file is missing, empty or unreadable."""
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return 0.0
        try:
            return float(text) if text else 0.0
        except ValueError:
            log.warning("the test clock file %s holds no number: %r", self.path, text[:40])
            return 0.0


def clock_for(path: Path | None) -> Clock:
    """The clock to run on: the test clock when a file is configured, else real time."""
    return utc_now if path is None else OffsetClock(path)
