"""A bare discord.py client in a process of its own, as the bot runs against the local server.

``python -m tests.fakediscord.heartbeat_client API_BASE GATEWAY_URL TOKEN ACKS`` logs in,
prints ``latency SECONDS`` after each heartbeat acknowledgement discord.py has taken, and every
warning discord.py's gateway logs, then closes after ``ACKS`` acknowledgements.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

_HEARTBEAT_ACK = 11


class HeartbeatClient(discord.Client):
    """Reports its latency after each of its first ``acks`` heartbeat acknowledgements."""

    def __init__(self, acks: int) -> None:
        super().__init__(intents=discord.Intents.default(), enable_debug_events=True)
        self.acks_left = acks

    async def on_socket_raw_receive(self, msg: str) -> None:
        """Print the latency once an acknowledgement has come (discord.py takes the frame
        before its listeners run, so the latency is that acknowledgement's)."""
        if json.loads(msg).get("op") != _HEARTBEAT_ACK or self.acks_left <= 0:
            return
        print(f"latency {self.latency:.4f}", flush=True)
        self.acks_left -= 1
        if self.acks_left == 0:
            await self.close()


async def main(api_base: str, gateway_url: str, token: str, acks: int) -> None:
    """Point discord.py at the server, log in and run until ``acks`` acknowledgements came."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    gateway_log = logging.getLogger("discord.gateway")
    gateway_log.addHandler(handler)
    gateway_log.setLevel(logging.WARNING)
    async with HeartbeatClient(acks) as client:
        await client.start(token)


if __name__ == "__main__":
    api, gateway, bot_token, count = sys.argv[1:]
    asyncio.run(main(api, gateway, bot_token, int(count)))
