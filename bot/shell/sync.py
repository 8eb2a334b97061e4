"""Sync the slash commands with Discord only when they changed since the last sync.

Discord rate-limits command updates and a global update can take a while to spread, so the
bot remembers a hash of what it last uploaded, per application and target, in a small JSON
file next to the database, and uploads again only when the hash differs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


def fingerprint(payloads: Sequence[dict[str, Any]]) -> str:
    """A stable hash of command payloads (key order does not matter, command order does)."""
    text = json.dumps(list(payloads), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record_path(db_path: Path) -> Path:
    """Where the hashes of the last syncs are kept: beside the database file (for PostgreSQL,
    beside the name :class:`~bot.ops.config.Settings` gives in the cache folder)."""
    return db_path.with_name(db_path.name + ".commands.json")


class SyncRecord:
    """The hashes of the last successful syncs, by key, in a JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, str]:
        """The stored hashes; an unreadable or missing file counts as empty."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items()}

    def get(self, key: str) -> str | None:
        """The hash stored under ``key``."""
        return self.load().get(key)

    def put(self, key: str, value: str) -> None:
        """Store a hash, replacing the file atomically. The temporary file's name is this
        process's own: shard processes on one machine may share the record."""
        data = self.load()
        data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    record: SyncRecord,
    *,
    guild_id: int | None,
    scope: str,
) -> bool:
    """Upload the tree's commands for ``guild_id`` (``None``: global) unless the same ones were
    uploaded last time; returns whether it uploaded. ``scope`` tells apart applications and
    servers sharing one record."""
    guild = discord.Object(id=guild_id) if guild_id is not None else None
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    # With a translator, what Discord is sent carries the translations: a changed one syncs.
    payloads = [
        await command.get_translated_payload(tree, translator)
        if translator is not None
        else command.to_dict(tree)
        for command in commands
    ]
    key = f"{scope}:{'global' if guild_id is None else f'guild:{guild_id}'}"
    digest = fingerprint(payloads)
    if record.get(key) == digest:
        log.info("commands unchanged since the last sync (%s): not syncing", key)
        return False
    await tree.sync(guild=guild)
    try:
        record.put(key, digest)
    except OSError:
        log.warning("could not remember the command sync in %s", record.path, exc_info=True)
    log.info("synced %d commands (%s)", len(payloads), key)
    return True
