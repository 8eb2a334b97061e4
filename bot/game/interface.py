"""The :class:`Store` protocol: what the bot needs from persistence, whatever the database."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

from bot.game.rows import (
    OPEN_STATUSES,
    Claimer,
    CommitResult,
    DailyAttempt,
    DailyChannel,
    DailyEntry,
    DailyStart,
    GameRow,
    GameStatus,
    HintRow,
    League,
    MoveRow,
    NotifySettings,
    OutboxMessage,
    OutboxRow,
    PanelRow,
    Person,
    Rating,
    ReminderNote,
    Seat,
    SeatResult,
    SkipPoll,
    Tablemate,
    UserGame,
)


class Store(Protocol):
    """What the bot needs from persistence; every write is atomic."""

    async def close(self) -> None:
        """Release the store; it cannot be used afterwards. Closing twice is harmless."""

    async def create_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, cards: str
    ) -> GameRow:
        """Open a lobby in a channel with the host in seat 0; :class:`ChannelBusy` if taken."""

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, in any status."""

    async def get_active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, if there is one."""

    async def seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[Seat]]:
        """The seats of several games at once, each game's in seat order (a game without
        seats, or unknown, is left out)."""

    async def join(
        self,
        game_id: int,
        user_id: int,
        name: str,
        *,
        max_seats: int = 4,
        computer: str | None = None,
    ) -> Seat:
        """Seat a user (or, with ``computer``, a computer player) in the next free seat of a
        lobby and bump the revision; raises :class:`NotInLobby`, :class:`AlreadySeated` or
        :class:`LobbyFull`, in that order."""

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        """Take a user's seat away in a lobby and return the game as it is afterwards.

        The seats behind close up. The host leaving ends the lobby (status ``ended``: nobody is
        left to start it, and handing it to someone who did not open it would surprise them).
        Raises :class:`NotInLobby` or :class:`NotSeated`.
        """

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the lobby (bookkeeping: no revision bump)."""

    async def pass_host(self, game_id: int, *, old_host: int, new_host: int) -> bool:
        """Make ``new_host`` the host in place of ``old_host`` (bookkeeping: no revision
        bump); ``False`` if ``old_host`` was not the host any more."""

    async def start_game(
        self,
        game_id: int,
        expected_revision: int,
        *,
        state_json: str,
        seat_order: Sequence[int],
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
        next_reminder_at: datetime | None,
        ping_due_at: datetime | None = None,
    ) -> CommitResult:
        """Turn a lobby into an active game with its first state and final seat order.

        ``seat_order`` lists the user id of every seated player once, seat 0 first. Raises
        :class:`RevisionConflict` (someone joined or left since), :class:`NotInLobby`, or
        ``ValueError`` if ``seat_order`` is not exactly the seated users.
        """

    async def commit_move(
        self,
        game_id: int,
        expected_revision: int,
        *,
        user_id: int,
        action_text: str,
        new_state_json: str,
        new_status: GameStatus,
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
        next_reminder_at: datetime | None,
        played_for: str | None = None,
        ping_due_at: datetime | None = None,
        results: Sequence[SeatResult] = (),
    ) -> CommitResult:
        """Store a move in one transaction: state, status and revision, log entry, outbox rows
        and, for the move that finishes the game, its ``results``.

        ``new_status`` is ``active`` or ``finished``. When ``turn_started_at`` differs from the
        stored one a new turn has begun and the reminder count starts again from 0.
        ``played_for`` says who chose a move its player did not (``"vote"``, ``"host"``,
        ``"computer"``); ``ping_due_at`` when the ping owed for a turn message sent in quiet
        hours is due. Raises :class:`RevisionConflict` (changing nothing) or :class:`NotActive`.
        """

    async def end_game(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage] = ()
    ) -> CommitResult:
        """Stop a lobby or a game in play early: status ``ended``, no more reminders.

        Takes no expected revision: ending wins over anything in flight, and the bump makes any
        move computed before it fail with :class:`RevisionConflict`. Raises :class:`GameClosed`
        if the game is already finished or ended.
        """

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game ends (status ``ended``, no more reminders)
        and every message still to post there is dropped. Returns the ids of the games ended
        (none when the channel had no open game)."""

    async def set_reminder_hours(
        self, game_id: int, reminder_hours: int, *, next_reminder_at: datetime | None
    ) -> GameRow:
        """Change how often the player to move is reminded and when next; 0 turns reminders
        off. The caller checks that the user is the host and computes ``next_reminder_at`` (see
        :func:`bot.game.kernel.next_reminder_time`). Bookkeeping: no revision bump. Raises
        :class:`GameClosed` on a finished or ended game."""

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's move log in order, the same once it is packed (see
        :meth:`compact_finished`); :class:`DamagedLog` if its packed log cannot be unpacked
        (the store's log has the detail)."""

    async def games_for_user(
        self,
        user_id: int,
        *,
        statuses: Collection[GameStatus] = OPEN_STATUSES,
        channel_id: int | None = None,
    ) -> list[UserGame]:
        """The games a user is seated at (only ``channel_id``'s when given), most recently
        changed first."""

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameRow]:
        """The guild's finished games (only those ``user_id`` sat at, when given), the last
        to finish first: ``limit`` of them after skipping ``offset``. A daily trek's attempts
        are not among them."""

    async def count_finished_games(self, guild_id: int, *, user_id: int | None = None) -> int:
        """How many games :meth:`finished_games` would list in all."""

    async def final_messages(self, game_ids: Collection[int]) -> dict[int, int]:
        """The id of the message that ended each of the games, for those whose last message
        has been posted."""

    async def round_scores(self, game_id: int) -> list[tuple[int, ...]] | None:
        """Every seat's total after each round of the game, in seat order, a tuple a round;
        ``None`` when they were never stored (a game finished before they were kept)."""

    async def save_round_scores(self, game_id: int, rounds: Sequence[Sequence[int]]) -> None:
        """Keep the game's totals round by round (as :meth:`round_scores` reads them); rows
        already kept for the game stay as they are."""

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Unsent outbox rows, oldest first; with ``max_attempts``, only rows tried fewer times;
        with ``channel_id``, only that channel's. Rows of one channel must be posted in this
        order: a caller that skips a failing row holds back the channel's later rows."""

    async def claim_outbox(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Claim unsent rows for ``claimer`` until its lease ends and return them, oldest
        first (only ``channel_id``'s when given): rows of games in guilds its shards own, not
        held by another claimer's lease that has not ended, in channels where no earlier
        unsent row is held so. Rows it holds already are claimed again (the lease renewed)."""

    async def claim_game(self, game_id: int, claimer: Claimer) -> bool:
        """Claim a game's background work (reminders, votes, pings, computer turns) for
        ``claimer`` until its lease ends; ``False`` when its shards do not own the game's guild
        or another claimer's lease holds it. Claiming again renews the lease."""

    async def claim_games(self, game_ids: Collection[int], claimer: Claimer) -> set[int]:
        """:meth:`claim_game` for several games in one statement; returns the ids claimed."""

    async def release_claims(self) -> int:
        """Drop every claim (rows and games) at once; returns how many rows were held. Only
        for a process that knows it is the only one on the database (an SQLite file it has
        locked), so that claims of a process that died are not waited out."""

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        """One outbox row, sent or not."""

    async def mark_sent(self, outbox_id: int, message_id: int) -> None:
        """Record that a row was posted as ``message_id`` and drop its snapshot; marking twice
        keeps the first time and message id."""

    async def mark_failed(self, outbox_id: int, error: str) -> None:
        """Count a failed attempt to post a row and keep the error; ignored once it is sent."""

    async def forget_sent(self, sent_before: datetime, *, limit: int = 1000) -> int:
        """Delete up to ``limit`` outbox rows posted before ``sent_before`` that nothing reads
        any more, oldest first; returns how many (call again while it is ``limit``).

        Kept whatever their age: every row not yet posted (a restart posts it, with its nonce),
        each game's final message (``finish``, which its history links to) and its latest
        turn message (what :meth:`latest_message` and :meth:`latest_turn_message` give). The
        game rows, the move log and the final record are never touched. The space comes back
        with :meth:`reclaim_space`."""

    async def compact_finished(self, before: datetime, *, limit: int = 100) -> int:
        """Pack up to ``limit`` finished or ended games last changed (``updated_at``) before
        ``before`` and not packed yet, oldest first; returns how many (call again while it is
        ``limit``). Each game is packed in a short transaction of its own.

        A game's move rows become one packed row and are deleted; on SQLite its state text is
        also stored compressed (PostgreSQL compresses long text by itself). Nothing a reader
        sees changes: :meth:`moves` and the game row's ``state`` read the same, the revision
        stays. Lobbies, games without a state (a daily trek's anchor) and open games are never
        touched. A game row whose packed state cannot be unpacked reads with the state
        :data:`~bot.game.packing.DAMAGED_STATE`, which no state reader parses, and the store's
        log has the detail. The space comes back with :meth:`reclaim_space`."""

    async def reclaim_space(self) -> int:
        """Give the space that deleted rows (sent messages' snapshots, forgotten messages) left
        free back to the file system, a few thousand pages at most a call; returns how many
        pages were given back. Cheap when there are none: the bot calls it periodically."""

    async def due_reminders(self, now: datetime) -> list[GameRow]:
        """Games being played, with reminders on, whose next reminder is at or before ``now``,
        most overdue first."""

    async def record_reminders(self, notes: Sequence[ReminderNote]) -> dict[int, CommitResult]:
        """Count one more reminder for each note's turn, schedule the next and queue its
        message, all in one transaction (one write to disk for a whole pass); by game id. The
        revision stays as it is (bookkeeping). A game that a move changed since its note's
        revision (the row :meth:`due_reminders` gave), or that is no longer being played, is
        left out and left as it is."""

    async def get_panel(self, game_id: int, user_id: int) -> PanelRow | None:
        """The user's turn-panel draft in a game, if any."""

    async def save_panel(
        self,
        game_id: int,
        user_id: int,
        *,
        turn: int,
        revision: int,
        draft: str,
        expected_version: int | None,
    ) -> PanelRow:
        """Store the user's panel draft at the next version (bookkeeping: the game's revision
        stays). With ``expected_version``, only over that version: a press that lost a race
        with another raises :class:`StalePanel` and writes nothing. With ``None``, over
        whatever is there (opening a panel, closing a played one)."""

    async def latest_message(self, game_id: int) -> int | None:
        """The Discord id of the game's latest posted turn message (start, turn or wipe)."""

    async def latest_turn_message(self, game_id: int) -> OutboxRow | None:
        """The row of the game's latest posted turn message (start, turn or wipe), if any."""

    # --- absence: deadlines, votes to skip, time away, quiet hours ----------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        """Change how many hours a turn may take before the others may vote to skip it; 0
        turns deadlines off. Bookkeeping: no revision bump. Raises :class:`GameClosed`."""

    async def deadline_games(self) -> list[GameRow]:
        """Games being played that have a deadline, oldest first."""

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        """The vote to skip that turn of the game, with its votes, if one was opened."""

    async def open_skip_polls(self) -> list[SkipPoll]:
        """The votes of games being played, by game and turn; a vote whose turn is over is
        among them (the store does not read turns): the caller compares them."""

    async def open_skip_poll(
        self,
        game_id: int,
        expected_revision: int,
        *,
        turn: int,
        user_id: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Open the vote to skip ``turn`` and queue its message, in one transaction; once per
        turn (no outbox id when it was open already). ``expected_revision`` is that of the game
        the turn was read from: a move since raises :class:`RevisionConflict`. Bookkeeping."""

    async def add_skip_vote(self, game_id: int, turn: int, voter_id: int) -> bool:
        """Count ``voter_id``'s vote to skip ``turn``; ``False`` if they had voted already.
        Raises :class:`NotFound` when no such vote was opened."""

    async def set_computer(
        self,
        game_id: int,
        expected_revision: int,
        *,
        seat: int,
        computer: str,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Hand ``seat`` to the computer player ``computer`` for good and queue the news. The
        revision goes up. Raises :class:`RevisionConflict`, :class:`NotActive` or
        :class:`NotFound` (no such seat)."""

    async def computer_games(self) -> list[GameRow]:
        """Games being played with a seat handed to the computer, oldest first."""

    async def due_pings(self, now: datetime) -> list[GameRow]:
        """Games being played whose ping owed after quiet hours is due at ``now``."""

    async def record_ping(
        self,
        game_id: int,
        expected_revision: int,
        *,
        ping_due_at: datetime | None,
        next_reminder_at: datetime | None,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Queue the ping owed after quiet hours and set the next one (``None``: nothing owed
        any more) and the next reminder; or, with no message, only move them. A move since the
        game was read raises :class:`RevisionConflict` (its turn message decided afresh).
        Bookkeeping."""

    async def person(self, user_id: int) -> Person:
        """A user's quiet hours and every period of their time away, oldest first (nothing
        set: an empty :class:`Person`)."""

    async def people_of(self, user_ids: Collection[int]) -> dict[int, Person]:
        """:meth:`person` of each of the users, by user id, in two statements however many."""

    async def set_quiet(
        self, user_id: int, *, start: int | None, end: int | None, zone: str | None
    ) -> Person:
        """Set a user's quiet hours (hours 0-23, an IANA zone name the caller checked), or
        clear them with three ``None``."""

    async def set_away(
        self, user_id: int, *, starts_at: datetime, ends_at: datetime, note: str | None
    ) -> Person:
        """Start time away at ``starts_at`` until ``ends_at``; when the user is away already
        at ``starts_at``, that period gets the new end and note instead."""

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        """End the time away at ``now`` (every period still going on or ahead); ``False`` if
        there was none."""

    async def record_hint(
        self, game_id: int, *, turn: int, user_id: int, moves: Sequence[str]
    ) -> HintRow:
        """Note the hint given on ``turn``; :class:`HintTaken` if that turn had one, or
        :class:`NotActive`. The game's revision stays: a hint changes nothing in play."""

    async def hints(self, game_id: int) -> list[HintRow]:
        """The game's hints in turn order."""

    # --- standings ----------------------------------------------------------------------------

    async def record_results(self, results: Sequence[SeatResult]) -> None:
        """Keep the results of a finished game's seats; a seat kept before stays as it was."""

    async def member_results(self, user_id: int, *, guild_id: int | None) -> list[SeatResult]:
        """The person ``user_id``'s seats in finished games (those they left to the computer
        too), in this server's games only unless ``guild_id`` is ``None``; oldest first. Daily
        trek attempts are left out: they have their own boards."""

    async def tablemates(self, user_id: int, *, guild_id: int | None) -> list[Tablemate]:
        """Every seat (theirs and the others') of the finished games the person ``user_id``
        sat at, as head to head needs it, by game and seat; ``guild_id`` as for
        :meth:`member_results`."""

    async def guild_results(self, guild_id: int) -> list[SeatResult]:
        """Every seat of the server's finished games but daily trek attempts, oldest game
        first."""

    async def rated_results(self) -> list[SeatResult]:
        """Every rated seat, by server and season, oldest game first: what ratings are
        rebuilt from."""

    async def games_without_results(self, limit: int = 500) -> list[int]:
        """Ids of finished games whose results are not kept yet (finished before they were),
        lowest first."""

    async def league(self, guild_id: int) -> League:
        """The server's league (off, season 1, if it was never turned on)."""

    async def set_league(
        self, guild_id: int, *, enabled: bool | None = None, new_season: bool = False
    ) -> League:
        """Turn the server's league on or off (``None``: as it is) and, with ``new_season``,
        close its season and start the next; returns the league as it is afterwards."""

    async def set_member(self, guild_id: int, user_id: int, *, joined: bool) -> bool:
        """Add a person to the server's league or take them out; ``False`` if they were
        already in (or out)."""

    async def league_members(self, guild_id: int, user_ids: Collection[int]) -> set[int]:
        """Which of ``user_ids`` joined the server's league."""

    async def ratings(self, guild_id: int, season: int, players: Collection[str]) -> list[Rating]:
        """The ratings of ``players`` in a season who have one."""

    async def save_ratings(self, guild_id: int, season: int, ratings: Sequence[Rating]) -> None:
        """Keep these ratings in a season, replacing the players' earlier ones."""

    async def leaderboard(self, guild_id: int, season: int, limit: int = 20) -> list[Rating]:
        """A season's best ``limit`` ratings, highest ordinal first."""

    async def rating_place(self, guild_id: int, season: int, player: str) -> int | None:
        """A player's place on a season's leaderboard (1 first), if they are rated in it."""

    async def clear_ratings(self) -> None:
        """Drop every rating of every server and season (before rebuilding them)."""

    # --- how people hear of their turns -------------------------------------------------------

    async def notify_settings(self, user_id: int) -> NotifySettings:
        """A user's notification settings (nothing set: the defaults)."""

    async def notify_settings_of(self, user_ids: Collection[int]) -> dict[int, NotifySettings]:
        """The notification settings of each of ``user_ids`` (the defaults for those with
        none)."""

    async def save_notify_settings(self, settings: NotifySettings) -> NotifySettings:
        """Store a user's notification settings, every field as given (a digest hour 0-23,
        reminder hours 0-720, else ``ValueError``); returns them as stored."""

    async def digest_people(self) -> list[NotifySettings]:
        """The settings of everyone who asked for a daily digest."""

    async def queue_digest(
        self,
        user_id: int,
        day: str,
        *,
        game_id: int | None,
        outbox_messages: Sequence[OutboxMessage] = (),
    ) -> tuple[int, ...] | None:
        """Record that the user's digest of their own ``day`` is done and, in the same
        transaction, queue ``outbox_messages`` (under ``game_id``); ``None`` if that day's was
        done already (another process, or before a restart), else the outbox ids."""

    async def refuse_direct(self, outbox_id: int, user_id: int, error: str) -> bool:
        """Discord refused the direct message ``outbox_id`` to ``user_id``: the row is done
        (never tried again) and the user's DMs are refused from now on. Returns whether this
        is news (their DMs were not refused before)."""

    async def take_refusal_note(self, user_id: int) -> bool:
        """Whether the user should now be told that their DMs are refused: ``True`` once per
        refusal, recorded as told in the same write."""

    async def untake_refusal_note(self, user_id: int) -> None:
        """The word taken by :meth:`take_refusal_note` could not be sent: it is owed again
        (unless the refusal was cleared meanwhile)."""

    async def turn_message_before(self, game_id: int, outbox_id: int) -> OutboxRow | None:
        """The game's last turn message (start, turn or wipe) queued before ``outbox_id``,
        sent or not."""

    # --- the daily trek -----------------------------------------------------------------------

    async def start_daily(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        day: str,
        counted: bool,
        cards: str,
        state_json: str,
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
    ) -> DailyStart:
        """Start a member's solo attempt at ``day``'s deal in ``channel_id`` (their direct
        messages or a private thread) in one transaction: the game in play from its first
        state, reminders off, the member in seat 0, the attempt (``counted`` or practice) and
        the outbox rows. ``guild_id`` is the server it was asked from, whose board it joins.
        Raises :class:`ChannelBusy` when the channel has an open game, and
        :class:`AttemptCounted` for a counted attempt when the member has one that day;
        either way nothing is written."""

    async def daily_attempt(self, game_id: int) -> DailyAttempt | None:
        """The daily attempt that this game is, if it is one."""

    async def daily_games(self, game_ids: Collection[int]) -> set[int]:
        """Those of the games that are daily attempts."""

    async def open_attempt(self, user_id: int) -> DailyAttempt | None:
        """The member's daily attempt still being played (of any day), the newest if several."""

    async def counted_attempt(self, user_id: int, day: str) -> DailyAttempt | None:
        """The member's attempt that counts on ``day``, finished or not."""

    async def daily_entries(self, day: str, *, guild_id: int | None) -> list[DailyEntry]:
        """The finished attempts that count on ``day``, those played from ``guild_id`` only
        unless it is ``None``; the highest score first (then the largest corridor, then the
        first to finish)."""

    async def daily_days(self, user_id: int) -> list[str]:
        """The days (``YYYY-MM-DD``) on which the member finished an attempt that counts,
        earliest first."""

    async def set_daily_channel(
        self, guild_id: int, channel_id: int, *, user_id: int
    ) -> DailyChannel:
        """Name the server's daily channel (or change it); the first time, make its anchor
        row (see :class:`DailyChannel`)."""

    async def daily_channel(self, guild_id: int) -> DailyChannel | None:
        """The server's daily channel, if one was named."""

    async def daily_channels(self) -> list[DailyChannel]:
        """Every server's daily channel."""

    async def queue_daily_post(
        self, guild_id: int, day: str, kind: str, message: OutboxMessage
    ) -> int | None:
        """Queue the server's daily post of ``kind`` (``morning`` or ``board``) for ``day``
        in its daily channel, in the outbox under the channel's anchor row; returns the outbox
        id, or ``None`` when that post was queued before (whatever became of it) or the
        server has no daily channel. At most once per server, day and kind, across processes
        and restarts."""
