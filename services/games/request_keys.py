"""A new game asked for over HTTP with a request key (`Idempotency-Key` on POST /api/games): the same
request sent again, after a lost answer, a 503 or a double click, gets the game the first one made, never a
second game (which would resign the first: a new casual or practice game abandons the player's others).

The key names a game id reserved for it in Redis (SET NX, a day's expiry), owned by the player (another
player's same key is another reservation). The game service then makes that id idempotently, as it does
for a socket's new game (GameService.create_game's `game_id`). A socket's request_id lives in the socket
instead: its repeats come over the one connection, an HTTP retry may come to any gateway process.
"""

from __future__ import annotations

import re
from typing import Any

from ..store.keys import player_new_game_request_key

REQUEST_KEY_PATTERN = "^[A-Za-z0-9_-]{1,64}$"  # a UUID, hex or base64url: what clients send (and the API doc)
REQUEST_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the same, matched whole
REQUEST_KEY_SECONDS = 24 * 3600  # far past any retry; a key sent again after that makes a new game
BAD_REQUEST_KEY = "bad_request_key"


def bad_request_key(key: str) -> str | None:
    """Why `key` is not a request key (None: it is one)."""
    if REQUEST_KEY.fullmatch(key):
        return None
    return "Idempotency-Key must be 1 to 64 letters, digits, '-' or '_' (a UUID does)"


async def reserved_game_id(redis: Any, player_id: str, key: str, fresh_id: str) -> tuple[str, bool]:  # Any: redis-py
    """The game id the player's request `key` names, and whether this is its first ask (`fresh_id`
    reserved now: there is no game to look for). One round trip: SET NX GET answers the old value."""
    earlier = await redis.set(player_new_game_request_key(player_id, key), fresh_id, nx=True,
                              ex=REQUEST_KEY_SECONDS, get=True)
    if earlier is None:
        return fresh_id, True
    return (earlier.decode() if isinstance(earlier, bytes) else earlier), False
