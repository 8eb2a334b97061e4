"""Fixtures for the sandbox tests: ``cascadia-bot sandbox`` as its own process (the command a
person types) and headless Chromium driven by Selenium through Debian's chromedriver."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from sandbox.botprocess import process_tree

_HERE = Path(__file__).parent
REPO_ROOT = _HERE.parents[1]
START_TIMEOUT = 90.0
STOP_TIMEOUT = 30.0
CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromedriver")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1100,900",
)
_URL = re.compile(r"open (http://127\.0\.0\.1:\d+/)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here ``e2e``, which the quick loop leaves out, and those that drive
    Chromium ``browser``."""
    for item in items:
        if item.path.is_relative_to(_HERE):
            item.add_marker(pytest.mark.e2e)
            if "browser" in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.browser)


@dataclass
class Running:
    """A running sandbox: its process, the page's address and the bot's log file."""

    process: subprocess.Popen[str]
    url: str
    log_path: Path
    output: list[str]
    reader: threading.Thread

    def log_problems(self) -> list[str]:
        """The bot's ERROR and CRITICAL lines and tracebacks."""
        problem = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)")
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if problem.search(line)]


def start_sandbox(tmp_path: Path, *args: str) -> Running:
    """``python -m bot sandbox --port 0 ARGS`` (the console script's own dispatch), once it
    printed its address."""
    db_path = tmp_path / "sandbox.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--port", "0", "--db", str(db_path), *args],
        cwd=REPO_ROOT,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    output: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line)
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while True:
        try:
            line = lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            process.kill()
            raise AssertionError(
                f"the sandbox printed no address within {START_TIMEOUT}s:\n{''.join(output)}"
            ) from None
        if line is None:
            raise AssertionError(f"the sandbox exited before it was ready:\n{''.join(output)}")
        if found := _URL.search(line):
            log_path = db_path.with_name(db_path.name + ".log")
            return Running(process, found[1], log_path, output, reader)


def stop_sandbox(running: Running) -> int:
    """SIGTERM the sandbox as a service manager would; returns its exit status once it and
    everything it started have ended."""
    tree = process_tree(running.process.pid)
    running.process.send_signal(signal.SIGTERM)
    try:
        code = running.process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        running.process.kill()
        raise AssertionError(
            f"the sandbox did not stop within {STOP_TIMEOUT}s of SIGTERM:\n"
            + "".join(running.output)
        ) from None
    running.reader.join(timeout=STOP_TIMEOUT)
    assert running.process.stdout is not None
    running.process.stdout.close()
    left = [pid for pid in tree[1:] if _alive(pid)]
    assert not left, f"processes the sandbox started outlived it: {left}"
    return code


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.fixture
def running(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Running]:
    """A sandbox with the players the test's ``players`` mark asks for (default 2)."""
    mark = request.node.get_closest_marker("players")
    players = str(mark.args[0]) if mark else "2"
    sandbox = start_sandbox(tmp_path, "--players", players)
    try:
        yield sandbox
    finally:
        code = stop_sandbox(sandbox)
    assert code == 0, f"the sandbox exited with status {code}:\n{''.join(sandbox.output)}"
    problems = sandbox.log_problems()
    assert not problems, "the bot logged errors:\n" + "\n".join(problems)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    """Headless Debian Chromium with a fresh profile."""
    missing = [path for path in CHROMIUM if shutil.which(path) is None]
    assert not missing, (
        f"{missing} not found: install Debian's chromium and chromium-driver (.ci/run does)"
    )
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM[0]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(options=options, service=Service(CHROMIUM[1]))
    try:
        yield driver
    finally:
        driver.quit()
