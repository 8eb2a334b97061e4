"""The Discord-free half of the bot: what the commands do, their texts, the outbox, reminders.

Users are ids and names, messages are text and pictures to post: nothing here imports discord
or the Discord layer above it (``bot.client``, ``bot.cog``, ``bot.lobby``, ``bot.views``), so
all of it is tested against a real SQLite file without a Discord connection.
"""
