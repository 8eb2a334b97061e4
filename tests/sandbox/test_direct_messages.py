"""The page's direct-messages view and its links, in a real browser: the daily trek started
and played to the end in a player's direct messages with the bot, a turn notice's Play button
pressed there, and links in the bot's words opening the page's own view of the message they
name."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.sandbox.conftest import Running
from tests.sandbox.driver import Page, Shown
from tests.sandbox.test_page import screenshot

DMS = "Direct messages"


def new_panel(page: Page, before: set[str], what: str) -> Shown:
    """The first private message not among ``before`` with an enabled Suggest button."""
    found: Shown = page.wait_until(
        lambda: next(
            (m for m in page.messages()
             if m.ephemeral and m.id not in before and m.enabled("Suggest")),
            None,
        ),
        what,
    )  # fmt: skip
    return found


def play_in_place(page: Page, turn: Shown) -> Shown:
    """Press Play on ``turn``, take the panel's suggestion and confirm it; returns the next
    public message once its pictures have loaded."""
    before = len(page.public())
    panels = {m.id for m in page.messages() if m.ephemeral}
    page.press(turn, "Play")
    panel = new_panel(page, panels, "the turn panel its Play button opens")
    page.press(panel, "Suggest")
    panel = page.wait_until(
        lambda: next(
            (m for m in page.messages() if m.id == panel.id and m.enabled("Confirm")), None
        ),
        "the panel's suggested move, ready to confirm",
    )
    page.press(panel, "Confirm")
    message = page.wait_for_public(before + 1, "the message after the turn")
    return page.wait_pictures(message.id, {p["name"] for p in message.pictures})


def links(page: Page, message: Shown) -> list[dict[str, str]]:
    """The links shown in ``message``'s words: their text and where they lead."""
    found: list[dict[str, str]] = page.driver.execute_script(
        """return [...document.querySelectorAll(
             `article[data-id="${arguments[0]}"] .content a`)].map((a) => ({
             text: a.textContent, channel: a.dataset.channel || '',
             message: a.dataset.message || '', href: a.getAttribute('href')}));""",
        message.id,
    )
    return found


def current_place(page: Page) -> str:
    return str(page.driver.find_element(By.CSS_SELECTOR, "#channels .current").text)


@pytest.mark.players(1)
def test_the_daily_trek_is_played_to_the_end_in_direct_messages(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    page.switch_channel(DMS)
    hint = browser.find_element(By.ID, "dm-hint")
    page.wait_until(hint.is_displayed, "the direct messages' hint")
    assert "cascadia daily" in hint.text, hint.text
    # Commands are typed here as in a channel; the trek itself is started from a server.
    page.command("cascadia daily")
    page.wait_until(
        lambda: any("played from a server" in m.text for m in page.messages()),
        "the bot's answer to /cascadia daily typed in the direct messages",
    )
    page.switch_channel("table-1")
    page.command("cascadia daily")
    page.wait_until(
        lambda: any("in our direct messages" in m.text for m in page.messages()),
        "the bot to say the trek is in the direct messages",
    )
    page.switch_channel(DMS)
    message: Shown = page.wait_until(
        lambda: next((m for m in reversed(page.public()) if m.enabled("Play")), None),
        "the daily trek's first turn message with a Play button, in direct messages",
    )
    page.wait_pictures(message.id, {p["name"] for p in message.pictures})
    for turn in range(1, 21):
        message = play_in_place(page, message)
        over = "The game is over" in message.text
        assert over == (turn == 20), (turn, message.text)
    assert not message.enabled("Play"), message.buttons
    assert current_place(page) == DMS
    screenshot(browser, tmp_path / "daily.png")

    # The direct messages are the player's own: the server's channels do not show them.
    shown = {m.id for m in page.messages()}
    page.switch_channel("table-1")
    page.wait_until(
        lambda: any("in our direct messages" in m.text for m in page.messages()),
        "table-1 with the answer to /cascadia daily",
    )
    assert not shown & {m.id for m in page.messages()}


def test_a_turn_notice_in_direct_messages_links_to_the_turn_and_opens_the_panel(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    page.switch_player("bob")
    page.command("cascadia notify", dm="True")
    page.wait_until(lambda: any(m.ephemeral for m in page.messages()), "the answer to bob's notify")
    page.switch_player("alice")
    page.command("cascadia new", cards=("A", 0))
    lobby = page.wait_for_public(1, "the lobby")
    page.switch_player("bob")
    page.press(lobby, "Join")
    page.wait_until(lambda: "bob" in page.public()[0].text, "the lobby to seat bob")
    page.switch_player("alice")
    page.press(page.public()[0], "Start")
    turn = page.wait_for_public(2, "the first turn message")
    if page.pinged() == ["alice"]:
        turn = play_in_place(page, turn)
    assert page.pinged() == ["bob"], page.pinged()
    turn_id = turn.id

    page.switch_player("bob")
    page.switch_channel(DMS)
    notice: Shown = page.wait_until(
        lambda: next((m for m in page.public() if m.enabled("Play") and links(page, m)), None),
        "bob's direct message of his turn, with a Play button and a link",
    )
    assert "](" not in notice.text, f"a raw markdown link: {notice.text}"
    # The link to the turn; the channel's mention opens the channel as well.
    [link] = [found for found in links(page, notice) if found["message"]]
    assert link["message"] == turn_id, (link, turn_id)
    mentions = [found for found in links(page, notice) if not found["message"]]
    assert all(found["channel"] == link["channel"] for found in mentions), mentions
    screenshot(browser, tmp_path / "notice.png")

    # The link opens the channel with the turn message in view.
    page.driver.find_element(
        By.CSS_SELECTOR, f'article[data-id="{notice.id}"] .content a[data-message]'
    ).click()
    page.wait_until(lambda: current_place(page) == "table-1", "the link to open table-1")
    page.wait_until(
        lambda: page.driver.execute_script(
            """const a = document.querySelector(`article[data-id="${arguments[0]}"]`);
               if (!a || !a.classList.contains('linked')) return false;
               const r = a.getBoundingClientRect(), box =
                 document.getElementById('messages').getBoundingClientRect();
               return r.bottom > box.top && r.top < box.bottom;""",
            turn_id,
        ),
        "the linked turn message to be marked and in view",
    )

    # The notice's Play button opens bob's panel there, and the turn is played from it.
    page.switch_channel(DMS)
    notice = page.wait_until(
        lambda: next((m for m in page.public() if m.id == notice.id), None), "the notice again"
    )
    panels = {m.id for m in page.messages() if m.ephemeral}
    page.press(notice, "Play")
    panel = new_panel(page, panels, "bob's turn panel opened from his direct messages")
    page.press(panel, "Suggest")
    panel = page.wait_until(
        lambda: next(
            (m for m in page.messages() if m.id == panel.id and m.enabled("Confirm")), None
        ),
        "the panel's suggested move in the DMs",
    )
    page.press(panel, "Confirm")
    page.switch_channel("table-1")
    page.wait_until(
        lambda: "alice" in page.pinged(), "bob's turn, played from his DMs, to reach the channel"
    )
