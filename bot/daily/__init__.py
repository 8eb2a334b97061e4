"""The daily trek: one solo deal a day for everyone, its attempts, boards, streaks and
daily posts (:mod:`~bot.daily.service`), its par (:mod:`~bot.daily.par`), its part in a turn
(:mod:`~bot.daily.hooks`: where an attempt is played, and the par at its end), its store and
``/cascadia daily``.

Stands on :mod:`bot.shell` (from its cog only), :mod:`bot.game`, :mod:`bot.db` and
:mod:`bot.ops`; imports no other feature.
"""
