"""HTTP request bodies, decoded strictly by msgspec into their command type, every failure a 400.

Litestar's own body parsing coerces (`"seed": "7"` became 7) and lets msgspec's RecursionError on very
deeply nested JSON escape as a 500; decoding here gives one strict path and one error shape.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from .errors import ApiError

T = TypeVar("T")


def decode_body(body: bytes, decoder: msgspec.json.Decoder[T]) -> T:
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        raise ApiError(400, "bad_body", f"the body does not fit: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ApiError(400, "bad_json", f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "bad_json", "the body is not JSON this server reads: nested too deeply") from None


def whole_numbers(value: Any) -> Any:
    """JSON has one number type: by JSON Schema's rule (the API's schema is one) a number with no fraction,
    7.0, is the integer 7. Integral floats become ints, in a dict's values too; any other value is kept as it
    is (a fraction stays a float, for the command's own check to refuse)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    return value
