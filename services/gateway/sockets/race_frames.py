"""The race room's frames, and the race service's feed that encodes each change once for every socket.

A change is encoded by the process that made it and the same bytes go to every race socket: this
process's straight away (fanout.local), other processes' through Redis pub/sub (the fan-out's
publish queue, which never waits in the move path).
"""

from __future__ import annotations

import msgspec

from ...races.progress import RacerProgress
from ...races.view import RaceView
from ...store.keys import race_channel, racer_channel
from ..links.fanout import Fanout
from .game_socket import published
from .messages import S2C, ErrorS2C, PongS2C, encode_s2c


class RaceSnapshotS2C(S2C, tag="s2c.race_snapshot", frozen=True):
    """The first frame: who you are in this race and the race as it is (then s2c.race_progress per racer)."""

    race_id: str
    role: str  # racer | spectator
    version: int
    race: RaceView
    now_ms: int  # the server's clock as it sent this: a client counts start_at_ms and deadline_ms down by it


class RaceS2C(S2C, tag="s2c.race", frozen=True):
    """The race changed: its whole public view at the race log's version."""

    race_id: str
    version: int
    race: RaceView


class RaceProgressS2C(S2C, tag="s2c.race_progress", frozen=True):
    """One racer's progress at their game's version: counts and a status, never a card."""

    race_id: str
    player: str
    version: int
    status: str  # in_play, won, stuck, resigned
    moves: int
    cards_left: int
    cards_home: int
    elapsed_ms: int | None


def progress_frame(race_id: str, p: RacerProgress) -> bytes:
    return encode_s2c(
        RaceProgressS2C(race_id, p.player, p.version, p.status, p.moves, p.cards_left, p.cards_home, p.elapsed_ms)
    )


def race_frame(view: RaceView) -> bytes:
    return encode_s2c(RaceS2C(view.race_id, view.version, view))


class RaceFanout:
    """The race service's RaceFeed: each change encoded once, to this process's sockets and to the others."""

    def __init__(self, fanout: Fanout) -> None:
        self.fanout = fanout

    def _send(self, channel: str, version: int, frame: bytes) -> None:
        self.fanout.queue_publish(channel, published(version, frame))
        self.fanout.local.deliver(channel, version, frame)

    def race_changed(self, view: RaceView) -> None:
        self._send(race_channel(view.race_id), view.version, race_frame(view))

    def progress(self, race_id: str, progress: RacerProgress) -> None:
        self._send(racer_channel(race_id, progress.player), progress.version, progress_frame(race_id, progress))


race_s2c_decoder = msgspec.json.Decoder(RaceSnapshotS2C | RaceS2C | RaceProgressS2C | ErrorS2C | PongS2C)
__all__ = ["RaceFanout", "RaceProgressS2C", "RaceS2C", "RaceSnapshotS2C", "progress_frame", "race_frame"]
