"""The event store: append-only, optimistic-concurrency event streams on Redis Streams."""

from services.store.envelope import AppendRequest, AppendResult, NewEvent, StoredEvent
from services.store.errors import StoreError, VersionConflict
from services.store.redis_store import EventStore

__all__ = [
    "AppendRequest",
    "AppendResult",
    "EventStore",
    "NewEvent",
    "StoreError",
    "StoredEvent",
    "VersionConflict",
]
