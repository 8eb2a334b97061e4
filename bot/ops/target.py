"""Which database ``CASCADIA_DB`` names, and how to name it where passwords must not show.

A ``postgresql://`` (or ``postgres://``) URL names a PostgreSQL database, anything else the
path of an SQLite file.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

URL_SCHEMES = ("postgresql", "postgres")
"""The schemes of a ``CASCADIA_DB`` that names a PostgreSQL database."""


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (``CASCADIA_DB``'s value) is a PostgreSQL URL, not an SQLite path."""
    if not isinstance(target, str):
        return False
    scheme, separator, _ = target.partition("://")
    return bool(separator) and scheme.lower() in URL_SCHEMES


def safe_url(url: str) -> str:
    """The URL with any password replaced by ``***``: what may be logged or printed."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def describe(target: str | os.PathLike[str]) -> str:
    """How to name the database in a log line or an error: a path, or a URL without its
    password."""
    text = os.fspath(target)
    return safe_url(text) if is_postgres_url(text) else text
