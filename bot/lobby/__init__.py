"""The lobby in Discord: ``new``, ``join`` and ``start``, the lobby's message and its
buttons, and the host's choice of a computer player (:mod:`~bot.lobby.cog`). What they do is
the game floor's :mod:`bot.game.lobby`.

Stands on :mod:`bot.shell`, :mod:`bot.game`, :mod:`bot.db` and :mod:`bot.ops`, and reads one
feature below it: :mod:`bot.tables` (the role a new lobby calls, the server's open tables for
``join`` where there is no lobby). It may not import :mod:`bot.play` nor
:mod:`bot.standings`.
"""
