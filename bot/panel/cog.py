"""The turn panel in Discord: the **Play** button on turn messages and the private panel it
opens, edited in place at each step.

Every component is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries only ids (the
game, the panel's owner, the turn, the panel version and the press), so a panel keeps working
after a restart; its choices are in the database (see :mod:`bot.panel.service`). This module
only turns presses into :class:`~bot.panel.draft.Press` values and offers into components;
each press is acknowledged at once and the picture is drawn in a thread.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self, cast

import discord

from bot.game import messages
from bot.game.buttons import PLAY_LABEL, play_custom_id
from bot.game.captions import environment_description
from bot.game.markdown import jump_url
from bot.game.names import safe
from bot.panel.draft import Button, Press, Select, Verb
from bot.panel.service import (
    Outcome,
    PanelGone,
    PanelRefused,
    Panels,
    Shown,
    TurnPassed,
    draw_panel,
)
from bot.shell import errors
from bot.shell.buttons import IdItem
from engine import score_state
from i18n import N_, _

if TYPE_CHECKING:
    from bot.shell.client import CascadiaBot

    Interaction = discord.Interaction[CascadiaBot]

log = logging.getLogger(__name__)

PICTURE = "panel.png"
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
_IDS = (
    r"(?P<game_id>[0-9]+):(?P<user_id>[0-9]+):(?P<turn>[0-9]+):(?P<version>[0-9]+)"
    r":(?P<verb>" + "|".join(verb.value for verb in Verb) + ")"
)


# --- the Play button ----------------------------------------------------------------------


class PlayButton(
    IdItem[discord.ui.Button[discord.ui.View]],
    template=r"cascadia:play:(?P<game_id>[0-9]+):(?P<turn>[0-9]+)",
):
    """Opens the presser's private turn panel (planning mode when it is not their turn)."""

    def __init__(self, game_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=PLAY_LABEL,
                style=discord.ButtonStyle.primary,
                custom_id=play_custom_id(game_id, turn),
            )
        )
        self.game_id = game_id
        self.turn = turn

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the press like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Open the panel privately, resumed where the player left it."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            bot = interaction.client
            shown = await Panels(bot.service).open(
                self.game_id, user_id=interaction.user.id, turn=self.turn
            )
            content, files = await _render(shown)
            view = panel_view(shown)
            if view is None:
                raise RuntimeError("an opened panel shows a step")
            await interaction.followup.send(content, files=files, view=view, ephemeral=True)
            await bot.tell_refusal(interaction)
        except TurnPassed as passed:
            await errors.report(interaction, TurnPassed(await _with_latest(interaction, passed)))
        except Exception as error:
            await errors.report(interaction, error)


async def _with_latest(interaction: Interaction, passed: TurnPassed) -> str:
    """The refusal, with a link to the game's latest turn message when there is one."""
    text = passed.message()
    match = re.match(r"cascadia:(?:play|panel|pick):([0-9]+)", _custom_id(interaction))
    if match is None:
        return text
    # The game's own channel: the press may come from a direct message.
    store = interaction.client.store
    game = await store.get_game(int(match[1]))
    message_id = await store.latest_message(int(match[1]))
    if game is None or message_id is None:
        return text
    link = jump_url(game.guild_id, game.channel_id, message_id)
    return messages.turn_passed_text(link)


def _custom_id(interaction: Interaction) -> str:
    return str(cast("dict[str, Any]", interaction.data or {}).get("custom_id", ""))


# --- the panel ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelIds:
    """The ids a panel component carries."""

    game_id: int
    user_id: int
    turn: int
    version: int

    def custom_id(self, kind: str, verb: Verb, arg: str = "") -> str:
        """The component's custom id (at most 100 characters: ids are short)."""
        text = f"cascadia:{kind}:{self.game_id}:{self.user_id}:{self.turn}:{self.version}:{verb}"
        return f"{text}:{arg}" if arg else text

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> PanelIds:
        """Read the ids of a pressed component from its custom id's fields."""
        return cls(fields["game_id"], fields["user_id"], fields["turn"], fields["version"])


def panel_text(shown: Shown) -> str:
    """The panel message: who and which turn, the step's text (the picture in words too)."""
    lines = []
    if shown.notice:
        lines.append(shown.notice)
    if shown.planning:
        lines.append(
            _(
                "**Planning only**: it is {name}'s turn, so nothing chosen here is played "
                "(the display may change before yours).",
                name=safe(shown.to_move),
            )
        )
    if shown.offer is not None:
        lines.append(shown.offer.text)
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1999] + "…"


def panel_view(shown: Shown) -> discord.ui.View | None:
    """The step's components, or ``None`` once the panel is closed."""
    offer = shown.offer
    if offer is None:
        return None
    ids = PanelIds(shown.game_id, shown.user_id, shown.turn, shown.version)
    view = discord.ui.View(timeout=None)
    row = 0
    for select in offer.selects:
        view.add_item(PanelSelect(ids, select, row=row))
        row += 1
    for buttons in offer.buttons:
        for button in buttons:
            view.add_item(PanelButton(ids, button, row=row))
        row += 1
    return view


async def _render(shown: Shown) -> tuple[str, list[discord.File]]:
    offer = shown.offer
    if offer is None:
        return panel_text(shown), []
    image = await asyncio.to_thread(draw_panel, offer, shown.seat, shown.name)
    points = score_state(offer.shown).players[shown.seat].total
    about = environment_description(shown.name, offer.shown, shown.seat, points)
    picture = discord.File(
        io.BytesIO(image), filename=PICTURE, description=_("With this move, {about}", about=about)
    )
    return panel_text(shown), [picture]


async def _press(interaction: Interaction, ids: PanelIds, press: Press) -> None:
    """Acknowledge at once, then act and edit the panel in place."""
    await interaction.response.defer()
    bot = interaction.client
    owner = interaction.user.id == ids.user_id
    try:
        if not owner:
            raise PanelRefused(
                N_(
                    "This panel is someone else's: press **Play** on the turn message for "
                    "yours. Nothing was played."
                )
            )
        shown = await Panels(bot.service).press(
            ids.game_id, user_id=ids.user_id, turn=ids.turn, version=ids.version, press=press
        )
        if shown.outcome is Outcome.SHOWN:
            if shown.outbox_ids:  # a wipe was played: its new display goes to the channel
                await bot.announce(shown.outbox_ids)
            content, files = await _render(shown)
            await interaction.edit_original_response(
                content=content, attachments=files, view=panel_view(shown)
            )
            return
        if shown.outcome is Outcome.PLAYED:
            # A second tap on Confirm queued nothing: the first one posts the turn.
            sent = not shown.outbox_ids or await bot.announce(shown.outbox_ids)
            text = (
                _("**Turn played.** {notice}", notice=shown.notice)
                if sent
                else _(
                    "**Turn played.** {notice} (Discord is slow: the channel message is saved "
                    "and will follow.)",
                    notice=shown.notice,
                )
            )
            await interaction.edit_original_response(content=text, view=None)
            return
        await interaction.edit_original_response(
            content=_(
                "Cancelled: nothing was played. Press **Play** on the turn message to start again."
            ),
            attachments=[],
            view=None,
        )
    except PanelGone as gone:
        # The panel can no longer act: it says why in place of its step, without buttons (one
        # answer); a private message only if it cannot be edited.
        if isinstance(gone, TurnPassed):
            text = await _with_latest(interaction, gone)
        else:
            text = gone.message()
        log.info("closed the panel of game %d, user %d: %s", ids.game_id, ids.user_id, gone)
        if not await _close(interaction, text):
            await errors.report(interaction, PanelGone(text))
    except Exception as error:
        await errors.report(interaction, error)


async def _close(interaction: Interaction, text: str) -> bool:
    """Show ``text`` on the panel in place of its step and buttons; whether it could."""
    try:
        await interaction.edit_original_response(content=text, attachments=[], view=None)
    except discord.HTTPException:
        log.warning("could not close a panel message", exc_info=True)
        return False
    return True


class PanelButton(
    IdItem[discord.ui.Button[discord.ui.View]],
    template=rf"cascadia:panel:{_IDS}(?::(?P<arg>[0-9]))?",
):
    """A button of the panel."""

    text_fields = frozenset({"verb", "arg"})

    def __init__(self, ids: PanelIds, button: Button, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=button.label,
                style=_STYLES[button.style],
                custom_id=ids.custom_id("panel", button.verb, button.arg),
                row=row,
            )
        )
        self.ids = ids
        self.press = Press(button.verb, (button.arg,) if button.arg else ())

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Self:
        """The button of a press: its ids and verb are all it needs."""
        verb = Verb(fields["verb"])
        return cls(PanelIds.from_fields(fields), Button(verb, verb.value, fields["arg"] or ""))

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the press like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Act on the press."""
        await _press(interaction, self.ids, self.press)


class PanelSelect(
    IdItem[discord.ui.Select[discord.ui.View]],
    template=rf"cascadia:pick:{_IDS}",
):
    """A select menu of the panel."""

    text_fields = frozenset({"verb"})

    def __init__(self, ids: PanelIds, select: Select, *, row: int | None = None) -> None:
        options = [
            discord.SelectOption(
                label=option.label,
                value=option.value,
                description=option.description or None,
                default=option.default,
            )
            for option in select.options
        ] or [discord.SelectOption(label=_("nothing"), value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=ids.custom_id("pick", select.verb),
                placeholder=select.placeholder,
                options=options,
                min_values=select.min_values,
                max_values=select.max_values,
                row=row,
            )
        )
        self.ids = ids
        self.verb = select.verb

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Self:
        """The select of a press: the values come with the interaction."""
        return cls(PanelIds.from_fields(fields), Select(Verb(fields["verb"]), "", ()))

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the press like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Act on the values chosen."""
        data = cast("dict[str, Any]", interaction.data or {})
        values = tuple(str(v) for v in data.get("values", ()))
        await _press(interaction, self.ids, Press(self.verb, values))


PANEL_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PlayButton, PanelButton, PanelSelect)
"""The dynamic items the client registers."""


async def setup(bot: CascadiaBot) -> None:
    """Register the turn panel's buttons, so that panels opened before a restart still work
    (called by ``load_extension``)."""
    bot.add_dynamic_items(*PANEL_ITEMS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the buttons away with the extension."""
    bot.remove_dynamic_items(*PANEL_ITEMS)
