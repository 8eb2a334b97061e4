"""Achievements: what each person earned at the end of every game, kept with the final move.

The final message names what someone earned for the first time, and who earned one first on
the server (:mod:`bot.achievements.hooks`); ``/cascadia stats`` and ``server`` show them
(:mod:`bot.achievements.service`, texts in :mod:`bot.achievements.texts`); ``cascadia-bot
ratings --rebuild`` counts them again from the stored final states. Which achievements there
are and who earned which is handed in (:data:`~bot.achievements.catalogue.Earn`, wired in
:mod:`bot.app`).
"""
