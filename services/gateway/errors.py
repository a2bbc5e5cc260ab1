"""HTTP errors as `{"code", "message"}` bodies, the same shape as the socket's s2c.error.

When Redis cannot keep up (its pool has no connection free in time, it is away, the store fails) a request
gets 503 `unavailable` with Retry-After: an answer the client can act on, never a 500. Litestar's own refusals
(no such route, a method the path does not take, a parameter that does not parse) have the same shape, so
one schema describes every error (api_docs.py). A browser asking for an unknown page, outside the
API, gets a friendly HTML page instead (static_pages.py).
"""

from __future__ import annotations

from litestar import Request, Response
from litestar.exceptions import HTTPException
from msgspec import Struct

from .guards.overload import RETRY_AFTER_SECONDS, cause_of, warnings
from .routes.static_pages import is_page_request, not_found_page


class ErrorBody(Struct, frozen=True):
    code: str
    message: str


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def api_error_response(_: Request, exc: ApiError) -> Response[ErrorBody]:
    # Every 503 says when to come back, whichever route raised it.
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if exc.status == 503 else None
    return Response(ErrorBody(exc.code, exc.message), status_code=exc.status, headers=headers)


def unavailable_response(request: Request, exc: Exception) -> Response[ErrorBody]:
    warnings.warn("HTTP requests", exc)
    body = ErrorBody("unavailable", f"the game store cannot answer now, try again shortly ({cause_of(exc)})")
    return Response(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "too_large"}


def http_error_response(request: Request, exc: HTTPException) -> Response:
    """Litestar's refusals as {code, message}; their headers kept (a 405 says Allow). An unknown page
    (not an API URL) gets the client's friendly 404 page instead (static_pages.py)."""
    if exc.status_code == 404 and is_page_request(request):
        page = not_found_page()
        if page is not None:
            return page
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return Response(ErrorBody(code, _with_reasons(exc)), status_code=exc.status_code, headers=exc.headers)


def _with_reasons(exc: HTTPException) -> str:
    """The refusal and, for a parameter Litestar's validation refused, which one and why: "Validation
    failed for GET /x: ids (query): Expected `str` matching regex ..."."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    reasons = [f"{item.get('key')} ({getattr(item.get('source'), 'value', item.get('source'))}): {item.get('message')}"
               for item in extra if isinstance(item, dict) and item.get("key")]
    return f"{exc.detail}: {'; '.join(reasons)}" if reasons else exc.detail
