"""HTTP errors as `{"code", "message"}` bodies, the same shape as the socket's s2c.error."""

from __future__ import annotations

from litestar import Request, Response
from msgspec import Struct


class ErrorBody(Struct, frozen=True):
    code: str
    message: str


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def api_error_response(_: Request, exc: ApiError) -> Response[ErrorBody]:
    return Response(ErrorBody(exc.code, exc.message), status_code=exc.status)
