"""The test clock: real time moved by the seconds in a file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.ops.clock import OffsetClock, clock_for, utc_now
from bot.ops.config import Settings


def test_the_clock_moves_by_the_files_seconds(tmp_path: Path) -> None:
    path = tmp_path / "clock"
    clock = OffsetClock(path)
    assert abs(clock() - datetime.now(UTC)) < timedelta(seconds=5)
    path.write_text("86400")
    assert abs(clock() - datetime.now(UTC) - timedelta(days=1)) < timedelta(seconds=5)
    path.write_text("-3600.5\n")
    assert clock.offset() == -3600.5
    path.write_text("soon")
    assert clock.offset() == 0.0


def test_only_the_test_setting_turns_it_on(tmp_path: Path) -> None:
    assert clock_for(None) is utc_now
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "t", "CASCADIA_TEST_CLOCK_FILE": str(tmp_path / "clock")}
    )
    assert settings.clock_file == tmp_path / "clock"
    assert isinstance(clock_for(settings.clock_file), OffsetClock)
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).clock_file is None
