"""The Discord shell: the client (:mod:`~bot.shell.client`: start-up, the outbox drain
and the reminder check, posting), the one ``/cascadia`` group (:mod:`~bot.shell.commands`),
what the features hand the client by role (:mod:`~bot.shell.parts`), the one error handler,
restart-proof buttons, turn messages' layouts, permissions, command sync, direct messages and
waiting for Discord at start-up.

Imports ``discord``, :mod:`bot.game`, :mod:`bot.db` and :mod:`bot.ops`; names no feature:
each reaches it as an extension and as parts, handed in by :mod:`bot.app`.
"""
