"""The bot's refusals: requests it turns down, each with the message the user is shown; and
the errors the game's store raises on purpose (a busy channel, a full lobby, a revision
conflict, ...), on :class:`~bot.db.errors.StoreError`.

Discord-free, so the service raises them; the shell's :mod:`bot.shell.errors` turns them (and
the engine's and the database's errors) into short private answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.db.errors import StoreError
from bot.game.names import safe
from bot.game.rows import GameStatus


class BotError(Exception):
    """A request the bot turns down; the message is shown to the user as it is."""


class ServerOnly(BotError):
    """A command that needs a server, used in a direct message with the bot."""

    def __init__(self, command: str) -> None:
        super().__init__(
            f"`/cascadia {command}` works in a server's channels; here in our direct messages"
            " only a daily trek is played."
        )


class NoGame(BotError):
    """The channel has no game in the lobby or being played."""

    def __init__(self) -> None:
        super().__init__("There is no game in this channel. Open one with `/cascadia new`.")


class NotInGame(BotError):
    """The user (or the player asked about) has no seat at this channel's game."""

    def __init__(self, who: str = "You are") -> None:
        super().__init__(f"{who} not in this game.")


class NotYourTurn(BotError):
    """Someone other than the current player tried to move."""

    def __init__(self, current: str) -> None:
        super().__init__(
            f"It's not your turn: it's {safe(current)}'s."
            " You can plan yours with `/cascadia preview`."
        )


class NotStarted(BotError):
    """The game is still in its lobby."""

    def __init__(self) -> None:
        super().__init__("The game has not started yet: the host starts it with `/cascadia start`.")


class ShuttingDown(BotError):
    """The bot is stopping and takes no new requests."""

    def __init__(self) -> None:
        super().__init__("The bot is restarting: please try again in a minute.")


class DamagedState(BotError):
    """The game's stored state text cannot be read back; the operator's log has the detail."""

    def __init__(self) -> None:
        super().__init__("This game's saved state is damaged: the bot's host has been told.")


class NotHost(BotError):
    """Only the host (or a channel manager, where allowed) may do this."""

    def __init__(self, what: str) -> None:
        super().__init__(f"Only the host can {what}.")


class HintUsed(BotError):
    """The player asked for a hint on this turn already."""

    def __init__(self, why: str = "") -> None:
        text = "You had your hint for this turn: one per turn."
        super().__init__(f"{text} {why}" if why else text)


class NoComputer(BotError):
    """The host asked to remove a computer from a lobby that has none."""

    def __init__(self) -> None:
        super().__init__("There is no computer in this lobby to remove.")


class ComputerAdded(BotError):
    """A press on the host's choice of computer player after a computer was seated since it was
    asked: most often the same choice pressed twice."""

    def __init__(self) -> None:
        super().__init__(
            "That computer was already added: nothing was changed. For another one, press "
            "**Add computer** again."
        )


class LastPerson(BotError):
    """The only person left in a game cannot hand it to the computer."""

    def __init__(self) -> None:
        super().__init__(
            "You are the last person in this game: the computers would play on alone. "
            "The host can end it with `/cascadia end`."
        )


class AlreadyPlayed(BotError):
    """The same player's turn arrived twice at once: the first one was played."""

    def __init__(self) -> None:
        super().__init__(
            "You already played this turn: your first submission counted, this one changed nothing."
        )


def missing_text(missing: Sequence[str]) -> str:
    """The permissions the bot lacks in a channel, and who can fix it, in one sentence."""
    if len(missing) == 1:
        lacking = f"the **{missing[0]}** permission"
    else:
        lacking = "the permissions " + ", ".join(f"**{m}**" for m in missing)
    return (
        f"I lack {lacking} in this channel: someone who manages the channel or the server "
        "can give them to me."
    )


class MissingPermissions(BotError):
    """The bot may not do in this channel what a game needs (post, attach its pictures)."""

    def __init__(self, missing: Sequence[str]) -> None:
        self.missing = tuple(missing)
        super().__init__(f"I cannot run a game here. {missing_text(missing)}")


class TooManyLobbies(BotError):
    """A member opening one lobby more than a server allows them to have open at once."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"You have {limit} lobbies open in this server already, the most one member may "
            "have: start or end one (`/cascadia end` in its channel) before opening another."
        )


class NotToPlayAgain(BotError):
    """**Play again** pressed on a game that cannot be played again by the presser."""

    def __init__(self, *, player: bool) -> None:
        super().__init__(
            "Only a game played to the end can be played again."
            if player
            else "Only this game's players can play it again; `/cascadia new` opens a table."
        )


class AlreadyAgain(BotError):
    """**Play again** pressed where a game is open already."""

    def __init__(self, *, ours: bool) -> None:
        super().__init__(
            "This game's next one is open already: press **Join** on its lobby."
            if ours
            else "Another game is open here already: finish or end it first."
        )


@dataclass(eq=False)
class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or being played."""

    channel_id: int
    game_id: int

    def __str__(self) -> str:
        return f"channel {self.channel_id} already has an open game: {self.game_id}"


@dataclass(eq=False)
class WrongStatus(StoreError):
    """The game's status does not allow this write."""

    game_id: int
    status: GameStatus

    def __str__(self) -> str:
        return f"game {self.game_id} is {self.status}"


class NotInLobby(WrongStatus):
    """Seats can only change, and a game only start, while it is in the lobby."""


class NotActive(WrongStatus):
    """Moves and reminders need a game that is being played."""


class GameClosed(WrongStatus):
    """The game is already finished or ended."""


@dataclass(eq=False)
class LobbyFull(StoreError):
    """Every seat of the lobby is taken."""

    game_id: int
    max_seats: int

    def __str__(self) -> str:
        return f"game {self.game_id} is full: {self.max_seats} seats"


@dataclass(eq=False)
class AlreadySeated(StoreError):
    """The user already has a seat at this game."""

    game_id: int
    user_id: int

    def __str__(self) -> str:
        return f"user {self.user_id} is already seated at game {self.game_id}"


@dataclass(eq=False)
class NotSeated(StoreError):
    """The user has no seat at this game."""

    game_id: int
    user_id: int

    def __str__(self) -> str:
        return f"user {self.user_id} is not seated at game {self.game_id}"


@dataclass(eq=False)
class RevisionConflict(StoreError):
    """The game changed since the caller read it; nothing was written."""

    game_id: int
    expected: int
    actual: int

    def __str__(self) -> str:
        return f"game {self.game_id} is at revision {self.actual}, not {self.expected}"


@dataclass(eq=False)
class StalePanel(StoreError):
    """The panel was saved by another press since the caller read it; nothing was written."""

    game_id: int
    user_id: int
    expected: int

    def __str__(self) -> str:
        return (
            f"panel of user {self.user_id} in game {self.game_id} is past version {self.expected}"
        )


@dataclass(eq=False)
class HintTaken(StoreError):
    """That turn of the game had its hint already."""

    game_id: int
    turn: int

    def __str__(self) -> str:
        return f"turn {self.turn} of game {self.game_id} had its hint already"


@dataclass(eq=False)
class DamagedLog(StoreError):
    """A finished game's packed move log cannot be unpacked (restore it from a backup)."""

    game_id: int
    detail: str

    def __str__(self) -> str:
        return f"game {self.game_id}: its packed move log cannot be unpacked ({self.detail})"
