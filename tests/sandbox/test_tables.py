"""A table in a thread, on the sandbox page in a real browser: ``/cascadia new thread:True``
typed in a channel opens the thread as a tab of its own under the channel, the channel's line
seats a player from there, the game is played in the thread's tab only, and the line's
``#thread`` mention opens that tab."""

from __future__ import annotations

from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.sandbox.conftest import Running
from tests.sandbox.driver import Page, Shown
from tests.sandbox.test_direct_messages import current_place, links
from tests.sandbox.test_page import screenshot

NESTED = "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"
"""What stands between a channel's name and its thread's in a thread tab's title."""

# The thread tabs the page lists: name, id, the channel it is under, and whether it is open.
_THREADS = """
return [...document.querySelectorAll('#channels button.thread')].map((b) => ({
  name: b.textContent, id: b.dataset.channel, title: b.title,
  current: b.classList.contains('current'),
}));
"""


def thread_tabs(page: Page) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.driver.execute_script(_THREADS)
    return found


def tab_order(page: Page) -> list[str]:
    return [b.text for b in page.driver.find_elements(By.CSS_SELECTOR, "#channels button")]


def test_a_table_opened_in_a_thread_is_played_in_its_own_tab(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    assert thread_tabs(page) == []
    # The composer offers new's thread option as a yes-or-no choice.
    Select(browser.find_element(By.ID, "command")).select_by_visible_text("cascadia new")
    choice = Select(browser.find_element(By.CSS_SELECTOR, '[data-option="thread"]'))
    assert [o.text for o in choice.options] == ["", "True", "False"]

    page.command("cascadia new", thread="True")
    [tab] = page.wait_until(lambda: thread_tabs(page), "the new thread's tab")
    assert "alice" in tab["name"], tab
    assert tab["title"] == f"#table-1 {NESTED} {tab['name']}", tab
    # The thread is listed right after its channel, before the other channel.
    assert tab_order(page) == ["table-1", tab["name"], "table-2", "Direct messages"]
    line = page.wait_until(
        lambda: next((m for m in page.public() if m.enabled("Join")), None),
        "the channel's line pointing at the new table",
    )
    assert "opened a Cascadia table in" in line.text, line.text
    [mention] = [link for link in links(page, line) if link["channel"] == tab["id"]]
    assert mention["text"] == f"#{tab['name']}", mention

    # Bob is seated from the channel's line, without opening the thread.
    page.switch_player("bob")
    page.press(line, "Join")
    page.switch_player("alice")
    page.switch_channel(tab["name"])
    lobby = page.wait_until(
        lambda: next((m for m in page.public() if "bob" in m.text and m.enabled("Start")), None),
        "the thread's lobby to seat bob",
    )
    page.press(lobby, "Start")
    turn: Shown = page.wait_until(
        lambda: next((m for m in page.public() if m.enabled("Play")), None),
        "the first turn message in the thread",
    )
    page.wait_pictures(turn.id, {"display.png", "alice.png", "bob.png"})
    assert thread_tabs(page)[0]["current"]
    screenshot(browser, tmp_path / "thread.png")

    # The channel holds its line only; the game's messages are in the thread.
    page.switch_channel("table-1")
    page.wait_until(lambda: any(m.id == line.id for m in page.public()), "the channel's line")
    shown = page.public()
    assert [m.id for m in shown] == [line.id], [m.text for m in shown]
    assert turn.id not in {m.id for m in page.messages()}

    # The line's mention of the thread opens the thread's tab.
    browser.find_element(
        By.CSS_SELECTOR, f'article[data-id="{line.id}"] .content a[data-channel="{tab["id"]}"]'
    ).click()
    page.wait_until(lambda: current_place(page) == tab["name"], "the thread's tab to open")
    page.wait_until(lambda: any(m.id == turn.id for m in page.public()), "the turn message")
