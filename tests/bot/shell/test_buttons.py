"""Every restart-proof component is rebuilt from its custom id alone, fields and all."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.attendance import cog as absence
from bot.attendance import views as skip_views
from bot.lobby import cog as lobby
from bot.panel import cog as panel
from bot.panel.cog import PanelIds
from bot.panel.draft import Button, Option, Select, Verb
from bot.play import views
from bot.shell.buttons import IdItem

IDS = PanelIds(game_id=41, user_id=901, turn=7, version=3)
SAMPLES: list[IdItem[Any]] = [
    lobby.JoinButton(41),
    lobby.PlayAgainButton(41),
    lobby.LeaveButton(41),
    lobby.StartButton(41),
    lobby.AddComputerButton(41),
    lobby.RemoveComputerButton(41),
    lobby.ComputerButton(41, 2, "strong"),
    views.EndButton(41),
    views.KeepPlayingButton(41),
    views.LeaveButton(41),
    views.StayButton(41),
    skip_views.SkipTurnButton(41, 7),
    skip_views.KeepWaitingButton(41, 7),
    absence.VoteSkipButton(41, 7),
    absence.HandOverButton(41, 2),
    panel.PlayButton(41, 7),
    panel.PanelButton(IDS, Button(Verb.PAIR, "Pair 2", arg="2")),
    panel.PanelButton(IDS, Button(Verb.BACK, "Back")),
    panel.PanelSelect(IDS, Select(Verb.WHERE, "Where", (Option("1,0", "1,0: +2"),))),
]


def _custom_id(item: IdItem[Any]) -> str:
    return cast("str", item.item.custom_id)


def _fields(item: IdItem[Any]) -> dict[str, object]:
    """What the component knows of its ids, whichever attributes it keeps them in."""
    names = ("game_id", "turn", "seen", "policy", "first", "second", "ids", "verb")
    found = {name: getattr(item, name) for name in names if hasattr(item, name)}
    press = getattr(item, "press", None)
    if press is not None:
        found["press"] = press
    return found


def test_every_registered_component_has_a_sample() -> None:
    registered = {*lobby.LOBBY_BUTTONS, *views.CONFIRM_BUTTONS, *absence.BUTTONS}
    registered |= set(skip_views.SKIP_BUTTONS)
    registered |= set(panel.PANEL_ITEMS)
    assert registered == {type(item) for item in SAMPLES}


@pytest.mark.parametrize("item", SAMPLES, ids=_custom_id)
async def test_a_component_is_rebuilt_from_its_custom_id(item: IdItem[Any]) -> None:
    custom_id = _custom_id(item)
    match = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, f"{type(item).__name__} does not read its own id {custom_id}"
    interaction = cast("discord.Interaction[Any]", None)  # not read when rebuilding
    rebuilt = await type(item).from_custom_id(interaction, item.item, match)
    assert type(rebuilt) is type(item)
    assert _custom_id(rebuilt) == custom_id
    assert _fields(rebuilt) == _fields(item)
    assert _fields(item), "the sample carries no ids"


PROBE_TEMPLATE = r"x:(?P<n>[0-9]+):(?P<word>[a-z0-9]+)(?::(?P<opt>[0-9]))?"


class Probe(IdItem[discord.ui.Button[discord.ui.View]], template=PROBE_TEMPLATE):
    """A component with a text field and an optional one."""

    text_fields = frozenset({"word"})

    def __init__(self, n: int, word: str, opt: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=f"x:{n}:{word}"))
        self.fields = {"n": n, "word": word, "opt": opt}


@pytest.mark.parametrize(
    ("custom_id", "fields"),
    [
        ("x:12:abc", {"n": 12, "word": "abc", "opt": None}),
        ("x:0:007:5", {"n": 0, "word": "007", "opt": 5}),
    ],
)
async def test_fields_are_numbers_unless_named_as_text(
    custom_id: str, fields: dict[str, object]
) -> None:
    match = Probe.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = cast("discord.Interaction[Any]", None)
    rebuilt = await Probe.from_custom_id(interaction, cast("discord.ui.Item[Any]", None), match)
    assert rebuilt.fields == fields
    assert [type(v) for v in rebuilt.fields.values()] == [type(v) for v in fields.values()]
