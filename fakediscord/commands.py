"""Application commands as a user invokes them: the ``data`` of an APPLICATION_COMMAND or
AUTOCOMPLETE interaction, built from what the bot synced.

A command is found among the guild's commands first, then the global ones; ``data.guild_id``
is present exactly for a guild command (discord.py looks the command up in its guild table
then). In a DM only global commands exist, and only those whose ``contexts`` include 1 (bot
DM) or, without ``contexts``, whose ``dm_permission`` is not false. Option types: 1
subcommand, 2 group, 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 9
mentionable, 10 number. Values of types 6-9 are snowflake strings listed in
``data.resolved``; a focused (autocomplete) option carries the raw typed string. Values outside
an option's choices or bounds are refused here, as Discord refuses them before any bot sees
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fakediscord.model import Channel, Guild
from fakediscord.protocol import ALL_PERMISSIONS, JSON, MAX_STRING_OPTION
from fakediscord.world import World

__all__ = ["command_data"]

BOT_DM_CONTEXT = 1
"""The interaction context of a DM with the bot, in a command's ``contexts``."""


def _find_command(world: World, channel: Channel, name: str, ctype: int = 1) -> tuple[JSON, bool]:
    scopes: list[int | None] = [channel.guild_id, None] if channel.guild_id else [None]
    for scope in scopes:
        for cmd in world.commands.get(scope, []):
            if cmd["name"] == name and cmd["type"] == ctype:
                if channel.guild_id is None and not _usable_in_dms(cmd):
                    raise LookupError(f"command {name!r} is not usable in DMs")
                return cmd, scope is not None
    known = sorted(f"{c['name']}@{s or 'global'}" for s, cs in world.commands.items() for c in cs)
    raise LookupError(f"command {name!r} was never synced for channel {channel.id}: {known}")


def _usable_in_dms(cmd: JSON) -> bool:
    contexts = cmd.get("contexts")
    if contexts is not None:
        return BOT_DM_CONTEXT in contexts
    return cmd.get("dm_permission") is not False


def _resolve_option(
    world: World, defn: JSON, value: Any, resolved: dict[str, JSON], guild: Guild | None
) -> Any:
    kind = defn["type"]
    if kind in (3, 4, 5, 10):
        converted = {3: str, 4: int, 5: bool, 10: float}[kind](value)
        choices = [c["value"] for c in defn.get("choices") or []]
        if choices and converted not in choices:
            raise ValueError(f"option {defn['name']!r}: {converted!r} not in choices {choices}")
        # Discord refuses values outside an option's declared bounds before any bot sees them.
        if kind == 3:
            low, high = defn.get("min_length", 0), defn.get("max_length", MAX_STRING_OPTION)
            measured = len(converted)
        else:
            low, high, measured = defn.get("min_value"), defn.get("max_value"), converted
        if (low is not None and measured < low) or (high is not None and measured > high):
            shown = f"length {measured}" if kind == 3 else repr(converted)
            raise ValueError(f"option {defn['name']!r}: {shown} not in {low}..{high}")
        return converted
    key = str(int(value))
    if kind in (6, 9) and int(value) in world.users:
        resolved.setdefault("users", {})[key] = world.directory.user_payload(int(value))
        if guild is not None and int(value) in guild.members:
            member = world.directory.member_payload(guild, int(value), with_user=False)
            member["permissions"] = str(world.directory.permissions(guild.id, int(value)))
            resolved.setdefault("members", {})[key] = member
    elif kind in (7, 9) and int(value) in world.channels:
        ch = world.directory.channel_payload(world.channels[int(value)])
        perms = (
            world.directory.channel_permissions(int(value), world.bot_user_id)
            if guild
            else ALL_PERMISSIONS
        )
        resolved.setdefault("channels", {})[key] = {**ch, "permissions": str(perms)}
    elif kind in (8, 9) and guild is not None and int(value) in guild.roles:
        resolved.setdefault("roles", {})[key] = guild.roles[int(value)].payload()
    else:
        raise ValueError(f"option {defn['name']!r}: cannot resolve {value!r} (type {kind})")
    return key


def command_data(
    world: World,
    channel: Channel,
    path: tuple[str, ...],
    options: Mapping[str, Any],
    focused: str | None,
) -> JSON:
    """The interaction ``data`` for ``/path...`` with ``options`` typed in ``channel``.

    ``focused`` names the option being typed, for an autocomplete request. Raises LookupError
    for a command or subcommand the bot never synced, ValueError for bad options.
    """
    cmd, guild_scoped = _find_command(world, channel, path[0])
    defs: list[JSON] = cmd.get("options") or []
    steps: list[tuple[str, int]] = []
    for name in path[1:]:
        sub = next((o for o in defs if o["name"] == name and o["type"] in (1, 2)), None)
        if sub is None:
            raise LookupError(f"{' '.join(path)}: no subcommand {name!r} in {cmd['name']!r}")
        steps.append((name, sub["type"]))
        defs = sub.get("options") or []
    if any(o["type"] in (1, 2) for o in defs):
        subs = [o["name"] for o in defs]
        raise LookupError(f"{' '.join(path)!r} needs a subcommand, one of {subs}")
    by_name = {o["name"]: o for o in defs}
    unknown = set(options) - set(by_name)
    if unknown:
        raise ValueError(
            f"{' '.join(path)}: unknown options {sorted(unknown)}, has {list(by_name)}"
        )
    missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
    if missing and focused is None:
        raise ValueError(f"{' '.join(path)}: missing required options {missing}")
    guild = world.guilds.get(channel.guild_id) if channel.guild_id else None
    resolved: dict[str, JSON] = {}
    built: list[JSON] = []
    for name, value in options.items():
        option: JSON = {"name": name, "type": by_name[name]["type"]}
        if name == focused:
            if not by_name[name].get("autocomplete"):
                raise ValueError(f"option {name!r} of {' '.join(path)} has no autocomplete")
            option.update(value=str(value), focused=True)
        else:
            option["value"] = _resolve_option(world, by_name[name], value, resolved, guild)
        built.append(option)
    for name, kind in reversed(steps):
        built = [{"type": kind, "name": name, "options": built}]
    data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
    if guild_scoped:
        # Present exactly for guild commands: it selects the tree's guild command table.
        data["guild_id"] = str(channel.guild_id)
    if resolved:
        data["resolved"] = resolved
    return data
