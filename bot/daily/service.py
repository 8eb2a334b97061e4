"""The daily trek in the bot: attempts, the days' boards, streaks and the daily posts.

A member's attempt at the day's deal (:mod:`engine.daily`) is a solo game like any other, in
its own channel (their direct messages with the bot, or a private thread): played, saved and
restarted as every game is. Their first attempt of a UTC day counts; later ones are practice,
never on a board. An attempt counts for the day of its deal, whenever it is finished.

The board of a day shows a server's finished attempts: rank, member, score, largest corridor,
with the par (:mod:`bot.daily.par`). The boards themselves (the environments) stay
hidden from a member until they have played that day: :meth:`DailyTrek.show` refuses them.

A server may name a daily channel: the bot queues there one morning message with the day's
cards and, once the day is over, the day's board, each once (:meth:`DailyTrek.queue_posts`,
the store keeps what was queued).

Answers to a member are in their language (the reader of the command or button press); the
daily channel's posts and shared lines in the server's (:meth:`GameStore.guild_locale`); an
attempt's own messages in its member's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.daily.par import cached_par, par_line
from bot.daily.share import share_line
from bot.daily.store import (
    AttemptCounted,
    DailyAttempt,
    DailyChannel,
    DailyEntry,
    DailyShare,
    DailyStart,
    DailyStore,
)
from bot.game import messages
from bot.game.errors import BotError
from bot.game.kernel import GameKernel, LoadedGame
from bot.game.markdown import jump_url
from bot.game.messages import Player
from bot.game.names import safe
from bot.game.outbox import MAX_TEXT, Announcement, Picture
from bot.game.records import state_text
from bot.game.rows import GameStatus
from engine import Day, daily_deal, daily_game
from i18n import N_, _, _n, reader, speaking

ACTIONS = ("play", "board", "show", "channel")
"""The ``action`` choices of ``/cascadia daily`` (no action: play)."""
MAX_BOARD = 20
"""How many places a board lists at most (the caller's own place is said below them)."""
MORNING, BOARD = "morning", "board"
"""The kinds of daily post."""


def day_of(moment: datetime) -> Day:
    """The UTC day that ``moment`` falls on."""
    utc = moment.astimezone(UTC)
    return Day(utc.year, utc.month, utc.day)


def day_start(day: Day) -> datetime:
    """The moment ``day`` begins, midnight UTC."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def shift(day: Day, days: int) -> Day:
    """The day ``days`` after ``day`` (before, when negative)."""
    moved = date(day.year, day.month, day.day) + timedelta(days=days)
    return Day(moved.year, moved.month, moved.day)


def streak(days: Sequence[str], today: Day) -> int:
    """How many consecutive days up to today a member played (counted attempts finished):
    a streak that reached yesterday still holds until today is over."""
    played = set(days)
    latest = today if str(today) in played else shift(today, -1)
    count = 0
    while str(latest) in played:
        count += 1
        latest = shift(latest, -1)
    return count


class AttemptOpen(BotError):
    """The member's earlier attempt is still being played: one at a time. ``channel_id`` is
    where it is played: their direct messages with the bot (``direct``) or a private thread."""

    def __init__(self, attempt: DailyAttempt, channel_id: int, *, direct: bool = False) -> None:
        self.attempt = attempt
        self.channel_id = channel_id
        if direct:
            text = _(
                "Your daily trek of {day} is not finished yet: play it in our direct messages"
                " first.",
                day=attempt.day,
            )
        else:
            channel = f"<#{channel_id}>"
            text = _(
                "Your daily trek of {day} is not finished yet: play it in {channel} first.",
                day=attempt.day,
                channel=channel,
            )
        super().__init__(text)


class NotPlayedYet(BotError):
    """A board of a day asked for by someone who has not played that day."""

    def __init__(self, day: Day) -> None:
        super().__init__(
            _(
                "Boards of {day} are hidden until you have played that day's deal yourself"
                " (`/cascadia daily`): no spoilers.",
                day=day,
            )
        )


class NotYours(BotError):
    """A press of someone else's **Share**."""

    def __init__(self) -> None:
        super().__init__(_("Only the one who played this daily trek can share it."))


class NoAttempt(BotError):
    """``show`` of a member who has no finished attempt that counts on that day."""

    def __init__(self, who: str, day: Day) -> None:
        super().__init__(
            _("{name} has no finished daily trek of {day} here.", name=safe(who), day=day)
        )


@dataclass(frozen=True, slots=True)
class Board:
    """A day's board as ``/cascadia daily board`` shows it."""

    day: Day
    entries: tuple[DailyEntry, ...]
    """This server's finished counted attempts, best first."""
    everyone: tuple[DailyEntry, ...]
    """Every server's, best first: the caller's place among all players of the bot."""
    par: int
    streaks: dict[int, int]
    """Each listed member's streak, by user id."""


def streak_line(days: int) -> str:
    """The line ``/cascadia stats`` adds for a member's daily trek streak ("" with none)."""
    if days == 0:
        return ""
    return "\n" + _n(
        "Daily trek: a streak of {n} day in a row.",
        "Daily trek: a streak of {n} days in a row.",
        days,
    )


def rank_of(entries: Sequence[DailyEntry], index: int) -> int:
    """The rank of ``entries[index]`` (best first): tied scores share the better rank."""
    score = entries[index].score
    return 1 + sum(1 for e in entries if e.score > score)


def board_text(board: Board, *, caller: int | None, played: bool) -> str:
    """The board's text: a line a place (rank, member, score, largest corridor, streak) and
    the par; the caller's place among everyone. ``played``: whether the caller has played
    that day (only then may they open the others' boards). ``caller`` ``None``: the daily
    channel's post. As many places as fit in one message, then how many more there are. In
    the reader's language."""
    head = _(
        "**The daily trek of {day}** (par {par}, what `fast` scores)", day=board.day, par=board.par
    )
    tail: list[str] = []
    mine = next((i for i, e in enumerate(board.everyone) if e.user_id == caller), None)
    if mine is not None:
        entry = board.everyone[mine]
        you = _n(
            "You: {n} point, place {place} of {players} among every player that day.",
            "You: {n} points, place {place} of {players} among every player that day.",
            entry.score,
            place=rank_of(board.everyone, mine),
            players=len(board.everyone),
        )
        tail.append(f"{you} {par_line(entry.score, board.par)}")
    if caller is None:
        tail.append(
            _(
                "Those who played it may open a board:"
                " `/cascadia daily action:show date:{day} user:`.",
                day=board.day,
            )
        )
    elif played:
        tail.append(_("Open anyone's finished board with `/cascadia daily action:show user:`."))
    else:
        tail.append(_("Play the deal yourself (`/cascadia daily`) to open the others' boards."))
    places = [] if board.entries else [_("Nobody here has finished this day's trek yet.")]
    # Room for the head, the tail and the line saying how many places are left out.
    room = MAX_TEXT - len(head) - sum(len(line) + 1 for line in tail) - 40
    for index, entry in enumerate(board.entries[:MAX_BOARD]):
        line = _board_line(board, index, entry, mine=entry.user_id == caller)
        if sum(len(p) + 1 for p in places) + len(line) + 1 > room:
            break
        places.append(line)
    left_out = len(board.entries) - len(places) if board.entries else 0
    if left_out:
        places.append(_n("…and {n} more.", "…and {n} more.", left_out))
    return "\n".join([head, *places, *tail])


def _board_line(board: Board, index: int, entry: DailyEntry, *, mine: bool) -> str:
    fields = {
        "rank": rank_of(board.entries, index),
        "name": f"**{safe(entry.name)}**",
        "corridor": entry.corridor,
    }
    if mine:
        line = _n(
            "{rank}. {name} (you): {n} point, largest corridor {corridor}",
            "{rank}. {name} (you): {n} points, largest corridor {corridor}",
            entry.score,
            **fields,
        )
    else:
        line = _n(
            "{rank}. {name}: {n} point, largest corridor {corridor}",
            "{rank}. {name}: {n} points, largest corridor {corridor}",
            entry.score,
            **fields,
        )
    days = board.streaks.get(entry.user_id, 0)
    if days > 1:
        line += _n(", streak {n} day", ", streak {n} days", days)
    return line


def morning_text(day: Day) -> str:
    """The morning post: the new deal's cards, nothing of its tiles; in the reader's
    language."""
    deal = daily_deal(day)
    return _(
        "**The daily trek of {day}** is out: one solo deal, the same for everyone."
        " Cards: {cards}.\n"
        "Play it with `/cascadia daily`; the board follows here once the day is over.",
        day=day,
        cards=messages.cards_text(deal.cards, locale=reader()),
    )


@dataclass(frozen=True, slots=True)
class Shared:
    """What a press of **Share** did: the answer to the presser, and the outbox rows of the
    line it queued (none when it was shared before or there is nowhere to post it)."""

    answer: str
    outbox_ids: tuple[int, ...] = ()


NOWHERE = N_(
    "There is nowhere to share it: the server you played from has no daily channel."
    " Someone with Manage Server names one with `/cascadia daily action:channel`."
)
"""The answer to **Share** when the attempt's server has no daily channel (English: the
answer is translated)."""
SCORE_PREFIX = "score-"
"""How the ids of the score thresholds begin: a line names only the highest earned."""


def shared_link(guild_id: int, share: DailyShare) -> str:
    """The answer to a second **Share**: a link to the line, once it is posted."""
    if share.channel_id is None or share.message_id is None:
        return _("You shared this daily trek already; the line is on its way.")
    link = jump_url(guild_id, share.channel_id, share.message_id)
    return _("You shared this daily trek already: {link}", link=link)


class DailyTrek:
    """Starting attempts, the boards, showing a finished board, sharing an attempt, and
    queueing the daily posts; over the game service's :class:`GameKernel`. ``titles``: each
    achievement's title by id, for the line a shared attempt posts."""

    def __init__(self, kernel: GameKernel, *, titles: Mapping[str, str] | None = None) -> None:
        self.kernel = kernel
        self.store = kernel.store_as(DailyStore)
        self.titles = dict(titles or {})
        self._queued: set[tuple[int, str, str]] = set()
        """The posts (server, day, kind) known to be queued already: not asked for again."""

    def today(self) -> Day:
        """The UTC day by the service's clock."""
        return day_of(self.kernel.now())

    async def par(self, day: Day) -> int:
        """The day's par, worked out in a thread the first time."""
        return await asyncio.to_thread(cached_par, day)

    async def check_can_start(self, user_id: int) -> None:
        """:class:`AttemptOpen` if the member's earlier attempt is still being played."""
        attempt = await self.store.open_attempt(user_id)
        if attempt is not None:
            game = await self.store.get_game(attempt.game_id)
            if game is not None:
                raise AttemptOpen(attempt, game.channel_id)

    async def start(self, *, guild_id: int, channel_id: int, user_id: int, name: str) -> DailyStart:
        """Start the member's attempt at today's deal in ``channel_id``: the one that counts
        today, or practice if they have one; the first message goes in the outbox."""
        await self.check_can_start(user_id)
        day = self.today()
        counted = await self.store.counted_attempt(user_id, str(day)) is None
        try:
            return await self._start(day, guild_id, channel_id, user_id, name, counted=counted)
        except AttemptCounted:
            # Another start of the member's won the day's counted attempt meanwhile.
            return await self._start(day, guild_id, channel_id, user_id, name, counted=False)

    async def _start(
        self, day: Day, guild_id: int, channel_id: int, user_id: int, name: str, *, counted: bool
    ) -> DailyStart:
        state = daily_game(day)
        players = (Player(user_id, name),)
        # The attempt is its member's own: its messages speak the language they asked in.
        with speaking(reader() or await self.store.person_locale(user_id)):
            if counted:
                heading = _("**The daily trek of {day}**: your attempt that counts today.", day=day)
            else:
                heading = _(
                    "**The daily trek of {day}**: practice (you played today's already; this"
                    " one is not on the board).",
                    day=day,
                )
            announcement = Announcement(
                kind="start",
                text=f"{heading}\n{messages.start_message(state, players, locale=reader())}",
                mentions=(user_id,),
                pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
                state=state,
                names=(name,),
            )
        text = state_text(state)
        return await self.store.start_daily(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            name=name,
            day=str(day),
            counted=counted,
            cards=str(state.cards),
            state_json=text,
            outbox_messages=[announcement.to_outbox(state_text=text)],
            turn_started_at=self.kernel.now(),
        )

    async def turn_channel(self, channel_id: int, user_id: int) -> int:
        """The channel whose game a turn typed by ``user_id`` in ``channel_id`` plays: this
        one's when they have a seat in its game, else that of their daily attempt being
        played, if they have one."""
        game = await self.store.get_active_game(channel_id)
        if game is not None and any(s.user_id == user_id for s in await self.store.seats(game.id)):
            return channel_id
        attempt = await self.store.open_attempt(user_id)
        found = None if attempt is None else await self.store.get_game(attempt.game_id)
        return channel_id if found is None else found.channel_id

    async def board(self, guild_id: int, day: Day) -> Board:
        """The day's board in this server."""
        everyone = tuple(await self.store.daily_entries(str(day), guild_id=None))
        entries = tuple(e for e in everyone if e.guild_id == guild_id)
        today = self.today()
        streaks = {
            e.user_id: streak(await self.store.daily_days(e.user_id), today)
            for e in entries[:MAX_BOARD]
        }
        return Board(day, entries, everyone, await self.par(day), streaks)

    async def has_played(self, user_id: int, day: Day) -> bool:
        """Whether the member finished their attempt that counts on ``day``."""
        attempt = await self.store.counted_attempt(user_id, str(day))
        if attempt is None:
            return False
        game = await self.store.get_game(attempt.game_id)
        return game is not None and game.status is GameStatus.FINISHED

    async def board_answer(self, guild_id: int, day: Day, caller: int) -> str:
        """The answer to ``/cascadia daily board``."""
        board = await self.board(guild_id, day)
        return board_text(board, caller=caller, played=await self.has_played(caller, day))

    async def show(self, day: Day, *, caller: int, user_id: int, name: str) -> LoadedGame:
        """The finished attempt that counts of ``user_id`` on ``day``, for a caller who has
        finished theirs (:class:`NotPlayedYet` otherwise, :class:`NoAttempt` when there is
        none)."""
        if not await self.has_played(caller, day):
            raise NotPlayedYet(day)
        attempt = await self.store.counted_attempt(user_id, str(day))
        game = None if attempt is None else await self.store.get_game(attempt.game_id)
        if game is None or game.status is not GameStatus.FINISHED:
            raise NoAttempt(name, day)
        return await self.kernel.load(game)

    async def share(self, game_id: int, *, user_id: int) -> Shared:
        """Queue one spoiler-free line about the finished attempt ``game_id`` in the daily
        channel of the server it was started from (:func:`~bot.daily.share.share_line`); only
        its player may, once. Practice is shared too, and says so."""
        attempt = await self.store.daily_attempt(game_id)
        game = await self.store.get_game(game_id)
        if attempt is None or game is None or game.status is not GameStatus.FINISHED:
            raise BotError(_("Only a finished daily trek can be shared."))
        if attempt.user_id != user_id:
            raise NotYours()
        before = await self.store.daily_share(game_id)
        if before is not None:
            return Shared(shared_link(game.guild_id, before))
        if await self.store.daily_channel(game.guild_id) is None:
            return Shared(_(NOWHERE))
        loaded = await self.kernel.load(game)
        [score] = loaded.score_sheet().players
        firsts = await self.store.first_achievements(game_id, user_id)
        par = await self.par(Day.parse(attempt.day))
        streak = await self.streak_of(user_id) if attempt.counted else 0
        # The line is the server's: in its language, not the presser's.
        with speaking(await self.store.guild_locale(game.guild_id)):
            text = share_line(
                loaded.players[0].name,
                attempt.day,
                total=score.total,
                par=par,
                streak=streak,
                wildlife=score.wildlife,
                counted=attempt.counted,
                firsts=[_(title) for title in self._titled(firsts)],
            )
            post = Announcement(kind="daily-share", text=text)
        found = await self.store.share_attempt(game_id, game.guild_id, post.to_outbox())
        if found is None:
            # Shared by another press meanwhile, or the channel was dropped.
            before = await self.store.daily_share(game_id)
            return Shared(_(NOWHERE) if before is None else shared_link(game.guild_id, before))
        return Shared(_("Shared in the daily channel."), (found,))

    def _titled(self, achievements: set[str]) -> list[str]:
        """The titles of ``achievements`` in catalogue order, with only the highest of the
        score thresholds (100 points says 95 too)."""
        order = {a: i for i, a in enumerate(self.titles)}
        ordered = sorted(achievements, key=lambda a: (order.get(a, len(order)), a))
        scores = [a for a in ordered if a.startswith(SCORE_PREFIX)]
        if len(scores) > 1:
            best = max(scores, key=lambda a: int(a.removeprefix(SCORE_PREFIX)))
            ordered = [a for a in ordered if not a.startswith(SCORE_PREFIX) or a == best]
        return [self.titles.get(a, a) for a in ordered]

    async def streak_of(self, user_id: int) -> int:
        """The member's streak today."""
        return streak(await self.store.daily_days(user_id), self.today())

    async def set_channel(self, guild_id: int, channel_id: int, *, user_id: int) -> DailyChannel:
        """Name the server's daily channel."""
        return await self.store.set_daily_channel(guild_id, channel_id, user_id=user_id)

    async def queue_posts(self) -> list[int]:
        """Queue the daily posts now due in the daily channels of the servers this process
        owns: today's morning message, and the board of yesterday once it is over (for a
        channel named before yesterday ended). Each is queued once; returns the outbox ids."""
        today = self.today()
        yesterday = shift(today, -1)
        queued: list[int] = []
        for channel in await self.store.daily_channels():
            if not self.kernel.claimer.owns(channel.guild_id):
                continue
            morning_due = (channel.guild_id, str(today), MORNING) not in self._queued
            board_due = channel.set_at < day_start(today) and (
                (channel.guild_id, str(yesterday), BOARD) not in self._queued
            )
            if not (morning_due or board_due):
                continue
            # The posts are the server's: in its language.
            locale = await self.store.guild_locale(channel.guild_id)
            if morning_due:
                with speaking(locale):
                    morning = Announcement(kind="daily-morning", text=morning_text(today))
                queued += await self._queue(channel, today, MORNING, morning)
            if board_due:
                board = await self.board(channel.guild_id, yesterday)
                with speaking(locale):
                    text = board_text(board, caller=None, played=True)
                    post = Announcement(kind="daily-board", text=text)
                queued += await self._queue(channel, yesterday, BOARD, post)
        return queued

    async def _queue(
        self, channel: DailyChannel, day: Day, kind: str, post: Announcement
    ) -> list[int]:
        found = await self.store.queue_daily_post(
            channel.guild_id, str(day), kind, post.to_outbox()
        )
        self._queued.add((channel.guild_id, str(day), kind))
        return [] if found is None else [found]
