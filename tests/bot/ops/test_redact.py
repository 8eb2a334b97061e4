"""Secrets out of the log: the bot token, interaction and webhook tokens (in URLs and in
payloads), and database passwords are masked in the message, its exception and its stack,
whatever the level; the rest of the line stays readable."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.__main__ import configure_logging
from bot.ops.redact import MASK, Redactor
from bot.ops.target import passwords

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA-_x9"
PASSWORD = "pa55:w0rd"
API = "https://discord.com/api/v10"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger at DEBUG whose one handler writes into a string, through the filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(Redactor([BOT_TOKEN, PASSWORD]))
    logger = logging.getLogger("tests.redact")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    logger.addHandler(handler)
    try:
        yield logger, stream
    finally:
        logger.removeHandler(handler)


SECRETS = (BOT_TOKEN, INTERACTION_TOKEN, PASSWORD, "w3bh00k-t0ken")


@pytest.mark.parametrize(
    ("message", "arguments", "kept"),
    [
        # discord.py's gateway event line, with the payload as a dict.
        (
            "For Shard ID %s: WebSocket Event: %s",
            (0, {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": INTERACTION_TOKEN}}),
            "'token': '***'",
        ),
        # discord.py's request line: the answer to an interaction, and a follow-up.
        (
            "%s %s with %s has returned %s",
            (
                "POST",
                f"http://127.0.0.1/api/v10/interactions/42/{INTERACTION_TOKEN}/callback",
                None,
                204,
            ),
            "/interactions/42/***/callback",
        ),
        (
            "Webhook ID %s with %s %s has returned status code %s",
            (
                7,
                "PATCH",
                f"{API}/webhooks/7/{INTERACTION_TOKEN}/messages/@original",
                200,
            ),
            "/webhooks/7/***/messages/@original",
        ),
        ('{"type": 1, "token": "%s"}', ("w3bh00k-t0ken",), '"token": "***"'),
        ("token %s in a line", (BOT_TOKEN,), f"token {MASK} in a line"),
        (
            "database %s",
            (f"postgresql://cascadia:{PASSWORD}@db.example/cascadia",),
            "postgresql://cascadia:***@db.example/cascadia",
        ),
        ("database %s", ("postgres://bot:other-secret@db/x",), "postgres://bot:***@db/x"),
        (
            "database %s",
            ("postgresql://bot@db/x?sslmode=require&password=other-secret",),
            "postgresql://bot@db/x?sslmode=require&password=***",
        ),
        ("database %s", ("postgresql://bot@db/x?Password=other-secret",), "?Password=***"),
    ],
)
def test_each_kind_of_secret_is_masked_at_debug(
    logged: tuple[logging.Logger, io.StringIO],
    message: str,
    arguments: tuple[object, ...],
    kept: str,
) -> None:
    logger, stream = logged
    logger.debug(message, *arguments)
    text = stream.getvalue()
    assert kept in text
    assert text.startswith("DEBUG tests.redact: ")
    for secret in (*SECRETS, "other-secret"):
        assert secret not in text


def test_an_exception_and_a_stack_are_masked(logged: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = logged
    try:
        raise ConnectionError(f"cannot reach /webhooks/9/{INTERACTION_TOKEN} with {BOT_TOKEN}")
    except ConnectionError:
        logger.exception("a post failed")
    logger.warning("where: %s", PASSWORD, stack_info=True)
    text = stream.getvalue()
    assert "ConnectionError: cannot reach /webhooks/9/*** with ***" in text
    assert "Traceback (most recent call last)" in text
    assert "Stack (most recent call last)" in text
    for secret in SECRETS:
        assert secret not in text


def test_a_line_without_secrets_is_untouched(logged: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = logged
    logger.info("game %d: %s played 100%% of %s", 3, "Ada", "/cascadia play")
    assert stream.getvalue() == "INFO tests.redact: game 3: Ada played 100% of /cascadia play\n"


def test_the_bots_handlers_carry_the_filter() -> None:
    root = logging.getLogger()
    before = list(root.handlers), root.level
    try:
        configure_logging("DEBUG", secrets=[BOT_TOKEN])
        added = [handler for handler in root.handlers if handler not in before[0]]
        assert added
        for handler in root.handlers:
            [redactor] = [f for f in handler.filters if isinstance(f, Redactor)]
            assert redactor.redact(f"Bot {BOT_TOKEN}") == "Bot ***"
    finally:
        for handler in list(root.handlers):
            if handler not in before[0]:
                root.removeHandler(handler)
            for redactor in [f for f in handler.filters if isinstance(f, Redactor)]:
                handler.removeFilter(redactor)
        root.setLevel(before[1])


def test_every_way_to_give_the_database_a_password_is_a_secret() -> None:
    url = "postgresql://bot:in%40url@db/x?password=in+query&sslmode=require"
    found = passwords(url, {"PGPASSWORD": "in-env"})
    redactor = Redactor([BOT_TOKEN, *found])
    line = redactor.redact("asyncpg said in@url, in query and in-env to in%40url")
    assert line == "asyncpg said ***, *** and *** to ***"
    assert passwords("/data/cascadia.sqlite3", {}) == ()
    assert passwords(None, {"PGPASSWORD": "in-env"}) == ("in-env",)
