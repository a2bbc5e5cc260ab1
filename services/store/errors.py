"""Errors of the event store. A VersionConflict is an expected outcome (a stale writer), not a fault."""

from __future__ import annotations


class StoreError(Exception):
    """The store could not do what was asked (the message says why); nothing was written."""


class VersionConflict(StoreError):
    """The stream's version was not the one the writer expected: the append wrote NOTHING.

    The writer re-reads the stream from `expected + 1` (or up to `actual`) and decides again.
    """

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, not the expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VersionConflict) and (
            (self.stream_id, self.expected, self.actual) == (other.stream_id, other.expected, other.actual)
        )

    def __hash__(self) -> int:
        return hash((self.stream_id, self.expected, self.actual))

    def __reduce__(self):  # keep it picklable despite the 3-argument constructor
        return (VersionConflict, (self.stream_id, self.expected, self.actual))
