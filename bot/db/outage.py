"""The database failing for a while (its server down, its disk full), told to the operator's
log once when it starts, with what to do, and once when it is over: not once per request."""

from __future__ import annotations

import logging

from bot.db.errors import DatabaseUnavailable


class Outage:
    """Whether the database fails now, for the log: a backend calls :meth:`failed` with each
    :class:`DatabaseUnavailable` it raises and :meth:`worked` after each operation that
    succeeded."""

    def __init__(self, log: logging.Logger) -> None:
        """Tell ``log``."""
        self._log = log
        self._failing: str | None = None
        """The kind of failure going on (its class and reason), or ``None``."""

    def failed(self, error: DatabaseUnavailable, advice: str) -> None:
        """An operation failed with ``error``: if it is a new failure, the log says so, and
        what the operator should do (``advice``)."""
        kind = f"{type(error).__name__}: {getattr(error, 'why', '')}"
        if kind == self._failing:
            self._log.debug("still failing: %s", error)
            return
        self._failing = kind
        self._log.warning("%s. %s", error, advice)

    def worked(self) -> None:
        """An operation succeeded: the log says the failure is over, if there was one."""
        if self._failing is not None:
            self._failing = None
            self._log.info("the database works again: play goes on")
