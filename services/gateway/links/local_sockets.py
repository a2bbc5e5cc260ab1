"""The sockets of this process, by game channel: an update made here reaches them without Redis."""

from __future__ import annotations

from typing import Protocol


class UpdateSink(Protocol):
    def push(self, version: int, frame: bytes) -> None: ...


class LocalSockets:
    def __init__(self) -> None:
        self._by_channel: dict[str, set[UpdateSink]] = {}

    def add(self, channel: str, sink: UpdateSink) -> None:
        self._by_channel.setdefault(channel, set()).add(sink)

    def discard(self, channel: str, sink: UpdateSink) -> None:
        sinks = self._by_channel.get(channel)
        if sinks is not None:
            sinks.discard(sink)
            if not sinks:
                del self._by_channel[channel]  # no entry per game ever watched: memory stays with the sockets

    def waiting(self) -> int:
        """Updates queued in the sockets' outboxes, not yet sent."""
        return sum(len(getattr(sink, "outbox", None) or ()) for sinks in self._by_channel.values() for sink in sinks)

    def watching(self, channel: str) -> bool:
        return channel in self._by_channel

    def channels(self) -> list[str]:
        return list(self._by_channel)

    def deliver(self, channel: str, version: int, frame: bytes, skip: UpdateSink | None = None) -> None:
        for sink in tuple(self._by_channel.get(channel, ())):
            if sink is not skip:
                sink.push(version, frame)

    def deliver_published(self, channel: str, data: bytes) -> None:
        """A message from another process: "<origin> <version>\\n<frame>"; the same bytes to every socket."""
        header, _, frame = data.partition(b"\n")
        _, _, version = header.rpartition(b" ")
        if version.isdigit():  # else not one of ours: only gateways publish on game channels
            self.deliver(channel, int(version), frame)
