"""The game's own ``/cascadia`` commands: play, preview, hint, wipe, board, status, score,
mygames, export, help, leave and end.

Each command acknowledges first (Discord allows three seconds), then reads: parse (the
transformers below) -> the game service (load, engine, save with the revision read) -> post
what the write queued -> answer the caller privately. Errors go to the tree's one handler.
Pictures are drawn in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands

from bot.daily.service import DailyTrek
from bot.game import messages
from bot.game.captions import (
    display_description,
    environment_description,
    environment_files,
    environment_score,
    scores_description,
)
from bot.game.errors import NoGame, NotInGame
from bot.game.names import clean, safe
from bot.game.records import export_file
from bot.game.rows import GameStatus
from bot.game.service import LoadedGame
from bot.lobby import cog as lobby
from bot.play import choices
from bot.play.views import CONFIRM_BUTTONS, EndConfirmation, LeaveConfirmation
from bot.shell import errors
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from bot.shell.permissions import outcome
from engine import Hex, InvalidInput, Move
from i18n import _
from render import render_display, render_environment, render_preview, render_scores

log = logging.getLogger(__name__)

Interaction = discord.Interaction[CascadiaBot]


TURN_OPTIONS = {
    "pair": "The display pair to take, 1-4",
    "tile_at": "Where the tile goes (q,r); the list shows the free places",
    "rotation": "How the tile is turned, 0-5; the list says which way each habitat faces",
    "token_at": 'The tile that gets the token (q,r), or "return" to put it back in the bag',
    "token": "Another pair's token instead: spends a nature token",
}


def _channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise NoGame()
    return interaction.channel_id


async def _turn_channel(interaction: Interaction) -> int:
    """Where a typed turn plays: this channel's game, or the caller's daily trek when they
    have no seat here."""
    daily = interaction.client.part(DailyTrek)
    return await daily.turn_channel(_channel_id(interaction), interaction.user.id)


async def _position_choices(
    interaction: Interaction, typed: str, *, focused: str
) -> list[app_commands.Choice[str]]:
    """The choices for the ``focused`` option of the caller's turn (``tile_at``, ``token_at``
    or ``rotation``), filtered by ``typed`` (nothing when there is no game or it cannot be
    read in time, see :func:`bot.shell.errors.suggest`)."""
    return await errors.suggest(interaction, _positions(interaction, typed, focused=focused))


async def _positions(
    interaction: Interaction, typed: str, *, focused: str
) -> list[app_commands.Choice[str]]:
    loaded = await interaction.client.service.game(await _turn_channel(interaction))
    seat = loaded.seat_of(interaction.user.id)
    state = loaded.state
    if state is None or seat is None or state.is_over:
        return []
    namespace = interaction.namespace
    pair = _maybe_int(getattr(namespace, "pair", None))
    token = _maybe_int(getattr(namespace, "token", None))
    tile_at = choices.parse_hex(_maybe_str(getattr(namespace, "tile_at", None)))
    if focused == "token_at":
        options = choices.token_choices(
            state,
            seat,
            pair=pair,
            tile_at=tile_at,
            rotation=_maybe_int(getattr(namespace, "rotation", None)),
            token=token,
        )
    elif focused == "rotation":
        options = choices.rotation_choices(state, seat, pair=pair, tile_at=tile_at, token=token)
    else:
        options = choices.tile_choices(state, seat, pair=pair, token=token)
    return [
        app_commands.Choice(name=c.name, value=c.value) for c in choices.matching(options, typed)
    ]


def _maybe_int(value: object) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def _maybe_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


class TilePosition(app_commands.Transformer[CascadiaBot]):
    """A hex typed as ``q,r``, suggesting where the caller's tile may go."""

    async def transform(self, interaction: Interaction, value: str, /) -> Hex:
        """Read the position."""
        return Hex.parse(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        """The free places next to the caller's environment."""
        return await _position_choices(interaction, str(value), focused="tile_at")


class TokenPosition(app_commands.Transformer[CascadiaBot]):
    """A hex typed as ``q,r``, or ``return``; suggests where the turn's token may go, given
    the pair, tile position and rotation already filled in."""

    async def transform(self, interaction: Interaction, value: str, /) -> Hex | None:
        """Read the position (``None``: return the token to the bag)."""
        if value.strip().lower() == choices.RETURN:
            return None
        try:
            return Hex.parse(value)
        except InvalidInput:
            raise InvalidInput(
                _(
                    "not a position: {typed} (expected q,r such as -1,2, or return)",
                    typed=repr(value[:40]),
                )
            ) from None

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        """The tiles that could take the token, then "return"."""
        return await _position_choices(interaction, str(value), focused="token_at")


class TurnOfTile(app_commands.Transformer[CascadiaBot]):
    """A rotation 0-5, suggesting in words which way each habitat of the pair's tile faces
    and what each turn adds to the corridors at the place typed."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        """A whole number."""
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        """The first rotation."""
        return 0

    @property
    def max_value(self) -> int:
        """The last rotation."""
        return 5

    async def transform(self, interaction: Interaction, value: Any, /) -> int:
        """Read the rotation (Discord checks the range)."""
        return int(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int]]:
        """The six rotations in words (one for a one-habitat tile)."""
        found = await _position_choices(interaction, str(value), focused="rotation")
        # An integer option takes integer choices.
        return [app_commands.Choice(name=c.name, value=int(c.value)) for c in found]


Pair = app_commands.Range[int, 1, 4]
Rotation = app_commands.Transform[int, TurnOfTile]
TileAt = app_commands.Transform[Hex, TilePosition]
TokenAt = app_commands.Transform[Hex | None, TokenPosition]


def _png(name: str, data: bytes, description: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description)


async def _done(interaction: Interaction, sent: bool, text: str) -> None:
    await interaction.followup.send(outcome(interaction, text, posted=sent), ephemeral=True)


async def _last_game(interaction: Interaction) -> LoadedGame:
    return await interaction.client.service.last_game(
        _channel_id(interaction), user_id=interaction.user.id
    )


@app_commands.command(
    name="leave", description="Give up your seat (in a game in play the computer takes it)"
)
async def leave(interaction: Interaction) -> None:
    """Unseat the caller from the lobby; in a game in play, after a confirmation, hand
    their seat to the computer."""
    loaded = await interaction.client.service.game(_channel_id(interaction))
    if loaded.state is None:
        await lobby.leave(interaction, loaded.game.id)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await interaction.client.service.turns.check_can_leave(
        _channel_id(interaction), user_id=interaction.user.id
    )
    await interaction.followup.send(
        _("Leave this game for good? The computer (fast) plays your seat from now on."),
        view=LeaveConfirmation(interaction, game_id=loaded.game.id),
        ephemeral=True,
    )


@app_commands.command(name="play", description="Play your whole turn")
@app_commands.describe(**TURN_OPTIONS)
async def play(
    interaction: Interaction,
    pair: Pair,
    tile_at: TileAt,
    rotation: Rotation,
    token_at: TokenAt,
    token: Pair | None = None,
) -> None:
    """Take a pair, place the tile, place or return the token; the next player is
    pinged in the channel."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    move = Move(pair, pair if token is None else token, tile_at, rotation, token_at)
    result = await interaction.client.service.turns.play(
        await _turn_channel(interaction), user_id=interaction.user.id, move=move
    )
    await _done(
        interaction, await interaction.client.announce(result.outbox_ids), _("Turn played.")
    )


@app_commands.command(name="preview", description="See a turn before playing it (only you see it)")
@app_commands.describe(**TURN_OPTIONS)
async def preview(
    interaction: Interaction,
    pair: Pair,
    tile_at: TileAt,
    rotation: Rotation,
    token_at: TokenAt,
    token: Pair | None = None,
) -> None:
    """Show the environment after the turn and the score change; nothing is played."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    move = Move(pair, pair if token is None else token, tile_at, rotation, token_at)
    found = await interaction.client.service.turns.preview(
        await _turn_channel(interaction), user_id=interaction.user.id, move=move
    )
    state = found.game.require_state()
    image = await asyncio.to_thread(
        render_preview,
        found.after,
        found.seat,
        name=found.game.players[found.seat].name,
        highlight=found.placed,
        score=found.total_after,
    )
    await interaction.followup.send(
        messages.preview_message(
            found.score_after - found.score_before,
            found.total_after,
            your_turn=found.seat == state.current,
        ),
        file=_png(
            "preview.png",
            image,
            _(
                "Preview: {description}",
                description=environment_description(
                    found.game.players[found.seat].name,
                    found.after,
                    found.seat,
                    found.total_after,
                ),
            ),
        ),
        ephemeral=True,
    )


@app_commands.command(name="hint", description="The computer's best moves for your turn (once)")
async def hint(interaction: Interaction) -> None:
    """Show privately the fast computer player's three best moves, each as the exact
    ``/cascadia play`` command, and the preview of the first; once per turn."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await interaction.client.service.turns.hint(
        await _turn_channel(interaction), user_id=interaction.user.id
    )
    files = []
    if found.previews:
        best = found.previews[0]
        image = await asyncio.to_thread(
            render_preview,
            best.after,
            best.seat,
            name=best.game.players[best.seat].name,
            highlight=best.placed,
            score=best.total_after,
        )
        description = _(
            "Hint: {description}",
            description=environment_description(
                best.game.players[best.seat].name, best.after, best.seat, best.total_after
            ),
        )
        files.append(_png("hint.png", image, description))
    await interaction.followup.send(found.text(), files=files, ephemeral=True)


@app_commands.command(
    name="wipe", description="Wipe three matching tokens, or spend a nature token"
)
@app_commands.describe(
    tokens="Leave empty for the three-of-a-kind wipe; or the tokens to wipe with a nature "
    "token, e.g. 1 3"
)
async def wipe(interaction: Interaction, tokens: str | None = None) -> None:
    """Replace display tokens; the same player then goes on with their turn."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await interaction.client.service.turns.wipe(
        await _turn_channel(interaction), user_id=interaction.user.id, tokens=tokens
    )
    sent = await interaction.client.announce(result.outbox_ids)
    await _done(interaction, sent, _("Wiped: the new display is in the channel."))


@app_commands.command(name="board", description="The display and a player's environment")
@app_commands.describe(player="Whose environment (default: yours)")
async def board(
    interaction: Interaction, player: discord.Member | discord.User | None = None
) -> None:
    """Show privately the display and one environment."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await _last_game(interaction)
    state = loaded.require_state()
    who = player or interaction.user
    seat = loaded.seat_of(who.id)
    if seat is None:
        raise NotInGame("You are" if player is None else f"{safe(clean(who.display_name))} is")
    points = environment_score(state, seat)
    display, environment = await asyncio.gather(
        asyncio.to_thread(render_display, state),
        asyncio.to_thread(
            render_environment,
            state,
            seat,
            name=loaded.players[seat].name,
            score=points,
        ),
    )
    await interaction.followup.send(
        messages.board_message(state, seat, loaded.players),
        files=[
            _png("display.png", display, display_description(state)),
            _png(
                environment_files(loaded.names)[seat],
                environment,
                environment_description(loaded.players[seat].name, state, seat, points),
            ),
        ],
        ephemeral=True,
    )


@app_commands.command(name="status", description="Whose turn it is, and how far the game is")
async def status(interaction: Interaction) -> None:
    """Show privately whose turn it is, since when, turn numbers, tiles left, cards."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await _last_game(interaction)
    if loaded.state is None:
        text = lobby.lobby_text(loaded)
    else:
        deadline, away = await interaction.client.service.lookups.turn_facts(loaded)
        text = messages.status_message(
            loaded.state,
            loaded.players,
            turn_started_at=loaded.game.turn_started_at,
            ended=loaded.game.status is GameStatus.ENDED,
            deadline=deadline,
            away=away,
        )
    await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="score", description="The score sheet as it stands")
async def score(interaction: Interaction) -> None:
    """Show the score sheet (picture and words)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await _last_game(interaction)
    sheet = loaded.score_sheet()
    final = loaded.game.status is GameStatus.FINISHED
    # The picture's own title is "Final scores"; until then it says what it is.
    title = None if final else _("Scores so far")
    # Until the game is over the picture marks the leader, not a winner.
    image = await asyncio.to_thread(render_scores, sheet, title=title, final=final)
    await interaction.followup.send(
        messages.score_message(sheet, final=final),
        file=_png("scores.png", image, scores_description(sheet, final=final)),
        ephemeral=True,
    )


@app_commands.command(name="mygames", description="Your games, and where it is your turn")
async def mygames(interaction: Interaction) -> None:
    """List the caller's open games across channels."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    games = await interaction.client.service.lookups.my_games(interaction.user.id)
    await interaction.followup.send(messages.my_games_message(games), ephemeral=True)


@app_commands.command(name="export", description="Download the game record (JSON)")
async def export(interaction: Interaction) -> None:
    """The game's settings, players, moves, table and scores as a JSON file."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    document = await interaction.client.service.lookups.export(
        _channel_id(interaction), user_id=interaction.user.id
    )
    name, text = export_file(document)
    data = text.encode()
    await interaction.followup.send(
        _("The game record:"), file=discord.File(io.BytesIO(data), filename=name), ephemeral=True
    )


@app_commands.command(name="help", description="How to play, and the commands")
async def help(interaction: Interaction) -> None:
    """A short how-to-play, in the reader's language."""
    await interaction.response.send_message(
        messages.help_message(interaction.locale.value), ephemeral=True
    )


@app_commands.command(name="end", description="End this channel's game (host or Manage Channels)")
async def end(interaction: Interaction) -> None:
    """Ask for confirmation, then end the game for everyone."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    can_manage = interaction.permissions.manage_channels
    loaded = await interaction.client.service.turns.check_can_end(
        _channel_id(interaction), user_id=interaction.user.id, can_manage=can_manage
    )
    if loaded.state is not None:
        question = _("End this game for everyone? This cannot be undone.")
    else:
        question = _("End this lobby for everyone? This cannot be undone.")
    await interaction.followup.send(
        question,
        view=EndConfirmation(interaction, game_id=loaded.game.id),
        ephemeral=True,
    )


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    leave,
    play,
    preview,
    hint,
    wipe,
    board,
    status,
    score,
    mygames,
    export,
    help,
    end,
)


async def setup(bot: CascadiaBot) -> None:
    """Add the game's commands to ``/cascadia`` and register the confirmations' buttons
    (called by ``load_extension``)."""
    add_commands(bot, *COMMANDS)
    bot.add_dynamic_items(*CONFIRM_BUTTONS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the commands and buttons away with the extension."""
    remove_commands(bot, *(command.name for command in COMMANDS))
    bot.remove_dynamic_items(*CONFIRM_BUTTONS)
