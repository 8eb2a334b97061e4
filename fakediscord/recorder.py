"""Waiting on the server and recording what went wrong, so a test fails fast and says why.

Every change to the server's state signals :meth:`Recorder.bump`; :meth:`Recorder.wait_for`
re-checks its condition on each signal instead of polling. Problems on the client side (a
crashed client task, ERROR log records of discord.py, which only logs the exceptions it
swallows) are recorded too, so a wait fails at once with a summary instead of timing out.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fakediscord.model import RequestRecord

__all__ = ["Recorder"]

_T = TypeVar("_T")


class _ErrorLogHandler(logging.Handler):
    def __init__(self, sink: Callable[[str], None]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.sink(self.format(record))


class Recorder:
    """The change signal, the request log and the problems seen, with waits built on them.

    ``summary(limit)`` describes the recent state failed waits report (set by the owner).
    """

    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self.unhandled: list[RequestRecord] = []
        self.crashes: list[str] = []
        self.error_logs: list[str] = []
        self.summary: Callable[[int], str] = lambda limit: ""
        self._changed = asyncio.Event()
        self._log_handlers: list[tuple[logging.Logger, _ErrorLogHandler, int]] = []

    def bump(self) -> None:
        """Wake every waiter to re-check its condition."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def next_change(self, timeout: float) -> bool:
        """Wait for the next change, at most ``timeout`` seconds; returns whether one came (for
        watchers that show the state live rather than wait for a condition)."""
        changed = self._changed
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def record_problem(self, text: str) -> None:
        """Record a fatal problem (e.g. a bot subprocess died); waits fail fast."""
        self.crashes.append(text)
        self.bump()

    def watch_task(self, task: asyncio.Task[Any], name: str = "client") -> None:
        """Record an exception ending ``task`` (e.g. ``client.start()``) as a crash."""

        def done(t: asyncio.Task[Any]) -> None:
            if not t.cancelled() and (exc := t.exception()) is not None:
                lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
                self.record_problem(f"{name} task crashed:\n{''.join(lines)}")

        task.add_done_callback(done)

    def capture_error_logs(self, logger_name: str = "discord") -> None:
        """Record ERROR log records of ``logger_name`` until :meth:`release_logs`."""
        logger = logging.getLogger(logger_name)
        handler = _ErrorLogHandler(self._record_error_log)
        self._log_handlers.append((logger, handler, logger.level))
        logger.addHandler(handler)
        if logger.getEffectiveLevel() > logging.ERROR:
            logger.setLevel(logging.ERROR)

    def _record_error_log(self, text: str) -> None:
        self.error_logs.append(text)
        self.bump()

    def release_logs(self) -> None:
        """Remove the log handlers :meth:`capture_error_logs` installed."""
        for logger, handler, level in self._log_handlers:
            logger.removeHandler(handler)
            logger.setLevel(level)
        self._log_handlers.clear()

    def describe(self, limit: int = 10) -> str:
        """The recorded problems, then the owner's summary of the last ``limit`` events."""
        lines = []
        if self.crashes:
            lines += ["client/server crashes:", *self.crashes]
        if self.error_logs:
            lines += ["error logs:", *self.error_logs]
        lines.append(self.summary(limit))
        return "\n".join(lines)

    async def wait_for(
        self, check: Callable[[], _T | None], *, timeout: float = 5.0, what: str
    ) -> _T:
        """Wait until ``check()`` returns a truthy value and return that value.

        Re-checked after every change; fails fast on a recorded crash and raises
        AssertionError naming ``what`` with a summary of recent state on timeout.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            if self.crashes:
                raise AssertionError(f"crashed while waiting for {what}\n{self.describe()}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}\n{self.describe()}"
                )
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def guard(self, awaitable: Awaitable[_T], *, timeout: float = 5.0, what: str) -> _T:
        """Await ``awaitable`` with :meth:`wait_for`'s timeout and crash reporting."""
        task = asyncio.ensure_future(awaitable)
        task.add_done_callback(lambda _: self.bump())
        try:
            await self.wait_for(task.done, timeout=timeout, what=what)
        finally:
            task.cancel()
        return task.result()
