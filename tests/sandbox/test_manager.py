"""The first pretend player manages the sandbox's server, so the settings that need Manage
Server can be tried there; the others are refused them, as on Discord. Over plain HTTP against
``cascadia-bot sandbox`` as its own process (no browser)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sandbox.cli import PLAYER_NAMES
from tests.sandbox.test_requests import Page, serving


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    with serving(tmp_path_factory.mktemp("sandbox"), players=2) as page:
        yield page


def _players(page: Page) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = page.send("GET", "/api/world").body["players"]
    return players


def _answer(page: Page, user: str, path: list[str], options: dict[str, str]) -> str:
    """``user``'s command in the first channel, and the private answer they read."""
    body = {"user": user, "channel": page.channel, "path": path, "options": options}
    sent = page.post("/api/slash", body)
    assert sent.status == 200, sent
    assert sent.body["ok"] is True, sent
    state = page.send("GET", f"/api/state?user={user}&channel={page.channel}").body
    mine = [m for m in state["messages"] if m["ephemeral"] and m["mine"] and not m["loading"]]
    assert mine, state["messages"]
    text: str = mine[-1]["content"]
    return text


def test_the_first_player_manages_the_server_and_the_page_says_so(page: Page) -> None:
    alice, bob = _players(page)
    assert (alice["name"], bob["name"]) == PLAYER_NAMES[:2]
    assert (alice["manager"], bob["manager"]) == (True, False)
    state = page.send("GET", f"/api/state?user={bob['id']}&channel={page.channel}").body
    assert [p["manager"] for p in state["players"]] == [True, False]
    html = page.send("GET", "/").body
    assert 'id="manager"' in html
    assert "can manage the server" in page.send("GET", "/app.js").body


def test_the_league_is_turned_on_by_the_manager_only(page: Page) -> None:
    alice, bob = (p["id"] for p in _players(page))
    refused = _answer(page, bob, ["cascadia", "league"], {"action": "on"})
    assert "Only someone with Manage Server" in refused, refused
    done = _answer(page, alice, ["cascadia", "league"], {"action": "on"})
    assert done.startswith("The league is on"), done
    season = _answer(page, alice, ["cascadia", "league"], {"action": "season"})
    assert "starts now" in season, season


def test_the_daily_channel_is_named_by_the_manager_only(page: Page) -> None:
    alice, bob = (p["id"] for p in _players(page))
    refused = _answer(page, bob, ["cascadia", "daily"], {"action": "channel"})
    assert "Only someone with Manage Server" in refused, refused
    done = _answer(page, alice, ["cascadia", "daily"], {"action": "channel"})
    assert done.startswith("The daily trek's messages go to"), done
