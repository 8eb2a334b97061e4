"""Playing the computer turns that are due, each game in a task of its own
(:mod:`~bot.computers.turns`); the thinking itself is the game floor's
:mod:`bot.game.computers`. No commands.

Imports :mod:`bot.game`, :mod:`bot.db` and :mod:`bot.ops`; no other feature, and never
``discord``.
"""
