"""HTTP request bodies, decoded strictly by msgspec into their command type, every failure a 400.

Litestar's own body parsing coerces (`"seed": "7"` became 7) and lets msgspec's RecursionError on very
deeply nested JSON escape as a 500; decoding here gives one strict path and one error shape.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from ..errors import ApiError
from ..guards.json_numbers import whole_numbers

__all__ = ["decode_body", "whole_numbers"]

T = TypeVar("T")


def decode_body(body: bytes, decoder: msgspec.json.Decoder[T]) -> T:
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        fitted = _with_whole_numbers(body, decoder.type)
        if fitted is None:
            raise ApiError(400, "bad_body", f"the body does not fit: {exc}") from None
        return fitted
    except msgspec.DecodeError as exc:
        raise ApiError(400, "bad_json", f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "bad_json", "the body is not JSON this server reads: nested too deeply") from None


def _with_whole_numbers(body: bytes, command_type: Any) -> Any:  # Any: any request Struct type, and its instance
    """The body again with 7.0 read as 7 (see whole_numbers), strictly as before otherwise; None if it still
    does not fit (the caller reports the first error)."""
    try:
        return msgspec.convert(whole_numbers(msgspec.json.decode(body)), command_type)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return None
