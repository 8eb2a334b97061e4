"""Play Cascadia on this machine without Discord: ``cascadia-bot sandbox``.

The real, unchanged bot runs as its own process against the local Discord-compatible server
of :mod:`fakediscord`; a web page served beside them plays the part of the Discord app for a
few pretend players. :class:`~sandbox.botprocess.BotProcess` is the runner the end-to-end
tests and the load benchmark share. The bot never imports this package.
"""

from sandbox.botprocess import ACK_LIMIT, BotProcess, process_tree

__all__ = ["ACK_LIMIT", "BotProcess", "process_tree"]
