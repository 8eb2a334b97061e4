"""Starting the bot from the command line: a clear message, not a traceback, on bad settings."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(env: dict[str, str], *, code: str | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot"] if code is None else [sys.executable, "-c", code],
        env={**base, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_missing_token_is_explained() -> None:
    done = _run({})
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_setting_is_named_and_the_token_not_shown() -> None:
    done = _run({"DISCORD_TOKEN": "secret-123", "CASCADIA_GUILD_ID": "nope"})
    assert done.returncode == 2
    assert "CASCADIA_GUILD_ID must be a server id" in done.stderr
    assert "secret-123" not in done.stderr + done.stdout


def test_unknown_arguments_get_the_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--frobnicate"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "cascadia-bot sandbox [--port 8080]" in done.stderr


def test_the_sandbox_subcommand_checks_its_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "--players", "9"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "cascadia-bot sandbox: error: argument --players" in done.stderr


def _dead_api() -> str:
    """An API address where nothing listens: the bot must stop before it would get there."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/api/v10"


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("MTIz.first-half\nsecond-half-of-it", "DISCORD_TOKEN holds a line break: copy the"),
        ("MTIz.first-half\r\nsecond-half-of-it", "DISCORD_TOKEN holds a line break: copy the"),
        ("Bot MTIz.second-half-of-it", "DISCORD_TOKEN holds a space (give the token alone"),
        ("MTIz.\x07second-half-of-it", "DISCORD_TOKEN holds characters a bot token never has"),
        ("MTIz." + "second-half-of-it" * 6_000, "DISCORD_TOKEN is 102005 characters long, and a"),
    ],
    ids=["line break", "CRLF", "Bot prefix", "BEL", "100 KB"],
)
def test_a_token_that_cannot_be_one_is_refused_before_the_network(
    tmp_path: Path, token: str, words: str
) -> None:
    db = tmp_path / "cascadia.sqlite3"
    done = _run({"DISCORD_TOKEN": token, "DISCORD_API_BASE": _dead_api(), "CASCADIA_DB": str(db)})
    assert done.returncode == 2, done.stderr[:500]
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"cascadia-bot: {words}"), line
    assert line.endswith("copy the bot token again from the Discord developer portal"), line
    assert "second-half" not in done.stderr + done.stdout
    assert list(tmp_path.iterdir()) == []


UNEXPECTED = """
import threading
import bot.__main__ as main

async def fails(settings):
    # An error whose text quotes the token and the password, in a thread and in the bot.
    def worker():
        raise RuntimeError(f"worker saw {settings.token} and pa55-w0rd")
    thread = threading.Thread(target=worker, name="worker")
    thread.start()
    thread.join()
    raise RuntimeError(f"the bot saw {settings.token} and pa55-w0rd")

main.run = fails
main.main()
"""


def test_an_unexpected_error_reaches_stderr_only_through_the_redactor(tmp_path: Path) -> None:
    token = "MTIz.an-unexpected-token"
    done = _run(
        {
            "DISCORD_TOKEN": token,
            "CASCADIA_DB": str(tmp_path / "cascadia.sqlite3"),
            "PGPASSWORD": "pa55-w0rd",
        },
        code=UNEXPECTED,
    )
    assert done.returncode == 1, done.stderr
    assert "RuntimeError: worker saw *** and ***" in done.stderr
    assert "CRITICAL bot: the bot stopped on an unexpected error" in done.stderr
    assert "RuntimeError: the bot saw *** and ***" in done.stderr
    assert token not in done.stderr + done.stdout
    assert "pa55-w0rd" not in done.stderr + done.stdout
