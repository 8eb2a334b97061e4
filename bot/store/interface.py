"""The :class:`Store` protocol: what the bot needs from persistence, whatever the database."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

from bot.store.rows import (
    OPEN_STATUSES,
    Claimer,
    CommitResult,
    GameRow,
    GameStatus,
    HintRow,
    MoveRow,
    OutboxMessage,
    OutboxRow,
    PanelRow,
    Person,
    ReminderNote,
    Seat,
    SkipPoll,
    UserGame,
)


class Store(Protocol):
    """What the bot needs from persistence; every write is atomic."""

    async def close(self) -> None:
        """Release the store; it cannot be used afterwards. Closing twice is harmless."""
        ...

    async def create_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, cards: str
    ) -> GameRow:
        """Open a lobby in a channel with the host in seat 0; :class:`ChannelBusy` if taken."""
        ...

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, in any status."""
        ...

    async def get_active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, if there is one."""
        ...

    async def seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""
        ...

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[Seat]]:
        """The seats of several games at once, each game's in seat order (a game without
        seats, or unknown, is left out)."""
        ...

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
        lobby."""
        ...

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        """Take a user's seat away in a lobby; the host leaving ends the lobby."""
        ...

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the lobby."""
        ...

    async def pass_host(self, game_id: int, *, old_host: int, new_host: int) -> bool:
        """Make ``new_host`` the host in place of ``old_host``; ``False`` if ``old_host`` was
        not the host any more."""
        ...

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
        """Turn a lobby into an active game with its first state and final seat order."""
        ...

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
    ) -> CommitResult:
        """Store a move: new state, log entry and announcements, all or nothing."""
        ...

    async def end_game(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage] = ()
    ) -> CommitResult:
        """Stop a lobby or a game in play early (status ``ended``)."""
        ...

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel was deleted: end its open game and drop its unsent messages; returns
        the ids of the games ended."""
        ...

    async def set_reminder_hours(
        self, game_id: int, reminder_hours: int, *, next_reminder_at: datetime | None
    ) -> GameRow:
        """Change how often the player to move is reminded; 0 turns reminders off."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's move log in order."""
        ...

    async def games_for_user(
        self,
        user_id: int,
        *,
        statuses: Collection[GameStatus] = OPEN_STATUSES,
        channel_id: int | None = None,
    ) -> list[UserGame]:
        """The games a user is seated at (only ``channel_id``'s when given), most recently
        changed first."""
        ...

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Unsent outbox rows, oldest first (only ``channel_id``'s when given)."""
        ...

    async def claim_outbox(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Claim unsent rows for ``claimer`` until its lease ends and return them, oldest
        first (only ``channel_id``'s when given): rows of games in guilds its shards own, not
        held by another claimer's lease that has not ended, in channels where no earlier
        unsent row is held so. Rows it holds already are claimed again (the lease renewed)."""
        ...

    async def claim_game(self, game_id: int, claimer: Claimer) -> bool:
        """Claim a game's background work (reminders, votes, pings, computer turns) for
        ``claimer`` until its lease ends; ``False`` when its shards do not own the game's guild
        or another claimer's lease holds it. Claiming again renews the lease."""
        ...

    async def claim_games(self, game_ids: Collection[int], claimer: Claimer) -> set[int]:
        """:meth:`claim_game` for several games in one statement; returns the ids claimed."""
        ...

    async def release_claims(self) -> int:
        """Drop every claim (rows and games) at once; returns how many rows were held. Only
        for a process that knows it is the only one on the database (an SQLite file it has
        locked), so that claims of a process that died are not waited out."""
        ...

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        """One outbox row, sent or not."""
        ...

    async def mark_sent(self, outbox_id: int, message_id: int) -> None:
        """Record that a row was posted; marking twice keeps the first record."""
        ...

    async def mark_failed(self, outbox_id: int, error: str) -> None:
        """Record a failed attempt to post a row; ignored once the row is sent."""
        ...

    async def reclaim_space(self) -> int:
        """Give free space left by deleted rows back to the file system; returns its pages."""
        ...

    async def due_reminders(self, now: datetime) -> list[GameRow]:
        """Games being played whose next reminder is due at ``now``, most overdue first."""
        ...

    async def record_reminders(self, notes: Sequence[ReminderNote]) -> dict[int, CommitResult]:
        """Count one more reminder for each note's turn, schedule the next and queue its
        message, all in one transaction (one write to disk for a whole pass); by game id. The
        revision stays as it is (bookkeeping). A game that a move changed since its note's
        revision (the row :meth:`due_reminders` gave), or that is no longer being played, is
        left out and left as it is."""
        ...

    async def get_panel(self, game_id: int, user_id: int) -> PanelRow | None:
        """The user's turn-panel draft in a game, if any."""
        ...

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
        """Store the user's panel draft at the next version: only over ``expected_version``
        when given (:class:`StalePanel` otherwise), over whatever is there when ``None``."""
        ...

    async def latest_message(self, game_id: int) -> int | None:
        """The Discord id of the game's latest posted channel message, if any."""

    # --- absence: deadlines, votes to skip, time away, quiet hours ----------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        """Change how long a turn may take before a vote to skip it; 0: no deadline."""
        ...

    async def deadline_games(self) -> list[GameRow]:
        """Games being played that have a deadline."""
        ...

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        """The vote to skip that turn of the game, if one was opened."""
        ...

    async def open_skip_polls(self) -> list[SkipPoll]:
        """The votes of games being played, newest turn last (the caller checks the turn)."""
        ...

    async def open_skip_poll(
        self,
        game_id: int,
        expected_revision: int,
        *,
        turn: int,
        user_id: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Open the vote to skip a turn and queue its message, once per turn."""
        ...

    async def add_skip_vote(self, game_id: int, turn: int, voter_id: int) -> bool:
        """Count a vote; ``False`` if this voter had voted already."""
        ...

    async def set_computer(
        self,
        game_id: int,
        expected_revision: int,
        *,
        seat: int,
        computer: str,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Hand a seat to a computer player for good."""
        ...

    async def computer_games(self) -> list[GameRow]:
        """Games being played with a seat handed to the computer."""
        ...

    async def due_pings(self, now: datetime) -> list[GameRow]:
        """Games being played whose ping owed after quiet hours is due at ``now``."""
        ...

    async def record_ping(
        self,
        game_id: int,
        expected_revision: int,
        *,
        ping_due_at: datetime | None,
        next_reminder_at: datetime | None,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Queue the ping owed (or move it to ``ping_due_at``) and set the next reminder."""
        ...

    async def person(self, user_id: int) -> Person:
        """A user's quiet hours and time away (nothing set: an empty :class:`Person`)."""
        ...

    async def set_quiet(
        self, user_id: int, *, start: int | None, end: int | None, zone: str | None
    ) -> Person:
        """Set a user's quiet hours, or clear them with three ``None``."""
        ...

    async def set_away(
        self, user_id: int, *, starts_at: datetime, ends_at: datetime, note: str | None
    ) -> Person:
        """Start time away, or change the end and note of the time away going on."""
        ...

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        """End the time away going on at ``now``; ``False`` if there was none."""
        ...

    async def record_hint(
        self, game_id: int, *, turn: int, user_id: int, moves: Sequence[str]
    ) -> HintRow:
        """Note the hint given on a turn; :class:`HintTaken` if that turn had one already."""
        ...

    async def hints(self, game_id: int) -> list[HintRow]:
        """The game's hints in turn order."""
        ...
