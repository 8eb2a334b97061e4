"""Many tables on one server: its settings (the role that hears of open tables, threads by
default), the call for players a new lobby makes, the list of open tables, and lobbies that
close when nobody starts them (:mod:`~bot.tables.service`, :mod:`~bot.tables.texts`,
:mod:`~bot.tables.store`). Without Discord: its options live on the commands they belong to,
``new`` and ``join`` (:mod:`bot.lobby`) and ``server`` (:mod:`bot.standings`), and its
periodic pass runs in the reminder check.

Stands on :mod:`bot.game`, :mod:`bot.db` and :mod:`bot.ops`; imports no other feature.
"""
