"""The one place where any error becomes a short private answer.

Engine errors (:class:`~engine.IllegalAction`, :class:`~engine.InvalidInput`), store errors
and the :class:`~bot.game.errors.BotError` family are expected: the user gets their message,
the log gets a line. Anything else is a bug: the user gets an apology, the log the traceback.

The answer is in the reader's language (during an interaction, the person's: see
:func:`i18n.speaking`); the log line is the same answer in English.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar, cast

import discord
from discord import app_commands

from bot.db.errors import CannotSave, ConnectionLost, DatabaseUnavailable, NotFound
from bot.game.errors import (
    AlreadySeated,
    BotError,
    ChannelBusy,
    DamagedLog,
    DamagedState,
    GameClosed,
    LobbyFull,
    NotActive,
    NotInLobby,
    NotSeated,
    RevisionConflict,
    StalePanel,
)
from bot.game.rows import GameStatus
from engine import IllegalAction, InvalidInput, Reason
from i18n import N_, _, _n, language, lookup, reader, speaking

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on my side. It has been logged; please try again.")

REFUSED_ACTIONS = {
    Reason.GAME_OVER: N_("Not allowed: the game is over."),
    Reason.NOT_YOUR_TURN: N_("Not allowed: it is not your turn."),
    Reason.WRONG_PHASE: N_("Not allowed: that step does not come now in the turn."),
    Reason.NO_SUCH_SLOT: N_("Not allowed: that pair of the display is empty."),
    Reason.WIPE_NOT_ALLOWED: N_("Not allowed: the bag has too few tokens for a wipe."),
    Reason.WIPE_ALREADY_USED: N_(
        "Not allowed: the wipe of three matching tokens was used this turn already."
    ),
    Reason.NO_NATURE_TOKEN: N_("Not allowed: you have no nature token to spend."),
    Reason.OCCUPIED: N_("Not allowed: that place already has a tile."),
    Reason.NOT_ADJACENT: N_("Not allowed: the tile must touch your environment."),
    Reason.NO_TILE: N_("Not allowed: there is no tile at that place."),
    Reason.WRONG_SPECIES: N_("Not allowed: that tile does not show this animal."),
    Reason.HAS_TOKEN: N_("Not allowed: that tile has a token already."),
}
"""Each rule the engine refuses an action by, in a sentence for readers of another language
than English (the engine's own words, which name the place, are English: an English reader
gets them, a German or French one this)."""

SUGGEST_SECONDS = 2.5
"""How long an autocomplete may look for its choices: Discord drops an answer that comes
after three seconds, so a slow database shows an empty list instead of none."""

_UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction answered too late (or never seen)."""

Choice = TypeVar("Choice")


def user_message(error: BaseException) -> str | None:
    """What to tell the user about ``error``; ``None`` when it is unexpected (a bug)."""
    if isinstance(error, app_commands.CommandInvokeError):
        return user_message(error.original)
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        return user_message(error.__cause__)
    if isinstance(error, BotError):
        return error.message()
    if isinstance(error, IllegalAction):
        rule = REFUSED_ACTIONS.get(error.reason)
        # A reader of English (or of the pseudo-locale, which stands for it) gets the
        # engine's words, which name the place.
        english = language(reader()) is None
        translated = None if rule is None or english else lookup(rule, reader())
        return translated or _("Not allowed: {reason}.", reason=error.message)
    if isinstance(error, InvalidInput):
        return _("I could not read that: {reason}.", reason=error)
    return _store_message(error) or _discord_message(error)


def _store_message(error: BaseException) -> str | None:
    if isinstance(error, ConnectionLost):
        return _("The game's database is not answering; try again in a minute.")
    if isinstance(error, CannotSave):
        return _("The bot cannot save right now ({why}); nothing was changed.", why=error.why)
    if isinstance(error, DatabaseUnavailable):
        return _("The game's database cannot do this right now; try again in a minute.")
    if isinstance(error, ChannelBusy):
        return _("A game is already running in this channel (or waiting in its lobby).")
    if isinstance(error, LobbyFull):
        return _("The lobby is full: {n} players.", n=error.max_seats)
    if isinstance(error, AlreadySeated):
        return _("You are already seated in this game.")
    if isinstance(error, NotSeated):
        return _("You are not in this game.")
    if isinstance(error, NotInLobby):
        if error.status is GameStatus.ACTIVE:
            return _("The game has already started.")
        return _("This lobby is closed.")
    if isinstance(error, NotActive | GameClosed):
        return _("This game is over.")
    if isinstance(error, RevisionConflict):
        return _(
            "The game changed at the same moment (someone was faster). "
            "Nothing was changed: please look again and retry."
        )
    if isinstance(error, StalePanel):
        return _("This panel was changed by another press at the same moment: nothing was played.")
    if isinstance(error, NotFound):
        return _("That game no longer exists.")
    if isinstance(error, DamagedLog):
        return DamagedState().message()
    return None


def _discord_message(error: BaseException) -> str | None:
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("Cascadia is played in a server channel, not in direct messages.")
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use this command here.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return _n(
            "Slow down: try again in {n} second.",
            "Slow down: try again in {n} seconds.",
            round(error.retry_after),
        )
    return None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` privately with what went wrong, and log it.

    The command tree's error handler and the button callbacks all end here.
    """
    text = user_message(error)
    with speaking(None):
        logged = user_message(error)  # the log reads English
    where = _describe(interaction)
    if too_late(error):
        # Discord dropped the interaction before the bot's first answer (the bot or its host
        # was busy for seconds): nothing can be answered now, and nothing was done.
        log.warning("%s came too late for Discord: not answered", where)
        return
    if text is None:
        log.error("unexpected error in %s", where, exc_info=error)
        text = _(APOLOGY)
    else:
        log.info("refused %s: %s", where, logged)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except Exception:
        # The reporter must not fail in turn (Discord down, the bot shutting down).
        log.warning("could not send the error answer for %s", where, exc_info=True)


def _describe(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command is not None else None
    custom_id = cast("dict[str, Any]", interaction.data or {}).get("custom_id")
    what = command or custom_id or "interaction"
    return (
        f"{what!s} (interaction {interaction.id}, user {interaction.user.id},"
        f" channel {interaction.channel_id})"
    )


async def suggest(
    interaction: discord.Interaction, finding: Awaitable[list[Choice]]
) -> list[Choice]:
    """What ``finding`` offers an autocomplete, or nothing if it fails or takes longer than
    :data:`SUGGEST_SECONDS`: an autocomplete cannot show an error, and the command itself
    says what is wrong when it is sent. Unexpected errors are logged with their traceback."""
    try:
        async with asyncio.timeout(SUGGEST_SECONDS):
            return await finding
    except TimeoutError:
        log.info("autocomplete in %s took too long: nothing offered", _describe(interaction))
    except Exception as error:
        if user_message(error) is None:
            log.exception("autocomplete failed in %s", _describe(interaction))
        else:
            log.debug("autocomplete in %s offers nothing: %s", _describe(interaction), error)
    return []


def too_late(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an answer that came after its three seconds."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.NotFound) and error.code == _UNKNOWN_INTERACTION


class LateSuggestions(logging.Filter):
    """A filter for discord.py's command tree log: an autocomplete whose answer Discord
    refused as too late (the bot was busy) is one warning line, not an error with a
    traceback; nothing is lost, the user types on or asks again."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Shorten a late autocomplete's record; let every record through."""
        error = record.exc_info[1] if record.exc_info else None
        if (
            error is not None
            and too_late(error)
            and str(record.msg).startswith("Ignoring exception in autocomplete")
        ):
            what = record.getMessage().removeprefix("Ignoring exception in ")
            record.msg, record.args = "%s: its answer came too late for Discord", (what,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True
