"""The errors the database raises on purpose, each carrying the fields it is about, and
their root :class:`StoreError`, which every store's own errors share.

They are plain (not frozen) dataclasses: Python assigns ``__traceback__`` on an exception that
passes through a context manager (the store's transactions), which a frozen dataclass refuses.
Equality stays identity, as for any exception.
"""

from __future__ import annotations

from dataclasses import dataclass


class StoreError(Exception):
    """Root of every error the store raises on purpose."""


@dataclass(eq=False)
class DatabaseTooNew(StoreError):
    """The database was written by newer code: its schema version is one this code lacks."""

    found: int
    known: int

    def __str__(self) -> str:
        return f"database schema version {self.found} is newer than this code knows ({self.known})"


@dataclass(eq=False)
class ForeignDatabase(StoreError):
    """An SQLite file with tables but no schema version: another application's database,
    which migrating would fill with the bot's tables."""

    tables: tuple[str, ...]

    def __str__(self) -> str:
        return (
            f"it holds tables that are not the bot's ({_some(self.tables)}) and no schema version"
        )


@dataclass(eq=False)
class SchemaMismatch(StoreError):
    """The database is not made as its schema version says: another application's file, or
    one put together by hand; migrating it would fail halfway, or not at all."""

    version: int
    problems: tuple[str, ...]
    """How it differs: ``no table hints``, ``no column games.cards``, ``no trigger x``,
    ``table packed_moves of a later version``."""

    def __str__(self) -> str:
        return (
            f"its schema version is {self.version}, but it is not made as that version is "
            f"({_some(self.problems)})"
        )


@dataclass(eq=False)
class MigrationFailed(StoreError):
    """A migration raised: its transaction was rolled back, and the database stays at
    ``version``, with ``applied`` migrations of this run committed before it."""

    number: int
    name: str
    detail: str
    """The driver's words."""
    version: int
    applied: int

    def __str__(self) -> str:
        if self.applied:
            first = self.version - self.applied + 1
            before = (
                f"migration {first:04d} before it was"
                if self.applied == 1
                else f"migrations {first:04d} to {self.version:04d} before it were"
            )
            kept = (
                f"it was rolled back, but {before} applied: the database is at schema "
                f"version {self.version}"
            )
        else:
            kept = f"nothing was changed: the database is still at schema version {self.version}"
        return (
            f"migration {self.number:04d} ({self.name}) failed: {self.detail}; {kept}. Restore a "
            "backup made by this version of the bot, or keep the file as it is and report the error"
        )


@dataclass(eq=False)
class NotFound(StoreError, LookupError):
    """No row with that id."""

    what: str
    key: int

    def __str__(self) -> str:
        return f"no such {self.what}: {self.key}"


@dataclass(eq=False)
class DatabaseUnavailable(StoreError):
    """The database cannot do this now, through no fault of the request: nothing was changed,
    and the same request may well succeed later. ``detail`` is the driver's own words, for the
    log."""

    detail: str

    def __str__(self) -> str:
        return f"the database is unavailable: {self.detail}"


class ConnectionLost(DatabaseUnavailable):
    """The database server is not answering: down, restarting, or the connection to it broke."""

    def __str__(self) -> str:
        return f"the database is not answering: {self.detail}"


@dataclass(eq=False)
class CannotSave(DatabaseUnavailable):
    """The database refuses writes (its disk full, its file read-only, an I/O error) while
    reads still work; ``why`` says which, in a few words a player can read."""

    why: str

    def __str__(self) -> str:
        return f"the database cannot save ({self.why}): {self.detail}"


def _some(names: tuple[str, ...], shown: int = 4) -> str:
    """The first ``shown`` of ``names``, and how many more."""
    more = f", and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
