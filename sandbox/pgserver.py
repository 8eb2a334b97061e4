"""A real PostgreSQL server in a temporary directory, reached by its own socket: for the tests
and the benchmarks.

One server per test session (see ``tests/conftest.py``); each test gets a database of its
own, made with ``CREATE DATABASE``. The server binaries are Debian's ``postgresql`` package
(``.ci/run`` installs it where missing): on ``PATH`` or in ``/usr/lib/postgresql/N/bin``.

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` system user
(which the package creates), or else ``nobody``, through ``runuser``. It listens on a Unix
socket in its own directory only: no TCP port to collide with anything else on the machine.
Durability is switched off (``fsync``), since a test database never outlives its test.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "cascadia"
DATABASE = "cascadia"
"""The database the tests' schemas are made in."""
PORT = 5432
"""Only names the socket file; nothing listens on TCP."""


class PostgresMissing(Exception):
    """The PostgreSQL server binaries are not installed, or the server would not start."""


def find_binaries() -> Path:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres``, newest version first."""
    on_path = shutil.which("pg_ctl")
    if on_path is not None and shutil.which("initdb") is not None:
        return Path(on_path).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    raise PostgresMissing(
        "the PostgreSQL server is not installed (no initdb or pg_ctl on PATH or in "
        "/usr/lib/postgresql/*/bin): install Debian's postgresql package "
        "(apt-get install postgresql), as .ci/run does"
    )


@dataclass
class PostgresServer:
    """A running server; :meth:`url` names a database on it."""

    base: Path
    binaries: Path
    user: str | None
    """The system user the server runs as when the tests run as root."""
    durable: bool = False
    """Whether a commit is written to the server's log before it is answered, so that a
    crash of the server (not of the machine) loses nothing acknowledged."""
    _names: Iterator[int] = dataclasses.field(default_factory=itertools.count)

    @property
    def data(self) -> Path:
        """The server's data folder."""
        return self.base / "data"

    @property
    def socket_dir(self) -> Path:
        """The folder of the server's unix socket."""
        return self.base / "socket"

    def url(self, schema: str | None = None, *, database: str = DATABASE) -> str:
        """A ``postgresql://`` URL of a database on this server, reached through its socket;
        with ``schema``, that schema alone is on the connection's search path."""
        url = f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}&port={PORT}"
        return url if schema is None else f"{url}&search_path={schema}"

    def run(self, program: str, *arguments: str) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs, as the server's user, and return what it printed."""
        command = [str(self.binaries / program), *arguments]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=120, cwd=self.base
        )

    def psql(self, sql: str, database: str = DATABASE) -> str:
        """Run one SQL command as the superuser; raises with the server's words on failure."""
        done = subprocess.run(
            [
                str(self.binaries / "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                str(self.socket_dir),
                "-p",
                str(PORT),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def create_schema(self) -> str:
        """A new empty schema in the tests' database; returns its name. Cheaper than a database
        of its own (CREATE DATABASE copies a template and takes a second); :meth:`url` with the
        name makes it the only schema a connection sees."""
        name = f"test_{next(self._names)}"
        self.psql(f'CREATE SCHEMA "{name}"')
        return name

    def log(self) -> str:
        """What the server wrote to its log so far."""
        path = self.base / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop the server at once (test data need no clean shutdown) and remove its files."""
        self.halt("immediate")
        shutil.rmtree(self.base, ignore_errors=True)

    def halt(self, mode: str = "fast") -> None:
        """Stop the server and keep its files, to :meth:`launch` it again: ``fast`` ends every
        connection with an error, as a restart by an operator does; ``immediate`` kills the
        server's processes, as a crash does."""
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    @property
    def running(self) -> bool:
        """Whether the server is up (``pg_ctl status``)."""
        return self.run("pg_ctl", "-D", str(self.data), "status").returncode == 0

    def launch(self) -> None:
        """Start the server on its files and wait until it takes connections."""
        options = " ".join(
            [
                "-c listen_addresses=''",
                f"-c unix_socket_directories='{self.socket_dir}'",
                f"-p {PORT}",
                "-c fsync=off",
                f"-c synchronous_commit={'on' if self.durable else 'off'}",
                "-c full_page_writes=off",
                "-c max_connections=200",
            ]
        )
        log = str(self.base / "server.log")
        done = self.run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "start")
        if done.returncode != 0:
            raise PostgresMissing(f"the PostgreSQL server did not start: {self.log()[-2000:]}")


def _system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise PostgresMissing("running as root, and neither a postgres nor a nobody user exists")


def start(*, durable: bool = False) -> PostgresServer:
    """Make a cluster in a new temporary directory and start a server on it; ``durable``:
    one that tests crash (see :attr:`PostgresServer.durable`)."""
    binaries = find_binaries()
    user = _system_user()
    base = Path(tempfile.mkdtemp(prefix="cascadia-pg-"))
    server = PostgresServer(base=base, binaries=binaries, user=user, durable=durable)
    server.socket_dir.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in (base, server.socket_dir):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    done = server.run(
        "initdb",
        "-D",
        str(server.data),
        "-U",
        SUPERUSER,
        "--auth=trust",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync",
    )
    if done.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        raise PostgresMissing(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
    try:
        server.launch()
    except PostgresMissing:
        shutil.rmtree(base, ignore_errors=True)
        raise
    server.psql(f'CREATE DATABASE "{DATABASE}"', database="postgres")
    return server


@contextlib.contextmanager
def running() -> Iterator[PostgresServer]:
    """A server for the length of the block."""
    server = start()
    try:
        yield server
    finally:
        server.stop()
