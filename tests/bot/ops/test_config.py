"""Settings from the environment: defaults, validation, and the token kept out of sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ops.config import ConfigError, Settings

TOKEN = "MTIz.secret-token-value"


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.token == TOKEN
    assert settings.db_path == Path("./cascadia.sqlite3")
    assert settings.guild_id is None
    assert settings.log_level == "INFO"
    assert settings.api_base is settings.gateway_url is settings.cdn_base is None
    assert settings.reminder_unit_seconds == 3600.0
    assert settings.reminder_check_seconds == 60.0
    assert settings.strong_seconds == 2.0


def test_everything_set() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": f"  {TOKEN}\n",
            "CASCADIA_DB": "/data/cascadia.sqlite3",
            "CASCADIA_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            "DISCORD_CDN_BASE": "http://127.0.0.1:8080/cdn",
            "CASCADIA_REMINDER_UNIT_SECONDS": "0.5",
            "CASCADIA_REMINDER_CHECK_SECONDS": "0.05",
            "CASCADIA_STRONG_SECONDS": "0.25",
        }
    )
    assert settings.strong_seconds == 0.25
    assert settings.reminder_unit_seconds == 0.5
    assert settings.reminder_check_seconds == 0.05
    assert settings.token == TOKEN
    assert settings.db_path == Path("/data/cascadia.sqlite3")
    assert settings.guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert settings.cdn_base == "http://127.0.0.1:8080/cdn"


@pytest.mark.parametrize("env", [{}, {"DISCORD_TOKEN": "   "}])
def test_missing_token_is_explained(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        Settings.from_env(env)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CASCADIA_GUILD_ID", "my-server", "CASCADIA_GUILD_ID must be a server id"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("DISCORD_API_BASE", "127.0.0.1:8080", "DISCORD_API_BASE must be a http or https URL"),
        ("DISCORD_API_BASE", "http://[::1/api/v10", "DISCORD_API_BASE must be a http or https"),
        ("DISCORD_API_BASE", "http://127.0.0.1:99999/api", "DISCORD_API_BASE must be a http"),
        ("DISCORD_GATEWAY_URL", "ws://h:port/gateway", "DISCORD_GATEWAY_URL must be a ws or wss"),
        ("DISCORD_GATEWAY_URL", "http://x/gateway", "DISCORD_GATEWAY_URL must be a ws or wss"),
        ("DISCORD_CDN_BASE", "ftp://x/cdn", "DISCORD_CDN_BASE must be a http"),
        ("CASCADIA_REMINDER_UNIT_SECONDS", "0", "must be a positive number of seconds"),
        ("CASCADIA_REMINDER_CHECK_SECONDS", "soon", "must be a positive number of seconds"),
        ("CASCADIA_REMINDER_CHECK_SECONDS", "nan", "must be a positive number of seconds"),
        ("CASCADIA_STRONG_SECONDS", "-1", "must be a positive number of seconds"),
    ],
)
def test_bad_values_are_named(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, name: value})


def test_the_token_never_shows() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert TOKEN not in repr(settings)
    assert TOKEN not in str(settings)


def test_shards_unset_means_every_shard_in_this_process() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.shard_ids is None
    assert settings.shard_count is None


@pytest.mark.parametrize(
    ("shards", "count", "ids"),
    [
        ("0,1", "2", (0, 1)),
        ("3, 1", "4", (1, 3)),
        ("0", "1", (0,)),
        (None, "3", None),
    ],
)
def test_shards_are_read(shards: str | None, count: str, ids: tuple[int, ...] | None) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "CASCADIA_SHARD_COUNT": count}
    if shards is not None:
        env["CASCADIA_SHARDS"] = shards
    settings = Settings.from_env(env)
    assert settings.shard_ids == ids
    assert settings.shard_count == int(count)


@pytest.mark.parametrize(
    ("shards", "count", "message"),
    [
        ("0,1", None, "CASCADIA_SHARDS=0,1 needs CASCADIA_SHARD_COUNT"),
        ("0", "0", "CASCADIA_SHARD_COUNT must be a whole number of shards, 1 or more, not '0'"),
        (None, "two", "CASCADIA_SHARD_COUNT must be a whole number of shards"),
        ("0;1", "2", "CASCADIA_SHARDS must be shard numbers separated by commas"),
        ("0,,1", "2", "CASCADIA_SHARDS must be shard numbers separated by commas"),
        ("-1", "2", "CASCADIA_SHARDS must be shard numbers separated by commas"),
        ("²", "4", "CASCADIA_SHARDS must be shard numbers separated by commas"),
        ("1,1", "2", "CASCADIA_SHARDS names a shard twice"),
        ("2", "2", "CASCADIA_SHARDS must be below CASCADIA_SHARD_COUNT=2"),
    ],
)
def test_bad_shards_are_named(shards: str | None, count: str | None, message: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN}
    if shards is not None:
        env["CASCADIA_SHARDS"] = shards
    if count is not None:
        env["CASCADIA_SHARD_COUNT"] = count
    with pytest.raises(ConfigError, match=message) as caught:
        Settings.from_env(env)
    assert "\n" not in str(caught.value)


def test_lease_seconds() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).lease_seconds == 60.0
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "CASCADIA_LEASE_SECONDS": "2.5"})
    assert settings.lease_seconds == 2.5
    with pytest.raises(ConfigError, match="CASCADIA_LEASE_SECONDS must be a positive number"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "CASCADIA_LEASE_SECONDS": "0"})


def test_backups_are_off_unless_a_folder_is_named(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.backup_dir is None
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "CASCADIA_BACKUP_DIR": str(tmp_path)})
    assert (settings.backup_dir, settings.backup_hours) == (tmp_path, 24.0)
    settings = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "CASCADIA_BACKUP_DIR": str(tmp_path), "CASCADIA_BACKUP_HOURS": "6"}
    )
    assert (settings.backup_dir, settings.backup_hours) == (tmp_path, 6.0)


@pytest.mark.parametrize(
    ("folder", "hours", "database", "message"),
    [
        (None, "6", None, "CASCADIA_BACKUP_HOURS needs CASCADIA_BACKUP_DIR"),
        ("missing", None, None, r"CASCADIA_BACKUP_DIR \(.*missing\) is not a folder"),
        ("file", None, None, r"CASCADIA_BACKUP_DIR \(.*file\) is not a folder"),
        ("", "0", None, "CASCADIA_BACKUP_HOURS must be a positive number of hours, not '0'"),
        ("", "daily", None, "CASCADIA_BACKUP_HOURS must be a positive number of hours"),
        ("", None, "postgresql://u@h/db", "back a PostgreSQL database up with pg_dump"),
    ],
)
def test_bad_backup_settings_are_named(
    tmp_path: Path, folder: str | None, hours: str | None, database: str | None, message: str
) -> None:
    (tmp_path / "file").write_text("")
    env = {"DISCORD_TOKEN": TOKEN}
    if folder is not None:
        env["CASCADIA_BACKUP_DIR"] = str(tmp_path / folder)
    if hours is not None:
        env["CASCADIA_BACKUP_HOURS"] = hours
    if database is not None:
        env["CASCADIA_DB"] = database
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)
