"""The Discord bot, laid out by feature on floors that name no feature.

From the bottom: :mod:`bot.ops` (settings, the clock, start-up checks, log redaction),
:mod:`bot.db` (one database layer for SQLite and PostgreSQL, with its migrations),
:mod:`bot.game` (the game floor: rows, the game store, loading and committing a turn, the
lobby, the outbox, pictures and texts) and :mod:`bot.shell` (the Discord client, buttons,
permissions and the one error translator). Each feature stands on them in a package of its
own (:mod:`bot.play`, :mod:`bot.lobby`, :mod:`bot.panel`, :mod:`bot.attendance`,
:mod:`bot.daily`, :mod:`bot.standings`, :mod:`bot.archive`, :mod:`bot.computers`,
:mod:`bot.retention`), and :mod:`bot.app` puts them together. What each may import is held
by the import-linter contracts in ``pyproject.toml`` (see ``docs/architecture.md``).
"""
