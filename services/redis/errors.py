"""What can go wrong starting the embedded redis-server; every error says why in its message."""

from __future__ import annotations


class RedisServerNotFound(FileNotFoundError):
    """No redis-server binary could be found (or the one named does not exist)."""


class RedisServerError(RuntimeError):
    """The redis-server process did not come up (or died); the message carries its log tail."""


class RedisFolderInUse(RedisServerError):
    """Another server (or another launcher in this process) runs a Redis on this data folder."""
