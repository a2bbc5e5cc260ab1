"""The socket side of `arena play`: one game socket that reopens itself, and the stdin lines.

Frames from the socket and lines from stdin each arrive on their own queue; the session waits for
whichever comes first. A dropped socket is reopened with backoff, its first frame (the snapshot)
taken in, and c2s.sync sent with the version the client had, as the protocol asks after a gap.
Every (re)connect asks the server for a new one-use ticket first (`url()`): a token never goes in a URL.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from typing import Any
from collections.abc import Callable

from websockets.exceptions import ConnectionClosed, WebSocketException

from .play_api import PlayError, Unauthorized

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13 has only the legacy client, with the same calls used here
    from websockets.client import connect  # type: ignore[no-redef,attr-defined]  # the legacy module, typed apart

FIRST_FRAME_TIMEOUT = 15.0
BUSY_BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0)  # c2s.sync again after `unavailable`, then give up
# What a failed (re)connection raises; anything else is a bug and should show as one.
CONNECT_ERRORS = (OSError, WebSocketException, asyncio.TimeoutError, ValueError)

Frame = dict[str, Any]  # Any: JSON


def _read_stdin(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue) -> None:
    """A daemon thread: reading stdin blocks, and a blocked daemon thread never holds up the exit."""
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line)
    loop.call_soon_threadsafe(lines.put_nowait, None)  # end of input: leave like `quit`


class GameLink:
    """`absorb(frame)` sees every frame first (it may raise PlayError to end the session);
    `version()` is the version the client shows, sent in c2s.sync after a reconnect."""

    def __init__(
        self,
        url: Callable[[], str],
        where: str,
        absorb: Callable[[Frame], None],
        version: Callable[[], int],
        say: Callable[[str], None],
        reconnect_seconds: float,
    ) -> None:
        self.url, self.where, self.absorb, self.version, self.say = url, where, absorb, version, say
        self.reconnect_seconds = reconnect_seconds
        self.socket: Any = None  # Any: the client's connection class differs between websockets' two clients
        self.pump: asyncio.Task | None = None
        self.generation = 0  # which socket a frame or a drop came from; a new one asks moves again
        self.frames: asyncio.Queue = asyncio.Queue()
        self.lines: asyncio.Queue = asyncio.Queue()
        self.frame_task: asyncio.Task | None = None
        self.line_task: asyncio.Task | None = None

    def read_stdin(self) -> None:
        loop = asyncio.get_running_loop()
        threading.Thread(target=_read_stdin, args=(loop, self.lines), daemon=True).start()

    async def open(self) -> None:
        """Open a socket and take in its first frame: the snapshot, or the error that forbids it. A server too
        busy for the snapshot answers `unavailable`: an open socket asks again with c2s.sync, backing off; a
        socket it closed "try again later" (its ticket could not be checked) is opened again with a new one."""
        for delay in (0, *BUSY_BACKOFF):
            if delay:
                await asyncio.sleep(delay)
            opened = await self._open_once()
            if opened is not None:
                socket, frame = opened
                break
        else:
            raise PlayError("the server stayed too busy to show the game")
        self.absorb(frame)
        self.generation += 1
        self.socket = socket
        self.pump = asyncio.create_task(self._read_frames(socket, self.generation))

    async def _open_once(self):
        """(socket, first frame), or None when the server closed it as too busy (then try again)."""
        url = await asyncio.to_thread(self.url)  # HTTP for the ticket: urllib blocks, so not on the loop
        socket = await connect(url, open_timeout=5, close_timeout=2)
        try:
            frame = json.loads(await asyncio.wait_for(socket.recv(), FIRST_FRAME_TIMEOUT))
            for delay in BUSY_BACKOFF:
                if frame.get("type") == "s2c.snapshot" or frame.get("code") != "unavailable":
                    break
                self.say(f"The server is busy ({frame.get('message')}); asking again in {delay:g} s.")
                await asyncio.sleep(delay)
                await socket.send(json.dumps({"type": "c2s.sync", "version": max(self.version(), 0)}))
                frame = json.loads(await asyncio.wait_for(socket.recv(), FIRST_FRAME_TIMEOUT))
            if frame.get("code") == "unavailable":
                raise PlayError(f"the server stayed too busy to show the game: {frame.get('message')}")
            return socket, frame
        except ConnectionClosed:
            await socket.close()
            return None
        except BaseException:
            await socket.close()
            raise

    async def _read_frames(self, socket, generation: int) -> None:
        try:
            async for raw in socket:
                self.frames.put_nowait(("frame", generation, json.loads(raw)))
        except (ConnectionClosed, ValueError):  # closed, or not JSON: either way reopen it
            pass
        self.frames.put_nowait(("dropped", generation, None))

    async def drop(self) -> None:
        """Close the socket on purpose (it stopped answering); the reader then reopens it."""
        if self.socket is not None:
            await self.socket.close()

    async def close(self) -> None:
        for task in (self.frame_task, self.line_task, self.pump):
            if task is not None:
                task.cancel()
        await self.drop()

    async def reconnect(self) -> None:
        self.say("Connection lost; reconnecting ...")
        had = max(self.version(), 0)
        deadline = time.monotonic() + self.reconnect_seconds
        delay = 0.2
        while True:
            try:
                await self.open()
                break
            except Unauthorized:
                raise  # the token was signed out or expired: reconnecting cannot help
            except (*CONNECT_ERRORS, PlayError):  # PlayError: no ticket now (server away, busy, 503)
                if time.monotonic() + delay > deadline:
                    raise PlayError(
                        f"lost the connection and could not reconnect within {self.reconnect_seconds:g} s"
                    ) from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
        await self.send({"type": "c2s.sync", "version": had})
        self.say(f"Reconnected at version {self.version()}.")

    async def send(self, frame: Frame) -> None:
        try:
            await self.socket.send(json.dumps(frame))
        except ConnectionClosed:
            pass  # the reader sees the drop too; the next frame waited for reopens the socket

    async def _next_frame(self) -> Frame:
        """The next frame of the current socket, reopening it as often as it drops."""
        while True:
            kind, generation, frame = await self.frames.get()
            if generation != self.generation:
                continue  # from a socket already replaced
            if kind == "dropped":
                await self.reconnect()
                continue
            self.absorb(frame)
            delta = frame.get("delta")
            if delta is not None and self.version() < delta["version"]:
                # A change to a version this client does not hold (it missed one): ask for the whole game.
                await self.send({"type": "c2s.sync", "version": max(self.version(), 0)})
            return frame

    async def frame(self, timeout: float | None = None) -> Frame | None:
        """The next frame, or None after `timeout`. One long-lived task serves both this and
        line_or_frame, so giving up on a wait never cuts a reconnect short or loses a frame."""
        if self.frame_task is None:
            self.frame_task = asyncio.ensure_future(self._next_frame())
        done, _ = await asyncio.wait({self.frame_task}, timeout=timeout)
        if not done:
            return None
        task, self.frame_task = self.frame_task, None
        return task.result()

    async def line_or_frame(self) -> tuple[str | None, Frame | None]:
        """Whichever comes first: a typed line (None at the end of input) or a server frame."""
        if self.line_task is None:
            self.line_task = asyncio.ensure_future(self.lines.get())
        if self.frame_task is None:
            self.frame_task = asyncio.ensure_future(self._next_frame())
        await asyncio.wait({self.line_task, self.frame_task}, return_when=asyncio.FIRST_COMPLETED)
        if self.frame_task.done():
            return "", await self.frame(0)
        task, self.line_task = self.line_task, None
        return task.result(), None

    @property
    def waiting_for_line(self) -> bool:
        return self.line_task is not None
