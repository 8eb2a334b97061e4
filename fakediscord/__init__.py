"""A local Discord-compatible server for testing discord.py bots end to end.

It speaks enough of Discord's REST API (``/api/v10``), gateway websocket (``/gateway``) and CDN
(``/cdn``) for the real, unmodified discord.py client; models guilds, channels, members,
messages and interactions; and offers an API to act as users (slash commands, autocomplete,
button clicks, selects), inject faults and wait for outcomes. The protocol facts it follows
are in ``fakediscord/README.md`` and the module docstrings.

Start it with ``async with DiscordServer() as server`` (or ``await server.start(host, port)``
and ``await server.close()``), then point a client at it before login::

    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    discord.asset.Asset.BASE = server.cdn_base

or pass ``server.env()`` to a bot subprocess that reads those variables.
"""

from fakediscord.faults import Hold
from fakediscord.interactions import InteractionHandle
from fakediscord.model import (
    Attachment,
    CommandSync,
    GalleryItem,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
)
from fakediscord.protocol import (
    ADMINISTRATOR,
    ATTACH_FILES,
    COMPONENTS_V2,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    JSON,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from fakediscord.server import DiscordServer

__all__ = [
    "ADMINISTRATOR",
    "ATTACH_FILES",
    "COMPONENTS_V2",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "JSON",
    "MANAGE_CHANNELS",
    "MANAGE_GUILD",
    "MANAGE_THREADS",
    "READ_MESSAGE_HISTORY",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "VIEW_CHANNEL",
    "Attachment",
    "CommandSync",
    "DiscordServer",
    "GalleryItem",
    "Hold",
    "InteractionHandle",
    "InteractionRecord",
    "MessageRecord",
    "RequestRecord",
]
