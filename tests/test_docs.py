"""The player's guide's picture of the turn panel is what the bot draws, and its caption quotes
what the panel says beside it."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

from PIL import Image

from docs import panel_picture
from tests.render.golden import PIXEL_TOLERANCE, differing_share

ROOT = Path(__file__).resolve().parent.parent
PLAYING = ROOT / "docs" / "playing.md"


def _section(text: str, heading: str) -> str:
    """The section of Markdown ``text`` under ``heading`` (a whole line such as ``## Name``), up
    to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + 1
    ends = [text.find(f"\n{'#' * n} ", start) for n in range(1, len(level) + 1)]
    return text[start : min((end for end in ends if end != -1), default=len(text))]


def _playing() -> str:
    """The guide's walk through a game, which leads with the turn panel and its picture."""
    return _section(PLAYING.read_text(encoding="utf-8"), "## A game in a channel")


def _words(text: str) -> str:
    """Text without Markdown markers and line breaks, to compare a caption with the panel."""
    return " ".join(re.sub(r"[*`]", "", text).split())


def test_the_panel_picture_is_drawn_by_its_script() -> None:
    picture, _ = panel_picture.draw()
    actual = Image.open(BytesIO(picture))
    with Image.open(panel_picture.PICTURE) as stored:
        assert stored.size == actual.size, "docs/panel.png is stale: python docs/panel_picture.py"
        assert differing_share(stored, actual) <= PIXEL_TOLERANCE, (
            "docs/panel.png is stale: run python docs/panel_picture.py"
        )


def test_playing_leads_with_the_panel_and_its_picture() -> None:
    playing = _playing()
    assert "](panel.png)" in playing
    assert playing.index("**Play**") < playing.index("/cascadia play")
    assert playing.index("](panel.png)") < playing.index("/cascadia play")
    for word in ("Next", "Confirm", "Back", "Cancel", "Free choice", "More", "Return to bag"):
        assert f"**{word}**" in playing, word


def test_the_caption_quotes_the_panel() -> None:
    _, shown = panel_picture.draw()
    caption = _words(_playing())
    turn_line, facing = shown.lines[0], shown.lines[1]
    assert _words(turn_line.removeprefix("**Step 3 of 5: ")) in caption, turn_line
    assert _words(facing) in caption, facing
