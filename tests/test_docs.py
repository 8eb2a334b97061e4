"""The documentation holds together: the README stays short and gives the test command that
CI runs, every relative link in the README and in ``docs/`` reaches a file (and a heading), and
the player's guide's picture of the turn panel is what the bot draws, its caption quoting what
the panel says beside it."""

from __future__ import annotations

import re
import unicodedata
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from docs import panel_picture
from tests.render.golden import PIXEL_TOLERANCE, differing_share

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PLAYING = ROOT / "docs" / "playing.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 200

FENCED = re.compile(r"^```.*?^```[^\n]*$", re.MULTILINE | re.DOTALL)
INDENTED = re.compile(r"(?:^\n)(?:^(?: {4}|\t).*\n)+", re.MULTILINE)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
LINK = re.compile(r'\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


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


def _prose(text: str) -> str:
    """Markdown ``text`` without its code: fenced and indented blocks, and code spans."""
    text = FENCED.sub("", text)
    text = INDENTED.sub("\n", text)
    return CODE_SPAN.sub("code", text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, inline links reduced to their text,
    every character but letters, digits, underscores, spaces and hyphens dropped, and spaces
    made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    kept = (
        c
        for c in text
        if c in " -" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return "".join(kept).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings, numbered as GitHub numbers repeated ones."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in HEADING.findall(FENCED.sub("", page.read_text(encoding="utf-8"))):
        slug = _slug(heading)
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _relative_links(page: Path) -> list[str]:
    """The targets of ``page``'s Markdown links and pictures that name no scheme."""
    targets = LINK.findall(_prose(page.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t, re.IGNORECASE)]


def test_the_readme_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_MAX_LINES, (
        f"README.md has {len(lines)} lines; move the detail into docs/"
    )


def test_the_checks_see_every_page_and_their_links() -> None:
    names = {page.name for page in PAGES}
    assert {"README.md", "playing.md", "hosting.md", "architecture.md"} <= names
    assert "docs/playing.md" in _relative_links(README)
    assert "docs/sandbox.png" in _relative_links(README)
    assert "panel.png" in _relative_links(PLAYING)
    assert _slug("Time away and quiet hours (yours, in every game)") == (
        "time-away-and-quiet-hours-yours-in-every-game"
    )
    assert (
        _slug("A computer's turn in the `bot`: measured") == "a-computers-turn-in-the-bot-measured"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_a_heading(page: Path) -> None:
    broken = []
    for target in _relative_links(page):
        path, _, anchor = target.partition("#")
        reached = (page.parent / path).resolve() if path else page
        if not reached.is_file():
            broken.append(f"{target}: no file {reached}")
        elif anchor and reached.suffix == ".md" and anchor not in _anchors(reached):
            broken.append(f"{target}: no heading #{anchor} in {reached.name}")
    assert not broken, broken


def _last_command(script: Path) -> str:
    """The last line of a shell script that is neither blank nor a comment."""
    lines = [line.strip() for line in script.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line and not line.startswith("#")][-1]


def test_the_readme_test_command_is_what_ci_runs() -> None:
    tests = _section(README.read_text(encoding="utf-8"), "## Run the tests")
    commands = [
        line.strip()
        for block in re.findall(r"^```sh\n(.*?)^```", tests, re.MULTILINE | re.DOTALL)
        for line in block.splitlines()
    ]
    assert _last_command(ROOT / ".ci" / "run") in commands, commands
