"""How the gateway reads JSON's one number type, for HTTP bodies and socket frames alike."""

from __future__ import annotations

from typing import Any


def whole_numbers(value: Any) -> Any:  # Any: any value, as its caller has it
    """JSON has one number type: by JSON Schema's rule (the API's schema is one) a number with no fraction,
    7.0, is the integer 7. Integral floats become ints, inside dicts and lists too; any other value is kept as
    it is (a fraction stays a float, for the command's own check to refuse)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value
