"""Waiting for Discord at start-up: one warning, then retries with growing pauses."""

from __future__ import annotations

import logging

import pytest

from bot.shell.reach import MAX_DELAY, Unreachable, probe, wait_until_reachable
from fakediscord import DiscordServer


async def test_retries_with_backoff_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    failures = 9
    tries: list[str] = []
    pauses: list[float] = []

    async def check(api_base: str) -> None:
        tries.append(api_base)
        if len(tries) <= failures:
            raise Unreachable("connection refused")

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    with caplog.at_level(logging.INFO, logger="bot.shell.reach"):
        assert await wait_until_reachable("http://api", check=check, sleep=sleep) == failures
    assert tries == ["http://api"] * (failures + 1)
    assert pauses == [1, 2, 4, 8, 16, 32, MAX_DELAY, MAX_DELAY, MAX_DELAY]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "cannot reach Discord" in warnings[0].getMessage()
    assert "DISCORD_API_BASE" in warnings[0].getMessage()


async def test_probe_tells_discord_from_a_wrong_address() -> None:
    async with DiscordServer() as server:
        await probe(server.api_base)
        with pytest.raises(Unreachable, match="HTTP 404"):
            await probe(server.base_url + "/not-the-api")
    with pytest.raises(Unreachable, match="/gateway"):
        await probe(server.api_base)  # closed now: nothing listens
