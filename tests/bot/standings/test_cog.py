"""The standings' commands join ``/cascadia`` with the names and options the product names."""

from __future__ import annotations

from typing import Any

from bot.shell.client import CascadiaBot


def _subcommands(bot: CascadiaBot) -> dict[str, dict[str, Any]]:
    (group,) = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    return {o["name"]: o for o in group["options"]}


def test_the_standings_commands_and_their_options(bot: CascadiaBot) -> None:
    commands = _subcommands(bot)
    assert len(commands) <= 25
    options = {
        name: [(o["name"], o.get("required", False)) for o in commands[name].get("options", [])]
        for name in ("stats", "server", "league", "leaderboard")
    }
    assert options == {
        "stats": [("user", False), ("everywhere", False)],
        "server": [
            ("lobby_role", False),
            ("lobby_role_off", False),
            ("threads", False),
            ("language", False),
        ],
        "league": [("action", True)],
        "leaderboard": [("season", False)],
    }
    (action,) = commands["league"]["options"]
    assert [c["value"] for c in action["choices"]] == ["on", "off", "join", "leave", "season"]
    assert commands["leaderboard"]["options"][0]["min_value"] == 1


async def test_unloading_takes_the_commands_away(bot: CascadiaBot) -> None:
    await bot.unload_extension("bot.standings.cog")
    assert "stats" not in _subcommands(bot)
    assert "play" in _subcommands(bot)
