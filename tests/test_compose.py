"""docker-compose.yml runs shard processes that the bot's own settings accept and that
together take every shard once, on the PostgreSQL service the file defines.

No Docker engine runs the file here, so these tests read the settings it passes and give them
to the bot's configuration, the way the processes would read them from their environment."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ops.config import Settings

COMPOSE = Path(__file__).resolve().parent.parent / "docker-compose.yml"
_SERVICE = re.compile(r"^  ([\w-]+):\s*$")
_VARIABLE = re.compile(r"^\s+((?:CASCADIA|DISCORD)_\w+): (.+?)\s*$")
_SUBSTITUTION = re.compile(r"\$\{(\w+)(?::\?[^}]*)?\}")


def _text() -> str:
    return COMPOSE.read_text(encoding="utf-8")


def _environments() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The bot variables shared by every bot service (the ``x-bot`` anchor), and each
    service's own; ``${NAME}`` substitutions become sample values."""
    shared: dict[str, str] = {}
    own: dict[str, dict[str, str]] = {}
    section: dict[str, str] = shared
    in_services = False
    for line in _text().splitlines():
        if line == "services:":
            in_services = True
        elif line and not line.startswith((" ", "#")):
            in_services = False
            section = shared
        service = _SERVICE.match(line)
        if in_services and service:
            section = own.setdefault(service.group(1), {})
        variable = _VARIABLE.match(line)
        if variable:
            value = _SUBSTITUTION.sub(lambda m: f"sample-{m.group(1).lower()}", variable.group(2))
            section[variable.group(1)] = value.strip('"')
    return shared, {name: env for name, env in own.items() if env}


def test_every_shard_process_starts_with_settings_the_bot_accepts() -> None:
    shared, services = _environments()
    assert len(services) >= 2, "the file runs several shard processes"
    taken: list[int] = []
    counts = set()
    for name, env in services.items():
        settings = Settings.from_env({**shared, **env})
        assert settings.db_url is not None, f"{name} is not on PostgreSQL"
        assert "@postgres:" in settings.db_url, f"{name} does not use the postgres service"
        assert settings.shard_ids is not None, f"{name} runs no shard of its own"
        taken.extend(settings.shard_ids)
        counts.add(settings.shard_count)
    assert len(counts) == 1, f"the processes disagree on the shard count: {counts}"
    (count,) = counts
    assert sorted(taken) == list(range(count or 0)), "each shard runs in exactly one process"


def test_the_bots_are_the_dockerfiles_image_behind_a_healthy_database() -> None:
    text = _text()
    assert "build: ." in text
    assert (COMPOSE.parent / "Dockerfile").is_file()
    assert "condition: service_healthy" in text
    assert "pg_isready" in text
    assert re.search(r"^  postgres:$", text, re.MULTILINE)


def test_the_token_is_passed_through_never_written_down() -> None:
    shared, services = _environments()
    token_lines = [line for line in _text().splitlines() if "DISCORD_TOKEN:" in line]
    assert token_lines
    assert all("${DISCORD_TOKEN" in line for line in token_lines)
    assert "DISCORD_TOKEN" in shared
    assert not any("DISCORD_TOKEN" in e for e in services.values())
