"""What is kept of old games and messages: the hourly pass that forgets old sent
messages and packs old games for good (:mod:`~bot.retention.forgetting`). No commands.

Imports :mod:`bot.game` and :mod:`bot.ops`; no other feature, and never ``discord``.
"""
