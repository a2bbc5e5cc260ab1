"""A game socket's data frames sent through the server's own ASGI send, past the per-message wrappers.

Between uvicorn and a handler every layer wraps `send` in a coroutine of its own: Litestar's exception
middleware (app and route level), the request log, the metrics middleware, the connection's "disconnected?"
check. For a `websocket.send` message each of them only passes it on (they act on `http.response.start`
and `websocket.close`), yet a frame pays an await through each: the move path's second-largest cost
after the socket write itself. So the outermost layer notes the server's send in the scope, and a game
socket's data frames go straight to it after the same disconnected check the connection makes.

The accept, every close and every error still take the wrapped path: the request log notes the close
code, the exception middleware turns an error in a handler into a close as before. `before_send` hooks,
should the app get any, run on both paths (Litestar applies them before this layer sees `send`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import cast

from litestar import WebSocket
from litestar.connection.websocket import DISCONNECT_MESSAGE
from litestar.exceptions import WebSocketDisconnect
from litestar.types import ASGIApp, Receive, Scope, Send, WebSocketSendEvent

RAW_SEND = "arena.raw_send"  # the scope key: the send the app was called with, hooks applied


def text_event(frame: bytes) -> WebSocketSendEvent:
    """A `websocket.send` message of a frame as text (a cast: the ASGI type lists `bytes` too)."""
    return cast("WebSocketSendEvent", {"type": "websocket.send", "text": frame.decode()})


def frame_of(message: Mapping[str, object]) -> str | bytes:
    """A received `websocket.receive` message's frame: its text, else its bytes (b"" for neither)."""
    text = message.get("text")
    if isinstance(text, str) and text:
        return text
    data = message.get("bytes")
    return data if isinstance(data, bytes) else b""


def keep_raw_send(handler: ASGIApp) -> ASGIApp:
    """Wrap the app's ASGI handler (its outermost layer) to note each websocket's send in its scope."""

    async def noting(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send  # type: ignore[literal-required]  # our own key in the ASGI scope
        await handler(scope, receive, send)

    return noting


def text_sender(socket: WebSocket) -> Callable[[bytes], Awaitable[None]]:
    """Send one UTF-8 JSON frame as a text message: through the noted send when there is one."""
    raw: Send | None = socket.scope.get(RAW_SEND)  # type: ignore[assignment]  # our own key: the send noted above
    if raw is None:  # an app built without keep_raw_send: the wrapped path, same frames
        wrapped = socket.send

        async def send_wrapped(frame: bytes) -> None:
            await wrapped(text_event(frame))

        return send_wrapped

    async def send(frame: bytes) -> None:
        if socket.connection_state == "disconnect":  # what the connection's own wrapper raises
            raise WebSocketDisconnect(detail=DISCONNECT_MESSAGE)
        await raw(text_event(frame))

    return send
