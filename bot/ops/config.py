"""The bot's settings, read once from the environment and checked before anything starts.

The token is kept out of ``repr`` so that a logged or printed :class:`Settings` never shows it.

``CASCADIA_BACKUP_DIR`` (an existing, writable folder) turns on the bot's own backups of its
SQLite database, one every ``CASCADIA_BACKUP_HOURS`` (24 unless set; any positive number), the
newest seven kept (see :mod:`bot.db.backup`). Both are off by default, and refused for a
PostgreSQL database, which ``pg_dump`` backs up.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.ops.target import is_postgres_url

DEFAULT_DB = "./cascadia.sqlite3"
MAX_TOKEN = 256
"""The longest ``DISCORD_TOKEN`` taken: a bot token is about 70 characters."""
_TOKEN = re.compile(r"[A-Za-z0-9._-]+")
"""What a bot token is made of: base64url text in three parts joined by dots."""
DEFAULT_BACKUP_HOURS = 24.0
_NUMBER = re.compile(r"[0-9]+")


class ConfigError(Exception):
    """A setting is missing or unreadable; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment.

    ``api_base``, ``gateway_url`` and ``cdn_base`` point discord.py at a Discord-compatible
    server other than discord.com (a local test server); ``None`` keeps Discord's own. The
    two reminder timings (``CASCADIA_REMINDER_UNIT_SECONDS``, ``CASCADIA_REMINDER_CHECK_SECONDS``)
    exist so that tests can watch a reminder schedule play out in seconds.
    """

    token: str = field(repr=False)
    db_path: Path = Path(DEFAULT_DB)
    """The SQLite file. With ``db_url`` set, only the name beside which the bot keeps its one
    local file (the record of the commands it uploaded), in the user's cache folder."""
    db_url: str | None = field(default=None, repr=False)
    """``CASCADIA_DB`` when it is a PostgreSQL URL: the games are there. Out of ``repr``,
    since it may carry a password."""
    guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    cdn_base: str | None = None
    reminder_unit_seconds: float = 3600.0
    """How long one hour of ``reminder_hours`` lasts; shorter only in tests."""
    reminder_check_seconds: float = 60.0
    """How often due reminders (and passed deadlines, and pings owed after quiet hours) are
    looked for."""
    clock_file: Path | None = None
    """Tests only: a file whose number of seconds moves the bot's clock (see
    :mod:`bot.ops.clock`)."""
    strong_seconds: float = 2.0
    """How long the ``strong`` computer player may think about one turn."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``CASCADIA_SHARDS``); ``None``: every shard."""
    shard_count: int | None = None
    """How many shards the bot has in all (``CASCADIA_SHARD_COUNT``); ``None``: as many as
    Discord recommends, all run by this process."""
    lease_seconds: float = 60.0
    """How long this process's claim on a message to post or on a game's background work
    holds before another process may take it over (``CASCADIA_LEASE_SECONDS``)."""
    backup_dir: Path | None = None
    """Where the bot writes its own backups (``CASCADIA_BACKUP_DIR``); ``None``: it writes
    none."""
    backup_hours: float = DEFAULT_BACKUP_HOURS
    """Hours between two of the bot's backups (``CASCADIA_BACKUP_HOURS``)."""

    @property
    def database(self) -> str:
        """Where the games are: the PostgreSQL URL, or else the SQLite file's path."""
        return self.db_url if self.db_url is not None else str(self.db_path)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read ``DISCORD_TOKEN`` (required), ``CASCADIA_DB``, ``CASCADIA_GUILD_ID``,
        ``LOG_LEVEL``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DISCORD_CDN_BASE``,
        ``CASCADIA_SHARDS``, ``CASCADIA_SHARD_COUNT``, ``CASCADIA_BACKUP_DIR``,
        ``CASCADIA_BACKUP_HOURS`` and the ``CASCADIA_*_SECONDS`` timings."""
        env = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        token = get("DISCORD_TOKEN")
        if token is None:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
                "in the DISCORD_TOKEN environment variable"
            )
        check_token(token)
        guild_text = get("CASCADIA_GUILD_ID")
        guild_id = None
        if guild_text is not None:
            if not guild_text.isdigit():
                raise ConfigError(
                    f"CASCADIA_GUILD_ID must be a server id (digits), not {guild_text!r}"
                )
            guild_id = int(guild_text)
        log_level = (get("LOG_LEVEL") or "INFO").upper()
        if not isinstance(logging.getLevelName(log_level), int):
            raise ConfigError(
                f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not {log_level!r}"
            )
        shard_ids, shard_count = _shards(get("CASCADIA_SHARDS"), get("CASCADIA_SHARD_COUNT"))
        database = database_from_env(env)
        db_url = database if is_postgres_url(database) else None
        backup_dir, backup_hours = _backups(
            get("CASCADIA_BACKUP_DIR"), get("CASCADIA_BACKUP_HOURS"), postgres=db_url is not None
        )
        return cls(
            token=token,
            db_path=Path(database) if db_url is None else _cache(env) / "postgresql",
            db_url=db_url,
            guild_id=guild_id,
            log_level=log_level,
            api_base=_url(get, "DISCORD_API_BASE", ("http", "https")),
            gateway_url=_url(get, "DISCORD_GATEWAY_URL", ("ws", "wss")),
            cdn_base=_url(get, "DISCORD_CDN_BASE", ("http", "https")),
            reminder_unit_seconds=_seconds(get, "CASCADIA_REMINDER_UNIT_SECONDS", 3600.0),
            reminder_check_seconds=_seconds(get, "CASCADIA_REMINDER_CHECK_SECONDS", 60.0),
            clock_file=_path(get("CASCADIA_TEST_CLOCK_FILE")),
            strong_seconds=_seconds(get, "CASCADIA_STRONG_SECONDS", 2.0),
            shard_ids=shard_ids,
            shard_count=shard_count,
            lease_seconds=_seconds(get, "CASCADIA_LEASE_SECONDS", 60.0),
            backup_dir=backup_dir,
            backup_hours=backup_hours,
        )


def check_token(token: str) -> None:
    """Refuse (:class:`ConfigError`) a ``DISCORD_TOKEN`` that cannot be a bot token, before
    it reaches the network (an HTTP header with a line break in it) or an error message: the
    message says what is wrong and never quotes the token."""
    fix = "copy the bot token again from the Discord developer portal"
    if len(token) > MAX_TOKEN:
        raise ConfigError(
            f"DISCORD_TOKEN is {len(token)} characters long, and a bot token is about 70: {fix}"
        )
    if _TOKEN.fullmatch(token):
        return
    if any(char in "\r\n" for char in token):
        what = "a line break"
    elif any(char.isspace() for char in token):
        what = "a space (give the token alone, without 'Bot ')"
    else:
        what = "characters a bot token never has (it is letters, digits, '.', '_' and '-')"
    raise ConfigError(f"DISCORD_TOKEN holds {what}: {fix}")


def database_from_env(env: Mapping[str, str] | None = None) -> str:
    """``CASCADIA_DB`` as the bot reads it: a PostgreSQL URL or an SQLite path (by default
    ``./cascadia.sqlite3``). The commands that work on the database read it the same way."""
    env = os.environ if env is None else env
    return env.get("CASCADIA_DB", "").strip() or DEFAULT_DB


def _backups(
    folder_text: str | None, hours_text: str | None, *, postgres: bool
) -> tuple[Path | None, float]:
    """``CASCADIA_BACKUP_DIR`` and ``CASCADIA_BACKUP_HOURS`` checked together."""
    if folder_text is None:
        if hours_text is not None:
            raise ConfigError(
                "CASCADIA_BACKUP_HOURS needs CASCADIA_BACKUP_DIR, the folder to write the "
                "backups to"
            )
        return None, DEFAULT_BACKUP_HOURS
    if postgres:
        raise ConfigError(
            "CASCADIA_BACKUP_DIR backs up an SQLite database; back a PostgreSQL database up "
            "with pg_dump instead (cascadia-bot backup prints the command)"
        )
    folder = Path(folder_text)
    if not folder.is_dir():
        raise ConfigError(
            f"CASCADIA_BACKUP_DIR ({folder}) is not a folder: create it, or point "
            "CASCADIA_BACKUP_DIR at an existing one"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(
            f"CASCADIA_BACKUP_DIR ({folder}) is read-only: make it writable for the user "
            "running the bot"
        )
    hours = DEFAULT_BACKUP_HOURS
    if hours_text is not None:
        try:
            hours = float(hours_text)
        except ValueError:
            hours = -1.0
        if not 0 < hours < float("inf"):
            raise ConfigError(
                f"CASCADIA_BACKUP_HOURS must be a positive number of hours, not {hours_text!r}"
            )
    return folder, hours


def _shards(
    ids_text: str | None, count_text: str | None
) -> tuple[tuple[int, ...] | None, int | None]:
    """``CASCADIA_SHARDS`` and ``CASCADIA_SHARD_COUNT`` checked together: the shard ids (each
    below the count, none twice) and the count; a count alone means every shard."""
    count = None
    if count_text is not None:
        if not _NUMBER.fullmatch(count_text) or int(count_text) < 1:
            raise ConfigError(
                f"CASCADIA_SHARD_COUNT must be a whole number of shards, 1 or more, "
                f"not {count_text!r}"
            )
        count = int(count_text)
    if ids_text is None:
        return None, count
    if count is None:
        raise ConfigError(
            f"CASCADIA_SHARDS={ids_text} needs CASCADIA_SHARD_COUNT, the number of shards "
            "of all processes together"
        )
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(_NUMBER.fullmatch(part) for part in parts):
        raise ConfigError(
            f"CASCADIA_SHARDS must be shard numbers separated by commas, such as 0,1, "
            f"not {ids_text!r}"
        )
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids):
        raise ConfigError(f"CASCADIA_SHARDS names a shard twice: {ids_text!r}")
    if max(ids) >= count:
        raise ConfigError(
            f"CASCADIA_SHARDS must be below CASCADIA_SHARD_COUNT={count} "
            f"(shards are numbered from 0), not {ids_text!r}"
        )
    return tuple(sorted(ids)), count


def _cache(env: Mapping[str, str]) -> Path:
    """The folder for the bot's local files when the games are on a server:
    ``$XDG_CACHE_HOME/cascadia-bot``, or ``~/.cache/cascadia-bot``."""
    base = env.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "cascadia-bot"


def _seconds(get: Callable[[str], str | None], name: str, default: float) -> float:
    value = get(name)
    if value is None:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ConfigError(f"{name} must be a positive number of seconds, not {value!r}")
    return seconds


def _path(value: str | None) -> Path | None:
    return None if value is None else Path(value)


def _url(get: Callable[[str], str | None], name: str, schemes: tuple[str, ...]) -> str | None:
    value = get(name)
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        # Reading the port checks it: one out of range (or not a number) raises, as does an
        # unclosed IPv6 host in urlsplit.
        usable = parts.scheme in schemes and bool(parts.netloc) and parts.port != 0
    except ValueError:
        usable = False
    if not usable:
        raise ConfigError(
            f"{name} must be a {' or '.join(schemes)} URL such as "
            f"{schemes[0]}://127.0.0.1:8080/..., not {value!r}"
        )
    return value.rstrip("/")
