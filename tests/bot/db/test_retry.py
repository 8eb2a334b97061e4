"""Background work waits out the database with doubling waits, says so in one line, and goes
on; any other error is not waited on."""

from __future__ import annotations

import logging

import pytest

from bot.db.errors import CannotSave, ConnectionLost
from bot.db.retry import when_available


class Waits:
    """A ``sleep`` that only records how long it was asked to wait."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


async def test_the_work_is_tried_again_with_doubling_waits_until_the_database_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures = [ConnectionLost("OSError: no socket")] * 7 + [CannotSave("SQLITE_FULL", "full")]
    tries = 0

    async def work() -> str:
        nonlocal tries
        tries += 1
        if failures:
            raise failures.pop(0)
        return "done"

    waits = Waits()
    with caplog.at_level(logging.INFO, logger="bot.db.retry"):
        assert await when_available(work, what="the drain", sleep=waits) == "done"
    assert tries == 9
    assert waits.seconds == [0.5, 1, 2, 4, 8, 16, 30, 30]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0].startswith("the drain waits for the database: ")
    assert lines[1] == "the drain goes on: the database works again"


async def test_work_that_succeeds_at_once_waits_for_nothing_and_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def work() -> int:
        return 1

    waits = Waits()
    with caplog.at_level(logging.INFO, logger="bot.db.retry"):
        assert await when_available(work, what="the drain", sleep=waits) == 1
    assert waits.seconds == []
    assert caplog.records == []


async def test_any_other_error_is_raised_at_once() -> None:
    async def work() -> None:
        raise KeyError("state")

    waits = Waits()
    with pytest.raises(KeyError):
        await when_available(work, what="the drain", sleep=waits)
    assert waits.seconds == []
