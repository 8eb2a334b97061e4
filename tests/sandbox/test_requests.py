"""The sandbox page refuses what does not come from the page itself, over real HTTP against
``cascadia-bot sandbox`` as its own process (no browser): another name in ``Host`` (DNS
rebinding), a POST from another origin or site, a POST that is not JSON; and input it cannot
read is a 400 with a short JSON error and one log line, never a 500 with a traceback."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.conftest import Running, start_sandbox, stop_sandbox

TIMEOUT = 60.0
"""Seconds a request may take (a slash command waits for the bot's whole answer)."""


@dataclass(frozen=True)
class Answer:
    """A response: its status and its body, read as JSON where it is."""

    status: int
    body: Any


@dataclass(frozen=True)
class Page:
    """The running page: its port, the pretend player and the first channel."""

    running: Running
    port: int
    user: str
    channel: str

    @property
    def own(self) -> str:
        return f"127.0.0.1:{self.port}"

    def send(
        self, method: str, path: str, *, data: bytes | None = None, **headers: str | None
    ) -> Answer:
        """One request to the page; ``headers`` with ``_`` for ``-``, None leaves one out
        (``Host`` is the page's own unless given)."""
        given = {"Host": self.own} | {k.replace("_", "-"): v for k, v in headers.items()}
        request = urllib.request.Request(
            f"http://{self.own}{path}",
            data=data,
            method=method,
            headers={k: v for k, v in given.items() if v is not None},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                # An event stream does not end: its status is enough.
                streaming = path.startswith("/events")
                status, raw = response.status, b"" if streaming else response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return Answer(status, json.loads(raw))
        except ValueError:
            return Answer(status, raw.decode(errors="replace"))

    def post(self, path: str, body: object, **headers: str | None) -> Answer:
        """A POST of ``body`` as JSON, with the headers Chromium adds to the page's own
        ``fetch`` unless ``headers`` replaces them."""
        own: dict[str, str | None] = {
            "Content_Type": "application/json",
            "Origin": f"http://{self.own}",
            "Sec_Fetch_Site": "same-origin",
        }
        return self.send("POST", path, data=json.dumps(body).encode(), **(own | headers))

    def slash(self, *path: str, **headers: str | None) -> Answer:
        body = {"user": self.user, "channel": self.channel, "path": list(path), "options": {}}
        return self.post("/api/slash", body, **headers)

    def messages(self) -> list[str]:
        """The ids of the messages the player sees in the channel now."""
        answer = self.send("GET", f"/api/state?user={self.user}&channel={self.channel}")
        assert answer.status == 200, answer
        return [message["id"] for message in answer.body["messages"]]


@contextmanager
def serving(tmp_path: Path, *, players: int = 1) -> Iterator[Page]:
    """A sandbox of ``players`` players, as the first of them, stopped at the end: it exits 0,
    the bot logs no error and the sandbox itself printed no traceback."""
    running = start_sandbox(tmp_path, "--players", str(players))
    try:
        port = int(running.url.rstrip("/").rsplit(":", 1)[1])
        world = Page(running, port, "", "").send("GET", "/api/world").body
        yield Page(running, port, world["players"][0]["id"], world["channels"][0]["id"])
    finally:
        code = stop_sandbox(running)
    output = "".join(running.output)
    assert code == 0, output
    assert "Traceback" not in output, output
    assert not running.log_problems(), running.log_problems()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    with serving(tmp_path_factory.mktemp("sandbox")) as page:
        yield page


def assert_refused(answer: Answer, status: int) -> None:
    assert answer.status == status, answer
    assert answer.body["ok"] is False, answer
    assert 0 < len(answer.body["error"]) < 200, answer


# The page's own requests.


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST"])
def test_the_page_answers_to_its_own_address_and_localhost(page: Page, host: str) -> None:
    name = f"{host}:{page.port}"
    for path in ("/", "/app.js", "/api/world", "/api/commands"):
        assert page.send("GET", path, Host=name).status == 200, path
    answer = page.slash("cascadia", "help", Host=name, Origin=f"http://{name.lower()}")
    assert answer == Answer(200, {"ok": True, "shown": False})


def test_a_post_as_the_page_sends_it_plays(page: Page) -> None:
    # What sandbox/web/app.js sends: fetch(path, {method: "POST", headers: {"Content-Type":
    # "application/json"}, body: JSON.stringify(body)}), to which Chromium adds the rest.
    before = len(page.messages())
    assert page.slash("cascadia", "new").body == {"ok": True, "shown": True}
    assert len(page.messages()) > before
    bare = page.slash("cascadia", "help", Origin=None, Sec_Fetch_Site=None)  # not a browser
    assert bare.body["ok"] is True, bare


# Another name for the page: a DNS rebinding page reads nothing and plays nothing.


@pytest.mark.parametrize(
    "host", ["evil.example:{port}", "evil.example", "127.0.0.1:1", "localhost", "", "[::1]:{port}"]
)
def test_a_host_that_is_not_the_page_is_misdirected(page: Page, host: str) -> None:
    name = host.format(port=page.port)
    query = f"?user={page.user}&channel={page.channel}"
    for path in ("/", "/api/world", "/api/commands", f"/api/state{query}", f"/events{query}"):
        assert_refused(page.send("GET", path, Host=name), 421)
    before = page.messages()
    assert_refused(page.slash("cascadia", "new", Host=name, Origin=f"http://{name}"), 421)
    assert page.messages() == before


# A post from another site: refused, and nothing is played.


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:1"},
        {"Origin": "http://localhost:{port}"},
        {"Origin": "https://127.0.0.1:{port}"},
        {"Sec_Fetch_Site": "cross-site"},
        {"Sec_Fetch_Site": "same-site"},
        {"Origin": None, "Sec_Fetch_Site": "cross-site"},
    ],
    ids=lambda headers: " ".join(f"{k}={v}" for k, v in headers.items()),
)
def test_a_post_from_another_site_is_refused(page: Page, headers: dict[str, str | None]) -> None:
    before = page.messages()
    sent = {k: v if v is None else v.format(port=page.port) for k, v in headers.items()}
    assert_refused(page.slash("cascadia", "new", **sent), 403)
    assert page.messages() == before


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
@pytest.mark.parametrize("path", ["/api/slash", "/api/click", "/api/select", "/api/autocomplete"])
def test_a_post_that_is_not_json_is_refused(page: Page, path: str, content_type: str) -> None:
    # A form or text/plain is what another site's page may post without asking first.
    before = page.messages()
    body = {"user": page.user, "channel": page.channel, "path": ["cascadia", "new"]}
    assert_refused(page.post(path, body, Content_Type=content_type), 415)
    assert page.messages() == before


# Input the page cannot read: 400, a short JSON error and one line in the log.


def test_unreadable_input_is_a_400_and_one_log_line(tmp_path: Path) -> None:
    digits = "1" * 5000
    with serving(tmp_path) as page:
        user, channel = page.user, page.channel
        posts = [
            ("/api/slash", b"[" * 100_000),
            ("/api/slash", b'{"user": ' * 100_000),
            ("/api/click", b'{"user": Infinity, "message": "1"}'),
            ("/api/click", f'{{"user": "{user}", "message": NaN}}'.encode()),
            ("/api/click", b'{"user": 1e400, "message": "1"}'),
            ("/api/select", f'{{"user": {digits}, "message": "1", "values": []}}'.encode()),
            ("/api/slash", f'{{"user": "{user}", "channel": "{channel}", "x": {digits}}}'.encode()),
            ("/api/slash", b"\xff\xfe{}"),
        ]
        json_type = "application/json"
        answers = [
            page.send("POST", path, data=data, Content_Type=json_type) for path, data in posts
        ]
        gets = [
            f"/files/{digits}/1/display.png",
            f"/api/state?user={digits}&channel={channel}",
            f"/events?user={user}&channel={digits}",
        ]
        answers += [page.send("GET", path) for path in gets]
        # A body cut short: the page has no one to answer, and logs one line too.
        with socket.create_connection(("127.0.0.1", page.port), timeout=TIMEOUT) as sock:
            sock.sendall(
                f"POST /api/slash HTTP/1.1\r\nHost: {page.own}\r\n"
                "Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{".encode()
            )
            sock.shutdown(socket.SHUT_WR)
            assert sock.recv(4096) == b""
    for answer in answers:
        assert_refused(answer, 400)
    refused = [line for line in page.running.output if "refused" in line]
    assert len(refused) == len(answers) + 1, "".join(page.running.output)
    assert all(line.startswith("WARNING sandbox.page: refused ") for line in refused), refused


def test_a_player_opens_their_own_direct_messages_and_no_one_elses(tmp_path: Path) -> None:
    with serving(tmp_path, players=2) as alice:
        world = alice.send("GET", "/api/world").body
        own, other = (player["dm"] for player in world["players"])
        answer = alice.send("GET", f"/api/state?user={alice.user}&channel={own}")
        assert answer.status == 200, answer
        assert (answer.body["channel"], answer.body["dm"]) == (own, own), answer
        assert_refused(alice.send("GET", f"/api/state?user={alice.user}&channel={other}"), 400)
        in_dms = {"user": alice.user, "channel": own, "path": ["cascadia", "help"], "options": {}}
        assert alice.post("/api/slash", in_dms).body["ok"] is True
        assert_refused(alice.post("/api/slash", in_dms | {"channel": other}), 400)
