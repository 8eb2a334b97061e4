"""Secrets kept out of the log at every level.

At ``LOG_LEVEL=DEBUG`` discord.py logs every gateway event (an interaction's carries its
token) and every request's URL (an interaction's answer and its follow-ups go to URLs that
carry that token). :class:`Redactor`, a filter on the log's handlers, replaces with ``***``:

* the bot token and the database passwords it is given (``DISCORD_TOKEN``, the passwords of a
  ``CASCADIA_DB`` URL, ``PGPASSWORD``), wherever they appear;
* the token of ``/interactions/<id>/<token>/...`` and ``/webhooks/<id>/<token>`` URLs;
* the value of every ``token`` field of a logged payload (interaction and webhook tokens);
* the password of any ``postgresql://user:password@`` URL, and any ``?password=`` (or
  ``&password=``) parameter.

The whole line is redacted, with the text of its exception and stack, before any handler
writes it. :func:`redact_uncaught` does the same for what Python itself writes to standard
error: an exception nothing caught, in any thread, or one it could not raise.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import traceback
from collections.abc import Iterable
from types import TracebackType

MASK = "***"

_PATTERNS = (
    re.compile(r"(/interactions/\d+/)[^/\s'\"?#]+"),
    re.compile(r"(/webhooks/\d+/)[^/\s'\"?#]+"),
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
    re.compile(r"((?:postgres|postgresql)://[^:/@\s]*:)[^@\s]+(@)"),
    re.compile(r"([?&]password=)[^&#\s'\"]+", re.IGNORECASE),
)
"""Secrets found by where they stand; group 1 (and 2) are what stays around the mask."""
_FORMATTER = logging.Formatter()


class Redactor(logging.Filter):
    """A handler filter that rewrites each record with its secrets masked; it lets every
    record through.

    ``secrets`` are literal strings to mask (the bot token, a database password); empty ones
    are ignored.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        # Longest first, so a secret that contains another is masked whole.
        self.secrets = sorted({secret for secret in secrets if secret}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        """``text`` with every secret this filter knows of masked."""
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        for pattern in _PATTERNS:
            text = pattern.sub(_masked, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask the record's message, exception text and stack in place."""
        try:
            message = record.getMessage()
        except Exception:
            # The handler reports a record that cannot be formatted; leave it to that.
            return True
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def _masked(match: re.Match[str]) -> str:
    tail = match.group(2) if match.re.groups > 1 else ""
    return f"{match.group(1)}{MASK}{tail}"


def redact_uncaught(redactor: Redactor) -> None:
    """Have Python write an uncaught exception (in the main thread or another) and an
    exception it could not raise (``sys.unraisablehook``) to standard error through
    ``redactor``, as the log's lines are: their text may quote a secret."""

    def write(text: str) -> None:
        sys.stderr.write(redactor.redact(text))
        sys.stderr.flush()

    def uncaught(
        kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        write("".join(traceback.format_exception(kind, error, trace)))

    def in_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "a thread"
        trace = traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        write(f"Exception in thread {name}:\n{''.join(trace)}")

    def unraisable(args: sys.UnraisableHookArgs) -> None:
        where = f"{args.err_msg or 'Exception ignored in'}: {args.object!r}"
        trace = traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        write(f"{where}\n{''.join(trace)}")

    sys.excepthook = uncaught
    threading.excepthook = in_thread
    sys.unraisablehook = unraisable
