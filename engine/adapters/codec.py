"""JSON codec around the engine: intents in, views/events/states out. The rules never see JSON."""

from __future__ import annotations

from typing import Any

import msgspec

from ..errors import RuleError, rule_error
from ..events import AnyEvent
from ..intents import AnyIntent

BAD_INTENT = "bad_intent"
BAD_EVENT = "bad_event"


def intent_from(raw: Any) -> AnyIntent | RuleError:  # Any: the client's JSON
    """A client's move (already parsed JSON) as an engine intent, or a clear error."""
    try:
        intent: AnyIntent = msgspec.convert(raw, AnyIntent, strict=True)
        return intent
    except msgspec.ValidationError as exc:
        kinds = "pair {a,b}, move {src,dst,count}, deal, recycle, cast, luck {card,dst}, undo, resign"
        return rule_error(BAD_INTENT, f"not a move ({exc}); a move is one of: {kinds}")


def event_from(raw: Any) -> AnyEvent | RuleError:  # Any: the client's JSON
    try:
        event: AnyEvent = msgspec.convert(raw, AnyEvent, strict=True)
        return event
    except msgspec.ValidationError as exc:
        return rule_error(BAD_EVENT, f"not an engine event: {exc}")


def to_builtins(value: Any) -> Any:  # Any: msgspec's to_builtins takes any Struct, gives JSON builtins
    """Structs (views, events, states, errors) as plain JSON-ready Python values."""
    return msgspec.to_builtins(value)
