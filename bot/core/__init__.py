"""The Discord-free half of the bot: what the commands do, their texts, the outbox, reminders.

Users are ids and names, messages are text and pictures to post: nothing here imports discord
or the Discord layer above it (``bot.client``, ``bot.cog``, ``bot.lobby``, ``bot.views``), so
all of it is tested against a real SQLite file without a Discord connection.

The rooms, from the top:

- the game service, :mod:`~bot.core.service`: the kernel (:mod:`~bot.core.kernel`: the
  store, the clock, loading a game, committing a turn) with its parts :mod:`~bot.core.lobby`,
  :mod:`~bot.core.turns`, :mod:`~bot.core.reminder_queue` and :mod:`~bot.core.lookups`;
- beside it, each over a service it is given: :mod:`~bot.core.absence_service` (deadlines,
  votes to skip, time away, quiet hours), :mod:`~bot.core.panel_service` (the turn panel) and
  :mod:`~bot.core.computer_turns` (plays the computer turns that are due);
- below it, one word per feature: the rules of time away (:mod:`~bot.core.absence`,
  :mod:`~bot.core.quiet`, :mod:`~bot.core.reminders`), the turn panel's state machine
  (:mod:`~bot.core.panel_draft`, :mod:`~bot.core.panel_steps`, :mod:`~bot.core.gains`), the
  computer players' thinking (:mod:`~bot.core.computers`), the texts
  (:mod:`~bot.core.messages`, :mod:`~bot.core.absence_messages`, :mod:`~bot.core.captions`,
  :mod:`~bot.core.names`, :mod:`~bot.core.markdown`), the stored forms and the export
  (:mod:`~bot.core.records`), the outbox and its pictures (:mod:`~bot.core.outbox`,
  :mod:`~bot.core.pictures`, a finished game's replay in :mod:`~bot.core.replays`),
  autocomplete (:mod:`~bot.core.choices`) and the refusals (:mod:`~bot.core.errors`).

A turn is an :class:`engine.Move` throughout, played by
:meth:`bot.core.kernel.GameKernel.commit_turn` whoever chose it.
"""
