"""Games that never stall: turn deadlines, votes to skip, time away and quiet hours.

The operations behind ``/cascadia settings deadline_hours``, the **Vote to Skip** button,
``/cascadia skip``, handing a seat to the computer, time away and quiet hours (set with
``/cascadia notify``), and the checks the bot runs periodically: open a vote where a deadline
passed, skip a turn a vote has decided (also one decided before a restart), play the seats
handed to the computer, and post the ping owed after quiet hours.

A skipped turn is chosen like every computer turn, by the ``fast`` player in the thinker's
worker processes (:class:`~bot.game.computers.Thinker`), and committed through
:meth:`~bot.game.kernel.GameKernel.commit_turn`, the same path as a player's move: the
revision read, the move log, the outbox. Nothing is skipped without a vote or the host.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.attendance import notify, texts
from bot.attendance.presence import (
    HANDOVER_AFTER_SKIPS,
    BadAwayDate,
    Presence,
    SkipTally,
    away_end,
    deadline_at,
    parse_day,
    presence_of,
    skips_in_a_row,
)
from bot.attendance.quiet import QuietHours, SettingError
from bot.attendance.store import AttendanceStore, SkipPoll
from bot.db.errors import DatabaseUnavailable
from bot.game.computers import REPLACEMENT
from bot.game.errors import BotError, NotHost, NotInGame, RevisionConflict
from bot.game.hooks import AwayPeriod
from bot.game.messages import Player, your_turn_line
from bot.game.outbox import Announcement
from bot.game.records import read_progress
from bot.game.rows import CommitResult, GameRow, GameStatus, OutboxMessage
from bot.game.service import GameService, LoadedGame
from engine import GameState
from i18n import N_, speaking

__all__ = [
    "Attendance",
    "BadSetting",
    "CannotSkip",
    "OwnTurn",
    "TurnPlayed",
    "VoteClosed",
    "VoteOutcome",
]

log = logging.getLogger(__name__)

MAX_NOTE_CHARS = 100
SKIPPED = frozenset({"vote", "host"})
"""``played_for`` of the moves that count as skipped turns."""


class VoteClosed(BotError):
    """The vote is about a turn that has been played (or a game that is over)."""

    def __init__(self) -> None:
        super().__init__(N_("This vote is over: the turn it was about has been played."))


class OwnTurn(BotError):
    """The player to move voted to skip (or asked to skip) their own turn."""

    def __init__(self, *, voting: bool = True) -> None:
        if voting:
            super().__init__(
                N_("It's your own turn: play it with `/cascadia play`. Your vote does not skip it.")
            )
        else:
            super().__init__(N_("It's your own turn: play it with `/cascadia play`."))


class CannotSkip(BotError):
    """There is no turn a person could skip."""


class TurnPlayed(CannotSkip):
    """The turn a skip was asked for has been played (or skipped) since."""

    def __init__(self) -> None:
        super().__init__(N_("That turn has been played meanwhile: nothing was skipped."))


class BadSetting(BotError):
    """A date, time zone or hour of ``away`` or ``quiet`` that cannot be used."""


@dataclass(frozen=True, slots=True)
class VoteOutcome:
    """What a press of the vote button did: the tally after it, whether it was a new vote,
    and the skipped turn's commit if it decided the vote."""

    tally: SkipTally
    counted: bool
    skipped: CommitResult | None
    decided: bool = False
    """The vote passed with this press; the periodic check committed the skip a moment
    earlier (``skipped`` is then ``None``: its messages are on their way already)."""


class Attendance:
    """Deadlines, votes to skip, time away and quiet hours, over a :class:`GameService`."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store_as(AttendanceStore)

    # --- the game's deadline ------------------------------------------------------------------

    async def set_deadline_hours(self, channel_id: int, *, user_id: int, hours: int) -> GameRow:
        """The host sets how long a turn may take before the others may vote to skip it."""
        loaded = await self.service.game(channel_id)
        if user_id != loaded.game.host_id:
            raise NotHost("change the settings")
        return await self.store.set_deadline_hours(loaded.game.id, hours)

    async def check(self) -> list[int]:
        """The periodic work: open the votes of passed deadlines, carry out votes already
        decided, play computer seats, post pings owed after quiet hours. Returns the outbox
        ids queued; one game's failure is logged and does not stop the others. The database
        unavailable stops the check with :class:`~bot.db.errors.DatabaseUnavailable`: the caller
        waits for it and checks again."""
        queued: list[int] = []
        for step in (self._open_votes, self._decided_votes, self._computer_turns, self._pings):
            try:
                queued.extend(await step())
            except DatabaseUnavailable:
                raise  # the caller waits for the database, then checks again
            except Exception:
                log.exception("the %s check failed", step.__name__.strip("_"))
        return queued

    async def _open_votes(self) -> list[int]:
        now = self.service.now()
        queued: list[int] = []
        for game in await self.store.deadline_games():
            budget, started_at = self.service.deadline_budget(game), game.turn_started_at
            if budget is None or started_at is None or now < started_at + budget:
                continue  # time away only moves a deadline later: not late yet, whoever plays
            if not await self.service.claim(game.id):
                continue
            loaded = await self.service.game_by_id(game.id)
            state = loaded.state
            if state is None or state.is_over:
                continue
            player = loaded.players[state.current]
            voters = _voters(loaded, state)
            if player.computer is not None or not voters:
                continue
            if await self.store.skip_poll(game.id, state.turn) is not None:
                continue
            presence = presence_of(await self.store.person(player.user_id))
            deadline = deadline_at(started_at, budget, presence.away)
            if now < deadline:
                continue
            tally = SkipTally.of(voters, ())
            with speaking(loaded.game.locale):
                announcement = Announcement(
                    kind="vote",
                    text=texts.vote_message(player, deadline, tally),
                    buttons=(texts.vote_button(game.id, state.turn),),
                )
            try:
                result = await self.store.open_skip_poll(
                    game.id,
                    game.revision,
                    turn=state.turn,
                    user_id=player.user_id,
                    outbox_messages=[announcement.to_outbox()],
                )
            except RevisionConflict:
                continue  # a move landed meanwhile: the turn is no longer late
            queued.extend(result.outbox_ids)
        return queued

    async def _decided_votes(self) -> list[int]:
        """Votes that reached a majority but whose skip was never committed (the bot stopped
        in between): skip now."""
        queued: list[int] = []
        turns: dict[int, dict[int, SkipPoll]] = {}
        for poll in await self.store.open_skip_polls():
            turns.setdefault(poll.game_id, {})[poll.turn] = poll
        for game_id, polls in turns.items():
            if not await self.service.claim(game_id):
                continue
            loaded = await self.service.game_by_id(game_id)
            state = loaded.state
            if state is None or state.is_over or state.turn not in polls:
                continue
            if not SkipTally.of(_voters(loaded, state), polls[state.turn].votes).passed:
                continue
            try:
                result = await self._skip(loaded, how="vote")
            except RevisionConflict:
                continue
            queued.extend(result.outbox_ids)
        return queued

    async def _computer_turns(self) -> list[int]:
        queued: list[int] = []
        games = await self.store.computer_games()
        seats = await self.store.seats_of([game.id for game in games])
        for game in games:
            if game.state is None:
                continue
            # Most of these games wait for a person: tell from the progress, not the state.
            progress = read_progress(game.state)
            to_move = seats.get(game.id, [])[progress.current : progress.current + 1]
            if progress.is_over or not to_move or to_move[0].computer is None:
                continue
            if not await self.service.claim(game.id):
                continue
            # The computer seat's own player (fast or strong), thinking in a worker process;
            # its turn message is posted in the game's language.
            try:
                with speaking(game.locale):
                    result = await self.service.turns.play_computer(game.id)
            except RevisionConflict:
                continue
            if result is not None:
                queued.extend(result.outbox_ids)
        return queued

    async def _pings(self) -> list[int]:
        now = self.service.now()
        queued: list[int] = []
        for game in await self.store.due_pings(now):
            if not await self.service.claim(game.id):
                continue
            loaded = await self.service.game_by_id(game.id)
            state = loaded.state
            messages: list[OutboxMessage] = []
            due, next_reminder = None, game.next_reminder_at
            if state is not None and not state.is_over:
                player = loaded.players[state.current]
                presence = presence_of(await self.store.person(player.user_id))
                if presence.is_quiet(now):
                    due = presence.ping_at(now)  # their quiet hours changed meanwhile
                elif player.computer is None:
                    settings = await self.store.notify_settings(player.user_id)
                    reach = notify.reach_of(settings)
                    if reach.channel:
                        with speaking(loaded.game.locale):
                            text = texts.quiet_over_ping(player)
                            ping = Announcement("ping", text, mentions=(player.user_id,))
                        messages.append(ping.to_outbox())
                    if reach.direct and presence.away_at(now) is None:
                        messages.append(await self._held_direct(loaded, state))
                    # The ping stands for a reminder held back: the next is a period away.
                    turn = self.service.turn(loaded, state, now=now)
                    hours = await self.service.hooks.caller.reminder_hours(turn)
                    next_reminder = self.service.reminder_after(now, hours, 0)
            try:
                result = await self.store.record_ping(
                    game.id,
                    game.revision,
                    ping_due_at=due,
                    next_reminder_at=next_reminder,
                    outbox_messages=messages,
                )
            except RevisionConflict:
                continue  # a move landed: its own turn message called the next player
            queued.extend(result.outbox_ids)
        return queued

    async def _held_direct(self, loaded: LoadedGame, state: GameState) -> OutboxMessage:
        """The direct message of a turn that came in its player's quiet hours: the turn
        message's words, the pictures as the game stands."""
        player = loaded.players[state.current]
        latest = await self.store.latest_turn_message(loaded.game.id)
        with speaking(player.locale):
            text = (
                Announcement.from_row(latest).text
                if latest is not None
                else your_turn_line(state, player)
            )
            message = notify.turn_direct(loaded.game.id, loaded.players, state, text, held=True)
        return notify.direct_row(message, player.user_id)

    # --- votes and skips ----------------------------------------------------------------------

    async def vote(self, game_id: int, turn: int, *, user_id: int) -> VoteOutcome:
        """Count a press of the vote button; a majority of the other human players skips the
        turn at once. The player to move's own press is refused."""
        loaded = await self.service.game_by_id(game_id)
        state = loaded.state
        if (
            loaded.game.status is not GameStatus.ACTIVE
            or state is None
            or state.is_over
            or state.turn != turn
        ):
            raise VoteClosed()
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        if seat == state.current:
            raise OwnTurn()
        voters = _voters(loaded, state)
        if user_id not in voters:
            raise CannotSkip(N_("Your seat is played by the computer: it does not vote."))
        counted = await self.store.add_skip_vote(game_id, turn, user_id)
        poll = await self.store.skip_poll(game_id, turn)
        tally = SkipTally.of(voters, () if poll is None else poll.votes)
        skipped = None
        if tally.passed:
            try:
                skipped = await self._skip(loaded, how="vote")
            except RevisionConflict:
                moves = await self.store.moves(game_id)
                if counted and moves and moves[-1].played_for == "vote":
                    # This press decided it; the periodic check saw the passed vote and
                    # skipped the turn between this vote's commit and the skip.
                    return VoteOutcome(tally, counted, None, decided=True)
                # Another press decided it first, or the player moved: either way it is over.
                raise VoteClosed() from None
        return VoteOutcome(tally, counted, skipped)

    async def check_can_skip(self, channel_id: int, *, user_id: int, can_manage: bool) -> Player:
        """Whether the caller may skip the current turn (asked before the confirmation);
        returns the player whose turn it is."""
        loaded = await self.service.game(channel_id)
        return _skippable(loaded, user_id, can_manage)

    async def skip(
        self, game_id: int, turn: int, *, user_id: int, name: str, can_manage: bool
    ) -> CommitResult:
        """The host (or a channel manager) skips turn ``turn`` at once: the computer plays it.

        The confirmation carries ``turn``, so a press after that turn was played, or a second
        press of the same question, skips nothing (:class:`TurnPlayed`), even when two presses
        arrive together: the second one's commit loses on the revision."""
        loaded = await self.service.game_by_id(game_id)
        _skippable(loaded, user_id, can_manage, turn=turn)
        try:
            return await self._skip(loaded, how="host", by=Player(user_id, name))
        except RevisionConflict:
            now = (await self.service.game_by_id(game_id)).state
            if now is not None and now.turn != turn:
                raise TurnPlayed() from None
            raise

    async def hand_over(
        self, game_id: int, seat: int, *, user_id: int, name: str, can_manage: bool
    ) -> CommitResult:
        """The host hands ``seat`` to the computer for good; it plays that seat's turns."""
        loaded = await self.service.game_by_id(game_id)
        if user_id != loaded.game.host_id and not can_manage:
            raise NotHost("hand a seat to the computer (or someone with Manage Channels)")
        if loaded.game.status is not GameStatus.ACTIVE:
            raise CannotSkip(N_("This game is over."))
        if not 0 <= seat < len(loaded.players):
            raise NotInGame("That player is")
        player = loaded.players[seat]
        if player.computer is not None:
            raise CannotSkip(N_("The computer plays {name}'s seat already."), name=player.shown)
        with speaking(loaded.game.locale):
            text = texts.handed_over_message(player, Player(user_id, name))
            announcement = Announcement(kind="hand_over", text=text)
        return await self.store.set_computer(
            game_id,
            loaded.game.revision,
            seat=seat,
            computer=REPLACEMENT,
            outbox_messages=[announcement.to_outbox()],
        )

    async def _skip(
        self, loaded: LoadedGame, *, how: str, by: Player | None = None
    ) -> CommitResult:
        """The ``fast`` computer player plays the current turn in the thinker's workers, and
        it is committed like a move on the game as loaded (``how``: ``"vote"``, ``"host"`` or
        ``"computer"``)."""
        state = loaded.require_state()
        seat = state.current
        player = loaded.players[seat]
        move = await self.service.thinker.choose(state, REPLACEMENT, seed=loaded.game.id)
        skips = 0
        if how in SKIPPED and player.computer is None:
            moves = await self.store.moves(loaded.game.id)
            flags = [m.played_for in SKIPPED for m in moves if m.user_id == player.user_id]
            skips = skips_in_a_row([*flags, True])
        # Posted in the game's channel: in its language, whoever pressed (or no one did).
        with speaking(loaded.game.locale):
            tail = ""
            buttons: tuple[tuple[str, str], ...] = ()
            if skips >= HANDOVER_AFTER_SKIPS:
                tail = texts.hand_over_offer(player, skips)
                buttons = (texts.hand_over_button(loaded.game.id, seat),)
            return await self.service.commit_turn(
                loaded,
                seat,
                move,
                user_id=player.user_id,
                played_for=how,
                lead=texts.skip_lead(player, how=how, by=by),
                tail=tail,
                buttons=buttons,
            )

    # --- the person's own settings ------------------------------------------------------------

    async def presence(self, user_id: int) -> Presence:
        """The person's quiet hours and time away as they stand."""
        return presence_of(await self.store.person(user_id))

    async def away(self, user_id: int, *, until: str, note: str | None) -> AwayPeriod:
        """Time away until the day ``until`` (``YYYY-MM-DD``) begins in the person's time zone
        (that of their quiet hours, else UTC); replaces the time away going on."""
        now = self.service.now()
        presence = presence_of(await self.store.person(user_id))
        zone = presence.quiet.zone if presence.quiet is not None else None
        try:
            end = away_end(parse_day(until), zone, now)
        except BadAwayDate as error:
            raise BadSetting(error.text, **error.fields) from None
        note = (note or "").strip()[:MAX_NOTE_CHARS] or None
        await self.store.set_away(user_id, starts_at=now, ends_at=end, note=note)
        return AwayPeriod(now, end, note)

    async def clear_away(self, user_id: int) -> bool:
        """End the person's time away now; ``False`` if they were not away."""
        return await self.store.clear_away(user_id, now=self.service.now())

    async def quiet(self, user_id: int, *, start: int, end: int, zone: str) -> QuietHours:
        """Set the person's quiet hours."""
        try:
            quiet = QuietHours.parse(start, end, zone)
        except SettingError as error:
            raise BadSetting(error.text, **error.fields) from None
        await self.store.set_quiet(user_id, start=start, end=end, zone=quiet.zone_name)
        return quiet

    async def clear_quiet(self, user_id: int) -> None:
        """Turn the person's quiet hours off."""
        await self.store.set_quiet(user_id, start=None, end=None, zone=None)


def _voters(loaded: LoadedGame, state: GameState) -> set[int]:
    """Who may vote to skip the current turn: the other players, computer seats aside."""
    return {
        p.user_id
        for seat, p in enumerate(loaded.players)
        if seat != state.current and p.computer is None
    }


def _skippable(
    loaded: LoadedGame, user_id: int, can_manage: bool, *, turn: int | None = None
) -> Player:
    """The player whose turn the caller may skip; ``turn``: only if it is still that turn
    (checked before whose turn it is: a stale question is answered as stale)."""
    if user_id != loaded.game.host_id and not can_manage:
        raise NotHost("skip a turn (or someone with Manage Channels)")
    state = loaded.require_state()
    if loaded.game.status is not GameStatus.ACTIVE or state.is_over:
        raise CannotSkip(N_("This game is over."))
    if turn is not None and state.turn != turn:
        raise TurnPlayed()
    player = loaded.players[state.current]
    if player.user_id == user_id:
        raise OwnTurn(voting=False)
    if player.computer is not None:
        raise CannotSkip(N_("The computer plays {name}'s turns already."), name=player.shown)
    return player
