"""The sandbox page as a person uses it, through a real browser: read the channel, press
buttons, pick from selects, type slash commands with autocomplete, switch players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 30.0
"""How long the page may take to show the bot's answer (pictures are drawn first)."""

# What the page shows, read in one go (elements are replaced as messages change).
_READ = """
return [...document.querySelectorAll('#messages article.message')].map((a) => ({
  id: a.dataset.id,
  ephemeral: a.classList.contains('ephemeral'),
  mentioned: a.classList.contains('mentioned'),
  text: a.querySelector('.content') ? a.querySelector('.content').textContent : '',
  buttons: [...a.querySelectorAll('.row button')].map((b) => [b.textContent, b.disabled]),
  selects: [...a.querySelectorAll('.row select')].map((s) => s.dataset.customId),
  pictures: [...a.querySelectorAll('.pictures img')].map((i) => ({
    name: i.dataset.filename, alt: i.alt, loaded: i.complete && i.naturalWidth > 0,
  })),
}));
"""

# Whether every enabled button of a message lies wholly inside the visible part of the
# channel (the message list's box, itself inside the window).
_BUTTONS_IN_VIEW = """
const box = document.getElementById('messages').getBoundingClientRect();
const article = document.querySelector(`article[data-id="${arguments[0]}"]`);
if (!article) return false;
const buttons = [...article.querySelectorAll('.row button')].filter((b) => !b.disabled);
const bottom = Math.min(box.bottom, window.innerHeight);
return buttons.length > 0 && buttons.every((b) => {
  const r = b.getBoundingClientRect();
  return r.height > 0 && r.top >= box.top && r.bottom <= bottom;
});
"""


@dataclass(frozen=True)
class Shown:
    """One message as the page shows it."""

    id: str
    ephemeral: bool
    mentioned: bool
    text: str
    buttons: list[tuple[str, bool]]
    selects: list[str]
    pictures: list[dict[str, Any]]

    def enabled(self, label: str) -> bool:
        """Whether an enabled button's label starts with ``label``."""
        return any(text.startswith(label) and not off for text, off in self.buttons)


class Page:
    """The sandbox page in one browser tab."""

    def __init__(self, driver: webdriver.Chrome, url: str) -> None:
        self.driver = driver
        self.url = url
        driver.get(url)
        self.wait_until(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#player option"),
                        "the page to list the players")  # fmt: skip

    def wait_until(self, check: Any, what: str, timeout: float = WAIT) -> Any:
        """Wait for ``check()`` to be truthy; fails naming ``what`` and the page's notice."""
        wait = WebDriverWait(
            self.driver, timeout, poll_frequency=0.05,
            ignored_exceptions=(StaleElementReferenceException,),
        )  # fmt: skip
        try:
            return wait.until(lambda _: check())
        except Exception as error:
            shown = "\n---\n".join(m.text for m in self.messages()[-3:])
            raise AssertionError(
                f"timed out after {timeout}s waiting for {what}; notice: "
                f"{self.notice()!r}; last messages:\n{shown}"
            ) from error

    def wait_buttons_in_view(self, message: Shown, what: str) -> None:
        """Wait until every enabled button of ``message`` is in view (the page scrolls after
        its pictures load, so the moment it is shown is too early to look)."""
        self.wait_until(
            lambda: self.driver.execute_script(_BUTTONS_IN_VIEW, message.id),
            f"the buttons of {what} to be in view",
            timeout=10,
        )

    def messages(self) -> list[Shown]:
        """Every message shown, in order."""
        return [Shown(**m) for m in self.driver.execute_script(_READ)]

    def public(self) -> list[Shown]:
        """The messages everyone sees."""
        return [m for m in self.messages() if not m.ephemeral]

    def notice(self) -> str:
        """The composer's error line."""
        return str(self.driver.find_element(By.ID, "notice").text)

    def _article(self, message: Shown) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, f'article[data-id="{message.id}"]')

    def press(self, message: Shown, label: str) -> None:
        """Click the button of ``message`` whose label starts with ``label``."""

        def button() -> WebElement | None:
            for found in self._article(message).find_elements(By.CSS_SELECTOR, ".row button"):
                if found.text.startswith(label) and found.is_enabled():
                    return found
            return None

        self.wait_until(button, f"an enabled {label!r} button").click()

    def choose(self, message: Shown, custom_id: str, index: int) -> None:
        """Pick the ``index``-th real option of a select on ``message``."""
        element = self._article(message).find_element(
            By.CSS_SELECTOR, f'select[data-custom-id="{custom_id}"]'
        )
        options = [o for o in element.find_elements(By.TAG_NAME, "option") if o.get_attribute(
            "value")]  # fmt: skip
        Select(element).select_by_value(str(options[index % len(options)].get_attribute("value")))

    def switch_player(self, name: str) -> None:
        """Become another pretend player."""
        select = Select(self.driver.find_element(By.ID, "player"))
        [value] = [o.get_attribute("value") for o in select.options if o.text.split(" ")[0] == name]
        select.select_by_value(str(value))
        self.wait_until(
            lambda: self.driver.execute_script(
                "return page.state && page.state.me === arguments[0]", value
            ),
            f"the page to show the channel as {name}",
        )

    def switch_channel(self, name: str) -> None:
        """Open another channel."""
        self.driver.find_element(By.XPATH, f'//nav[@id="channels"]/button[text()="{name}"]').click()
        self.wait_until(
            lambda: self.driver.find_element(By.CSS_SELECTOR, "#channels .current").text == name,
            f"channel {name} to open",
        )

    def pinged(self) -> list[str]:
        """The players the switcher marks as pinged by the newest message."""
        return [
            o.text.split(" ")[0]
            for o in Select(self.driver.find_element(By.ID, "player")).options
            if o.text.endswith(" (pinged)")
        ]

    def command(self, path: str, **options: str | tuple[str, int]) -> None:
        """Type ``/path`` in the composer with ``options`` and send it. A plain value is typed
        or picked; ``(typed, n)`` types into an autocompleted option and picks the ``n``-th
        choice the bot suggests (counting from the end if negative)."""
        Select(self.driver.find_element(By.ID, "command")).select_by_visible_text(path)
        for name, value in options.items():
            field = self.driver.find_element(By.CSS_SELECTOR, f'[data-option="{name}"]')
            if field.tag_name == "select":
                Select(field).select_by_visible_text(str(value))
            elif isinstance(value, tuple):
                self.autocomplete(name, *value)
            else:
                field.clear()
                field.send_keys(value)
        self.driver.find_element(By.ID, "send").click()

    def autocomplete(self, option: str, typed: str, index: int) -> str:
        """Type into an autocompleted option and pick a suggestion; returns its name."""
        field = self.driver.find_element(By.CSS_SELECTOR, f'[data-option="{option}"]')
        field.click()
        field.clear()
        if typed:
            field.send_keys(typed)
        # The suggestions for what was typed, not those asked for on focus (maybe still coming).
        selector = f'ul.choices[data-for="{option}"][data-typed="{typed}"] li'

        def choices() -> list[WebElement]:
            found = self.driver.find_elements(By.CSS_SELECTOR, selector)
            return found if found and found[0].is_displayed() else []

        found = self.wait_until(choices, f"the bot's suggestions for {option}={typed!r}")
        pick = found[index]
        name = str(pick.text)
        pick.click()
        self.wait_until(lambda: field.get_attribute("value") == name, f"{option} to show {name!r}")
        return name

    def wait_for_public(self, count: int, what: str) -> Shown:
        """Wait until at least ``count`` public messages are shown; returns the newest."""
        found: Shown = self.wait_until(
            lambda: (shown := self.public()) and len(shown) >= count and shown[-1], what
        )
        return found

    def wait_pictures(self, message_id: str, names: set[str]) -> Shown:
        """Wait until message ``message_id`` shows exactly the pictures ``names``, each loaded
        and described; returns it."""

        def loaded() -> Shown | None:
            for message in self.messages():
                if message.id == message_id:
                    pictures = message.pictures
                    if {p["name"] for p in pictures} == names and all(
                        p["loaded"] for p in pictures
                    ):
                        return message
            return None

        message: Shown = self.wait_until(loaded, f"the pictures {sorted(names)} of {message_id}")
        assert all(p["alt"] for p in message.pictures), message.pictures
        return message
