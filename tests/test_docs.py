"""The README's picture of the turn panel is what the bot draws, and its caption quotes what
the panel says beside it."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

from PIL import Image

from docs import panel_picture
from tests.render.golden import PIXEL_TOLERANCE, differing_share

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _playing() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("## Playing") : text.index("\n## ", text.index("## Playing") + 1)]


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
    assert "](docs/panel.png)" in playing
    assert playing.index("**Play**") < playing.index("/cascadia play")
    assert playing.index("](docs/panel.png)") < playing.index("/cascadia play")
    for word in ("Next", "Confirm", "Back", "Cancel", "Free choice", "More", "Return to bag"):
        assert f"**{word}**" in playing, word


def test_the_caption_quotes_the_panel() -> None:
    _, shown = panel_picture.draw()
    caption = _words(_playing())
    turn_line, facing = shown.lines[0], shown.lines[1]
    assert _words(turn_line.removeprefix("**Step 3 of 5: ")) in caption, turn_line
    assert _words(facing) in caption, facing
