"""A Redis client that counts its round trips, for tests of how many a piece of work costs."""

from __future__ import annotations


_LOCAL = frozenset({"register_script"})  # made here, sent with its first call (counted then, as EVALSHA)


class RoundTrips:
    """The service's Redis client, counting its round trips: each command awaited alone, each pipeline run."""

    def __init__(self, client) -> None:
        self.client, self.count = client, 0

    def __getattr__(self, name):
        found = getattr(self.client, name)
        if name == "pipeline":
            return lambda *args, **kwargs: _CountedPipeline(self, found(*args, **kwargs))
        if not callable(found) or name in _LOCAL:
            return found

        async def counted(*args, **kwargs):
            self.count += 1
            return await found(*args, **kwargs)

        return counted


class _CountedPipeline:
    def __init__(self, trips: RoundTrips, pipe) -> None:
        self.trips, self.pipe = trips, pipe

    def __getattr__(self, name):
        return getattr(self.pipe, name)

    async def execute(self, *args, **kwargs):
        self.trips.count += 1
        return await self.pipe.execute(*args, **kwargs)
