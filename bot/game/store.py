"""The game's store: lobbies, seats, moves, hints, the outbox and reminders, in SQL that
SQLite and PostgreSQL both run; each feature's store builds on it (see :mod:`bot.stores`).

Queries use asyncpg's ``$1`` placeholders and calls (see :mod:`bot.db.database`). A write
that must know whether it changed a row says so with ``RETURNING``, never with a row count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import datetime

from bot.db.database import Connection, marks
from bot.db.errors import NotFound
from bot.game.claims import ClaimQueries
from bot.game.compact import CompactQueries
from bot.game.errors import (
    AlreadySeated,
    ChannelBusy,
    GameClosed,
    HintTaken,
    LobbyFull,
    NotActive,
    NotInLobby,
    NotSeated,
)
from bot.game.posts import OutboxQueries
from bot.game.rows import (
    DEFAULT_REMINDER_HOURS,
    OPEN_STATUSES,
    Again,
    CommitResult,
    GameRow,
    GameStatus,
    HintRow,
    OutboxMessage,
    ReminderNote,
    Seat,
    SeatResult,
    UserGame,
)
from bot.game.tables import (
    GAME_COLUMNS,
    OPEN,
    SEAT_COLUMNS,
    check_revision,
    insert_seats,
    load_seats,
    reseat,
    seat,
)

_ENDED = {"status": GameStatus.ENDED.value, "next_reminder_at": None, "ping_due_at": None}


class GameStore(ClaimQueries, CompactQueries, OutboxQueries):
    """The game's own queries: lobbies, seats, moves, hints, the outbox, reminders and
    claims, on either database. Each feature's store builds on it."""

    # --- lobby --------------------------------------------------------------------------------

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        cards: str,
        *,
        parent_id: int | None = None,
        again: Again | None = None,
        locale: str | None = None,
    ) -> GameRow:
        # The partial unique index decides between two processes opening a lobby at once.
        """Open a lobby in a channel (a thread of ``parent_id``'s, if given) with the host in
        seat 0, or, ``again``, the seats and settings of a finished game with the host among
        them; its public messages are in ``locale``. :class:`ChannelBusy` if the channel has
        an open game."""
        q = (
            "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
            " updated_at, revision, parent_id, continues, reminder_hours, deadline_hours, locale)"
            " VALUES ($1, $2, $3, $4, $5, $6, $6, 1, $7, $8, $9, $10, $11)"
            f" ON CONFLICT (channel_id) WHERE status IN {OPEN} DO NOTHING RETURNING id"
        )
        lobby, stamp = GameStatus.LOBBY.value, self._stamp()
        continues = None if again is None else again.game_id
        hours = DEFAULT_REMINDER_HOURS if again is None else again.reminder_hours
        deadline = 0 if again is None else again.deadline_hours
        values = (guild_id, channel_id, lobby, host_id, cards, stamp, parent_id, continues)
        async with self._transaction() as db:
            game_id = await db.fetchval(q, *values, hours, deadline, locale)
            if game_id is None:
                q = f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN}"
                raise ChannelBusy(channel_id, int(await db.fetchval(q, channel_id)))
            if again is None:
                seats = [Seat(int(game_id), 0, host_id, host_name)]
            else:
                seats = [
                    Seat(int(game_id), i, s.user_id, s.name, s.computer)
                    for i, s in enumerate(again.seats)
                ]
            await insert_seats(db, seats)
            return await self._load_game(db, int(game_id))

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
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = await load_seats(db, game_id)
            if any(taken.user_id == user_id for taken in seats):
                raise AlreadySeated(game_id, user_id)
            if len(seats) >= max_seats:
                raise LobbyFull(game_id, max_seats)
            new = Seat(game_id, len(seats), user_id, name, computer)
            await insert_seats(db, [new])
            await self._bump(db, game)
            return new

    async def leave(
        self, game_id: int, user_id: int, *, expected_revision: int | None = None
    ) -> GameRow:
        """Take a user's seat away in a lobby and return the game as it is afterwards.

        The seats behind close up. The host leaving ends the lobby (status ``ended``): the
        service hands it on instead (:meth:`hand_over_lobby`) when a person is left to host
        it. Raises :class:`NotInLobby`, :class:`NotSeated` or, when ``expected_revision``
        is given and the lobby changed since, :class:`RevisionConflict`.
        """
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if expected_revision is not None:
                check_revision(game, expected_revision)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = await load_seats(db, game_id)
            if all(taken.user_id != user_id for taken in seats):
                raise NotSeated(game_id, user_id)
            await reseat(db, game_id, [taken for taken in seats if taken.user_id != user_id])
            status = GameStatus.ENDED if user_id == game.host_id else GameStatus.LOBBY
            await self._bump(db, game, status=status.value)
            return await self._load_game(db, game_id)

    async def hand_over_lobby(
        self,
        game_id: int,
        expected_revision: int,
        *,
        heir: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """The host leaves the lobby and ``heir``, seated in it, hosts it from now on: the
        host's seat goes (the seats behind close up) and the news is queued; the revision goes
        up. Raises :class:`RevisionConflict` (someone joined or left since),
        :class:`NotInLobby`, or :class:`NotSeated` if ``heir`` has no seat."""
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            check_revision(game, expected_revision)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = await load_seats(db, game_id)
            if all(taken.user_id != heir for taken in seats) or heir == game.host_id:
                raise NotSeated(game_id, heir)
            await reseat(db, game_id, [taken for taken in seats if taken.user_id != game.host_id])
            revision = await self._bump(db, game, host_id=heir)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the lobby (bookkeeping: no revision bump)."""
        q = "UPDATE games SET lobby_message_id = $1 WHERE id = $2 RETURNING id"
        async with self._transaction() as db:
            if await db.fetchval(q, message_id, game_id) is None:
                raise NotFound("game", game_id)

    async def pass_host(self, game_id: int, *, old_host: int, new_host: int) -> bool:
        """Make ``new_host`` the host in place of ``old_host`` (bookkeeping: no revision
        bump); ``False`` if ``old_host`` was not the host any more."""
        q = "UPDATE games SET host_id = $1 WHERE id = $2 AND host_id = $3 RETURNING id"
        async with self._transaction() as db:
            return await db.fetchval(q, new_host, game_id, old_host) is not None

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
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            check_revision(game, expected_revision)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = {taken.user_id: taken for taken in await load_seats(db, game_id)}
            if len(seat_order) != len(seats) or set(seat_order) != set(seats):
                raise ValueError(
                    f"seat order {list(seat_order)} is not the seated users {sorted(seats)}"
                )
            await reseat(db, game_id, [seats[user_id] for user_id in seat_order])
            revision = await self._bump(
                db,
                game,
                status=GameStatus.ACTIVE.value,
                state=state_json,
                turn_started_at=self._time(turn_started_at),
                next_reminder_at=self._optional_time(next_reminder_at),
                reminders_sent=0,
                ping_due_at=self._optional_time(ping_due_at),
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    # --- play ---------------------------------------------------------------------------------

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
        writes: Sequence[Callable[[Connection], Awaitable[None]]] = (),
    ) -> CommitResult:
        """Store a move in one transaction: state, status and revision, log entry, outbox rows
        and, for the move that finishes the game, its ``results`` and the features' own
        ``writes`` (each run on the transaction's connection).

        ``new_status`` is ``active`` or ``finished``. When ``turn_started_at`` differs from the
        stored one a new turn has begun and the reminder count starts again from 0.
        ``played_for`` says who chose a move its player did not (``"vote"``, ``"host"``,
        ``"computer"``); ``ping_due_at`` when the ping owed for a turn message sent in quiet
        hours is due. Raises :class:`RevisionConflict` (changing nothing) or :class:`NotActive`.
        """
        if new_status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
            raise ValueError(f"a move cannot leave a game {new_status}")
        stamp = self._stamp()
        # The game's lock makes this the only move being numbered for the game.
        q = (
            "INSERT INTO moves (game_id, seq, user_id, action, created_at, played_for)"
            " SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM moves WHERE game_id = $1"
        )
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            same_turn = game.turn_started_at == turn_started_at
            revision = await self._bump(
                db,
                game,
                status=new_status.value,
                state=new_state_json,
                turn_started_at=self._time(turn_started_at),
                next_reminder_at=self._optional_time(next_reminder_at),
                reminders_sent=game.reminders_sent if same_turn else 0,
                ping_due_at=self._optional_time(game.ping_due_at if same_turn else ping_due_at),
            )
            await db.execute(q, game_id, user_id, action_text, stamp, played_for)
            ids = await self._insert_outbox(db, game, outbox_messages)
            await self._insert_results(db, results)
            for write in writes:
                await write(db)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def end_game(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage] = ()
    ) -> CommitResult:
        """Stop a lobby or a game in play early: status ``ended``, no more reminders.

        Takes no expected revision: ending wins over anything in flight, and the bump makes any
        move computed before it fail with :class:`RevisionConflict`. Raises :class:`GameClosed`
        if the game is already finished or ended.
        """
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            revision = await self._bump(db, game, **_ENDED)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game, and those in its threads (deleted with it),
        end (status ``ended``, no more reminders), and every message still to post there is
        dropped. Returns the ids of the games ended (none when the channel had no open game)."""
        q = (
            f"SELECT {GAME_COLUMNS} FROM games g WHERE (g.channel_id = $1 OR g.parent_id = $1)"
            f" AND g.status IN {OPEN}"
        )
        gone = (
            "channel_id = $1 OR channel_id IN (SELECT channel_id FROM games WHERE parent_id = $1)"
        )
        unsent = f"SELECT id FROM outbox WHERE ({gone}) AND sent_at IS NULL"
        async with self._transaction() as db:
            games = [self._game(row) for row in await db.fetch(q + self._for_update, channel_id)]
            for game in games:
                await self._bump(db, game, **_ENDED)
            q = f"DELETE FROM outbox_snapshots WHERE outbox_id IN ({unsent})"
            await db.execute(q, channel_id)
            q = f"DELETE FROM outbox WHERE ({gone}) AND sent_at IS NULL"
            await db.execute(q, channel_id)
            return [game.id for game in games]

    async def set_reminder_hours(
        self, game_id: int, reminder_hours: int, *, next_reminder_at: datetime | None
    ) -> GameRow:
        """Change how often the player to move is reminded and when next; 0 turns reminders
        off. The caller checks that the user is the host and computes ``next_reminder_at`` (see
        :func:`bot.game.kernel.next_reminder_time`). Bookkeeping: no revision bump. Raises
        :class:`GameClosed` on a finished or ended game."""
        if reminder_hours < 0:
            raise ValueError(f"reminder hours must be 0 or more: {reminder_hours}")
        settings = "reminder_hours = $2, next_reminder_at = $3"
        next_at = self._optional_time(next_reminder_at)
        return await self._set_open_game(game_id, settings, reminder_hours, next_at)

    # --- reads --------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, in any status."""
        row = await self._fetchrow(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1", game_id)
        return None if row is None else self._game(row)

    async def get_active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, if there is one."""
        q = f"SELECT {GAME_COLUMNS} FROM games g WHERE g.channel_id = $1 AND g.status IN {OPEN}"
        row = await self._fetchrow(q, channel_id)
        return None if row is None else self._game(row)

    # --- languages ------------------------------------------------------------------------

    async def person_locale(self, user_id: int) -> str | None:
        """The locale ``user_id``'s Discord client was last seen with (``None``: never)."""
        q = "SELECT locale FROM person_locales WHERE user_id = $1"
        return await self._fetchval(q, user_id)  # type: ignore[no-any-return]

    async def note_person_locale(self, user_id: int, locale: str) -> None:
        """Remember the locale ``user_id`` was seen with."""
        q = (
            "INSERT INTO person_locales (user_id, locale) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = $2"
        )
        async with self._transaction() as db:
            await db.execute(q, user_id, locale)

    async def guild_locale(self, guild_id: int) -> str | None:
        """The locale of the server's public messages: the one an admin chose, else the one
        Discord last told (``None``: neither is known, English)."""
        q = "SELECT COALESCE(chosen, seen) FROM server_locales WHERE guild_id = $1"
        return await self._fetchval(q, guild_id)  # type: ignore[no-any-return]

    async def server_language(self, guild_id: int) -> tuple[str | None, str | None]:
        """The server's locale as Discord last told it, and the one an admin chose instead
        (each ``None`` when not known, or not chosen)."""
        row = await self._fetchrow(
            "SELECT seen, chosen FROM server_locales WHERE guild_id = $1", guild_id
        )
        return (None, None) if row is None else (row["seen"], row["chosen"])

    async def note_guild_locale(self, guild_id: int, locale: str) -> None:
        """Remember the locale Discord gives for the server."""
        q = (
            "INSERT INTO server_locales (guild_id, seen) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET seen = $2"
        )
        async with self._transaction() as db:
            await db.execute(q, guild_id, locale)

    async def choose_guild_locale(self, guild_id: int, locale: str | None) -> str | None:
        """Write the server's public messages in ``locale`` (``None``: in Discord's again);
        the server's locale as it is then."""
        q = (
            "INSERT INTO server_locales (guild_id, chosen) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET chosen = $2"
        )
        async with self._transaction() as db:
            await db.execute(q, guild_id, locale)
        return await self.guild_locale(guild_id)

    async def seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""
        async with self._reading() as db:
            return await load_seats(db, game_id)

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[Seat]]:
        # One list parameter, not one placeholder per id: no limit on how many games.
        """The seats of several games at once, each game's in seat order (a game without
        seats, or unknown, is left out)."""
        q = (
            f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.game_id {self._in('$1')}"
            " ORDER BY s.game_id, s.seat"
        )
        found: dict[int, list[Seat]] = {}
        for row in await self._fetch(q, self._list(sorted(set(game_ids)))):
            found.setdefault(int(row["game_id"]), []).append(seat(row))
        return found

    async def games_for_user(
        self,
        user_id: int,
        *,
        statuses: Collection[GameStatus] = OPEN_STATUSES,
        channel_id: int | None = None,
    ) -> list[UserGame]:
        """The games a user is seated at (only ``channel_id``'s when given), most recently
        changed first."""
        wanted = sorted(GameStatus(status).value for status in statuses)
        if not wanted:
            return []
        # IS NULL OR: one statement, so a user with hundreds of finished games elsewhere does
        # not have them all read to find the one in this channel.
        q = (
            f"SELECT {GAME_COLUMNS}, {SEAT_COLUMNS} FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = $1 AND g.status IN ({marks(3, len(wanted))})"
            " AND (CAST($2 AS bigint) IS NULL OR g.channel_id = $2)"
            " ORDER BY g.updated_at DESC, g.id DESC"
        )
        rows = await self._fetch(q, user_id, channel_id, *wanted)
        return [UserGame(game=self._game(row), seat=seat(row)) for row in rows]

    # --- hints --------------------------------------------------------------------------------

    async def record_hint(
        self, game_id: int, *, turn: int, user_id: int, moves: Sequence[str]
    ) -> HintRow:
        """Note the hint given on ``turn``; :class:`HintTaken` if that turn had one, or
        :class:`NotActive`. The game's revision stays: a hint changes nothing in play."""
        q = (
            "INSERT INTO hints (game_id, turn, user_id, moves, created_at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING turn"
        )
        stamp = self._stamp()
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            if await db.fetchval(q, game_id, turn, user_id, "\n".join(moves), stamp) is None:
                raise HintTaken(game_id, turn)
            return HintRow(game_id, turn, user_id, tuple(moves), self._moment(stamp))

    async def hints(self, game_id: int) -> list[HintRow]:
        """The game's hints in turn order."""
        q = (
            "SELECT game_id, turn, user_id, moves, created_at FROM hints"
            " WHERE game_id = $1 ORDER BY turn"
        )
        return [
            HintRow(r[0], r[1], r[2], tuple(r[3].split("\n")), self._moment(r[4]))
            for r in await self._fetch(q, game_id)
        ]

    # --- computer seats ---------------------------------------------------------------------

    async def computer_games(self) -> list[GameRow]:
        """Games being played with a seat handed to the computer, oldest first."""
        rest = (
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.computer IS NOT NULL)"
            " ORDER BY g.id"
        )
        return await self._active_games(rest)

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
        q = "UPDATE seats SET computer = $1 WHERE game_id = $2 AND seat = $3 RETURNING seat"
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            if await db.fetchval(q, computer, game_id, seat) is None:
                raise NotFound("seat", seat)
            revision = await self._bump(db, game)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    # --- reminders, deadlines, computers, pings -----------------------------------------------

    async def due_reminders(self, now: datetime) -> list[GameRow]:
        """Games being played, with reminders on, whose next reminder is at or before ``now``,
        most overdue first."""
        rest = (
            " AND g.reminder_hours > 0 AND g.next_reminder_at IS NOT NULL"
            " AND g.next_reminder_at <= $1 ORDER BY g.next_reminder_at, g.id"
        )
        return await self._active_games(rest, self._time(now))

    async def record_reminders(self, notes: Sequence[ReminderNote]) -> dict[int, CommitResult]:
        """Count one more reminder for each note's turn, schedule the next and queue its
        message, all in one transaction (one write to disk for a whole pass); by game id. The
        revision stays as it is (bookkeeping). A game that a move changed since its note's
        revision (the row :meth:`due_reminders` gave), or that is no longer being played, is
        left out and left as it is."""
        results: dict[int, CommitResult] = {}
        if not notes:
            return results
        # The games read (and on PostgreSQL locked) in one statement, in id order so that
        # two passes cannot deadlock.
        q = (
            f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id {self._in('$1')}"
            f" ORDER BY g.id{self._for_update}"
        )
        async with self._transaction() as db:
            rows = await db.fetch(q, self._list(sorted({note.game_id for note in notes})))
            games = {game.id: game for game in map(self._game, rows)}
            due = [
                (game, note)
                for note in notes
                if (game := games.get(note.game_id)) is not None
                and game.revision == note.expected_revision
                and game.status is GameStatus.ACTIVE
            ]
            await self._count_reminders(db, due)
            for game, note in due:
                ids = await self._insert_outbox(db, game, note.outbox_messages)
                results[game.id] = CommitResult(revision=game.revision, outbox_ids=ids)
        return results

    async def _count_reminders(
        self, db: Connection, due: Sequence[tuple[GameRow, ReminderNote]]
    ) -> None:
        """One more reminder counted for each game, and its next one set."""
        if self._dialect == "postgres":
            await self._count_reminders_at_once(db, due)
            return
        q = (
            "UPDATE games SET reminders_sent = reminders_sent + 1, next_reminder_at = $1"
            " WHERE id = $2"
        )
        for game, note in due:
            await db.execute(q, self._optional_time(note.next_reminder_at), game.id)

    async def _count_reminders_at_once(
        self, db: Connection, due: Sequence[tuple[GameRow, ReminderNote]]
    ) -> None:
        # All the games in one statement.
        await db.execute(
            "UPDATE games SET reminders_sent = reminders_sent + 1, next_reminder_at = n.at"
            " FROM unnest($1::bigint[], $2::timestamptz[]) AS n(id, at) WHERE games.id = n.id",
            [game.id for game, _ in due],
            [self._optional_time(note.next_reminder_at) for _, note in due],
        )
