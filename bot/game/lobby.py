"""The lobby: opening one, seating people and computers, starting the game, passing the
host on. A part of the game service (see :mod:`bot.game.kernel`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from bot.game import messages
from bot.game.computers import COMPUTER_PLAYERS, computer_name
from bot.game.errors import (
    AlreadyAgain,
    AlreadySeated,
    ChannelBusy,
    ComputerAdded,
    NoComputer,
    NotHost,
    NotInLobby,
    NotToPlayAgain,
    RevisionConflict,
    TooManyLobbies,
)
from bot.game.kernel import GameKernel, LoadedGame
from bot.game.messages import Player
from bot.game.outbox import Announcement, Picture
from bot.game.records import state_text
from bot.game.rows import Again, CommitResult, GameStatus
from bot.ops.locks import KeyedLocks
from engine import MAX_PLAYERS, CardSet, InvalidInput, new_game
from i18n import N_, speaking

MAX_OPEN_LOBBIES = 5
"""How many lobbies one member may have open in one server at a time."""
LEAVE_TRIES = 5
"""How many times leaving a lobby looks again when people join or leave at the same moment."""


@dataclass(frozen=True, slots=True)
class Left:
    """A seat given up in a lobby: the game as it is then, and the news queued for the
    channel (the host handing the lobby on), to post."""

    loaded: LoadedGame
    outbox_ids: tuple[int, ...] = ()


START_TRIES = 3
"""How often a start is tried on the lobby read afresh when its seats changed meanwhile."""


def parse_cards(text: str | None) -> str:
    """The stored form of the ``cards`` option: ``"random"`` or a card set's text form."""
    if text is None or text.strip().lower() in ("", "random"):
        return "random"
    return str(CardSet.parse(text))


class Lobby:
    """Opening a lobby, seating people and computers, starting the game, and the host
    changing hands; part of the game service, over its :class:`GameKernel`."""

    def __init__(self, kernel: GameKernel) -> None:
        self.kernel = kernel
        self.store = kernel.store
        self.openers: KeyedLocks[int] = KeyedLocks()
        """One opening at a time per member (a lock only while they are opening one)."""

    async def may_open(self, *, guild_id: int, user_id: int, cards: str | None) -> str:
        """The stored form of ``cards`` if the caller may open a lobby in this server now
        (:class:`~engine.InvalidInput` for cards that do not parse, :class:`TooManyLobbies`
        past :data:`MAX_OPEN_LOBBIES`): asked before anything is made for the lobby, such as
        its thread."""
        cards = parse_cards(cards)
        hosted = await self.store.games_for_user(user_id, statuses=(GameStatus.LOBBY,))
        mine = [g for g in hosted if g.game.host_id == user_id and g.game.guild_id == guild_id]
        if len(mine) >= MAX_OPEN_LOBBIES:
            raise TooManyLobbies(MAX_OPEN_LOBBIES)
        return cards

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        cards: str | None,
        parent_id: int | None = None,
    ) -> LoadedGame:
        """Open a lobby in the channel (a thread of ``parent_id``'s, if given) with the caller
        seated as host, its public messages in the server's language;
        :class:`TooManyLobbies` if they host :data:`MAX_OPEN_LOBBIES` lobbies in this server
        already."""
        # One opening at a time per member, so that a burst of them cannot pass the count.
        async with self.openers.hold(user_id):
            cards = await self.may_open(guild_id=guild_id, user_id=user_id, cards=cards)
            locale = await self.store.guild_locale(guild_id)
            game = await self.store.create_lobby(
                guild_id, channel_id, user_id, name, cards, parent_id=parent_id, locale=locale
            )
        return await self.kernel.load(game)

    async def play_again(self, game_id: int, *, user_id: int) -> LoadedGame:
        """A player of the finished game ``game_id`` opens a new lobby in its place with its
        players seated (computers too), the first seat moved on by one, and its cards rule
        and settings; the presser hosts it. :class:`NotSeated` for anyone else, and
        :class:`ChannelBusy` when the place has an open game already (this one's new lobby,
        say, opened by a press a moment before)."""
        game = await self.kernel.row_by_id(game_id)
        seats = await self.store.seats(game_id)
        if all(s.user_id != user_id or s.computer is not None for s in seats):
            raise NotToPlayAgain(player=False)
        if game.status is not GameStatus.FINISHED:
            raise NotToPlayAgain(player=True)
        again = Again(
            game_id,
            (*seats[1:], *seats[:1]),
            reminder_hours=game.reminder_hours,
            deadline_hours=game.deadline_hours,
        )
        host = next(s for s in seats if s.user_id == user_id)
        try:
            created = await self.store.create_lobby(
                game.guild_id,
                game.channel_id,
                user_id,
                host.name,
                game.cards,
                parent_id=game.parent_id,
                again=again,
                locale=game.locale,
            )
        except ChannelBusy as busy:
            there = await self.kernel.row_by_id(busy.game_id)
            raise AlreadyAgain(ours=there.continues == game_id) from None
        return await self.kernel.load(created)

    async def join(self, game_id: int, *, user_id: int, name: str) -> LoadedGame:
        """Seat the caller in the lobby."""
        await self.store.join(game_id, user_id, name, max_seats=MAX_PLAYERS)
        return await self.kernel.game_by_id(game_id)

    async def check_host(self, game_id: int, *, user_id: int, what: str) -> LoadedGame:
        """The game, if the caller is its host; :class:`NotHost` otherwise."""
        loaded = await self.kernel.game_by_id(game_id)
        if user_id != loaded.game.host_id:
            raise NotHost(what)
        return loaded

    async def add_computer(
        self, game_id: int, *, user_id: int, policy: str, seen: int | None = None
    ) -> LoadedGame:
        """The host seats a computer player (one of :data:`COMPUTER_PLAYERS`) in the lobby.

        ``seen`` is how many computers had seats when the host was asked which to add (the
        question's buttons carry it): if more have seats now, the question's computer is
        seated already and a press changes nothing (:class:`ComputerAdded`). People joining
        meanwhile do not count. Two presses at the same moment both pick the same free seat
        id, and the store seats it once: the other press is :class:`ComputerAdded` too.

        A computer's seat gets a negative user id, never a Discord user's."""
        if policy not in COMPUTER_PLAYERS:
            raise InvalidInput(f"unknown computer player {policy!r}")
        loaded = await self.check_host(game_id, user_id=user_id, what=N_("add a computer"))
        if loaded.game.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, loaded.game.status)
        if seen is not None and loaded.computers > seen:
            raise ComputerAdded()
        taken = {p.user_id for p in loaded.players}
        computer_id = next(i for i in range(-1, -MAX_PLAYERS - 2, -1) if i not in taken)
        with speaking(loaded.game.locale):
            name = computer_name(policy)  # its seat's name, in the game's language
        try:
            await self.store.join(
                game_id, computer_id, name, max_seats=MAX_PLAYERS, computer=policy
            )
        except AlreadySeated:
            raise ComputerAdded() from None
        return await self.kernel.game_by_id(game_id)

    async def remove_computer(self, game_id: int, *, user_id: int) -> LoadedGame:
        """The host takes the computer seated last out of the lobby (:class:`NoComputer`
        when there is none); the seats behind it close up."""
        loaded = await self.check_host(game_id, user_id=user_id, what=N_("remove a computer"))
        if loaded.game.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, loaded.game.status)
        seated = [p.user_id for p in loaded.players if p.computer is not None]
        if not seated:
            raise NoComputer()
        await self.store.leave(game_id, seated[-1])
        return await self.kernel.game_by_id(game_id)

    async def leave(self, game_id: int, *, user_id: int) -> Left:
        """Take the caller's seat away. The host leaving hands the lobby to the next person
        in seat order, and the channel is told; with nobody to take it, the lobby closes."""
        for _ in range(LEAVE_TRIES - 1):
            # Someone joining or leaving at the same moment: look again.
            with contextlib.suppress(RevisionConflict):
                return await self._leave(game_id, user_id)
        return await self._leave(game_id, user_id)

    async def _leave(self, game_id: int, user_id: int) -> Left:
        loaded = await self.kernel.game_by_id(game_id)
        heir = next_host(loaded, user_id) if user_id == loaded.game.host_id else None
        if heir is None:
            await self.store.leave(game_id, user_id, expected_revision=loaded.game.revision)
            return Left(await self.kernel.game_by_id(game_id))
        result = await self._hand_over(loaded, heir)
        return Left(await self.kernel.game_by_id(game_id), result.outbox_ids)

    async def _hand_over(self, loaded: LoadedGame, heir: Player) -> CommitResult:
        leaver = next(p for p in loaded.players if p.user_id == loaded.game.host_id)
        pinged = await self.kernel.hooks.caller.mentioned([heir.user_id])
        with speaking(loaded.game.locale):
            announcement = Announcement(
                kind="host",
                text=messages.host_left_message(leaver, heir, ping=heir.user_id in pinged),
                mentions=(heir.user_id,) if heir.user_id in pinged else (),
            )
        return await self.store.hand_over_lobby(
            loaded.game.id,
            loaded.game.revision,
            heir=heir.user_id,
            outbox_messages=[announcement.to_outbox()],
        )

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember which message shows the lobby, to update it later."""
        await self.store.set_lobby_message(game_id, message_id)

    async def start(self, game_id: int, *, user_id: int, locale: str | None = None) -> CommitResult:
        """The host starts the game with the seated players, and the first player is called.

        A seat taken or given up between reading the lobby and starting it (a Join pressed a
        moment before Start) does not turn the host away: the lobby is read again, the host
        and its status checked again, and the game starts with the seats as they then are.
        Only a lobby that keeps changing under it, :data:`START_TRIES` times, is
        :class:`RevisionConflict`. The start message is in the game's language (``locale``,
        the server's, for a lobby opened before games kept theirs)."""
        tries = START_TRIES
        while True:
            loaded = await self.kernel.game_by_id(game_id)
            try:
                return await self._start(loaded, user_id=user_id, locale=locale)
            except RevisionConflict:
                tries -= 1
                if tries == 0:
                    raise

    async def _start(self, loaded: LoadedGame, *, user_id: int, locale: str | None) -> CommitResult:
        game = loaded.game
        locale = game.locale if game.locale is not None else locale
        if user_id != game.host_id:
            raise NotHost(N_("start the game"))
        if game.status is not GameStatus.LOBBY:
            raise NotInLobby(game.id, game.status)
        state = new_game(players=len(loaded.players), seed=self.kernel.seeds(), cards=game.cards)
        turn = self.kernel.turn(loaded, state, now=self.kernel.now())
        call, next_at = await self.kernel.call(turn)
        with speaking(locale):
            announcement = Announcement(
                kind="start",
                text=messages.start_message(state, loaded.players, call),
                mentions=(turn.player.user_id,) if call.ping else (),
                pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
                state=state,
                names=loaded.names,
            )
        text = state_text(state)
        directs = await self.kernel.hooks.directs.for_turn(turn, announcement.text, state_json=text)
        return await self.store.start_game(
            game.id,
            game.revision,
            state_json=text,
            seat_order=[p.user_id for p in loaded.players],
            outbox_messages=[announcement.to_outbox(state_text=text), *directs],
            turn_started_at=turn.now,
            next_reminder_at=next_at,
            ping_due_at=call.ping_due_at,
        )

    async def pass_host(self, game_id: int, *, gone: int) -> LoadedGame | None:
        """The host ``gone`` left the server: the next person in seat order becomes host.
        Returns the game as it is then; ``None`` when nothing changed (``gone`` is not the
        host, or nobody is left to take over)."""
        loaded = await self.kernel.game_by_id(game_id)
        if loaded.game.host_id != gone:
            return None
        heir = next_host(loaded, gone)
        if heir is None:
            return None
        if not await self.store.pass_host(game_id, old_host=gone, new_host=heir.user_id):
            return None
        return await self.kernel.game_by_id(game_id)


def next_host(loaded: LoadedGame, gone: int) -> Player | None:
    """Who hosts the game when its host ``gone`` goes: the next person after them in seat
    order (from the first seat if they have none), never a computer; ``None`` if nobody."""
    order = list(loaded.people)
    ids = [p.user_id for p in order]
    start = ids.index(gone) + 1 if gone in ids else 0
    return next((p for p in [*order[start:], *order[:start]] if p.user_id != gone), None)
