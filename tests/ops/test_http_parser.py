"""The server parses HTTP (and every websocket's handshake) with httptools, uvicorn's C parser.

`arena serve` leaves uvicorn's HTTP implementation on "auto", which takes httptools when it can be imported
and falls back to h11, a parser written in Python, silently. Measured (issue 35): a plain GET cost 350 us of
server CPU under h11 and 210 us under httptools. This fails if the dependency goes missing from an install.
"""

from __future__ import annotations

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


async def _app(scope, receive, send) -> None:  # never called: only the protocol is chosen
    raise AssertionError("not served")


def test_uvicorn_on_auto_parses_http_with_httptools_not_h11() -> None:
    config = uvicorn.Config(_app, http="auto", lifespan="off", log_config=None)
    config.load()
    assert config.http_protocol_class is HttpToolsProtocol
