"""The strict replay-file reader: the one place a replay file's bytes become a ReplayFile, or a refusal.

`arena verify`, the archive's reads (which the validator and every server read through) and the
tests all read files here, so they refuse the same files for the same reasons. A file is refused,
with one line that says why and a code from READ_REFUSALS, when it:

- is larger than MAX_BYTES (refused before anything is parsed), or is not UTF-8 JSON;
- nests arrays and objects deeper than MAX_DEPTH (measured before parsing, so no parser recurses);
- has a key twice in one object, a number with a fraction or exponent, NaN or Infinity, an integer
  of more than 20 digits, or a negative one;
- names a format this code does not know, or does not fit the schema (replay_format.py): a wrong
  JSON type (`true` is not `1`), an unknown or missing field, an id too long, a value out of range;
- is not exactly the document its own fields make (`canonical` of the decoded file differs from the
  one read): an entry with a field its type does not have, a `links` or variant written another way;
- has a variant that is not the game's canonical one (every field, defaults filled, right types).

Nothing here re-runs a game: that is verify_replay's (replay_file.py), on a file read here.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
from msgspec import Struct

import engine
from engine import RuleError

from .replay_format import (
    FORMAT_SIGNED, FORMATS, MAX_BYTES, MAX_DEPTH, MAX_DIGITS, U64_MAX, ReplayFile, canonical, document_of,
)

TOO_LARGE = "file_too_large"
NOT_JSON = "not_json"
TOO_DEEP = "too_deep"
DUPLICATE_KEY = "duplicate_key"
BAD_NUMBER = "bad_number"
UNKNOWN_FORMAT = "unknown_format"
BAD_FIELD = "bad_field"
NOT_CANONICAL = "not_canonical"
UNSIGNED_FORMAT_2 = "unsigned"
READ_REFUSALS = (TOO_LARGE, NOT_JSON, TOO_DEEP, DUPLICATE_KEY, BAD_NUMBER, UNKNOWN_FORMAT, BAD_FIELD,
                 NOT_CANONICAL, UNSIGNED_FORMAT_2)
MESSAGE_CHARS = 200  # a refusal is one short line whatever the file holds


class FileRefusal(Struct, frozen=True):
    code: str
    message: str


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_replay(data: bytes, *, allow_unsigned: bool = False, max_bytes: int | None = MAX_BYTES) -> ReplayFile | FileRefusal:
    """The replay file in `data`, or why it is refused. A format 2 file must carry its signature
    unless `allow_unsigned` (the archive's own objects, which a pointer's digest vouches for)."""
    try:
        return _read(data, allow_unsigned, max_bytes)
    except _Refused as refused:
        return FileRefusal(refused.code, _one_line(str(refused)))


def _read(data: bytes, allow_unsigned: bool, max_bytes: int | None) -> ReplayFile:
    if max_bytes is not None and len(data) > max_bytes:
        raise _Refused(TOO_LARGE, f"the file is {len(data):,} bytes; a replay file is at most {max_bytes:,}")
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise _Refused(TOO_DEEP, f"arrays and objects nest {depth} deep; a replay file nests at most {MAX_DEPTH}")
    tree = _parse(data)
    if not isinstance(tree, dict):
        raise _Refused(BAD_FIELD, "a replay file is a JSON object")
    form = tree.get("format")
    if type(form) is not int or form not in FORMATS:
        raise _Refused(UNKNOWN_FORMAT, f"format {_short(form)} is not one this reader knows ({', '.join(map(str, FORMATS))})")
    try:
        file = msgspec.convert(tree, ReplayFile, strict=True)
    except msgspec.ValidationError as exc:
        raise _Refused(BAD_FIELD, str(exc)) from None
    if form == FORMAT_SIGNED and file.signature is None and not allow_unsigned:
        raise _Refused(UNSIGNED_FORMAT_2, "a format 2 file is signed by its server: this one has no signature")
    if form != FORMAT_SIGNED and "signature" in tree:
        raise _Refused(BAD_FIELD, f"format {form} files carry no signature")
    rebuilt = document_of(file)
    if canonical(rebuilt) != canonical(tree):
        raise _Refused(NOT_CANONICAL, f"{_first_difference(tree, rebuilt, '$')}: not as its server writes it")
    _check_variant(file)
    return file


def _check_variant(file: ReplayFile) -> None:
    rules = engine.rules_for(file.game)
    if isinstance(rules, RuleError):
        raise _Refused(BAD_FIELD, f"$.game: {rules.message}")
    parsed = rules.parse_variant(file.variant)
    if isinstance(parsed, RuleError):
        raise _Refused(BAD_FIELD, f"$.variant: {parsed.message}")
    whole = msgspec.structs.asdict(parsed)
    if canonical(whole) != canonical(file.variant):
        raise _Refused(NOT_CANONICAL, f"$.variant: the canonical variant is {canonical(whole).decode()}, every field "
                                      "with its own type")


# Strings removed first, so a bracket inside one is not counted: what is left of the file is its
# structure. The pattern is the unrolled form of a JSON string, linear in its length.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _depth(data: bytes) -> int:
    deepest = depth = 0
    for byte in _STRING.sub(b"", data).translate(None, _NOT_BRACKETS):
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:  # Any: JSON
    found: dict[str, Any] = {}  # Any: JSON
    for key, value in pairs:
        if key in found:
            raise _Refused(DUPLICATE_KEY, f"the key {_short(key)} appears twice in one object")
        found[key] = value
    return found


def _integer(text: str) -> int:
    if text.startswith("-") or len(text) > MAX_DIGITS or int(text) > U64_MAX:
        raise _Refused(BAD_NUMBER, f"the integer {_short(text)} is outside 0 to 2**64 - 1")
    return int(text)


def _fraction(text: str) -> float:
    raise _Refused(BAD_NUMBER, f"the number {_short(text)} is not a whole number written as one")


def _constant(text: str) -> float:
    raise _Refused(BAD_NUMBER, f"{text} is not JSON a replay file may hold")


def _parse(data: bytes) -> Any:  # Any: any JSON
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Refused(NOT_JSON, f"not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_integer, parse_float=_fraction,
                          parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise _Refused(NOT_JSON, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # not reached past _depth; kept so no input can ever raise it out of here
        raise _Refused(TOO_DEEP, "nested too deep to read") from None


def _first_difference(given: Any, rebuilt: Any, path: str) -> str:  # Any: JSON trees
    """Where the document read differs from the one its fields make, for the refusal's one line."""
    if isinstance(given, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(given) | set(rebuilt)):
            if key not in rebuilt:
                return f"{path}: unknown field {_short(key)}"
            if key not in given:
                return f"{path}: missing field {_short(key)}"
            if canonical(given[key]) != canonical(rebuilt[key]):
                return _first_difference(given[key], rebuilt[key], f"{path}.{key}")
    if isinstance(given, list) and isinstance(rebuilt, list) and len(given) == len(rebuilt):
        for index, (one, other) in enumerate(zip(given, rebuilt)):
            if canonical(one) != canonical(other):
                return _first_difference(one, other, f"{path}[{index}]")
    return f"{path}: {_short(given)} is written {_short(rebuilt)}"


def _short(value: Any, chars: int = 40) -> str:  # Any: any value, as its caller has it
    text = value if isinstance(value, str) else json.dumps(value) if _small(value) else type(value).__name__
    text = repr(text) if isinstance(value, str) else text
    return text if len(text) <= chars else text[: chars - 3] + "..."


def _small(value: Any) -> bool:  # Any: any value, as its caller has it
    return not isinstance(value, dict | list) or len(canonical(value)) <= 200


def _one_line(message: str) -> str:
    line = " ".join(message.split())
    return line if len(line) <= MESSAGE_CHARS else line[: MESSAGE_CHARS - 3] + "..."
