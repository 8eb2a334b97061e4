"""The Discord bot, in three layers that import downwards only.

:mod:`bot.store` keeps games, moves and the outbox in SQLite or PostgreSQL and knows no rules;
:mod:`bot.core` is the Discord-free half (the game service and its parts, the turn panel's
state machine, the texts, the outbox); the Discord layer on top talks to Discord only:
:mod:`bot.client` (start-up, the loops, posting), :mod:`bot.cog` (the commands),
:mod:`bot.lobby`, :mod:`bot.panel`, :mod:`bot.absence` and :mod:`bot.views` (each feature's
buttons and answers), on the one :class:`~bot.buttons.IdItem` base of :mod:`bot.buttons`, and
:mod:`bot.errors` (every refusal answered privately).
"""
