"""The archive of a server's finished games: their totals round by round
(:mod:`~bot.archive.rounds`), the service, the store, its part in a finished game
(:mod:`~bot.archive.hooks`: the round totals kept after the commit) and ``history`` and
``replay``.

Stands on :mod:`bot.shell` (from its cog only), :mod:`bot.game`, :mod:`bot.db` and
:mod:`bot.ops`; imports no other feature.
"""
