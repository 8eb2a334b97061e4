"""Discord misbehaves: server errors, rate limits and a dropped gateway connection. The bot
recovers and every turn message arrives exactly once."""

from __future__ import annotations

from tests.e2e.harness import World


async def test_errors_rate_limits_and_a_dropped_gateway(world: World) -> None:
    server = world.server
    table = world.table()
    await table.setup([world.alice, world.bob])
    posts = f"/channels/{table.channel}/messages"
    faults = {
        1: lambda: server.inject_fault("POST", posts, status=500),
        2: lambda: server.inject_fault("POST", posts, status=429, retry_after=0.2),
        3: lambda: server.inject_fault("POST", "/interactions/*/callback", status=429),
        4: lambda: server.inject_fault("POST", "/interactions/*/callback", status=500),
        5: lambda: server.inject_fault("POST", "/webhooks/*", status=500),
        6: lambda: server.inject_fault("POST", posts, status=502),
        8: lambda: server.inject_fault("*", "/channels/*", status=429, count=3),
    }
    for turn in range(12):
        if turn in faults:
            faults[turn]()
        if turn == 7:
            assert await server.drop_gateway() == 1
        await table.play()
        assert server.pending_faults == 0
        if turn == 7:
            assert server.resume_count + server.identify_count >= 2
    served = sorted({r.status for r in server.requests if r.status >= 400})
    assert {429, 500, 502} <= set(served), served

    await table.play_to_end()
    await table.settled()
    table.check_channel()
