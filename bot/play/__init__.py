"""The game's own commands: ``play``, ``preview``, ``hint``, ``wipe``, ``board``,
``status``, ``score``, ``mygames``, ``export``, ``help``, ``leave`` and ``end``
(:mod:`~bot.play.cog`, with their transformers), the end and leave confirmations
(:mod:`~bot.play.views`) and the positions' autocomplete (:mod:`~bot.play.choices`, without
Discord).

Stands on :mod:`bot.shell`, :mod:`bot.game`, :mod:`bot.db` and :mod:`bot.ops`, and on the
features below it: :mod:`bot.lobby` (joining and leaving a lobby) and :mod:`bot.daily` (where
a typed turn plays).
"""
