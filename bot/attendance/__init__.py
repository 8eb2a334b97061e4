"""Games that reach their players and never stall: deadlines, votes to skip, time away,
quiet hours, reminders and how each person hears of their turns. Pure rules and texts
(:mod:`~bot.attendance.presence`, :mod:`~bot.attendance.quiet`,
:mod:`~bot.attendance.reminders`, :mod:`~bot.attendance.notify`,
:mod:`~bot.attendance.texts`), the services (:mod:`~bot.attendance.service`,
:mod:`~bot.attendance.notices`, :mod:`~bot.attendance.reminder_queue`), its part in a turn
(:mod:`~bot.attendance.hooks`: the caller and the direct messages), its store, and
``settings``, ``skip`` and ``notify`` in Discord.

Stands on :mod:`bot.shell` (from its cog and views only), :mod:`bot.game`, :mod:`bot.db` and
:mod:`bot.ops`; imports no other feature (the daily trek tells it which games are private
through :class:`~bot.game.hooks.Venue`).
"""
