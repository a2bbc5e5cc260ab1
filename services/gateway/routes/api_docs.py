"""What the OpenAPI document says that Litestar cannot read from the handlers themselves.

- Error responses: every route documents the statuses it may answer besides success, each with the
  `{"code", "message"}` body (ErrorBody) every error has, Litestar's own included (errors.py).
- Request bodies the routes decode by hand (bodies.py: strict msgspec, one error shape): Litestar sees no
  `data` parameter, so the body's schema is declared here, through a route's `operation_class`.
- Those bodies' schemas say what the server really takes: the create-game body is built from the engine's
  catalogue (each game with its own variant fields), a name and password from the accounts service's rules,
  so a body that fits the schema is one the server accepts (schemathesis checks it: tests/gateway).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIType, Operation, RequestBody, Schema

from engine import catalog

from ...races.commands import MAX_SEATS, MAX_TIME_LIMIT_MS, MIN_SEATS, MIN_TIME_LIMIT_MS
from ...tournaments.accounts import MAX_PASSWORD, MIN_PASSWORD, NAME, RESERVED
from ...tournaments.catalogue import CATALOGUE
from ..errors import ErrorBody

WHY = {
    400: "the request does not fit (a bad body, parameter or value): nothing changed",
    401: "no token, or a token that is expired, signed out or not ours",
    403: "not yours to see yet (a deal still secret)",
    404: "no such game, challenge or verdict",
    409: "refused in the current state (e.g. a name taken, an attempt not over)",
    429: "too many requests from this address: Retry-After says when to come back",
    503: "the game store cannot answer now: Retry-After says when to try again",
}
SEED_LIMIT = 2**64 - 1  # a seed is an unsigned 64-bit integer (the engine refuses any other)


def errors(*statuses: int) -> dict[int, ResponseSpec]:
    """The route's error responses; 503 is always among them (every route but /health reads Redis)."""
    return {
        status: ResponseSpec(ErrorBody, description=WHY[status], generate_examples=False)
        for status in sorted({*statuses, 503})
    }


def json_body(schema: dict[str, Any], description: str, *, required: bool = True) -> type[Operation]:  # Any: JSON
    """An operation class that documents a JSON body of `schema` (JSON Schema, as a dict)."""
    body = RequestBody(
        content={"application/json": OpenAPIMediaType(schema=to_openapi(schema))}, description=description,
        required=required,
    )

    @dataclass
    class WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = body

    return WithBody


def credentials_schema() -> dict[str, Any]:  # Any: JSON
    """A name and a password as the accounts service takes them (its own rules, not a looser copy)."""
    reserved = "|".join("".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)
                        for word in sorted(RESERVED))
    name = {"type": "string", "pattern": f"^{NAME.pattern}$", "not": {"pattern": f"^(?:{reserved})$"},
            "description": "3 to 20 letters (A-Z), digits, '_' or '-', starting with a letter or digit"}
    password = {"type": "string", "minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD}
    return {"type": "object", "properties": {"name": name, "password": password},
            "required": ["name", "password"], "additionalProperties": False}


def create_game_schema() -> dict[str, Any]:  # Any: JSON
    """One alternative per game: its id, and its variant as an object of the fields it takes (any left out
    takes its default; null means the default variant); the seed chooses a deal (practice, never ranked)."""
    seed = {"type": ["integer", "null"], "minimum": 0, "maximum": SEED_LIMIT}
    games = []
    for game in catalog().games:
        variant = {
            "type": ["object", "null"],
            "properties": {field.name: _field_schema(field) for field in game.variant_fields},
            "additionalProperties": False,
        }
        games.append({
            "type": "object", "title": game.title,
            "properties": {"game": {"const": game.id}, "variant": variant, "seed": seed},
            "required": ["game"], "additionalProperties": False,
        })
    return {"oneOf": games}


def create_race_schema() -> dict[str, Any]:  # Any: JSON
    """One alternative per game of the daily catalogue (races are run on those), its variant in full."""
    seats = {"type": "integer", "minimum": MIN_SEATS, "maximum": MAX_SEATS, "default": 4}
    limit = {"type": "integer", "minimum": MIN_TIME_LIMIT_MS, "maximum": MAX_TIME_LIMIT_MS,
             "description": "milliseconds; 15 minutes when left out"}
    defaults = {game.id: game.default_variant for game in catalog().games}
    entries = []
    for daily in CATALOGUE:
        # A field left out takes the game's default, so only the fields that differ from it must be named.
        differ = sorted(name for name, value in daily.variant.items() if defaults[daily.game].get(name) != value)
        variant: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": differ,  # Any: a variant's JSON values
                                   "properties": {name: {"enum": [value]} for name, value in daily.variant.items()}}  # (a const null would vanish)
        if not differ:
            variant = {"oneOf": [variant, {"type": "null"}]}
        entries.append({
            "type": "object", "title": daily.title,
            "properties": {"game": {"const": daily.game}, "variant": variant, "seats": seats, "time_limit_ms": limit},
            "required": ["game", "variant"] if differ else ["game"], "additionalProperties": False,
        })
    return {"oneOf": entries}


READY_SCHEMA = {"type": "object", "properties": {"ready": {"type": "boolean", "default": True}},
                "additionalProperties": False}


def _field_schema(field) -> dict[str, Any]:  # Any: JSON
    schema: dict[str, Any] = {"type": "integer" if field.type == "int" else "string"}  # Any: JSON
    if field.choices is not None:
        schema = {"enum": list(field.choices)}
    else:
        schema.update({key: value for key, value in (("minimum", field.minimum), ("maximum", field.maximum))
                       if value is not None})
    if field.nullable:
        schema = {"oneOf": [schema, {"type": "null"}]}
    return {**schema, "description": field.description or field.title}


_ALIASES = {f.metadata.get("alias", f.name): f.name for f in fields(Schema)}
_SCHEMA_VALUED = {"items", "additionalProperties", "not"}
_SCHEMA_LISTS = {"oneOf", "anyOf", "allOf", "prefixItems"}


def to_openapi(schema: dict[str, Any]) -> Schema:  # Any: JSON
    """A JSON Schema dict as Litestar's Schema objects (the document is made of those)."""
    values: dict[str, Any] = {}  # Any: JSON
    for key, value in schema.items():
        if key == "type":
            value = [OpenAPIType(t) for t in value] if isinstance(value, list) else OpenAPIType(value)
        elif key == "properties":
            value = {name: to_openapi(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS:
            value = [to_openapi(sub) for sub in value]
        elif key in _SCHEMA_VALUED and isinstance(value, dict):
            value = to_openapi(value)
        values[_ALIASES[key]] = value
    return Schema(**values)
