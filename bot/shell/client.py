"""The Discord client: start-up, background tasks, and posting the outbox's messages.

The application (:mod:`bot.app`) builds the game service and the features' parts and hands
them in; the client loads the features' extensions, syncs the commands if they changed, and
runs two loops: the outbox drain (retries and start-up catch-up, then the features' chores)
and the reminder check (the features' passes). Computer seats are played by the part the
application gives for them, woken as soon as their turn is announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections.abc import Collection, Coroutine, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, TypeVar, cast

import aiohttp
import discord
import discord.asset
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands, tasks

import i18n
from bot.db.errors import DatabaseUnavailable
from bot.db.retry import when_available
from bot.game.errors import ServerOnly, ShuttingDown
from bot.game.outbox import DIRECT, MAX_TEXT, ChannelGone, Outbox, Post, PostRefused
from bot.game.rows import OutboxRow
from bot.game.service import GameService
from bot.game.uploads import fit_upload
from bot.ops.config import Settings
from bot.shell import errors
from bot.shell.direct import send_direct
from bot.shell.layout import Layout, buttons_view
from bot.shell.locales import LocaleNotes
from bot.shell.parts import Parts
from bot.shell.permissions import missing_permissions, permission_note
from bot.shell.sync import SyncRecord, record_path, sync_if_changed
from bot.shell.translator import CatalogTranslator
from i18n import N_, _

log = logging.getLogger(__name__)

T = TypeVar("T")

OUTBOX_SECONDS = 10.0
"""How often unsent messages are looked for (besides right after each commit)."""
SHUTDOWN_GRACE_SECONDS = 10.0
"""How long shutting down waits for requests being handled to finish."""
UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (any more)."""
HOST_COMMANDS = frozenset({"start", "end", "settings", "skip"})
"""The commands only the host may use (``end`` and ``skip`` also Manage Channels)."""
DIRECT_COMMANDS = frozenset(
    {"play", "preview", "hint", "wipe", "board", "status", "score", "export", "help", "daily"}
)
"""The commands that work in a direct message with the bot, where a daily trek is played."""
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
ARCHIVED_THREAD = 50083
"""Discord's code for a post into an archived thread that the bot may not reopen (locked)."""
"""Discord's error codes for a post the bot's permissions in the channel do not allow."""
MAX_LAYOUTS = 10_000
"""How many posted layouts are remembered for their buttons' edit (others are fetched)."""
NO_PICTURES = N_(
    "(No pictures: I may not attach files in this channel. `/cascadia board` shows them to you.)"
)
"""The note under a message posted without its pictures (in the reader's language: the
game's, as the outbox posts it)."""


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST, gateway and CDN hosts (a local server).

    discord.py reads these class attributes when it builds each request and connection, so
    they are set once, before login, and stay set.
    """
    if settings.api_base is not None:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    if settings.cdn_base is not None:
        discord.asset.Asset.BASE = settings.cdn_base


def intents() -> discord.Intents:
    """Only the guilds intent: slash commands and buttons need no more, and nothing
    privileged."""
    return discord.Intents(guilds=True)


class CascadiaTree(app_commands.CommandTree["CascadiaBot"]):
    """The command tree: admits requests (see :meth:`CascadiaBot.admit`) and holds the bot's
    single error handler."""

    async def interaction_check(self, interaction: discord.Interaction[CascadiaBot], /) -> bool:
        """Every command and autocomplete passes here first."""
        return await self.client.admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction[CascadiaBot], error: app_commands.AppCommandError, /
    ) -> None:
        """Turn any command error into a private answer (see :func:`bot.shell.errors.report`)."""
        await errors.report(interaction, error)


class CascadiaBot(commands.AutoShardedBot):
    """The bot: the game service it is given, on Discord, and the outbox it posts from.

    It runs the shards of ``CASCADIA_SHARDS`` out of ``CASCADIA_SHARD_COUNT``, or, with
    neither set, every shard Discord recommends, over one connection each.
    """

    def __init__(
        self,
        settings: Settings,
        service: GameService,
        parts: Parts,
        *,
        renderer: Executor | None = None,
        **options: Any,
    ) -> None:
        """``service`` is the game over its store; ``parts`` what the features add (see
        :mod:`bot.app`, which builds both); ``renderer`` draws the pictures (default: in
        this process)."""
        if settings.shard_ids is not None:
            # discord.py's default (no ids) is every shard of the count.
            options["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            tree_cls=CascadiaTree,
            # Nothing pings unless a message names its users explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            **options,
        )
        self.settings = settings
        self.service = service
        self.store = service.store
        self.locales = LocaleNotes(self.store)
        self.claimer = service.claimer
        self.parts = parts
        self._services = {type(part): part for part in parts.services}
        self.renderer = renderer
        self.outbox = Outbox(
            self.store,
            self.post,
            executor=renderer,
            gone=self.channel_gone,
            edit_buttons=self.edit_buttons,
            claimer=self.claimer,
            send_direct=functools.partial(send_direct, self),
            direct_refused=self.direct_refused,
        )
        self.players = None if parts.players is None else parts.players(self.announce)
        self._requests: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self._layouts: dict[int, Layout] = {}
        """The layouts posted since start-up whose buttons may still change, by message id."""

    def part(self, kind: type[T]) -> T:
        """The feature service of type ``kind`` the application handed in (see
        :attr:`Parts.services`)."""
        part = self._services.get(kind)
        if part is None:
            raise LookupError(f"no {kind.__name__} was handed to the client")
        return cast(T, part)

    async def login(self, token: str) -> None:
        """Log in, at the configured hosts."""
        use_endpoints(self.settings)
        await super().login(token)

    async def setup_hook(self) -> None:
        """Load the features' extensions (each adds its commands and registers its buttons), sync
        the commands, start the loops."""
        await self.tree.set_translator(CatalogTranslator())
        for extension in self.parts.extensions:
            await self.load_extension(extension)
        try:
            await self.sync_commands()
        except discord.HTTPException:
            # The commands synced last time still work; the next start tries again.
            log.exception("could not sync the commands")
        self.drain_outbox.start()
        if self.players is not None:
            # After a restart, a computer whose turn was due plays it now.
            await self.players.wake_all()
        self.send_reminders.change_interval(seconds=self.settings.reminder_check_seconds)
        self.send_reminders.start()
        for task in self.parts.background:
            task.start()

    async def sync_commands(self) -> bool:
        """Upload the commands if they differ from the last upload (to the development
        server only when ``CASCADIA_GUILD_ID`` is set)."""
        guild_id = self.settings.guild_id
        if guild_id is not None:
            self.tree.copy_global_to(guild=discord.Object(id=guild_id))
        scope = f"{self.settings.api_base or 'discord'}:{self.application_id}"
        record = SyncRecord(record_path(self.settings.db_path))
        return await sync_if_changed(self.tree, record, guild_id=guild_id, scope=scope)

    async def admit(self, interaction: discord.Interaction[CascadiaBot]) -> bool:
        """Let a request in, and remember its task so that shutting down waits for it; once
        shutting down, turn it away with a short answer instead.

        Whatever the request is answered with is in its person's language (see
        :func:`i18n.use`); the person's and the server's locales are noted for what is written
        to them later, outside a request."""
        i18n.use(interaction.locale.value)
        if self._stopping:
            if interaction.type is not discord.InteractionType.autocomplete:
                await errors.report(interaction, ShuttingDown())
            return False
        command = interaction.command
        if (
            interaction.guild_id is None
            and command is not None
            and command.name not in DIRECT_COMMANDS
        ):
            if interaction.type is not discord.InteractionType.autocomplete:
                await errors.report(interaction, ServerOnly(command.name))
            return False
        task = asyncio.current_task()
        if task is not None:
            self._requests.add(task)
            task.add_done_callback(self._requests.discard)
        try:
            await self.locales.note(interaction)
            await self._replace_departed_host(interaction)
        except DatabaseUnavailable as error:
            await errors.report(interaction, error)
            return False
        channel_id = interaction.channel_id
        if (
            channel_id is not None
            and self.outbox.refused(channel_id)
            and not missing_permissions(interaction)
        ):
            # The permissions that refused a post are back: what waited goes out now.
            self.outbox.permissions_changed([channel_id])
            self._background(self.drain_now([channel_id]))
        return True

    async def _replace_departed_host(self, interaction: discord.Interaction[CascadiaBot]) -> None:
        """Before someone else's host command in a game's channel: if the host has left the
        server, the next person in seat order becomes host (the bot has no privileged intent
        to hear members leave, so it asks when it matters)."""
        command = interaction.command
        guild, channel_id = interaction.guild, interaction.channel_id
        if command is None or command.name not in HOST_COMMANDS:
            return
        if interaction.type is discord.InteractionType.autocomplete:
            return  # the command itself checks, once it is sent
        if guild is None or channel_id is None:
            return
        game = await self.store.get_active_game(channel_id)
        if game is None or game.host_id == interaction.user.id or game.host_id < 0:
            return
        try:
            await guild.fetch_member(game.host_id)
        except discord.NotFound:
            loaded = await self.service.lobby.pass_host(game.id, gone=game.host_id)
            if loaded is not None:
                log.info(
                    "the host of game %d left the server: the seat of user %d is host now",
                    game.id,
                    loaded.game.host_id,
                )
        except discord.HTTPException:
            log.warning(
                "could not check whether the host of game %d is here", game.id, exc_info=True
            )

    def _background(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.create_task(work)
        self._requests.add(task)
        task.add_done_callback(self._requests.discard)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[CascadiaBot], command: object
    ) -> None:
        """A command in a game's channel where the bot lacks a permission the game needs
        (taken away mid-game) ends with a private word on what to fix; one whose user's
        direct messages Discord refused, with that word, once."""
        await self.tell_refusal(interaction)
        channel_id = interaction.channel_id
        if channel_id is None:
            return
        try:
            game = await self.store.get_active_game(channel_id)
        except DatabaseUnavailable:
            return  # the command has had its answer; the note waits for another
        if game is None:
            return
        note = permission_note(interaction)
        if note is not None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(note, ephemeral=True)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """Permissions may have changed: refused posts are tried again."""
        if self.outbox.permissions_changed():
            await self.drain_now()

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread reopened or unlocked: posts refused there are tried again."""
        if self.outbox.permissions_changed([payload.thread_id]):
            await self.drain_now([payload.thread_id])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed: refused posts are tried again."""
        if self.outbox.permissions_changed():
            await self.drain_now()

    async def drain_now(self, channels: Collection[int] | None = None) -> None:
        """Post what waits (in ``channels``, when given) now rather than at the loop's next
        run; with the database unavailable, the loop posts it once it is back."""
        try:
            await self.outbox.drain(channels)
        except DatabaseUnavailable as error:
            log.info("the outbox waits for the database: %s", error)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's game ends."""
        await self.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread's game ends."""
        await self.channel_gone(payload.thread_id)

    async def channel_gone(self, channel_id: int) -> None:
        """The channel was deleted: its game ends as abandoned, with its unsent messages and
        reminders; nothing is posted about it (there is nowhere to post)."""
        ended = await self.service.turns.abandon(channel_id)
        for game_id in ended:
            log.info("channel %d was deleted: game %d ended", channel_id, game_id)

    async def close(self) -> None:
        """Finish the requests being handled and a post in progress, stop the loops, then
        disconnect; the caller closes the store afterwards."""
        self._stopping = True
        running = self._requests - {asyncio.current_task()}
        if running:
            log.info("waiting for %d request(s) to finish", len(running))
            await asyncio.wait(running, timeout=SHUTDOWN_GRACE_SECONDS)
        for task in self.parts.background:
            await task.close()
        if self.players is not None:
            await self.players.close()
        await self.outbox.close()
        self.drain_outbox.cancel()
        self.send_reminders.cancel()
        await super().close()

    async def tell_refusal(self, interaction: discord.Interaction[CascadiaBot]) -> None:
        """Tell the user, privately and once, that Discord refused a direct message to them
        (after the answer to their command or press)."""
        user_id, refusals = interaction.user.id, self.parts.refusals
        if refusals is None:
            return
        try:
            note = await refusals.refusal_note(user_id)
            if note is None:
                return
            try:
                await interaction.followup.send(note, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not tell user %d of a refused DM: told later", user_id)
                await refusals.refusal_note_lost(user_id)
        except DatabaseUnavailable:
            return  # the command has had its answer; the word waits for another

    async def direct_refused(self, row: OutboxRow) -> None:
        """Discord refused a direct message: recorded once, and a ping owed in the game's
        channel instead is posted."""
        if self.parts.refusals is None:
            return
        queued = await self.parts.refusals.refused(row)
        if queued:
            self._background(self.announce(queued))

    # --- the outbox ---------------------------------------------------------------------------

    async def announce(self, outbox_ids: Sequence[int]) -> bool:
        """Post the messages a write just queued (and any older ones of the same channels);
        returns whether those went out now. When not, the loop retries them. A computer whose
        turn that write made due starts thinking.

        The write is committed before this is called: the database failing now only delays
        its messages (and the computer's turn) until the loop finds the database again."""
        try:
            rows = [await self.store.get_outbox(outbox_id) for outbox_id in outbox_ids]
            # The channels first: a direct message links to the turn message posted there.
            channels = {row.channel_id for row in rows if row and row.kind not in DIRECT}
            posted = await self.outbox.drain(channels)
            direct = {row.channel_id for row in rows if row and row.kind in DIRECT}
            posted |= await self.outbox.drain(direct)
            if not self._stopping and self.players is not None:
                self.players.wake({row.game_id for row in rows if row is not None})
            # Only a row these drains did not post is read again: another drain (the loop's,
            # another command's) may have posted it meanwhile.
            for outbox_id in set(outbox_ids) - posted:
                row = await self.store.get_outbox(outbox_id)
                if row is None or row.sent_at is None:
                    return False
        except DatabaseUnavailable as error:
            log.info("outbox %s waits for the database: %s", list(outbox_ids), error)
            return False
        return True

    async def post(self, channel_id: int, post: Post) -> int:
        """Send one outbox message; only the users it names may be pinged."""
        guild = getattr(self.get_channel(channel_id), "guild", None)
        post = fit_upload(
            post,
            discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES if guild is None else guild.filesize_limit,
        )
        files = [
            discord.File(io.BytesIO(a.data), filename=a.name, description=a.description or None)
            for a in post.attachments
        ]
        mentions = discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(id=user_id) for user_id in post.mentions],
        )
        if post.layout:
            message_id = await self._post_layout(channel_id, post, files, mentions)
        else:
            message_id = await self._post_plain(channel_id, post, files, mentions)
        if post.archive_after is not None:
            await self.rest_thread(channel_id, post.archive_after)
        return message_id

    async def rest_thread(self, thread_id: int, minutes: int) -> None:
        """Ask Discord to archive the thread after ``minutes`` without a message: a table's
        thread shortly after its game ends, for a week of waiting while one is played. The
        message that asked for it is out already, so a refusal is only logged."""
        try:
            await self.http.edit_channel(thread_id, auto_archive_duration=minutes)
        except (discord.HTTPException, aiohttp.ClientError, OSError):
            log.warning("could not set thread %d to archive after %d minutes", thread_id, minutes)

    async def _post_plain(
        self,
        channel_id: int,
        post: Post,
        files: list[discord.File],
        mentions: discord.AllowedMentions,
    ) -> int:
        """Post ``post`` as a plain message with its buttons under it."""
        channel = self.get_partial_messageable(channel_id)
        view = buttons_view(post.buttons) if post.buttons else discord.utils.MISSING
        with _refusals(channel_id):
            try:
                message = await channel.send(
                    post.text, files=files, allowed_mentions=mentions, nonce=post.nonce, view=view
                )
            except discord.Forbidden as error:
                if not files or error.code != MISSING_PERMISSIONS:
                    raise
                # Without Attach Files the words still go out, and still call the player.
                message = await channel.send(
                    _without_pictures(post),
                    allowed_mentions=mentions,
                    nonce=post.nonce,
                    view=view,
                )
                log.warning("posted without pictures in channel %d: no Attach Files", channel_id)
        return message.id

    async def _post_layout(
        self,
        channel_id: int,
        post: Post,
        files: list[discord.File],
        mentions: discord.AllowedMentions,
    ) -> int:
        """Post ``post`` as one container of its words, pictures and buttons (see
        :mod:`bot.shell.layout`), remembered so that taking its **Play** away needs no lookup."""
        channel = self.get_partial_messageable(channel_id)
        layout = Layout.of(post.text, post.attachments)
        with _refusals(channel_id):
            try:
                message = await channel.send(
                    view=layout.view(post.buttons),
                    files=files,
                    allowed_mentions=mentions,
                    nonce=post.nonce,
                )
            except discord.Forbidden as error:
                if not files or error.code != MISSING_PERMISSIONS:
                    raise
                # Without Attach Files the words still go out, and still call the player.
                layout = Layout(_without_pictures(post))
                message = await channel.send(
                    view=layout.view(post.buttons), allowed_mentions=mentions, nonce=post.nonce
                )
                log.warning("posted without pictures in channel %d: no Attach Files", channel_id)
        if not post.buttons:
            return message.id  # nothing will be taken away from it: nothing to remember
        self._layouts[message.id] = layout
        if len(self._layouts) > MAX_LAYOUTS:
            # Games left unfinished never take their last Play away: forget the oldest.
            del self._layouts[next(iter(self._layouts))]
        return message.id

    async def edit_buttons(
        self, channel_id: int, message_id: int, buttons: tuple[tuple[str, str], ...]
    ) -> None:
        """Set the buttons under one of the bot's posted messages (none: take them all
        away), as the outbox does to a past turn message's **Play**. A layout is sent again
        whole, from what it was posted with or else from the message itself."""
        message = self.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            with _refusals(channel_id):
                layout = self._layouts.pop(message_id, None)
                if layout is None:
                    try:
                        layout = Layout.read(await message.fetch())
                    except discord.Forbidden:
                        # No Read Message History: the message is left as it is (a press on
                        # its Play is told the turn passed), rather than the channel waiting.
                        log.warning(
                            "could not read message %d in channel %d back: its buttons stay",
                            message_id,
                            channel_id,
                        )
                        return
                if layout is not None:
                    await message.edit(view=layout.view(buttons))
                else:
                    await message.edit(view=buttons_view(buttons) if buttons else None)
        except discord.NotFound:
            log.info("message %d in channel %d is gone: its buttons stay", message_id, channel_id)

    @tasks.loop(seconds=OUTBOX_SECONDS)
    async def drain_outbox(self) -> None:
        """Post whatever is due in the outbox, forget once an hour the rows of messages posted
        over a week ago (see :mod:`bot.retention.forgetting`), then give back the space they and the
        sent messages' snapshots held; the first run catches up after a restart. While the
        database is unavailable it waits and tries again (see
        :func:`~bot.db.retry.when_available`)."""
        try:
            await when_available(self._drain_once, what="the outbox drain")
        except Exception:
            log.exception("the outbox drain failed; trying again in %.0fs", OUTBOX_SECONDS)

    async def _drain_once(self) -> None:
        await self.outbox.drain()
        for chore in self.parts.drain_chores:
            await chore.run()
        if self.players is not None:
            # A computer turn whose last try failed (the database busy, say) is tried again.
            await self.players.wake_all()

    @tasks.loop(seconds=60)
    async def send_reminders(self) -> None:
        """Queue the reminders that are due, open votes on passed deadlines, carry out the
        turns decided for absent players and the pings owed after quiet hours, and the daily
        trek's posts that are due; then post. While the database is unavailable it waits and
        tries again."""
        try:
            await when_available(self._remind_once, what="the reminder check")
        except Exception:
            log.exception("the reminder check failed; trying again at the next check")

    async def _remind_once(self) -> None:
        queued = False
        for step in self.parts.reminder_passes:
            try:
                queued = bool(await step.run()) or queued
            except DatabaseUnavailable:
                raise
            except Exception:
                log.exception("%s failed; trying again at the next check", step.what)
        if queued:
            await self.outbox.drain()


@contextlib.contextmanager
def _refusals(channel_id: int) -> Iterator[None]:
    """Discord's refusals of a post or an edit in the words the outbox acts on: no access to
    the channel (:class:`PostRefused`) and the channel gone (:class:`ChannelGone`); any other
    error as it came."""
    try:
        yield
    except discord.Forbidden as error:
        if error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
            raise
        raise PostRefused(f"{error.status} {error.code} {error.text}") from error
    except discord.NotFound as error:
        if error.code == UNKNOWN_CHANNEL:
            raise ChannelGone(channel_id) from error
        raise
    except discord.HTTPException as error:
        # A locked thread that a moderator archived: only they can reopen it.
        if error.code != ARCHIVED_THREAD:
            raise
        raise PostRefused(f"{error.status} {error.code} {error.text}") from error


def _without_pictures(post: Post) -> str:
    """The words of a message posted without its pictures, with a note why (in the message's
    language)."""
    with i18n.speaking(post.locale):
        with_note = f"{post.text}\n{_(NO_PICTURES)}"
    return with_note if len(with_note) <= MAX_TEXT else post.text
