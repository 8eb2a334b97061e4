"""The lobby: its message, its Join/Leave/Start/Add computer/Remove computer buttons, and what
joining, leaving, starting and seating or removing a computer do, whether asked with a button
or a command.

The buttons are :class:`discord.ui.DynamicItem` whose ``custom_id`` carries only the game id
(and, on the host's private choice of computer player, how many computers had seats when it
was asked and the player chosen), so a lobby posted before a restart still works after it,
and so does a choice asked before it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

import aiohttp
import discord
from discord import app_commands

from bot.game import computers, messages
from bot.game.buttons import AGAIN_LABEL
from bot.game.captions import MAX_CHOICES
from bot.game.errors import BotError, NoGame, NotInLobby
from bot.game.lobby import parse_cards
from bot.game.markdown import jump_url
from bot.game.rows import GameStatus
from bot.game.service import LoadedGame
from bot.shell.buttons import ActionButton, GameButton, Question
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from bot.shell.permissions import outcome, require_permissions
from bot.tables import texts
from bot.tables.service import Tables
from engine import SCENARIOS, CardSet
from i18n import N_, _, reader, speaking

Interaction = discord.Interaction[CascadiaBot]

log = logging.getLogger(__name__)


THREAD_ARCHIVE_MINUTES: Final = 10080
"""The longest auto-archive Discord offers (a week): a table's thread waits for its players."""
THREAD_PERMISSIONS = (
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)
"""What the bot needs in a channel to open tables in threads, by their names in Discord."""
MAX_THREAD_NAME = 100
"""The longest thread name Discord takes."""
MAX_CHOICE_NAME = 100
"""The longest autocomplete choice name Discord takes."""


async def open_lobby(
    interaction: Interaction,
    cards: str | None,
    thread: bool | None,
    *,
    ping: bool = True,
    scenario: int | None = None,
) -> None:
    """``/cascadia new``: open a lobby in this channel, or in a new thread of it (by default
    as the server says), and post its message (and, for a thread, a line in the channel to
    find it by); the server's lobby role is called once, unless ``ping`` is false."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    require_permissions(interaction)
    if scenario is not None:
        cards = scenario_cards(scenario, cards)
    bot = interaction.client
    guild_id, user = interaction.guild_id or 0, interaction.user
    parent = interaction.channel
    if thread is None:
        in_thread = guild_id != 0 and (await bot.part(Tables).settings(guild_id)).threads
    else:
        in_thread = thread
    if in_thread and isinstance(parent, discord.TextChannel):
        cards = await bot.service.lobby.may_open(guild_id=guild_id, user_id=user.id, cards=cards)
        room = await _open_thread(interaction, parent, cards)
        try:
            loaded = await bot.service.lobby.open_lobby(
                guild_id=guild_id,
                channel_id=room.id,
                user_id=user.id,
                name=user.display_name,
                cards=cards,
                parent_id=parent.id,
            )
        except BaseException:
            await _drop_thread(room)
            raise
    else:
        if thread and parent is not None and not isinstance(parent, discord.TextChannel):
            raise BotError(
                _("Tables open in threads of a text channel: here, open it with `thread:False`.")
            )
        loaded = await bot.service.lobby.open_lobby(
            guild_id=guild_id,
            channel_id=_channel_id(interaction),
            user_id=user.id,
            name=user.display_name,
            cards=cards,
        )
    # Noted before the message goes out: no later post, edit or restart calls the role again.
    role = await bot.part(Tables).role_to_call(loaded, ping=ping)
    if not await post_lobby(bot, loaded, role=role):
        await interaction.followup.send(
            _(
                "Your lobby is open, but I could not post its message (check that I may send "
                "messages there). Players can still `/cascadia join`; you `/cascadia start`."
            ),
            ephemeral=True,
        )
        return
    if loaded.game.parent_id is None:
        text = _(
            "Your lobby is open. Others press **Join**; you press **Start** when everyone is in."
        )
    else:
        where = f"<#{loaded.game.channel_id}>"
        text = _(
            "Your lobby is open in {thread}. Others press **Join**; you press **Start** when "
            "everyone is in.",
            thread=where,
        )
    await interaction.followup.send(text, ephemeral=True)


async def _open_thread(
    interaction: Interaction, parent: discord.TextChannel, cards: str
) -> discord.Thread:
    """A public thread of ``parent`` for a new table, named for its host and cards; refused
    in one sentence when the bot may not open threads there or post in them."""
    have = interaction.app_permissions
    missing = [_(name) for flag, name in THREAD_PERMISSIONS if not getattr(have, flag)]
    if missing:
        needed = (
            missing[0]
            if len(missing) == 1
            else _(
                "{permission} and {other_permission}",
                permission=missing[0],
                other_permission=missing[1],
            )
        )
        raise BotError(
            _(
                "To open tables in threads here I need **{permissions}** in this channel: ask a "
                "server admin to grant it, or open the table here with `thread:False`.",
                permissions=needed,
            )
        )
    # The thread's name is public: in the server's language, as the lobby will be.
    with speaking(await _server_locale(interaction)):
        shown = _cards_shown(cards)
    name = f"Cascadia · {interaction.user.display_name} · {shown}"[:MAX_THREAD_NAME]
    try:
        return await parent.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            reason=f"a Cascadia table opened by {interaction.user.id}",
        )
    except discord.Forbidden:
        raise BotError(
            _(
                "Discord did not let me open a thread here: check that I may "
                "**Create Public Threads** in this channel."
            )
        ) from None


async def _server_locale(interaction: Interaction) -> str | None:
    """The language a new table's public texts are worded in: the server's, as its lobby
    will be (see :meth:`bot.game.lobby.Lobby.open_lobby`)."""
    if interaction.guild_id is None:
        return None
    return await interaction.client.service.lobby.store.guild_locale(interaction.guild_id)


async def _drop_thread(room: discord.Thread) -> None:
    """Delete a thread made for a lobby that could not open after all, if Discord lets us."""
    try:
        await room.delete()
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        log.warning("could not delete the unused thread %d", room.id, exc_info=True)


async def post_lobby(bot: CascadiaBot, loaded: LoadedGame, *, role: int | None = None) -> bool:
    """Post the lobby message of a new lobby where it is played, and remember it; for a game
    in a thread, a line with a **Join** button in the thread's channel too. ``role``: the
    lobby role to call, in the channel's line for a thread's game (where the channel reads
    it), else above the lobby message. Whether the lobby message could be posted."""
    game = loaded.game
    channel = bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    computers = any(player.computer is not None for player in loaded.players)
    # A new table in a thread gets a line in its channel, which calls the role; the lobby
    # of a game played again in its thread gets none (its players are seated already).
    with_line = game.parent_id is not None and game.continues is None
    with speaking(game.locale):  # the lobby is public: in the game's language
        text, mentions = _calling(lobby_text(loaded), None if with_line else role)
        view = lobby_view(game.id, computers=computers)
    try:
        message = await channel.send(text, view=view, allowed_mentions=mentions)
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        log.warning("could not post the lobby of game %d", game.id, exc_info=True)
        return False
    await bot.service.lobby.set_lobby_message(game.id, message.id)
    if game.parent_id is None:
        return True
    if not with_line:
        # The thread was to close soon after the last game: it waits a week again.
        await bot.rest_thread(game.channel_id, THREAD_ARCHIVE_MINUTES)
        return True
    host = next(p for p in loaded.players if p.user_id == game.host_id)
    with speaking(game.locale):  # the channel's line: in the game's language too
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(game.id))
        line = messages.table_opened_line(host.name, game.channel_id, _cards_shown(game.cards))
        line, mentions = _calling(line, role)
    parent = bot.get_partial_messageable(game.parent_id, guild_id=game.guild_id)
    try:
        await parent.send(line, view=view, allowed_mentions=mentions)
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        log.warning("could not post game %d's line in its channel", game.id, exc_info=True)
    return True


def scenario_cards(number: int, cards: str | None) -> str:
    """The cards of solo scenario ``number``; refused when ``cards`` asks for others."""
    fixed = SCENARIOS[number - 1].cards
    if cards is not None and parse_cards(cards) not in ("random", str(fixed)):
        raise BotError(
            _(
                "Solo scenario {number} plays with its own cards ({cards}): leave `cards` out.",
                number=number,
                cards=messages.cards_text(fixed, locale=reader()),
            )
        )
    return str(fixed)


def _calling(text: str, role: int | None) -> tuple[str, discord.AllowedMentions]:
    """``text`` with the line that calls ``role`` above it, and the mentions it may make:
    that role only, or nobody."""
    if role is None:
        return text, discord.AllowedMentions.none()
    mentions = discord.AllowedMentions(
        everyone=False, users=False, roles=[discord.Object(id=role)], replied_user=False
    )
    return f"{texts.call_line(role)}\n{text}", mentions


async def play_again(interaction: Interaction, game_id: int) -> None:
    """**Play again**: a new lobby where the finished game was played, with its players."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    loaded = await bot.service.lobby.play_again(game_id, user_id=interaction.user.id)
    if not await post_lobby(bot, loaded):
        await interaction.followup.send(
            _(
                "The new lobby is open, but I could not post its message: `/cascadia start` "
                "still starts it."
            ),
            ephemeral=True,
        )
        return
    await interaction.followup.send(
        _("The new lobby is open with the same players: press **Start** when everyone is in."),
        ephemeral=True,
    )


async def join(interaction: Interaction, game_id: int | None, *, button: bool = False) -> None:
    """Seat the caller in the lobby (``game_id`` from a button, else this channel's). Asked
    where there is no game, the answer lists the server's open tables instead."""
    await _acknowledge(interaction, button)
    bot = interaction.client
    if game_id is None:
        try:
            game_id = await _channel_game(interaction)
        except NoGame:
            await open_tables(interaction)
            return
    require_permissions(interaction)
    async with _tidied(bot, game_id, button=button):
        loaded = await bot.service.lobby.join(
            game_id, user_id=interaction.user.id, name=interaction.user.display_name
        )
    await refresh(bot, loaded)
    message = interaction.message
    if not button:
        await interaction.followup.send(_("You have a seat in this game."), ephemeral=True)
    elif message is not None and message.id != loaded.game.lobby_message_id:
        # Pressed away from the lobby (the list of open tables, a thread's line in its
        # channel): say where the seat is.
        game = loaded.game
        link = jump_url(game.guild_id, game.channel_id, game.lobby_message_id)
        await interaction.followup.send(
            _("You have a seat: [the lobby]({link}).", link=link), ephemeral=True
        )


async def open_tables(interaction: Interaction) -> None:
    """The server's open tables with a free seat, privately, each with its **Join**."""
    if interaction.guild_id is None:
        raise NoGame()
    found = await interaction.client.part(Tables).open_tables(
        interaction.guild_id, visible=functools.partial(_visible, interaction)
    )
    view = discord.ui.View(timeout=None)
    for number, lobby in enumerate(found.tables, start=1):
        button = JoinButton(lobby.game.id)
        button.item.label = _("Join {number}", number=number)
        view.add_item(button)
    await interaction.followup.send(
        found.text, view=view if found.tables else discord.utils.MISSING, ephemeral=True
    )


async def leave(interaction: Interaction, game_id: int | None, *, button: bool = False) -> None:
    """Give up the caller's seat; the host leaving hands the lobby to the next person (the
    channel is told), or closes it when nobody is left to host it."""
    await _acknowledge(interaction, button)
    bot = interaction.client
    game_id = game_id if game_id is not None else await _channel_game(interaction)
    async with _tidied(bot, game_id, button=button):
        left = await bot.service.lobby.leave(game_id, user_id=interaction.user.id)
    loaded = left.loaded
    await refresh(bot, loaded)
    if left.outbox_ids:
        await bot.announce(left.outbox_ids)
    if not button:
        closed = loaded.game.status is not GameStatus.LOBBY
        await interaction.followup.send(
            _("You left; the lobby is closed.") if closed else _("You left the lobby."),
            ephemeral=True,
        )


async def start(interaction: Interaction, game_id: int | None, *, button: bool = False) -> None:
    """The host starts the game; the first turn message goes to the channel."""
    await _acknowledge(interaction, button)
    require_permissions(interaction)
    bot = interaction.client
    game_id = game_id if game_id is not None else await _channel_game(interaction)
    async with _tidied(bot, game_id, button=button):
        # The start message is public: in the server's language.
        locale = interaction.guild_locale.value if interaction.guild_locale else None
        result = await bot.service.lobby.start(game_id, user_id=interaction.user.id, locale=locale)
    posted = await bot.announce(result.outbox_ids)
    await refresh(bot, await bot.service.game_by_id(game_id))
    if not button:
        text = outcome(interaction, _("The game has started."), posted=posted)
        await interaction.followup.send(text, ephemeral=True)


async def ask_computer(interaction: Interaction, game_id: int) -> None:
    """The host chooses which computer player to seat, privately (Add computer)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await interaction.client.service.lobby.check_host(
        game_id, user_id=interaction.user.id, what="add a computer"
    )
    await interaction.followup.send(
        messages.computer_choice_text(interaction.client.service.thinker.strong_seconds),
        view=ComputerChoice(interaction, game_id=game_id, seen=loaded.computers),
        ephemeral=True,
    )


async def add_computer(interaction: Interaction, game_id: int, policy: str, *, seen: int) -> None:
    """Seat the computer player ``policy`` unless a computer was seated since the host was
    asked (``seen`` computers then), and update the lobby message."""
    bot = interaction.client
    loaded = await bot.service.lobby.add_computer(
        game_id, user_id=interaction.user.id, policy=policy, seen=seen
    )
    await refresh(bot, loaded)
    await interaction.edit_original_response(
        content=_("**{name}** has a seat.", name=computers.computer_name(policy)), view=None
    )


async def remove_computer(interaction: Interaction, game_id: int) -> None:
    """The host takes the computer seated last out of the lobby (Remove computer)."""
    await _acknowledge(interaction, True)
    bot = interaction.client
    loaded = await bot.service.lobby.remove_computer(game_id, user_id=interaction.user.id)
    await refresh(bot, loaded)


# Translators: the computer players' names, as the host's question names them.
COMPUTER_LABELS = {"fast": N_("fast"), "strong": N_("strong")}
"""The computer players' names on the host's buttons, as the host's language writes them."""


class LabelledButton(GameButton, template=r"$^"):
    """A game's button whose label is worded in the reader's language when it is made: the
    person's for a private answer, the game's for a public message."""

    def __init__(self, game_id: int, *, tail: str = "") -> None:
        super().__init__(game_id, tail=tail)
        self.item.label = _(self.label)


class ComputerChoice(Question):
    """The host's private choice of computer player: one :class:`ComputerButton` per player."""

    def __init__(self, original: Interaction, *, game_id: int, seen: int) -> None:
        choices = (ComputerButton(game_id, seen, p) for p in computers.COMPUTER_PLAYERS)
        super().__init__(original, *choices)
        # Worded now, in the host's language: it may be shown after the answer is over.
        self.expired = _("No answer: no computer was added.")


class ComputerButton(
    ActionButton,
    template=(
        r"cascadia:seatcomputer:(?P<game_id>[0-9]+):(?P<seen>[0-9]+)"
        rf":(?P<policy>{'|'.join(computers.COMPUTER_PLAYERS)})"
    ),
):
    """One computer player to choose, labelled with its name; the custom id carries the game,
    how many computers had seats when the host was asked, and the player."""

    defer = True
    text_fields = frozenset({"policy"})

    def __init__(self, game_id: int, seen: int, policy: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(COMPUTER_LABELS.get(policy, policy)),
                style=discord.ButtonStyle.primary,
                custom_id=f"cascadia:seatcomputer:{game_id}:{seen}:{policy}",
            )
        )
        self.game_id = game_id
        self.seen = seen
        self.policy = policy

    async def act(self, interaction: Interaction) -> None:
        """Seat this computer player."""
        await add_computer(interaction, self.game_id, self.policy, seen=self.seen)


def lobby_text(loaded: LoadedGame) -> str:
    """The lobby message for the game as it is now, in the reader's language (where it is
    posted, the game's)."""
    if loaded.game.status is GameStatus.LOBBY:
        closed = None
    elif loaded.state is None:
        closed = _("This lobby is closed.")
    else:
        closed = _("The game has started.")
    text = messages.lobby_message(
        loaded.players,
        host_id=loaded.game.host_id,
        cards=_cards_shown(loaded.game.cards),
        closed=closed,
        continues=loaded.game.continues,
    )
    cards = loaded.game.cards
    scenario = None if cards == "random" else messages.scenario_with(CardSet.parse(cards))
    if scenario is None or closed is not None:
        return text
    alone = _(
        "Played alone, this is {scenario}",
        scenario=messages.scenario_text(scenario, locale=reader()),
    )
    return f"{text}\n{alone}"


def _cards_shown(cards: str) -> str:
    """A lobby's stored cards rule in words, in the reader's language."""
    if cards == "random":
        return _("random")
    return messages.cards_text(CardSet.parse(cards), locale=reader())


def lobby_view(game_id: int, *, computers: bool = False) -> discord.ui.View:
    """The lobby's buttons for ``game_id``; Remove computer only when ``computers`` (a
    computer has a seat)."""
    view = discord.ui.View(timeout=None)
    items: list[GameButton] = [
        JoinButton(game_id),
        LeaveButton(game_id),
        StartButton(game_id),
        AddComputerButton(game_id),
    ]
    if computers:
        items.append(RemoveComputerButton(game_id))
    for item in items:
        view.add_item(item)
    return view


async def refresh(bot: CascadiaBot, loaded: LoadedGame) -> None:
    """Bring the lobby message up to date; buttons go once the lobby is over.

    The message is a convenience (commands work without it), so failing to edit it is logged
    and not reported.
    """
    message_id = loaded.game.lobby_message_id
    if message_id is None:
        return
    view = None
    with speaking(loaded.game.locale):  # the lobby is public: in the game's language
        if loaded.game.status is GameStatus.LOBBY:
            computers = any(player.computer is not None for player in loaded.players)
            view = lobby_view(loaded.game.id, computers=computers)
        text = lobby_text(loaded)
    message = bot.get_partial_messageable(loaded.game.channel_id).get_partial_message(message_id)
    try:
        await message.edit(content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        # The seat change is committed already; a lost connection only leaves the text stale.
        log.warning("could not update the lobby message of game %d", loaded.game.id, exc_info=True)


@contextlib.asynccontextmanager
async def _tidied(bot: CascadiaBot, game_id: int, *, button: bool) -> AsyncIterator[None]:
    """A button pressed on a lobby that is over (started, or closed unstarted by the periodic
    check, which does not reach the message) is refused as before, and its message is brought
    up to date first: its buttons go."""
    try:
        yield
    except NotInLobby:
        if button:
            with contextlib.suppress(NoGame):
                await refresh(bot, await bot.service.game_by_id(game_id))
        raise


async def _acknowledge(interaction: Interaction, button: bool) -> None:
    # A button only updates the lobby message, so it acknowledges without a new message; a
    # command answers privately.
    if button:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def _channel_game(interaction: Interaction) -> int:
    loaded = await interaction.client.service.game(_channel_id(interaction))
    return loaded.game.id


def _visible(interaction: Interaction, channel_id: int) -> bool:
    """Whether the member asking may see the channel (or thread) ``channel_id``: one the bot
    does not know (a thread it has not seen since it started, say) is shown, its link then
    opens only for those who may see it."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    return channel is None or channel.permissions_for(member).view_channel


def _channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise NoGame()
    return interaction.channel_id


class JoinButton(LabelledButton, template=r"cascadia:join:(?P<game_id>[0-9]+)"):
    """Take a seat."""

    action, label, style = "join", N_("Join"), discord.ButtonStyle.success

    async def act(self, interaction: Interaction) -> None:
        """Seat the presser."""
        await join(interaction, self.game_id, button=True)


class LeaveButton(LabelledButton, template=r"cascadia:leave:(?P<game_id>[0-9]+)"):
    """Give up a seat."""

    action, label, style = "leave", N_("Leave"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Unseat the presser."""
        await leave(interaction, self.game_id, button=True)


class StartButton(LabelledButton, template=r"cascadia:start:(?P<game_id>[0-9]+)"):
    """Start the game (host only)."""

    action, label, style = "start", N_("Start"), discord.ButtonStyle.primary

    async def act(self, interaction: Interaction) -> None:
        """Start the game if the presser is the host."""
        await start(interaction, self.game_id, button=True)


class AddComputerButton(LabelledButton, template=r"cascadia:addcomputer:(?P<game_id>[0-9]+)"):
    """Seat a computer player (host only)."""

    action, label, style = "addcomputer", N_("Add computer"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Ask the host which computer player to seat."""
        await ask_computer(interaction, self.game_id)


class RemoveComputerButton(LabelledButton, template=r"cascadia:removecomputer:(?P<game_id>[0-9]+)"):
    """Take the computer seated last out of the lobby (host only)."""

    action, label, style = "removecomputer", N_("Remove computer"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Unseat the last computer if the presser is the host."""
        await remove_computer(interaction, self.game_id)


class PlayAgainButton(LabelledButton, template=r"cascadia:again:(?P<game_id>[0-9]+)"):
    """Open the next game's lobby with the finished game's players (any of them)."""

    action, label, style = "again", AGAIN_LABEL, discord.ButtonStyle.success

    async def act(self, interaction: Interaction) -> None:
        """Open the new lobby."""
        await play_again(interaction, self.game_id)


LOBBY_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PlayAgainButton,
    JoinButton,
    LeaveButton,
    StartButton,
    AddComputerButton,
    RemoveComputerButton,
    ComputerButton,
)
"""The dynamic items the cog registers: the lobby's and the host's choice of computer."""


CARD_SUGGESTIONS = (
    (N_("random (default)"), "random"),
    (N_("A for every wildlife (suggested first game)"), "A"),
    (N_("B for every wildlife"), "B"),
    (N_("C for every wildlife"), "C"),
    (N_("D for every wildlife"), "D"),
    (N_("Family variant"), "family"),
    (N_("Intermediate variant"), "intermediate"),
)
"""What ``/cascadia new``'s cards option suggests (the names shown in the typer's language)."""


@app_commands.command(name="new", description="Open a game lobby in this channel")
@app_commands.describe(
    cards="random (default), A-D for all, ABCDA (bear elk salmon hawk fox), family, intermediate",
    thread="Play in a new thread of this channel, so that many tables share it",
    ping="(optional) Call the server's lobby role, if it has one (default: yes)",
    scenario="A solo scenario, 1-15: set cards, a target score and conditions to meet",
)
async def new(
    interaction: Interaction,
    cards: str | None = None,
    thread: bool | None = None,
    ping: bool = True,
    scenario: app_commands.Range[int, 1, len(SCENARIOS)] | None = None,
) -> None:
    """Open a lobby with the caller as host."""
    await open_lobby(interaction, cards, thread, ping=ping, scenario=scenario)


@new.autocomplete("cards")
async def _cards_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    typed = current.strip()
    shown = [(_(name)[:MAX_CHOICE_NAME], value) for name, value in CARD_SUGGESTIONS]
    found = [
        app_commands.Choice(name=name, value=value)
        for name, value in shown
        if typed.lower() in name.lower() or typed.lower() in value.lower()
    ]
    if len(typed) == 5 and all(c in "ABCDabcd" for c in typed):
        found.insert(0, app_commands.Choice(name=typed.upper(), value=typed.upper()))
    return found[:MAX_CHOICES]


@app_commands.command(
    name="join", description="Take a seat in this channel's lobby, or see the server's open tables"
)
async def join_command(interaction: Interaction) -> None:
    """Seat the caller."""
    await join(interaction, None)


@app_commands.command(name="start", description="Start the game with the seated players (host)")
async def start_command(interaction: Interaction) -> None:
    """Start the game."""
    await start(interaction, None)


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (new, join_command, start_command)


async def setup(bot: CascadiaBot) -> None:
    """Add the lobby's commands to ``/cascadia`` and register its buttons, so that lobbies
    posted before a restart still work (called by ``load_extension``)."""
    add_commands(bot, *COMMANDS)
    bot.add_dynamic_items(*LOBBY_BUTTONS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the commands and buttons away with the extension."""
    remove_commands(bot, *(command.name for command in COMMANDS))
    bot.remove_dynamic_items(*LOBBY_BUTTONS)
