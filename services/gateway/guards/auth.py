"""Who is asking: the bearer token of an HTTP request, the one-use ticket of a socket.

HTTP sends `Authorization: Bearer <token>`. A socket cannot send headers from a browser, and a URL
ends up in access logs, proxies and console errors, so a socket never carries the token: it connects
with `?ticket=<ticket>` from POST /api/tickets, and a `?token=` is refused outright.
"""

from __future__ import annotations

from litestar import Request, WebSocket
from litestar.di import NamedDependency

from ...identity.tokens import TokenClaims, TokenRefused
from ...runtime.logging import bind_ids
from ...identity.sessions import Sessions
from ..errors import ApiError
from .overload import UNAVAILABLE_ERRORS, warnings
from ..sockets.messages import CLOSE_UNAUTHORIZED, ErrorS2C, encode_s2c

CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": a client reconnects (with a new ticket)


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def current_claims(request: Request, sessions: NamedDependency[Sessions]) -> TokenClaims:
    """The checked claims of the request's token; 401 with the reason's code without a good one."""
    try:
        checked = await sessions.check(bearer_token(request))
    except UNAVAILABLE_ERRORS as exc:
        warnings.warn("HTTP requests", exc)
        raise ApiError(503, "unavailable", f"the session store did not answer: {exc}") from exc
    if isinstance(checked, TokenRefused):
        raise ApiError(401, checked.code, checked.message)
    return checked


async def current_player(claims: NamedDependency[TokenClaims]) -> str:
    bind_ids(player_id=claims.player_id)  # every log line of this request names its player
    return claims.player_id


async def _refuse(socket: WebSocket, code: str, message: str, close_code: int = CLOSE_UNAUTHORIZED) -> None:
    # Accepted first so a browser can read why: a refused handshake shows no reason.
    await socket.send_text(encode_s2c(ErrorS2C(code, message)).decode())
    await socket.close(close_code, code)


async def socket_player(socket: WebSocket, sessions: Sessions) -> str | None:
    """The player an accepted socket's ticket stands for; None once it was told why not and closed."""
    query = socket.query_params
    if "token" in query:
        await _refuse(socket, "token_in_url", "a token never goes in a URL (logs keep URLs): POST /api/tickets "
                      "with `Authorization: Bearer <token>` and connect with ?ticket=<ticket>")
        return None
    ticket = query.get("ticket")
    if not ticket:
        await _refuse(socket, "unauthorized", "connect with ?ticket=<ticket> (POST /api/tickets makes one)")
        return None
    try:
        found = await sessions.redeem(ticket)
    except UNAVAILABLE_ERRORS as exc:
        warnings.warn("a socket's ticket", exc)
        await _refuse(socket, "unavailable", f"the session store did not answer: {exc}", CLOSE_TRY_AGAIN)
        return None
    if isinstance(found, TokenRefused):
        await _refuse(socket, found.code, found.message)
        return None
    return found
