"""The leaderboard room: `/ws/dailies/{date}/{game}/{variant}` pushes a challenge's board changes.

Anyone may watch (a leaderboard is public; it never holds a card). On connect the socket gets the
board's current counts and version; after that one `s2c.board` per change, with the version the
tournaments service stepped, so a client that sees a gap reads the page again over HTTP. Changes made
through other gateway processes arrive over the same fan-out as game updates. Decides nothing.
"""

from __future__ import annotations

import msgspec
from litestar import WebSocket, websocket
from litestar.di import NamedDependency
from litestar.params import FromPath

from ...store.keys import board_channel
from ...tournaments.service import TournamentService
from ..links.fanout import Fanout
from .game_socket import published
from .messages import BoardS2C, ErrorS2C, PingC2S, PongS2C, decode_c2s, encode_s2c
from ..guards.overload import UNAVAILABLE_ERRORS
from .pushes import VersionedPushes
from .raw_send import frame_of, text_event

OUTBOX_LIMIT = 64


async def board_frame(tournaments: TournamentService, challenge: str, version: int) -> bytes:
    counts = msgspec.to_builtins(await tournaments.board.counts(challenge))
    return encode_s2c(BoardS2C(challenge, version, counts))


def announcer(fanout: Fanout, tournaments: TournamentService):
    """The tournaments service's `board_changed`: the new board frame to this process's watchers and
    (through Redis) every other process's."""
    async def announce(challenge: str, version: int) -> None:
        frame = await board_frame(tournaments, challenge, version)
        channel = board_channel(challenge)
        fanout.queue_publish(channel, published(version, frame))
        fanout.local.deliver(channel, version, frame)
    return announce


class BoardSocket(VersionedPushes):
    outbox_limit = OUTBOX_LIMIT

    def __init__(self, socket: WebSocket, fanout: Fanout, tournaments: TournamentService, challenge: str) -> None:
        super().__init__()
        self.socket, self.fanout, self.tournaments, self.challenge = socket, fanout, tournaments, challenge
        self.channel = board_channel(challenge)

    async def send(self, frame: bytes) -> None:
        await self.socket.send(text_event(frame))

    async def send_current(self) -> None:
        await self.fanout.ready(self.channel)
        version = await self.tournaments.board_version(self.challenge)
        if version > self.sent_version:
            self.sent_version = version
            await self.send(await board_frame(self.tournaments, self.challenge, version))

    async def run(self) -> None:
        self.fanout.watch(self.channel, self)
        try:
            await self._answer(self.send_current)
            while True:
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                frame = decode_c2s(frame_of(message))
                if isinstance(frame, ErrorS2C):
                    await self.send(encode_s2c(frame))
                elif isinstance(frame, PingC2S):
                    await self.send(encode_s2c(PongS2C()))
                else:  # c2s.sync: the current board again (a move means nothing here)
                    await self._answer(self.send_current)
        finally:
            self.fanout.unwatch(self.channel, self)
            self.stop_pushing()

    async def _answer(self, step) -> None:
        try:
            await step()
        except UNAVAILABLE_ERRORS as exc:
            await self.send(encode_s2c(ErrorS2C("unavailable", f"the leaderboard did not answer: {exc}")))


@websocket("/ws/dailies/{date:str}/{game:str}/{variant:str}")
async def board_socket(
    socket: WebSocket, date: FromPath[str], game: FromPath[str], variant: FromPath[str],
    fanout: NamedDependency[Fanout], tournaments: NamedDependency[TournamentService],
) -> None:
    await socket.accept()
    await BoardSocket(socket, fanout, tournaments, f"{date}/{game}/{variant}").run()
