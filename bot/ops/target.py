"""Which database ``CASCADIA_DB`` names, and how to name it where passwords must not show.

A ``postgresql://`` (or ``postgres://``) URL names a PostgreSQL database, anything else the
path of an SQLite file. libpq (and asyncpg after it) takes a password in three places: the
URL's ``user:password@``, its ``?password=`` parameter, and the ``PGPASSWORD`` environment
variable. :func:`safe_url` masks the first two, :func:`passwords` finds all three (for the
log's redactor), and :func:`without_password` drops them from a URL handed to another program.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

URL_SCHEMES = ("postgresql", "postgres")
"""The schemes of a ``CASCADIA_DB`` that names a PostgreSQL database."""


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (``CASCADIA_DB``'s value) is a PostgreSQL URL, not an SQLite path."""
    if not isinstance(target, str):
        return False
    scheme, separator, _ = target.partition("://")
    return bool(separator) and scheme.lower() in URL_SCHEMES


MASK = "***"

_AUTHORITY = re.compile(r"(?P<head>^[A-Za-z][A-Za-z0-9+.-]*://)(?P<authority>[^/?#]*)")
"""A URL's scheme and authority (``user:password@host:port``), read as ``urlsplit`` reads
them, but without its checks: a URL too broken to parse still gets its password masked."""


def _parts(url: str) -> tuple[str, str, str, list[str], str]:
    """``url`` as its head (scheme), userinfo (``""`` without an ``@``), the rest before the
    query, the query's parameters and what follows them (``#...``)."""
    match = _AUTHORITY.match(url)
    if match is None:
        head, authority, rest = "", "", url
    else:
        head, authority, rest = match["head"], match["authority"], url[match.end() :]
    userinfo, at, host = authority.rpartition("@")
    path, question, query = (host + rest).partition("?")
    query, hash_, fragment = query.partition("#")
    parameters = query.split("&") if question else []
    return head, userinfo + at, path, parameters, hash_ + fragment


def _is_password(parameter: str) -> bool:
    return parameter.partition("=")[0].lower() == "password"


def _join(head: str, userinfo: str, path: str, parameters: list[str], tail: str) -> str:
    query = "?" + "&".join(parameters) if parameters else ""
    return f"{head}{userinfo}{path}{query}{tail}"


def safe_url(url: str) -> str:
    """The URL with every password in it (``user:password@``, ``?password=``) replaced by
    ``***``: what may be logged or printed. Never raises, however broken the URL."""
    head, userinfo, path, parameters, tail = _parts(url)
    user, colon, _ = userinfo.partition(":")
    if colon:
        userinfo = f"{user}:{MASK}@"
    parameters = [f"{p.partition('=')[0]}={MASK}" if _is_password(p) else p for p in parameters]
    return _join(head, userinfo, path, parameters, tail)


def without_password(url: str) -> str:
    """The URL with its passwords left out altogether (``user@host``, no ``password=``
    parameter): for a command line, where the program reads ``PGPASSWORD`` or ``~/.pgpass``
    instead."""
    head, userinfo, path, parameters, tail = _parts(url)
    user = userinfo.partition(":")[0].removesuffix("@")
    userinfo = f"{user}@" if userinfo else ""
    return _join(head, userinfo, path, [p for p in parameters if not _is_password(p)], tail)


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot name a PostgreSQL server, in a few words (a host that is not one, a
    port out of range), or ``None`` when it may: checked before connecting, since a driver
    meets such a URL with an exception of its own (``OverflowError`` for port 99999)."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query)
    except ValueError as error:
        if "IPv6" in str(error) or "IPv4" in str(error):
            return "a host in brackets must be an IPv6 address, closed: such as [::1]:5432"
        return str(error)
    hosts = parts.netloc.rpartition("@")[2]
    ports = [spec.rpartition(":")[2] for spec in hosts.split(",") if ":" in _past_bracket(spec)]
    ports += [number for key, value in query if key == "port" for number in value.split(",")]
    for port in ports:
        if port and not (port.isdigit() and 1 <= int(port) <= 65535):
            return f"{port!r} is not a port: a number from 1 to 65535"
    return None


def _past_bracket(host: str) -> str:
    """A host with any bracketed IPv6 address taken away: what may hold a ``:port``."""
    return host.rpartition("]")[2]


def passwords(url: str | None, env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Every password the database connection may be given: the URL's (``user:password@``,
    ``?password=``, as written and decoded) and ``PGPASSWORD``, for the log to mask."""
    env = os.environ if env is None else env
    found: list[str] = []
    if url is not None and is_postgres_url(url):
        _, userinfo, _, parameters, _ = _parts(url)
        written = [userinfo.removesuffix("@").partition(":")[2]]
        found += [unquote(text) for text in written] + written
        for parameter in filter(_is_password, parameters):
            value = parameter.partition("=")[2]
            found += [value, unquote_plus(value)]
    pgpassword = env.get("PGPASSWORD", "")
    if pgpassword:
        found.append(pgpassword)
    return tuple(dict.fromkeys(secret for secret in found if secret))


def hide_passwords(text: str, url: str) -> str:
    """``text`` (a driver's error message, say) with every password of ``url``'s connection
    replaced by ``***``, should it quote one."""
    for password in sorted(passwords(url), key=len, reverse=True):
        text = text.replace(password, MASK)
    return text


def has_password(url: str) -> bool:
    """Whether ``url`` itself carries a password (``user:password@`` or ``?password=``)."""
    return bool(passwords(url, {}))


def describe(target: str | os.PathLike[str]) -> str:
    """How to name the database in a log line or an error: a path, or a URL without its
    password."""
    text = os.fspath(target)
    return safe_url(text) if is_postgres_url(text) else text
