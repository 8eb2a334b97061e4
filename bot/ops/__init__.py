"""The process's own tools, below everything else in the bot: the settings read from the
environment (:mod:`~bot.ops.config`), the clock, the database checked before start-up
(:mod:`~bot.ops.preflight`), secrets kept out of the log (:mod:`~bot.ops.redact`), the C
allocator's settings (:mod:`~bot.ops.allocator`) and which database ``CASCADIA_DB`` names
(:mod:`~bot.ops.target`).

Imports nothing else of the bot, and neither ``discord``, ``aiohttp`` nor ``yarl``.
"""
