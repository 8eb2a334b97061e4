"""Whole games played in a real browser on the sandbox page, the way a person plays them:
slash commands typed in the composer with the bot's autocomplete, the lobby's buttons, and
each turn through the Play button and the private turn panel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.sandbox.conftest import Running
from tests.sandbox.driver import Page, Shown

_RANKING = re.compile(r"^\d+\. (\S+): (-?\d+) points", re.MULTILINE)
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def play_turn(page: Page, players: list[str], turn: Shown, *, in_view: bool = False) -> Shown:
    """The pinged player presses Play, asks the panel for a suggestion and confirms it; the
    next public message is checked (its pictures load; it pings the next player; with
    ``in_view``, the panel's buttons and then the next message's are scrolled into view) and
    returned."""
    before = len(page.public())
    panels = {m.id for m in page.messages() if m.ephemeral}
    page.press(turn, "Play")
    panel: Shown = page.wait_until(
        lambda: next(
            (m for m in page.messages() if m.ephemeral and m.id not in panels
             and m.enabled("Suggest")),
            None,
        ),
        "the private turn panel",
    )  # fmt: skip
    assert "Step 1 of 5" in panel.text, panel.text
    page.wait_pictures(panel.id, {"panel.png"})
    if in_view:
        page.wait_buttons_in_view(panel, "the turn panel after Play")
    page.press(panel, "Suggest")
    panel = page.wait_until(
        lambda: next(
            (m for m in page.messages() if m.id == panel.id and "check your move" in m.text
             and m.enabled("Confirm")),
            None,
        ),
        "the panel to show the suggested move, ready to confirm",
    )  # fmt: skip
    page.press(panel, "Confirm")
    message = page.wait_for_public(before + 1, "the message after the turn")
    environments = {f"{name}.png" for name in players}
    if "The game is over" in message.text:
        return page.wait_pictures(
            message.id, {"scores.png", "score-chart.png", "replay.gif", *environments}
        )
    message = page.wait_pictures(message.id, {"display.png", *environments})
    if in_view:
        page.wait_buttons_in_view(message, "the next turn message after Confirm")
    [mentioned] = re.findall(r"@(\w+)", message.text)
    assert page.pinged() == [mentioned], (page.pinged(), message.text)
    return message


def check_final(page: Page, final: Shown, players: list[str]) -> list[tuple[str, int]]:
    """The last message: the game is over, with a ranking of every player."""
    assert "The game is over" in final.text, final.text
    ranking = [(name, int(points)) for name, points in _RANKING.findall(final.text)]
    assert sorted(name for name, _ in ranking) == sorted(players), final.text
    assert [p for _, p in ranking] == sorted((p for _, p in ranking), reverse=True), ranking
    # No turn is left to play; the players may play again.
    assert not [label for label, off in final.buttons if label == "Play" and not off]
    assert final.enabled("Play again"), final.buttons
    return ranking


def screenshot(browser: webdriver.Chrome, path: Path) -> None:
    """Save what the page looks like now."""
    assert browser.save_screenshot(str(path))
    assert path.read_bytes().startswith(_PNG_SIGNATURE)


@pytest.mark.players(1)
def test_a_solo_game_played_by_clicking(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    page.command("cascadia new", cards=("A", 0))
    lobby = page.wait_for_public(1, "the lobby")
    assert "alice" in lobby.text, lobby.text
    assert {"Join", "Leave", "Start"} <= {label for label, _ in lobby.buttons}, lobby.buttons
    page.press(lobby, "Start")
    message = page.wait_for_public(2, "the first turn message")
    page.wait_pictures(message.id, {"display.png", "alice.png"})
    assert message.mentioned, "the turn message does not highlight alice's ping for alice"
    for turn in range(1, 21):
        message = play_turn(page, ["alice"], message)
        assert ("The game is over" in message.text) == (turn == 20), (turn, message.text)
    check_final(page, message, ["alice"])

    # A picture opens enlarged on a click and closes on another.
    page.driver.find_element("css selector", f'article[data-id="{message.id}"] img').click()
    lightbox = page.driver.find_element("id", "lightbox")
    page.wait_until(lightbox.is_displayed, "the enlarged picture")
    screenshot(browser, tmp_path / "solo-enlarged.png")
    lightbox.click()
    page.wait_until(lambda: not lightbox.is_displayed(), "the enlarged picture to close")
    screenshot(browser, tmp_path / "solo.png")


def test_two_players_switching_in_the_second_channel(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    page.switch_channel("table-2")
    page.command("cascadia new", cards=("", 0))
    lobby = page.wait_for_public(1, "the lobby")
    page.switch_player("bob")
    page.press(lobby, "Join")
    page.wait_until(lambda: "bob" in page.public()[0].text, "the lobby to seat bob")
    page.switch_player("alice")
    page.press(page.public()[0], "Start")
    message = page.wait_for_public(2, "the first turn message")
    players = ["alice", "bob"]
    page.wait_pictures(message.id, {"display.png", "alice.png", "bob.png"})
    player = "alice"
    for turn in range(1, 41):
        [next_player] = page.pinged()
        assert next_player != player or turn == 1, f"turn {turn}: {player} plays twice"
        private = {m.id for m in page.messages() if m.ephemeral}
        page.switch_player(next_player)
        if next_player != player:
            # The private answers to one player are not shown to the other.
            assert not private & {m.id for m in page.messages()}, f"turn {turn}"
            assert private or turn == 1, f"turn {turn}: {player} had no private panel"
        player = next_player
        shown = next(m for m in page.public() if m.id == message.id)
        assert shown.mentioned, f"turn {turn}: {player} does not see the ping highlighted"
        message = play_turn(page, players, shown)
        assert ("The game is over" in message.text) == (turn == 40), (turn, message.text)
    check_final(page, message, players)
    screenshot(browser, tmp_path / "two-players.png")
    page.switch_channel("table-1")
    page.wait_until(lambda: not page.messages(), "the first channel to show no game")


PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
"""A phone's screen, as Chromium's device emulation takes it."""


@pytest.mark.players(1)
def test_the_newest_buttons_are_scrolled_into_view_on_desktop_and_phone(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = Page(browser, running.url)
    for screen, channel in (("desktop", "table-1"), ("phone", "table-2")):
        if screen == "phone":
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        page.switch_channel(channel)
        page.command("cascadia new", cards=("A", 0))
        lobby = page.wait_for_public(1, f"the lobby in {channel}")
        page.press(lobby, "Start")
        message = page.wait_for_public(2, f"the first turn message in {channel}")
        page.wait_pictures(message.id, {"display.png", "alice.png"})
        page.wait_buttons_in_view(message, f"the first turn message after Start ({screen})")
        for _ in range(2):
            message = play_turn(page, ["alice"], message, in_view=True)
        screenshot(browser, tmp_path / f"in-view-{screen}.png")


@pytest.mark.players(1)
def test_an_empty_channel_says_in_one_line_what_to_do_first(
    running: Running, browser: webdriver.Chrome
) -> None:
    page = Page(browser, running.url)
    hint = browser.find_element(By.ID, "hint")
    page.wait_until(hint.is_displayed, "the first screen's hint")
    assert "cascadia new" in hint.text, hint.text
    assert len(hint.text.splitlines()) == 1, hint.text
    page.command("cascadia new", cards=("A", 0))
    page.wait_for_public(1, "the lobby")
    page.wait_until(lambda: not hint.is_displayed(), "the hint to go once the channel has a game")
    # A command the channel saw empties the composer, as before.
    page.wait_until(
        lambda: browser.find_element(By.CSS_SELECTOR, '[data-option="cards"]').get_attribute(
            "value") == "",
        "the composer to empty after the lobby was opened",
    )  # fmt: skip
    page.switch_channel("table-2")
    page.wait_until(hint.is_displayed, "the hint in the other, empty channel")
    page.switch_channel("table-1")
    page.wait_for_public(1, "the lobby again")
    assert not hint.is_displayed()


# Each composer field as it is labelled: its option, label, placeholder and the line of what
# it takes.
_FIELDS = """
return [...document.querySelectorAll('#options label.option')].map((f) => {
  const control = f.querySelector('[data-option]');
  const takes = f.querySelector('.takes');
  return [control.dataset.option, f.querySelector('span').textContent,
          control.placeholder || '', takes ? takes.textContent : null];
});
"""


@pytest.mark.players(1)
def test_optional_options_say_so_and_what_they_take(
    running: Running, browser: webdriver.Chrome
) -> None:
    page = Page(browser, running.url)
    commands = browser.execute_script("return page.commands")
    assert any(not option.get("required") for c in commands for option in c["options"])
    for command in commands:
        Select(browser.find_element(By.ID, "command")).select_by_visible_text(
            " ".join(command["path"])
        )
        fields = {name: (label, takes) for name, label, _, takes in browser.execute_script(_FIELDS)}
        assert list(fields) == [option["name"] for option in command["options"]], command
        for option in command["options"]:
            label, takes = fields[option["name"]]
            if option.get("required"):
                assert (label, takes) == (option["name"], None), (command["path"], option)
            else:
                assert label == f"{option['name']} (optional)", (command["path"], label)
                assert takes == option["description"], (command["path"], takes)
    Select(browser.find_element(By.ID, "command")).select_by_visible_text("cascadia play")
    placeholders = {name: shown for name, _, shown, _ in browser.execute_script(_FIELDS)}
    assert placeholders["pair"] == placeholders["token"] == "1-4", placeholders
    assert page.notice() == ""


@pytest.mark.players(1)
def test_a_refused_move_leaves_what_was_typed(running: Running, browser: webdriver.Chrome) -> None:
    page = Page(browser, running.url)
    page.command("cascadia new", cards=("A", 0))
    lobby = page.wait_for_public(1, "the lobby")
    page.press(lobby, "Start")
    page.wait_for_public(2, "the first turn message")
    typed = {"pair": "1", "tile_at": "9,9", "rotation": "0", "token_at": "return"}
    answers = {m.id for m in page.messages() if m.ephemeral}
    page.command("cascadia play", **typed)
    refusal = page.wait_until(
        lambda: next(
            (m for m in page.messages() if m.ephemeral and m.id not in answers
             and m.text.startswith("Not allowed")),
            None,
        ),
        "the bot to refuse the move",
    )  # fmt: skip
    assert len(page.public()) == 2, refusal.text
    send = browser.find_element(By.ID, "send")
    page.wait_until(send.is_enabled, "the composer to take the answer")
    fields = {
        name: browser.find_element(By.CSS_SELECTOR, f'[data-option="{name}"]').get_attribute(
            "value")
        for name in typed
    }  # fmt: skip
    assert fields == typed, (fields, refusal.text)


@pytest.mark.players(1)
def test_a_typed_move_picked_from_the_lists(running: Running, browser: webdriver.Chrome) -> None:
    """The place and the rotation are picked from the bot's lists, which say what each is
    worth and which way the tile faces."""
    page = Page(browser, running.url)
    page.command("cascadia new", cards=("A", 0))
    lobby = page.wait_for_public(1, "the lobby")
    page.press(lobby, "Start")
    page.wait_for_public(2, "the first turn message")
    Select(browser.find_element(By.ID, "command")).select_by_visible_text("cascadia play")
    browser.find_element(By.CSS_SELECTOR, '[data-option="pair"]').send_keys("1")
    place = page.autocomplete("tile_at", "", 0)
    assert re.fullmatch(r"-?\d+,-?\d+: up to [+-]\d+( with rotation [0-5])?", place), place
    turn = page.autocomplete("rotation", "", 0)
    assert re.fullmatch(r"0: (\w+ faces [\w-]+, \w+ [\w-]+ \(corridors [+-]\d+\)|one .*)", turn)
    # The command stays chosen, with what was picked; the token goes back to the bag.
    page.command("cascadia play", token_at=("", -1))
    page.wait_for_public(3, "the message after the typed turn")


@pytest.mark.players(2)
def test_alice_manages_the_server_so_the_league_can_be_tried(
    running: Running, browser: webdriver.Chrome
) -> None:
    page = Page(browser, running.url)
    note = browser.find_element(By.ID, "manager")
    page.wait_until(lambda: note.text == "alice can manage the server", "the manager's note")

    def answer(what: str) -> str:
        found = page.wait_until(
            lambda: next(
                (m for m in reversed(page.messages()) if m.ephemeral and what in m.text), None
            ),
            f"the private answer {what!r}",
        )
        return str(found.text)

    page.switch_player("bob")
    page.command("cascadia league", action="on")
    answer("Only someone with Manage Server")
    page.switch_player("alice")
    page.command("cascadia league", action="on")
    assert "A game is rated" in answer("The league is on")


# Each picture of a message as the page shows it: its name, its box and its drawn size.
_PICTURE_BOXES = """
const article = document.querySelector(`article[data-id="${arguments[0]}"]`);
const shown = article.querySelector('.pictures').getBoundingClientRect();
return {
  height: shown.height,
  width: shown.width,
  pictures: [...article.querySelectorAll('.pictures img')].map((i) => {
    const box = i.getBoundingClientRect();
    return {name: i.dataset.filename, top: box.top - shown.top, width: box.width,
            drawn: i.naturalWidth};
  }),
};
"""


@pytest.mark.players(4)
def test_a_four_player_turn_message_fits_a_phone_with_the_movers_board_first(
    running: Running, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    page = Page(browser, running.url)
    players = ["alice", "bob", "carol", "dave"]
    page.command("cascadia new", cards=("A", 0))
    lobby = page.wait_for_public(1, "the lobby")
    for player in players[1:]:
        page.switch_player(player)
        page.press(lobby, "Join")
        page.wait_until(lambda p=player: p in page.public()[0].text, f"the lobby to seat {player}")
    page.switch_player("alice")
    page.press(page.public()[0], "Start")
    message = page.wait_for_public(2, "the first turn message")
    page.wait_pictures(message.id, {"display.png", *(f"{p}.png" for p in players)})
    [mover] = page.pinged() or [next(p for p in players if f"@{p}" in message.text)]
    page.switch_player(mover)
    message = play_turn(page, players, next(m for m in page.public() if m.id == message.id))
    shown = browser.execute_script(_PICTURE_BOXES, message.id)
    screenshot(browser, tmp_path / "four-players-phone.png")
    names = [p["name"] for p in shown["pictures"]]
    assert names[:2] == ["display.png", f"{mover}.png"], names
    # The display and the mover's board share the top row; the three others come below,
    # each as wide as the others and drawn alike: one scale.
    display, board, *others = shown["pictures"]
    assert display["top"] == board["top"] == 0
    assert len({round(p["top"]) for p in others}) == 1
    assert others[0]["top"] > 0
    assert len({round(p["width"]) for p in others}) == 1
    assert len({p["drawn"] for p in [board, *others]}) == 1
    assert board["width"] > 1.4 * others[0]["width"]
    assert shown["width"] <= 390
    assert shown["height"] <= 450, shown
