"""Many tables on one server: its settings (the role that hears of open tables, threads by
default), the call for players a new lobby makes, the list of open tables, and lobbies that
close when nobody starts them."""
