"""A game's variant options as plain data, read from its msgspec variant Struct, and named presets.

The Struct is the one source of truth: its field types and msgspec.Meta constraints (Literal
choices, ge/le ranges, null allowed) both validate a player's variant and describe it to menus and
tools through the catalogue, so the two can never disagree.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi
from msgspec import Struct

Value = int | str | None


class VariantField(Struct, frozen=True):
    """One option of a variant: what values it takes and which one applies when it is left out."""

    name: str
    title: str
    type: str  # "int" or "str"
    default: Value
    nullable: bool = False  # null is allowed (what it means is in the description)
    choices: tuple[int | str, ...] | None = None  # the only values allowed, when the type lists them
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""

    def allowed(self) -> str:
        """The allowed values in words: '1, 2 or 4', '8 to 13', '0 or more', each ', or null' if so."""
        if self.choices is not None:
            words = [_json(choice) for choice in self.choices]
            text = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
        elif self.minimum is not None and self.maximum is not None:
            text = f"{self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text = f"{self.minimum} or more"
        elif self.maximum is not None:
            text = f"at most {self.maximum}"
        else:
            text = "a whole number" if self.type == "int" else "a string"
        return f"{text}, or null" if self.nullable else text


class Preset(Struct, frozen=True):
    """A named variant a menu offers, e.g. Spider's "2 suits" = {"suits": 2}."""

    id: str
    title: str
    variant: dict[str, Value]


def preset(title: str, variant: Struct, id: str | None = None) -> Preset:
    """A preset from a variant Struct; its id defaults to the title in lower case with dashes."""
    slug = id or re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return Preset(slug, title, msgspec.structs.asdict(variant))


@cache  # the catalogue asks on every request; a Struct's fields never change
def variant_fields(variant_type: type[Struct]) -> tuple[VariantField, ...]:
    info = mi.type_info(variant_type)
    assert isinstance(info, mi.StructType), variant_type
    return tuple(_field(field) for field in info.fields)


def _field(field: mi.Field) -> VariantField:
    kind, meta = field.type, dict[str, Any]()  # Any: a Meta's JSON-schema extras
    if isinstance(kind, mi.Metadata):
        meta = kind.extra_json_schema or {}
        kind = kind.type
    nullable = False
    if isinstance(kind, mi.UnionType):
        others = [t for t in kind.types if not isinstance(t, mi.NoneType)]
        if len(others) != 1:
            raise TypeError(f"variant field {field.name}: only `X | None` unions are described")
        kind, nullable = others[0], True
    if isinstance(kind, mi.Metadata):  # Annotated[int, Meta(ge=0)] | None
        kind = kind.type
    common = {
        "name": field.name, "title": meta.get("title", field.name.replace("_", " ").capitalize()),
        "default": None if field.default is msgspec.NODEFAULT else field.default,
        "nullable": nullable, "description": meta.get("description", ""),
    }
    if isinstance(kind, mi.LiteralType):
        types = {type(value) for value in kind.values}
        choices = tuple(value for value in kind.values if isinstance(value, int | str))  # a variant's Literals: ints or strs
        return VariantField(type="int" if types == {int} else "str", choices=choices, **common)
    if isinstance(kind, mi.IntType):
        low = kind.ge if kind.gt is None else kind.gt + 1
        high = kind.le if kind.lt is None else kind.lt - 1
        return VariantField(type="int", minimum=low, maximum=high, **common)
    if isinstance(kind, mi.StrType):
        return VariantField(type="str", **common)
    raise TypeError(f"variant field {field.name}: type {kind} is not described (use int, str or Literal)")


_AT_FIELD = re.compile(r"at `\$\.(\w+)`$")


def variant_problem(error: msgspec.ValidationError, raw: Any, fields: tuple[VariantField, ...]) -> str:  # Any: the client's JSON
    """msgspec's complaint in the variant's own words: 'piles must be 8 to 13, not 7'."""
    found = _AT_FIELD.search(str(error))
    field = next((f for f in fields if found and f.name == found.group(1)), None)
    if field is None or not isinstance(raw, dict) or field.name not in raw:
        return str(error)  # an unknown field or not an object: msgspec says it plainly already
    return f"{field.name} must be {field.allowed()}, not {_json(raw[field.name])}"


def _json(value: Any) -> str:  # Any: any JSON value
    try:
        return msgspec.json.encode(value).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(value)
