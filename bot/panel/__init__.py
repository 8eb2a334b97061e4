"""The turn panel behind the **Play** button: its draft and steps without Discord
(:mod:`~bot.panel.draft`, :mod:`~bot.panel.steps`), what each choice gains
(:mod:`~bot.panel.gains`), its service, its store (each player's draft) and its cog.

Stands on :mod:`bot.shell` (from its cog only), :mod:`bot.game`, :mod:`bot.db` and
:mod:`bot.ops`; imports no other feature.
"""
