"""A game socket's data frames take the server's own send (noted by the app's outermost layer), past the
per-message wrappers, and still refuse a disconnected socket as the connection's own wrapper does."""

from __future__ import annotations

import pytest
from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect

from services.gateway import create_app
from services.gateway.sockets.raw_send import RAW_SEND, keep_raw_send, text_sender
from services.runtime.settings import Settings


class Recorder:
    def __init__(self) -> None:
        self.messages: list[dict] = []

    async def __call__(self, message: dict) -> None:
        self.messages.append(message)


async def _socket_through(middleware_send: Recorder, server_send: Recorder) -> WebSocket:
    """A websocket as a handler sees it: its send is a middleware's wrapper around the server's send."""
    seen: dict = {}

    async def handler(scope, receive, send):
        seen["scope"] = scope

    await keep_raw_send(handler)({"type": "websocket", "path": "/ws/games/x"}, None, server_send)
    return WebSocket(seen["scope"], receive=None, send=middleware_send)


async def test_data_frames_go_to_the_server_send_and_closes_keep_the_wrapped_path():
    middleware, server = Recorder(), Recorder()
    socket = await _socket_through(middleware, server)
    await text_sender(socket)(b'{"type": "s2c.pong"}')
    assert server.messages == [{"type": "websocket.send", "text": '{"type": "s2c.pong"}'}]
    assert middleware.messages == []
    await socket.close(4404, "no such game")  # a close still passes every layer (the request log notes it)
    assert middleware.messages[-1]["type"] == "websocket.close" and len(server.messages) == 1


async def test_a_disconnected_socket_refuses_a_frame_on_the_short_path_too():
    middleware, server = Recorder(), Recorder()
    socket = await _socket_through(middleware, server)
    socket.connection_state = "disconnect"
    with pytest.raises(WebSocketDisconnect):
        await text_sender(socket)(b"{}")
    assert server.messages == middleware.messages == []


async def test_without_the_noted_send_frames_take_the_wrapped_path():
    middleware = Recorder()
    socket = WebSocket({"type": "websocket", "path": "/ws/games/x"}, receive=None, send=middleware)
    assert RAW_SEND not in socket.scope
    await text_sender(socket)(b"{}")
    assert middleware.messages == [{"type": "websocket.send", "text": "{}"}]


def test_the_app_notes_the_send_at_its_outermost_layer(tmp_path):
    # (Built, never started: the Redis it names is not connected to before the lifespan.)
    app = create_app(Settings(redis_url="redis://127.0.0.1:1", data_dir=tmp_path, secret="raw-send-test"))
    assert app.asgi_handler.__qualname__.startswith("keep_raw_send")
