"""What every socket does with a client's frame before its own work: the frame budget, the size limit,
decoding, and the ping. The game socket and the race socket differ only in what a move or a sync means
to them; what is refused, and how, is one thing (lila-ws's socket layer: parse, rate-limit, answer)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...runtime.settings import Settings
from .messages import AnyC2S, ErrorS2C, PingC2S, PongS2C, decode_c2s, encode_s2c
from ..guards.rate_limit import TokenBucket


def frame_bytes_over(data: str | bytes, limit: int) -> bool:
    """Whether a frame is over `limit` bytes. A text frame counts its UTF-8 bytes, not its characters
    (up to 4 bytes each); only one that might be over is encoded to count."""
    if len(data) > limit:
        return True
    return isinstance(data, str) and len(data) * 4 > limit and len(data.encode()) > limit


class FrameAdmission:
    """A socket's gate for client frames. `admit` answers what it refuses (and pings) itself and hands
    back the frames the socket must act on."""

    def __init__(self, settings: Settings, send: Callable[[bytes], Awaitable[None]]) -> None:
        self.limit = settings.max_frame_bytes
        self.send = send
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.flooding = False

    async def admit(self, data: str | bytes) -> AnyC2S | None:
        if not self.bucket.take():
            if not self.flooding:  # one error per flood, not one per dropped frame
                self.flooding = True
                await self.send(encode_s2c(ErrorS2C("rate_limited", "too many frames; this one was dropped")))
            return None
        self.flooding = False
        if frame_bytes_over(data, self.limit):
            await self.send(encode_s2c(ErrorS2C("frame_too_big", f"frames are limited to {self.limit} bytes")))
            return None
        frame = decode_c2s(data)
        if isinstance(frame, ErrorS2C):
            await self.send(encode_s2c(frame))
            return None
        if isinstance(frame, PingC2S):
            await self.send(encode_s2c(PongS2C()))
            return None
        return frame
