"""Fixtures shared by every test package: the databases a store runs on.

``database`` runs a test once per backend: an SQLite file in the test's temporary folder, and a
fresh schema of a database on the session's PostgreSQL server (see :mod:`sandbox.pgserver`). A
machine without PostgreSQL fails those tests with the reason; nothing is skipped. Every test
that needs the server is marked ``postgres``, so ``-m "not e2e and not postgres and not
browser"`` is the quick loop on any machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import pgserver

BACKENDS = ("sqlite", "postgres")
POSTGRES_FIXTURES = frozenset({"postgres_server", "own_postgres", "postgres_url"})
"""The fixtures that start or use a PostgreSQL server."""


def _needs_postgres(item: pytest.Item) -> bool:
    if POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    return any(value in ("postgres", "postgresql") for value in params)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``postgres`` every test that runs against the PostgreSQL server."""
    for item in items:
        if _needs_postgres(item):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[pgserver.PostgresServer]:
    """One PostgreSQL server for the whole test session, removed at its end."""
    try:
        server = pgserver.start()
    except pgserver.PostgresMissing as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[pgserver.PostgresServer]:
    """A PostgreSQL server of one test module's own, whose tests stop, crash and start it
    (the session's server is never stopped); durable, so a crash loses no commit."""
    try:
        server = pgserver.start(durable=True)
    except pgserver.PostgresMissing as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def restarting_postgres(own_postgres: pgserver.PostgresServer) -> Iterator[pgserver.PostgresServer]:
    """:func:`own_postgres`, running again at the end of the test whatever happened in it."""
    try:
        yield own_postgres
    finally:
        if not own_postgres.running:
            own_postgres.launch()


@pytest.fixture
def postgres_url(postgres_server: pgserver.PostgresServer) -> str:
    """The URL of a new empty schema of the session's database, for one test (the server
    and everything in it go at the end of the session)."""
    return postgres_server.url(postgres_server.create_schema())


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """``CASCADIA_DB`` for a store of the test's own: an SQLite file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "cascadia.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url
