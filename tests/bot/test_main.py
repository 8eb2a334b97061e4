"""Starting the bot from the command line: a clear message, not a traceback, on bad settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
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
