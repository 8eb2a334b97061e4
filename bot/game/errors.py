"""The bot's refusals: requests it turns down, each with the message the user is shown; and
the errors the game's store raises on purpose (a busy channel, a full lobby, a revision
conflict, ...), on :class:`~bot.db.errors.StoreError`.

Discord-free, so the service raises them; the shell's :mod:`bot.shell.errors` turns them (and
the engine's and the database's errors) into short private answers.

A refusal is translated when it is answered, not when it is raised: a :class:`BotError` keeps
its English text (marked with :func:`~i18n.N_`) and the fields to fill into it, ``str()`` of it
is that English (what the operator's log shows), and :meth:`BotError.message` is the text in
the reader's language (:func:`~i18n.speaking`), which :func:`bot.shell.errors.report` sends: the
reader there is the person whose interaction it answers. A field that is itself a phrase to
translate (the action only the host may do) is a :class:`Words`; any other field (a name, a
number) is filled in as it is. A text given already translated reads as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.db.errors import StoreError
from bot.game.names import safe
from bot.game.rows import GameStatus
from i18n import N_, _, speaking


class Words(str):
    """An English phrase filled into a refusal's text and translated with it (a field that is
    not a name or a number, such as the action only the host may do)."""

    __slots__ = ()


class BotError(Exception):
    """A request the bot turns down; :meth:`message` is what the user is shown.

    ``text`` is the English (marked where it is written), ``fields`` its ``{name}`` fields;
    ``str()`` gives the English, for the log."""

    def __init__(self, text: str = "", /, **fields: object) -> None:
        self.text = text
        self.fields = fields
        super().__init__(text.format(**fields) if fields else text)

    def message(self) -> str:
        """The text in the reader's language, its fields filled in (:class:`Words` translated
        too)."""
        fields = {k: _(v) if isinstance(v, Words) else v for k, v in self.fields.items()}
        return _(self.text, **fields)


class ServerOnly(BotError):
    """A command that needs a server, used in a direct message with the bot."""

    def __init__(self, command: str) -> None:
        super().__init__(
            N_(
                "`/cascadia {command}` works in a server's channels; here in our direct"
                " messages only a daily trek is played."
            ),
            command=command,
        )


class NoGame(BotError):
    """The channel has no game in the lobby or being played."""

    def __init__(self) -> None:
        super().__init__(N_("There is no game in this channel. Open one with `/cascadia new`."))


class NotInGame(BotError):
    """The user (or the player asked about) has no seat at this channel's game.

    ``name``: the player asked about (already written for a message, see
    :func:`~bot.game.names.safe`); none: the user. ``who`` is the older way to say it
    (``"You are"``, ``"That player is"``, ``"<name> is"``), still read."""

    def __init__(self, who: str = "You are", *, name: str | None = None) -> None:
        if name is None and who == "That player is":
            super().__init__(N_("That player is not in this game."))
            return
        if name is None and who != "You are":
            name = who.removesuffix(" is")
        if name is None:
            super().__init__(N_("You are not in this game."))
        else:
            super().__init__(N_("{name} is not in this game."), name=name)


class NotYourTurn(BotError):
    """Someone other than the current player tried to move (``current``: who is to move;
    ``None`` when the game is over)."""

    def __init__(self, current: str | None) -> None:
        if current is None:
            super().__init__(N_("It's nobody's turn: the game is over."))
            return
        super().__init__(
            N_("It's not your turn: it's {name}'s. You can plan yours with `/cascadia preview`."),
            name=safe(current),
        )


class NotStarted(BotError):
    """The game is still in its lobby."""

    def __init__(self) -> None:
        super().__init__(
            N_("The game has not started yet: the host starts it with `/cascadia start`.")
        )


class ShuttingDown(BotError):
    """The bot is stopping and takes no new requests."""

    def __init__(self) -> None:
        super().__init__(N_("The bot is restarting: please try again in a minute."))


class DamagedState(BotError):
    """The game's stored state text cannot be read back; the operator's log has the detail."""

    def __init__(self) -> None:
        super().__init__(N_("This game's saved state is damaged: the bot's host has been told."))


HOST_ACTIONS = (
    N_("start the game"),
    N_("add a computer"),
    N_("remove a computer"),
    N_("end the game (or someone with Manage Channels)"),
    N_("change the settings"),
    N_("hand a seat to the computer (or someone with Manage Channels)"),
    N_("skip a turn (or someone with Manage Channels)"),
)
"""What :class:`NotHost` is given: the actions only the host may do, each translated as a
phrase that follows "Only the host can"."""


class NotHost(BotError):
    """Only the host (or a channel manager, where allowed) may do this: ``what``, one of
    :data:`HOST_ACTIONS`."""

    def __init__(self, what: str) -> None:
        super().__init__(N_("Only the host can {what}."), what=Words(what))


class HintUsed(BotError):
    """The player asked for a hint on this turn already; ``why``, a sentence marked for
    translation, says more."""

    def __init__(self, why: str = "") -> None:
        if why:
            super().__init__(
                N_("You had your hint for this turn: one per turn. {why}"), why=Words(why)
            )
        else:
            super().__init__(N_("You had your hint for this turn: one per turn."))


class NoComputer(BotError):
    """The host asked to remove a computer from a lobby that has none."""

    def __init__(self) -> None:
        super().__init__(N_("There is no computer in this lobby to remove."))


class ComputerAdded(BotError):
    """A press on the host's choice of computer player after a computer was seated since it was
    asked: most often the same choice pressed twice."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "That computer was already added: nothing was changed. For another one, press "
                "**Add computer** again."
            )
        )


class LastPerson(BotError):
    """The only person left in a game cannot hand it to the computer."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "You are the last person in this game: the computers would play on alone. "
                "The host can end it with `/cascadia end`."
            )
        )


class AlreadyPlayed(BotError):
    """The same player's turn arrived twice at once: the first one was played."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "You already played this turn: your first submission counted, this one"
                " changed nothing."
            )
        )


PERMISSION_NAMES = (
    N_("View Channel"),
    N_("Send Messages"),
    N_("Send Messages in Threads"),
    N_("Attach Files"),
)
"""The permissions a game needs, by their names in Discord's settings (which Discord shows in
each person's language: translated as Discord does)."""


def missing_text(missing: Sequence[str]) -> str:
    """The permissions the bot lacks in a channel, and who can fix it, in one sentence, in
    the reader's language."""
    names = [_(m) for m in missing]
    if len(names) == 1:
        return _(
            "I lack the **{permission}** permission in this channel: someone who manages the"
            " channel or the server can give it to me.",
            permission=names[0],
        )
    return _(
        "I lack the permissions {permissions} in this channel: someone who manages the channel"
        " or the server can give them to me.",
        permissions=", ".join(f"**{m}**" for m in names),
    )


class MissingPermissions(BotError):
    """The bot may not do in this channel what a game needs (post, attach its pictures)."""

    def __init__(self, missing: Sequence[str]) -> None:
        self.missing = tuple(missing)
        with speaking(None):  # the English, for the log
            lacking = missing_text(missing)
        super().__init__(N_("I cannot run a game here. {lacking}"), lacking=lacking)

    def message(self) -> str:
        """The refusal in the reader's language, the missing permissions named in it too."""
        return _("I cannot run a game here. {lacking}", lacking=missing_text(self.missing))


class TooManyLobbies(BotError):
    """A member opening one lobby more than a server allows them to have open at once."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            N_(
                "You have {limit} lobbies open in this server already, the most one member may"
                " have: start or end one (`/cascadia end` in its channel) before opening"
                " another."
            ),
            limit=limit,
        )


class NotToPlayAgain(BotError):
    """**Play again** pressed on a game that cannot be played again by the presser."""

    def __init__(self, *, player: bool) -> None:
        super().__init__(
            N_("Only a game played to the end can be played again.")
            if player
            else N_("Only this game's players can play it again; `/cascadia new` opens a table.")
        )


class AlreadyAgain(BotError):
    """**Play again** pressed where a game is open already."""

    def __init__(self, *, ours: bool) -> None:
        super().__init__(
            N_("This game's next one is open already: press **Join** on its lobby.")
            if ours
            else N_("Another game is open here already: finish or end it first.")
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
