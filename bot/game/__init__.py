"""The game floor every feature stands on: the rows and tables, the game's store
(:mod:`~bot.game.store`), the kernel that loads a game and commits a turn
(:mod:`~bot.game.kernel`), the seams through which the features take part in a turn
(:mod:`~bot.game.hooks`), the game service and its parts (lobby, turns, lookups), the outbox
and its pictures, the texts, the computers' thinking and the refusals.

Imports ``engine``, ``render``, :mod:`bot.db` and :mod:`bot.ops`; names no feature, and never
imports ``discord`` or :mod:`bot.shell`.
"""
