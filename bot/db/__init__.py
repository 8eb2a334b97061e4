"""One :class:`~bot.db.database.Database` with its SQLite and PostgreSQL dialects
(:mod:`~bot.db.sqlite`, :mod:`~bot.db.postgres`), the numbered migrations
(:mod:`~bot.db.schema`), the database's errors, a failing database told to the log once
(:mod:`~bot.db.outage`), background work that waits it out (:mod:`~bot.db.retry`), and
backups and restores (:mod:`~bot.db.backup`).

Knows no table but the schema version, and no rules: imports :mod:`bot.ops` only, never
``engine``, ``render``, :mod:`bot.game`, a feature or ``discord``.
"""
