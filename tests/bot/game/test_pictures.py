"""The picture worker draws an announcement's pictures in a process of its own."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.game.outbox import Announcement, Picture, render_pictures
from bot.game.pictures import start_renderer
from engine.players import random_game

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the bot draws in threads")
async def test_pictures_are_drawn_in_a_worker_process() -> None:
    state, _ = random_game(players=2, seed=8)
    announcement = Announcement(
        kind="turn",
        text="hi",
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
        state=state,
        names=("Ada", "Bob"),
    )
    renderer = start_renderer()
    assert renderer is not None
    try:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(60):  # the first job starts the worker (a fresh interpreter)
            files = await loop.run_in_executor(renderer, render_pictures, announcement)
            worker_pid = await loop.run_in_executor(renderer, os.getpid)
    finally:
        renderer.shutdown(wait=True)
    assert worker_pid != os.getpid()
    assert [f.name for f in files] == ["display.png", "Ada.png", "Bob.png"]
    assert all(f.data.startswith(PNG) for f in files)
    assert files == render_pictures(announcement)
