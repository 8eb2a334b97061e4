"""Every expected failure has a short message for the user; anything else is a bug."""

from __future__ import annotations

import pytest
from discord import AppCommandOptionType, app_commands

from bot.db.errors import CannotSave, ConnectionLost
from bot.game.errors import (
    AlreadySeated,
    ChannelBusy,
    GameClosed,
    LobbyFull,
    NoGame,
    NotHost,
    NotInGame,
    NotInLobby,
    NotSeated,
    NotStarted,
    NotYourTurn,
    RevisionConflict,
)
from bot.game.rows import GameStatus
from bot.play.cog import TilePosition
from bot.shell import errors
from bot.shell.errors import user_message
from engine import IllegalAction, InvalidInput, Reason


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (NoGame(), "There is no game in this channel"),
        (NotInGame(), "You are not in this game."),
        (NotInGame("Bob is"), "Bob is not in this game."),
        (NotYourTurn("Ada"), "It's not your turn: it's Ada's."),
        (NotStarted(), "The game has not started yet"),
        (NotHost("start the game"), "Only the host can start the game."),
        (
            IllegalAction(Reason.NOT_ADJACENT, "5,5 does not touch your environment"),
            "Not allowed: 5,5 does not touch your environment.",
        ),
        (InvalidInput("not a position: 'x'"), "I could not read that: not a position: 'x'."),
        (ChannelBusy(1, 2), "A game is already running in this channel"),
        (LobbyFull(1, 4), "The lobby is full: 4 players."),
        (AlreadySeated(1, 2), "You are already seated"),
        (NotSeated(1, 2), "You are not in this game."),
        (NotInLobby(1, GameStatus.ACTIVE), "The game has already started."),
        (NotInLobby(1, GameStatus.ENDED), "This lobby is closed."),
        (GameClosed(1, GameStatus.FINISHED), "This game is over."),
        (RevisionConflict(1, 3, 4), "someone was faster"),
        (app_commands.NoPrivateMessage(), "server channel"),
        (
            ConnectionLost("ConnectionDoesNotExistError: connection was closed"),
            "The game's database is not answering; try again in a minute.",
        ),
        (
            CannotSave("SQLITE_FULL: database or disk is full", "the disk is full"),
            "The bot cannot save right now (the disk is full); nothing was changed.",
        ),
    ],
)
def test_expected_errors_have_messages(error: Exception, text: str) -> None:
    message = user_message(error)
    assert message is not None
    assert text in message
    assert len(message) < 300


def test_wrapped_errors_are_unwrapped() -> None:
    cause = IllegalAction(Reason.OCCUPIED, "0,0 already has a tile")
    wrapped = app_commands.TransformerError("zz", AppCommandOptionType.string, TilePosition())
    wrapped.__cause__ = InvalidInput("not a position: 'zz'")
    assert user_message(wrapped) == "I could not read that: not a position: 'zz'."
    invoke = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    invoke.original = cause
    assert user_message(invoke) == "Not allowed: 0,0 already has a tile."


def test_unexpected_errors_get_the_apology() -> None:
    assert user_message(ZeroDivisionError("bug")) is None
    assert user_message(KeyError("state")) is None
    assert "went wrong" in errors.APOLOGY
