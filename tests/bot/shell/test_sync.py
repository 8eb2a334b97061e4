"""Command sync only when the commands changed, and the command names and options that are
part of the product."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.app_commands import TranslationContextTypes, locale_str

from bot.shell.client import CascadiaBot
from bot.shell.sync import SyncRecord, fingerprint, record_path, sync_if_changed
from bot.shell.translator import CatalogTranslator


def _payload(bot: CascadiaBot) -> dict[str, Any]:
    (group,) = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    return group


def test_fingerprint_ignores_key_order_only() -> None:
    a: list[dict[str, Any]] = [{"name": "x", "options": [1, 2]}, {"name": "y"}]
    assert fingerprint(a) == fingerprint([{"options": [1, 2], "name": "x"}, {"name": "y"}])
    assert fingerprint(a) != fingerprint(list(reversed(a)))
    assert fingerprint(a) != fingerprint([{"name": "x", "options": [2, 1]}, {"name": "y"}])


def test_sync_record(tmp_path: Path) -> None:
    path = record_path(tmp_path / "cascadia.sqlite3")
    assert path == tmp_path / "cascadia.sqlite3.commands.json"
    record = SyncRecord(path)
    assert record.get("k") is None
    record.put("k", "1")
    record.put("j", "2")
    assert SyncRecord(path).load() == {"j": "2", "k": "1"}
    path.write_text("not json")
    assert record.load() == {}


async def test_sync_only_when_changed(
    bot: CascadiaBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uploads: list[object] = []

    async def fake_sync(*, guild: object = None) -> list[object]:
        uploads.append(guild)
        return []

    monkeypatch.setattr(bot.tree, "sync", fake_sync)
    record = SyncRecord(tmp_path / "commands.json")
    assert await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    assert not await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    assert await sync_if_changed(bot.tree, record, guild_id=None, scope="app2")
    bot.tree.copy_global_to(guild=_Guild(42))
    assert await sync_if_changed(bot.tree, record, guild_id=42, scope="app1")
    assert not await sync_if_changed(bot.tree, record, guild_id=42, scope="app1")
    bot.tree.get_commands()[0].description = "changed"  # type: ignore[union-attr]
    assert await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    assert len(uploads) == 4


async def test_a_changed_translation_syncs_again(
    bot: CascadiaBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uploads: list[object] = []

    async def fake_sync(*, guild: object = None) -> list[object]:
        uploads.append(guild)
        return []

    class Shouting(CatalogTranslator):
        async def translate(
            self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
        ) -> str | None:
            text = await super().translate(string, locale, context)
            return None if text is None else text.upper()

    monkeypatch.setattr(bot.tree, "sync", fake_sync)
    record = SyncRecord(tmp_path / "commands.json")
    await bot.tree.set_translator(CatalogTranslator())
    assert await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    assert not await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    await bot.tree.set_translator(Shouting())
    assert await sync_if_changed(bot.tree, record, guild_id=None, scope="app1")
    assert len(uploads) == 2


class _Guild:
    def __init__(self, id: int) -> None:
        self.id = id


def test_commands_are_one_group_in_servers_and_direct_messages(bot: CascadiaBot) -> None:
    group = _payload(bot)
    assert group["name"] == "cascadia"
    # Direct messages with the bot (context 1) hold daily treks; other DMs (2) nothing.
    assert group["contexts"] == [0, 1]
    assert sorted(o["name"] for o in group["options"]) == sorted(
        ["new", "join", "leave", "start", "play", "preview", "wipe", "board", "status", "score",
         "settings", "end", "mygames", "export", "help", "skip", "notify", "hint", "daily",
         "history", "replay", "stats", "server", "league", "leaderboard"]
    )  # fmt: skip


def _options(bot: CascadiaBot, command: str) -> dict[str, dict[str, Any]]:
    (sub,) = [o for o in _payload(bot)["options"] if o["name"] == command]
    return {o["name"]: o for o in sub["options"]}


def test_daily_options(bot: CascadiaBot) -> None:
    options = _options(bot, "daily")
    assert list(options) == ["action", "date", "user", "channel"]
    assert [c["value"] for c in options["action"]["choices"]] == [
        "play",
        "board",
        "show",
        "channel",
    ]
    assert [o["required"] for o in options.values()] == [False] * 4
    assert [o["type"] for o in options.values()] == [3, 3, 6, 7]
    assert options["channel"]["channel_types"] == [0, 5], "text channels (and announcements)"


@pytest.mark.parametrize("command", ["play", "preview"])
def test_turn_options(bot: CascadiaBot, command: str) -> None:
    options = _options(bot, command)
    assert list(options) == ["pair", "tile_at", "rotation", "token_at", "token"]
    assert (options["pair"]["min_value"], options["pair"]["max_value"]) == (1, 4)
    assert (options["rotation"]["min_value"], options["rotation"]["max_value"]) == (0, 5)
    assert (options["token"]["min_value"], options["token"]["max_value"]) == (1, 4)
    assert options["tile_at"]["autocomplete"]
    assert options["token_at"]["autocomplete"]
    assert [o["required"] for o in options.values()] == [True, True, True, True, False]


@pytest.mark.parametrize(
    ("command", "names", "required"),
    [
        ("new", ["cards", "thread", "ping", "scenario"], [False, False, False, False]),
        ("join", [], []),
        ("wipe", ["tokens"], [False]),
        ("board", ["player"], [False]),
        ("settings", ["reminder_hours", "deadline_hours"], [False, False]),
        ("status", [], []),
        ("end", [], []),
        ("skip", [], []),
        (
            "notify",
            [
                *("away_until", "away_note", "quiet_from", "quiet_to", "timezone", "clear"),
                *("dm", "heads_up", "digest_hour", "channel_ping", "reminder_hours"),
            ],
            [False] * 11,
        ),
    ],
)
def test_other_options(
    bot: CascadiaBot, command: str, names: list[str], required: list[bool]
) -> None:
    options = _options(bot, command)
    assert list(options) == names
    assert [o["required"] for o in options.values()] == required
    for option in options.values():
        assert len(option["description"]) <= 100


def test_quiet_hours_are_whole_hours_and_zones_are_suggested(bot: CascadiaBot) -> None:
    options = _options(bot, "notify")
    clearable = ["away", "quiet", "digest", "reminders"]
    assert [c["value"] for c in options["clear"]["choices"]] == clearable
    for hour in ("quiet_from", "quiet_to", "digest_hour"):
        assert (options[hour]["min_value"], options[hour]["max_value"]) == (0, 23)
    limits = (options["reminder_hours"]["min_value"], options["reminder_hours"]["max_value"])
    assert limits == (0, 720)
    for switch in ("dm", "heads_up", "channel_ping"):
        assert options[switch]["type"] == 5  # a boolean
    assert options["timezone"]["autocomplete"]
    assert _options(bot, "settings")["deadline_hours"]["min_value"] == 0


def _put_many(path: str, prefix: str) -> None:
    record = SyncRecord(Path(path))
    for n in range(200):
        record.put(f"{prefix}{n}", "digest")


def test_two_processes_writing_one_record_never_trip_over_each_other(tmp_path: Path) -> None:
    """Shard processes on one machine share the record: each writes through a temporary file
    of its own, so neither fails and the record is always whole."""
    path = tmp_path / "postgresql.commands.json"
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_put_many, args=(str(path), p)) for p in ("a", "b")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=60)
    assert [writer.exitcode for writer in writers] == [0, 0]
    data = json.loads(path.read_text(encoding="utf-8"))
    # Whole JSON, written last by one of them (a key the other added meanwhile may be lost).
    assert {"a199", "b199"} & set(data)
    assert list(tmp_path.iterdir()) == [path]
