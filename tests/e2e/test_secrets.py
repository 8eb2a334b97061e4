"""A whole game at ``LOG_LEVEL=DEBUG``, through the real bot process, on SQLite and on
PostgreSQL with a password in ``CASCADIA_DB``: the log holds discord.py's debug lines (gateway
events, request URLs) but not the bot token, any interaction's token or the password."""

from __future__ import annotations

import pytest

from sandbox.pgserver import SUPERUSER
from tests.e2e.harness import World

PASSWORD = "pg-s3cret-Pa55"


@pytest.fixture(params=["sqlite", "postgresql"])
def bot_env(request: pytest.FixtureRequest) -> dict[str, str]:
    env = {"LOG_LEVEL": "DEBUG"}
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        # The test server lets its user in without a password; the bot still has this one.
        env["CASCADIA_DB"] = url.replace(f"//{SUPERUSER}@", f"//{SUPERUSER}:{PASSWORD}@", 1)
        assert PASSWORD in env["CASCADIA_DB"]
        tmp_path = request.getfixturevalue("tmp_path")
        env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return env


async def test_a_game_at_debug_logs_no_secret(world: World, bot_env: dict[str, str]) -> None:
    table = world.table()
    await table.setup([world.alice, world.bob])
    final = await table.play_to_end()
    table.check_final(final)
    await table.settled()
    await world.bot.stop()

    log = world.bot.log_text()
    tokens = [ix.token for ix in world.server.interactions]
    assert len(tokens) > 40, "the game was played without interactions"
    # The debug lines that would carry the secrets are there, masked.
    assert "WebSocket Event: {'op': 0, 't': 'INTERACTION_CREATE'" in log
    assert "'token': '***'" in log
    assert "/interactions/" in log
    assert "/***/callback" in log
    assert "/webhooks/" in log
    secrets = [world.server.token, *tokens]
    if "CASCADIA_DB" in bot_env:
        assert f"{SUPERUSER}:***@" in log
        secrets.append(PASSWORD)
    leaked = [secret for secret in secrets if secret in log]
    assert not leaked, f"{len(leaked)} secret(s) in the log, such as {leaked[0][:8]}..."
