"""Every Redis key and channel name the services use, in one place.

A game's keys share the cluster hash tag `{<game id>}` so they sit in one slot and one Lua script may
touch them together. Keys owned by one player, one challenge or one race carry that owner's id as their
hash tag for the same reason. Nothing else in the project spells a key.
"""

from __future__ import annotations

PREFIX = "arena:"
GAME_PREFIX = f"{PREFIX}game:"


def log_key(stream_id: str) -> str:
    """A game's event stream: entry id `0-<version>`, one field `e` = msgpack StoredEvent. No TTL."""
    return f"{GAME_PREFIX}{{{stream_id}}}:log"


def moves_key(stream_id: str) -> str:
    """Hash: client move id -> the stream version the move was stored at (idempotent retries)."""
    return f"{GAME_PREFIX}{{{stream_id}}}:moves"


def meta_key(game_id: str) -> str:
    """Projection of a game's log: owner, status, kind, shown time. Rebuildable from the log."""
    return f"{PREFIX}meta:{{{game_id}}}"


def player_games_key(player_id: str) -> str:
    """Projection: a player's games by creation time (sorted set). Rebuildable from the logs."""
    return f"{PREFIX}player:{{{player_id}}}:games"


def token_generation_key(player_id: str) -> str:
    """A player's token generation (integer, absent = 0): a token issued at a lower one is signed out.
    Expires a token lifetime after the last sign-out, when every token it ended has expired too."""
    return f"{PREFIX}player:{{{player_id}}}:token_gen"


def ticket_key(ticket: str) -> str:
    """A one-use socket ticket -> "<player id> <token generation>"; expires with the ticket (seconds)."""
    return f"{PREFIX}ticket:{ticket}"


# Litestar's RedisStore for the HTTP rate limits puts this and a colon before its keys
# ("arena:rate:RateLimitMiddleware::<limit>:<address>"); each expires with its window.
RATE_LIMIT_NAMESPACE = f"{PREFIX}rate"


def updates_channel(game_id: str) -> str:
    """Pub/sub channel carrying a game's versioned updates between gateway processes."""
    return f"{PREFIX}updates:{game_id}"
