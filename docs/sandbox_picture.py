"""Draw ``docs/sandbox.png``, the README's picture of the sandbox page, from a real run.

Run from the repository root: ``python docs/sandbox_picture.py`` starts ``cascadia-bot
sandbox`` with one pretend player, plays a solo game to the end on the page in headless
Chromium (Debian's chromium and chromium-driver, as the sandbox's browser tests use) and
saves the page as it then looks, at :data:`WIDTH` by :data:`HEIGHT`. The game's deal is the
bot's own, so the picture differs from run to run in its tiles, not in its layout; nothing
compares it, so it is redrawn on purpose when the page changes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path and would hide the packages.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.sandbox.conftest import CHROMIUM, CHROMIUM_FLAGS, start_sandbox, stop_sandbox
from tests.sandbox.driver import Page
from tests.sandbox.test_page import check_final, play_turn

PICTURE = Path(__file__).resolve().parent / "sandbox.png"
"""Where the picture goes."""
WIDTH, HEIGHT = 1100, 760
"""The page's size in the picture: a laptop's browser window, small enough for the README."""


def draw(path: Path = PICTURE) -> None:
    """Play a solo game on the page and save the page at its end to ``path``."""
    with tempfile.TemporaryDirectory() as scratch:
        running = start_sandbox(Path(scratch), "--players", "1")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM[0]
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={Path(scratch) / 'chromium-profile'}")
        driver = webdriver.Chrome(options=options, service=Service(CHROMIUM[1]))
        try:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
            )
            page = Page(driver, running.url)
            page.command("cascadia new", cards=("A", 0))
            lobby = page.wait_for_public(1, "the lobby")
            page.press(lobby, "Start")
            message = page.wait_for_public(2, "the first turn message")
            page.wait_pictures(message.id, {"display.png", "alice.png"})
            while "The game is over" not in message.text:
                message = play_turn(page, ["alice"], message)
            check_final(page, message, ["alice"])
            # The composer back to its first state, and the final message from its top.
            driver.execute_script(
                """document.getElementById('command').value = '';
                   fillOptions(undefined);
                   document.querySelector(`article[data-id="${arguments[0]}"]`)
                     .scrollIntoView({block: 'start'});""",
                message.id,
            )
            assert driver.save_screenshot(str(path)), f"no screenshot saved to {path}"
        finally:
            driver.quit()
            code = stop_sandbox(running)
        if code != 0:
            raise SystemExit(f"the sandbox exited with status {code}")


if __name__ == "__main__":
    draw()
    print(f"wrote {PICTURE}")
