"""One log line per HTTP request and two per websocket (opened, closed), with the ids bound for every
line logged meanwhile.

Litestar runs middleware after routing, so the path's game_id and race_id are known here; the player
id is bound by the token check (http.current_player, the game socket). The path is logged without its
query string: a websocket's token travels there. uvicorn's own access log is off (cli/serve.py) for the
same reason. The request id comes from an X-Request-ID header when it is a plain short word (a proxy's),
else it is made here; HTTP answers carry it back.
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from ...runtime.logging import bound_ids, get_logger

REQUEST_ID_HEADER = b"x-request-id"
GOOD_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
log = get_logger("arena.requests")


def request_id_of(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            text = value.decode("latin-1")
            if GOOD_REQUEST_ID.fullmatch(text):
                return text
    return secrets.token_hex(8)


def request_log_middleware(app: ASGIApp) -> ASGIApp:
    async def logged(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        params: dict[str, Any] = scope.get("path_params") or {}  # Any: JSON
        answer: dict[str, Any] = {"status": None}  # Any: JSON

        async def send_and_note(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), (REQUEST_ID_HEADER, request_id.encode())]}
            elif message["type"] == "websocket.close":
                answer["status"] = message.get("code", 1000)
            await send(message)

        started = time.perf_counter()
        # player_id=None: a value the token check binds later lasts until the end of this request only.
        with bound_ids(request_id=request_id, game_id=params.get("game_id"), race_id=params.get("race_id"),
                       player_id=None):
            socket = scope["type"] == "websocket"
            if socket:
                log.info("socket opened", path=scope["path"])
            try:
                await app(scope, receive, send_and_note)
            finally:
                log.info(
                    "socket closed" if socket else "request", method=scope.get("method", "WS"), path=scope["path"],
                    status=answer["status"], duration_ms=round((time.perf_counter() - started) * 1000, 2),
                )

    return logged
