"""The standings and the rated league: a finished game's results
(:mod:`~bot.standings.results`, :mod:`~bot.standings.finishing`), the ratings
(:mod:`~bot.standings.league`), their texts (:mod:`~bot.standings.stats`), the service, the
store, its part in a finished game (:mod:`~bot.standings.hooks`: the results in the final
commit, the ratings after it) and ``stats``, ``server``, ``league`` and ``leaderboard``.

Stands on :mod:`bot.shell` (from its cog only), :mod:`bot.game`, :mod:`bot.db` and
:mod:`bot.ops`, and reads three features below it: :mod:`bot.attendance` (time away, which
turn times leave out), :mod:`bot.daily` (streaks) and :mod:`bot.tables` (the server's
settings, which ``server`` shows and, for Manage Server, changes).
"""
