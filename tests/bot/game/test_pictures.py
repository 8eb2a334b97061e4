"""The picture worker draws an announcement's pictures in a process of its own."""

from __future__ import annotations

import asyncio
import os
import pickle

import pytest

from bot.game.captions import Attachment, scores_description
from bot.game.outbox import Announcement, Picture, render_pictures
from bot.game.pictures import drawn_in, start_renderer
from engine import ScoreSheet, Wildlife
from engine.players import random_game
from i18n import reader, speaking, translate
from render.words import wildlife_word

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


async def test_drawn_in_names_the_reader_where_the_context_does_not_travel() -> None:
    # loop.run_in_executor copies no context: the reader is named again on the other side.
    loop = asyncio.get_running_loop()
    with speaking("de"):
        assert await loop.run_in_executor(None, reader) is None
        assert await loop.run_in_executor(None, drawn_in(reader(), reader)) == "de"
    # A worker process gets the call pickled.
    assert pickle.loads(pickle.dumps(drawn_in("fr", translate, "Total", "fr")))() == "Total"
    sheet = ScoreSheet(())
    about = pickle.loads(pickle.dumps(drawn_in("de", scores_description, sheet, final=True)))
    assert about() == "Endstand: "


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the bot draws in threads")
async def test_the_worker_process_draws_in_the_language_it_is_given() -> None:
    renderer = start_renderer()
    assert renderer is not None
    try:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(60):
            spoken = await loop.run_in_executor(renderer, drawn_in("de", reader))
            name = await loop.run_in_executor(renderer, drawn_in("fr", wildlife_word, Wildlife.ELK))
    finally:
        renderer.shutdown(wait=True)
    assert (spoken, name) == ("de", "wapiti")


def test_an_announcement_draws_its_pictures_in_its_own_language() -> None:
    state, _unused = random_game(players=2, seed=8)

    def drawn(locale: str | None) -> list[Attachment]:
        return render_pictures(
            Announcement(
                kind="final",
                text="hi",
                pictures=(Picture.DISPLAY, Picture.SCORES),
                state=state,
                names=("Ada", "Bob"),
                locale=locale,
            )
        )

    english, german = drawn(None), drawn("de")
    assert [f.name for f in german] == [f.name for f in english]
    assert all(g.data != e.data for g, e in zip(german, english, strict=True))
    assert german[0].description.startswith("Die Auslage")
    assert german[1].description.startswith("Endstand: 1. ")
    # The reader of the code that asks is not the announcement's.
    with speaking("fr"):
        assert drawn("de")[1].description == german[1].description
